"""portkit: move embedded Linux software to 64-bit and real-time targets, and prove it."""

__version__ = "0.1.0"

# The CRC32C library as a CPython extension, built by the same CMake build.
from portkit._crc32c import combine as crc32c_combine
from portkit._crc32c import crc32c
from portkit._crc32c import implementation as crc32c_implementation

__all__ = ["__version__", "crc32c", "crc32c_combine", "crc32c_implementation"]

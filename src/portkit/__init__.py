"""portkit: move embedded Linux software to 64-bit and real-time targets, and prove it."""

__version__ = "0.1.0"

"""portkit.crc32c (the CPython extension) against published vectors and the
peer packages google-crc32c and crc32c on random data."""

from __future__ import annotations

import array
import importlib
import os
import random
import threading
from types import ModuleType

import pytest

from portkit import crc32c

SIZES = [*range(0, 300), 511, 512, 513, 4095, 4096, 4097, 8191, 8192, 65536 + 3, (1 << 20) + 7]


def _peer(name: str) -> ModuleType:
    try:
        return importlib.import_module(name)
    except ImportError:
        if os.environ.get("CI"):
            pytest.fail(f"Python package for {name} is missing; the test extras must install it")
        pytest.skip(f"{name} is not installed")


@pytest.fixture(scope="module")
def google_crc32c() -> ModuleType:
    return _peer("google_crc32c")


@pytest.fixture(scope="module")
def icrar_crc32c() -> ModuleType:
    return _peer("crc32c")


def test_known_vectors() -> None:
    # RFC 3720 appendix B.4 (listed there in wire byte order) and the check value.
    assert crc32c(b"123456789") == 0xE3069283
    assert crc32c(b"") == 0
    assert crc32c(bytes(32)) == 0x8A9136AA
    assert crc32c(b"\xff" * 32) == 0x62A8AB43
    assert crc32c(bytes(range(32))) == 0x46DD794E
    assert crc32c(bytes(range(31, -1, -1))) == 0x113FDB5C


def test_extend_and_keywords() -> None:
    assert crc32c(b"56789", crc32c(b"1234")) == 0xE3069283
    assert crc32c(data=b"56789", crc=crc32c(b"1234")) == 0xE3069283
    assert crc32c(b"", 0xDEADBEEF) == 0xDEADBEEF


def test_matches_google_crc32c(google_crc32c: ModuleType) -> None:
    rng = random.Random(3720)
    for size in SIZES:
        data = rng.randbytes(size)
        assert crc32c(data) == google_crc32c.value(data), size
        start = rng.getrandbits(32)
        assert crc32c(data, start) == google_crc32c.extend(start, data), size


def test_matches_crc32c_package(icrar_crc32c: ModuleType) -> None:
    rng = random.Random(4960)
    for size in SIZES:
        data = rng.randbytes(size)
        assert crc32c(data) == icrar_crc32c.crc32c(data), size


def test_misaligned_views() -> None:
    rng = random.Random(7)
    blob = memoryview(rng.randbytes(5000))
    for offset in range(64):
        view = blob[offset : offset + 4000]
        assert crc32c(view) == crc32c(bytes(view)), offset


def test_any_buffer() -> None:
    data = random.Random(1).randbytes(4096)
    want = crc32c(data)
    assert crc32c(bytearray(data)) == want
    assert crc32c(memoryview(data)) == want
    assert crc32c(array.array("B", data)) == want


def test_numpy_arrays() -> None:
    np = pytest.importorskip("numpy")
    values = np.arange(10_000, dtype=np.uint32)
    assert crc32c(values) == crc32c(values.tobytes())
    matrix = values.reshape(100, 100)
    assert crc32c(matrix) == crc32c(matrix.tobytes())
    with pytest.raises((BufferError, ValueError)):
        crc32c(matrix[:, ::2])  # not contiguous: refused, never silently copied


def test_bad_arguments() -> None:
    with pytest.raises(TypeError):
        crc32c("text is not bytes")
    with pytest.raises(TypeError):
        crc32c()
    with pytest.raises(TypeError):
        crc32c(b"x", 0, 0)
    with pytest.raises(TypeError):
        crc32c(b"x", seed=1)
    with pytest.raises(TypeError):
        crc32c(b"x", data=b"y")
    with pytest.raises(OverflowError):
        crc32c(b"x", 1 << 32)
    with pytest.raises(OverflowError):
        crc32c(b"x", -1)


def test_threads_share_the_extension() -> None:
    # Large buffers run with the GIL released; results must not mix.
    rng = random.Random(99)
    blobs = [rng.randbytes((1 << 20) + i) for i in range(4)]
    want = [crc32c(b) for b in blobs]
    errors: list[str] = []

    def work(i: int) -> None:
        for _ in range(20):
            if crc32c(blobs[i]) != want[i]:
                errors.append(f"thread {i}")

    threads = [threading.Thread(target=work, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors

"""libclang parses with the builtin headers of its own version: Debian's
libclang1-N is chosen only beside its libclang-common-N-dev, and a file that
includes <windows.h> (clang's x86 intrinsics headers) parses completely."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import run_portkit
from portkit.cparse.libclang import builtin_headers, cindex, loaded_version, matched_debian_libclang
from portkit.cparse.parse import clang_resource_include


def _library(root: Path, major: int, headers: str | None) -> None:
    lib = root / f"llvm-{major}" / "lib"
    lib.mkdir(parents=True)
    (lib / f"libclang-{major}.so.1").write_bytes(b"")
    if headers:
        (lib / "clang" / headers / "include").mkdir(parents=True)


def test_the_newest_debian_libclang_with_its_own_headers_is_chosen(tmp_path: Path) -> None:
    _library(tmp_path, 16, "16")  # too old: no operator-kind calls
    _library(tmp_path, 19, "19")
    _library(tmp_path, 22, None)  # its headers are not installed
    _library(tmp_path, 20, "21")  # another version's headers do not count
    chosen = matched_debian_libclang(str(tmp_path / "llvm-*/lib/libclang-*.so.1"))
    assert chosen == str(tmp_path / "llvm-19/lib/libclang-19.so.1")


def test_no_usable_debian_libclang(tmp_path: Path) -> None:
    _library(tmp_path, 14, "14.0.6")
    assert matched_debian_libclang(str(tmp_path / "llvm-*/lib/libclang-*.so.1")) is None


def test_headers_named_by_full_version(tmp_path: Path) -> None:
    _library(tmp_path, 14, "14.0.6")
    lib = str(tmp_path / "llvm-14/lib")
    assert builtin_headers(14, lib) == str(tmp_path / "llvm-14/lib/clang/14.0.6/include")
    assert builtin_headers(1, lib) is None  # 14 is not 1


def test_the_headers_used_are_the_loaded_libclangs() -> None:
    ci = cindex()
    major = loaded_version(ci)
    assert major is not None
    library = ci.Config.library_file or ci.conf.get_filename()
    lib = os.path.dirname(os.path.realpath(library))
    own = builtin_headers(major, lib) or builtin_headers(major, f"/usr/lib/llvm-{major}/lib")
    if own is None:
        pytest.skip(f"no builtin headers of libclang {major} are installed")
    assert clang_resource_include() == own


@pytest.mark.skipif(not shutil.which("x86_64-w64-mingw32-gcc"), reason="MinGW-w64 not installed")
def test_windows_code_parses_completely(tmp_path: Path) -> None:
    # Before: clang 14's emmintrin.h under libclang 18 failed, so every file
    # including <windows.h> was incomplete (exit 3) and its findings lost.
    source = tmp_path / "win.c"
    source.write_text(
        '#include <windows.h>\n#include <stdio.h>\nvoid show(HANDLE h) { long v = (long)h; printf("%ld\\n", v); }\n'
    )
    result = run_portkit("scan", "--to", "LLP64", "--format", "json", "--no-cache", str(source), cwd=tmp_path)
    document = json.loads(result.stdout)
    assert document["incomplete"] == [], document["incomplete"]
    assert any(f["rule"] == "PK101" for f in document["findings"]), document["findings"]


def test_threads_loading_libclang_at_once_choose_one_library() -> None:
    # Before: a second thread could choose the library after the first had
    # loaded it, and the bindings refused ("library file must be set before").
    script = (
        "import threading\n"
        "from portkit.cparse.libclang import cindex\n"
        "errors = []\n"
        "def load():\n"
        "    try:\n"
        "        cindex()\n"
        "    except Exception as err:\n"
        "        errors.append(err)\n"
        "threads = [threading.Thread(target=load) for _ in range(8)]\n"
        "[t.start() for t in threads]\n"
        "[t.join() for t in threads]\n"
        "print(errors)\n"
    )
    for _ in range(5):
        proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
        assert proc.stdout.strip() == "[]", proc.stdout + proc.stderr

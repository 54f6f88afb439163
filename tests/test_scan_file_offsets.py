"""PK303, file offsets and sizes in a type that shrinks to 32 bits on the
target (the real-bug corpus's four LLP64 misses: libarchive's mtree checkfs,
less, libzip and libevent, code from 64-bit Linux built for 64-bit Windows;
and 32-bit Linux without _FILE_OFFSET_BITS=64). The labelled corpus
(test_scan_corpus.py) holds where it fires and where it must not; these hold
how often it reports, what its messages claim, checked with the real cross
compilers, and what breaks, run under qemu-user on a real 3 GiB file."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

import scan_corpus as corpus
from conftest import _missing
from test_scan import scan_json

NARROWING = corpus.CORPUS / "3-narrowing"
LLP64 = NARROWING / "llp64_file_offsets.c"
ILP32 = NARROWING / "ilp32_file_offsets.c"
# "in 'off_t' (8 bytes in LP64 (aarch64), 4 in LLP64 (mingw64))"
TYPE_CLAIM = re.compile(r"in '([^']+)' \((\d+) bytes in (\w+) \([^)]*\), (\d+) in (\w+) \(")
# "whose st_size is 8 bytes in LP64 (aarch64), 4 in ILP32 (arm)", "st_size of 'struct stat' is 8 bytes in ..."
SIZE_CLAIM = re.compile(r"st_size (?:of '[^']+' )?is (\d+) bytes in (\w+) \([^)]*\), (\d+) in (\w+) \(")
HEADERS = "#include <stdio.h>\n#include <sys/types.h>\n#include <sys/stat.h>\ntypedef off_t POSITION;\n"


def pk303(document: dict) -> dict[int, dict]:
    return {f["location"]["line"]: f for f in document["findings"] if f["rule"] == "PK303"}


def test_one_finding_per_function_at_its_first_use_with_the_count_of_the_others() -> None:
    _, document = scan_json(ILP32, "--from", "LP64", "--to", "ILP32", "--fail-on", "never")
    found = pk303(document)
    # stat() at 16, then st.st_size twice in the same function: one finding
    assert "; 2 more file-offset uses in this function" in found[16]["message"]
    assert 18 not in found and 19 not in found
    assert "more file-offset" not in found[29]["message"]


def test_what_breaks_and_the_fix_follow_the_target() -> None:
    _, linux = scan_json(ILP32, "--from", "LP64", "--to", "ILP32", "--fail-on", "never")
    _, windows = scan_json(LLP64, "--from", "LP64", "--to", "LLP64", "--fail-on", "never")
    assert "the call fails (EOVERFLOW)" in pk303(linux)[16]["message"]
    assert "-D_FILE_OFFSET_BITS=64 (autoconf's AC_SYS_LARGEFILE)" in pk303(linux)[16]["fix"]
    assert "st_size comes out wrong" in pk303(windows)[20]["message"]
    assert "_lseeki64" in pk303(windows)[20]["fix"]
    # the macro-made name of MinGW's stat is not what the code wrote
    assert pk303(windows)[20]["message"].startswith("fstat() fills 'struct stat'")


@pytest.mark.parametrize(
    ("fixture", "args"),
    [
        (LLP64, ()),  # ILP32 -> LP64: off_t grows
        (LLP64, ("--from", "LP64", "--to", "LLP64", "-D_FILE_OFFSET_BITS=64")),  # MinGW's large files
        (ILP32, ("--from", "LP64", "--to", "ILP32", "-D_FILE_OFFSET_BITS=64")),
        (ILP32, ("--from", "ILP32", "--to", "LLP64")),  # 4 bytes at home too: an old limit, not a port's
    ],
)
def test_nothing_where_off_t_does_not_shrink(fixture: Path, args: tuple[str, ...]) -> None:
    code, document = scan_json(fixture, *args, "--fail-on", "never", "--allow-incomplete")
    assert code == 0 and pk303(document) == {}


# ---------------------------------------------------------------- widths, from the compilers


def _compiles(triple: str, assertion: str, flags: tuple[str, ...], tmp_path: Path) -> bool:
    source = tmp_path / "claim.c"
    source.write_text(f'{HEADERS}_Static_assert({assertion}, "width");\n')
    proc = subprocess.run(
        [f"{triple}-gcc", "-fsyntax-only", *flags, str(source)], capture_output=True, text=True, check=False
    )
    return proc.returncode == 0


def _need_compilers() -> None:
    absent = [t for t in corpus.MODELS.values() if shutil.which(f"{t}-gcc") is None]
    if absent:
        _missing(", ".join(f"{t}-gcc" for t in absent))


def _claims() -> list[tuple[str, int, str, int]]:
    """(what is sized, bytes at home (LP64), target model, bytes there) for each width a message claims."""
    claims = []
    for fixture, target in ((LLP64, "LLP64"), (ILP32, "ILP32")):
        _, document = scan_json(fixture, "--from", "LP64", "--to", target, "--fail-on", "never")
        for finding in pk303(document).values():
            for spelled, home, _, there, model in TYPE_CLAIM.findall(finding["message"]):
                claims.append((f"sizeof({spelled})", int(home), model, int(there)))
            for home, _, there, model in SIZE_CLAIM.findall(finding["message"]):
                claims.append(("sizeof(((struct stat *)0)->st_size)", int(home), model, int(there)))
    return claims


def test_the_widths_in_the_messages_are_the_compilers(tmp_path: Path) -> None:
    _need_compilers()
    claims = set(_claims())
    assert len(claims) >= 5  # off_t, POSITION and st_size, for both targets
    wrong = []
    for sized, home, model, there in sorted(claims):
        for triple, size in ((corpus.MODELS["LP64"], home), (corpus.MODELS[model], there)):
            if not _compiles(triple, f"{sized} == {size}", (), tmp_path):
                wrong.append(f"{sized} is not {size} for {triple}")
    assert wrong == []


def test_the_inode_number_is_named_only_where_st_ino_shrinks_too(tmp_path: Path) -> None:
    """stat() on 32-bit Linux also refuses an inode number its st_ino cannot
    hold (stat(2), EOVERFLOW); MinGW's st_ino has 2 bytes at any rate and its
    stat() does not refuse: the message says so only for Linux."""
    _need_compilers()
    _, linux = scan_json(ILP32, "--from", "LP64", "--to", "ILP32", "--fail-on", "never")
    _, windows = scan_json(LLP64, "--from", "LP64", "--to", "LLP64", "--fail-on", "never")
    assert "or one whose inode number passes 2^32" in pk303(linux)[16]["message"]
    assert all("inode" not in f["message"] for f in pk303(windows).values())
    st_ino = "sizeof(((struct stat *)0)->st_ino)"
    assert _compiles(corpus.MODELS["LP64"], f"{st_ino} == 8", (), tmp_path)
    assert _compiles(corpus.MODELS["ILP32"], f"{st_ino} == 4", (), tmp_path)
    assert _compiles(corpus.MODELS["ILP32"], f"{st_ino} == 8", ("-D_FILE_OFFSET_BITS=64",), tmp_path)


@pytest.mark.parametrize("model", ["LLP64", "ILP32"])
def test_the_fix_makes_every_offset_64_bit(model: str, tmp_path: Path) -> None:
    """-D_FILE_OFFSET_BITS=64, the fix both messages give first: off_t, st_size,
    and what lseek and ftello return have 8 bytes on MinGW and 32-bit Linux."""
    _need_compilers()
    triple = corpus.MODELS[model]
    sized = ("off_t", "((struct stat *)0)->st_size", "lseek(0, 0, 0)", "ftello(0)")
    headers = ("-include", "unistd.h")
    for what in sized:
        assert not _compiles(triple, f"sizeof({what}) == 8", headers, tmp_path), f"{what} already 8 bytes"
        assert _compiles(triple, f"sizeof({what}) == 8", (*headers, "-D_FILE_OFFSET_BITS=64"), tmp_path), what


def test_the_msvc_api_the_fix_names_is_64_bit(tmp_path: Path) -> None:
    _need_compilers()
    triple, headers = corpus.MODELS["LLP64"], ("-include", "io.h")
    for what in ("_lseeki64(0, 0, 0)", "_ftelli64(0)", "((struct _stat64 *)0)->st_size"):
        assert _compiles(triple, f"sizeof({what}) == 8", headers, tmp_path), what


def test_the_width_check_can_fail(tmp_path: Path) -> None:
    _need_compilers()
    assert not _compiles(corpus.MODELS["LLP64"], "sizeof(off_t) == 8", (), tmp_path)


# ---------------------------------------------------------------- what breaks, run


STAT_SIZE = """
#include <errno.h>
#include <stdio.h>
#include <sys/stat.h>
int main(int argc, char **argv)
{
    struct stat st;
    if (argc < 2 || stat(argv[1], &st) != 0) {
        puts(errno == EOVERFLOW ? "EOVERFLOW" : "other error");
        return 0;
    }
    printf("%lld\\n", (long long)st.st_size);
    return 0;
}
"""


def test_stat_of_a_3_gib_file_fails_on_32_bit_linux_as_the_message_says(tmp_path: Path) -> None:
    need = ["arm-linux-gnueabihf-gcc", "aarch64-linux-gnu-gcc", "qemu-arm", "qemu-aarch64"]
    if absent := [tool for tool in need if shutil.which(tool) is None]:
        _missing(", ".join(absent))
    big = tmp_path / "big.bin"
    with big.open("wb") as f:
        f.truncate(3 << 30)  # sparse: no 3 GiB written
    source = tmp_path / "stat_size.c"
    source.write_text(STAT_SIZE)
    printed = {}
    for name, triple, emulator, flags in (
        ("arm", "arm-linux-gnueabihf", "qemu-arm", ()),
        ("arm large files", "arm-linux-gnueabihf", "qemu-arm", ("-D_FILE_OFFSET_BITS=64",)),
        ("aarch64", "aarch64-linux-gnu", "qemu-aarch64", ()),
    ):
        exe = tmp_path / name.replace(" ", "-")
        subprocess.run([f"{triple}-gcc", "-static", "-O0", *flags, str(source), "-o", str(exe)], check=True)
        run = subprocess.run([emulator, str(exe), str(big)], capture_output=True, text=True, check=True, timeout=60)
        printed[name] = run.stdout.strip()
    assert printed == {"arm": "EOVERFLOW", "arm large files": str(3 << 30), "aarch64": str(3 << 30)}

"""`portkit scan --fix` and `--diff`: the mechanical fixes, checked with the
real cross compilers (the fixed file compiles for ILP32 arm and LP64 aarch64
with no format warning left) and by scanning again; what cannot be fixed
safely stays a finding with the reason; files keep their mode and bytes."""

from __future__ import annotations

import itertools
import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from conftest import run_portkit

COMPILERS = ("arm-linux-gnueabihf-gcc", "aarch64-linux-gnu-gcc")

LEGACY = """/* legacy.c: written for ILP32 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct table { char **names; long *values; };

char *after(void *p) { return (char *)((int)p + 16); }
int keep(void *p) { int addr = (int)p; return addr; }
void show(long n, unsigned long u, size_t z) {
    printf("n=%d u=%08x z=%u\\n", n, u, z);
    printf("%d", z);
}
void read_it(long *n, unsigned long *u) { scanf("%d %u", n, u); }
void grow(struct table *t, int n, char **argv) {
    t->names = malloc(n * 4);
    char **copy = malloc((n + 1) * 4);
    memset(t->values, 0, n * 4);
    memcpy(copy, argv, 4 * n);
    free(copy);
}
"""

LEGACY_FIXED = """/* legacy.c: written for ILP32 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>

struct table { char **names; long *values; };

char *after(void *p) { return (char *)((intptr_t)p + 16); }
int keep(void *p) { int addr = (int)p; return addr; }
void show(long n, unsigned long u, size_t z) {
    printf("n=%ld u=%08lx z=%zu\\n", n, u, z);
    printf("%zu", z);
}
void read_it(long *n, unsigned long *u) { scanf("%ld %lu", n, u); }
void grow(struct table *t, int n, char **argv) {
    t->names = malloc(n * sizeof *t->names);
    char **copy = malloc((n + 1) * sizeof *copy);
    memset(t->values, 0, n * sizeof *t->values);
    memcpy(copy, argv, sizeof *copy * n);
    free(copy);
}
"""

FIXED_WIDTH = """#include <stdio.h>
#include <stdint.h>
void show(void *p, uint32_t id) {
    printf("at %x\\n", (uintptr_t) p);
    printf("%d", (intptr_t) p);
    if ((unsigned long) id == 0xFFFFFFFF)  /* a uint32_t's value: the same test in both models */
        puts("none");
}
"""

FIXED_WIDTH_FIXED = """#include <stdio.h>
#include <stdint.h>
#include <inttypes.h>
void show(void *p, uint32_t id) {
    printf("at %" PRIxPTR "\\n", (uintptr_t) p);
    printf("%" PRIdPTR, (intptr_t) p);
    if ((unsigned long) id == 0xFFFFFFFF)  /* a uint32_t's value: the same test in both models */
        puts("none");
}
"""


def compiles_cleanly(path: Path) -> None:
    """The real cross compilers for both data models: no error, no -Wformat warning."""
    for compiler in COMPILERS:
        if shutil.which(compiler) is None:
            pytest.skip(f"{compiler} is missing (scripts/install-system-packages installs it)")
        proc = subprocess.run(
            [compiler, "-fsyntax-only", "-Wformat", "-Werror=format", "-Werror=int-conversion", str(path)],
            capture_output=True,
            text=True,
            check=False,
        )
        assert proc.returncode == 0, f"{compiler}: {proc.stderr}"


def scan_json(*args: str | Path, cwd: Path) -> dict:
    proc = run_portkit("scan", "--no-cache", "--format", "json", *args, cwd=cwd)
    assert "Traceback" not in proc.stderr, proc.stderr
    return json.loads(proc.stdout)


def test_diff_shows_the_fixes_and_writes_nothing(tmp_path: Path) -> None:
    source = tmp_path / "legacy.c"
    source.write_text(LEGACY)
    before = source.stat().st_mtime_ns
    proc = run_portkit("scan", "--no-cache", "--diff", "legacy.c", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith("--- a/legacy.c\n+++ b/legacy.c\n@@ ")
    assert "+#include <stdint.h>\n" in proc.stdout and '+    printf("%zu", z);\n' in proc.stdout
    assert proc.stderr == (
        "portkit: note: fixes for 11 findings in 1 file (legacy.c); "
        "1 fixable finding left as found (--format json says why)\n"
    )
    assert source.read_text() == LEGACY and source.stat().st_mtime_ns == before
    subprocess.run(["git", "apply", "-p1", "-"], input=proc.stdout, text=True, cwd=tmp_path, check=True)
    assert source.read_text() == LEGACY_FIXED


def test_fix_rewrites_what_compiles_for_both_models_and_leaves_the_rest(tmp_path: Path) -> None:
    source = tmp_path / "legacy.c"
    source.write_text(LEGACY)
    os.chmod(source, 0o640)
    proc = run_portkit("scan", "--no-cache", "--fix", "--format", "json", "legacy.c", cwd=tmp_path)
    assert proc.returncode == 1, proc.stderr  # one finding is left
    assert source.read_text() == LEGACY_FIXED
    assert source.stat().st_mode & 0o777 == 0o640
    compiles_cleanly(source)
    document = json.loads(proc.stdout)
    assert [(f["rule"], f["location"]["line"]) for f in document["findings"]] == [("PK101", 10)]
    assert len(document["fixes"]["fixed"]) == 11
    (left,) = document["fixes"]["left"]
    assert (left["rule"], left["line"]) == ("PK101", 9)  # where the scan stood before the fix
    assert left["reason"] == "the scan still found it, or something new, after the fix"
    assert scan_json("legacy.c", cwd=tmp_path)["findings"] == document["findings"]


def test_fixed_width_types_get_their_inttypes_macros(tmp_path: Path) -> None:
    source = tmp_path / "ids.c"
    source.write_text(FIXED_WIDTH)
    proc = run_portkit("scan", "--no-cache", "--fix", "ids.c", cwd=tmp_path)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert source.read_text() == FIXED_WIDTH_FIXED
    compiles_cleanly(source)
    assert "no findings" in proc.stdout


def test_an_unclear_mask_and_a_macro_are_left_with_the_reason(tmp_path: Path) -> None:
    (tmp_path / "m.c").write_text(
        '#include <stdio.h>\n#define SHOW(n) printf("%d\\n", n)\n'
        "int f(unsigned long mask, long n) { SHOW(n); return mask == 0xFFFFFFFF; }\n"
    )
    document = scan_json("--fix", "m.c", cwd=tmp_path)
    reasons = {(item["rule"], item["reason"]) for item in document["fixes"]["left"]}
    assert reasons == {
        ("PK403", "whether 32 bits or all of the value is meant cannot be told here"),
        ("PK201", "written in a macro definition, whose other uses may differ"),
    }
    assert document["fixes"]["fixed"] == []


def test_a_latin1_file_keeps_its_bytes(tmp_path: Path) -> None:
    source = tmp_path / "old.c"
    source.write_bytes(b'#include <stdio.h>\n/* caf\xe9 */\nvoid f(long n) { printf("%d\\n", n); }\n')
    proc = run_portkit("scan", "--no-cache", "--fix", "old.c", cwd=tmp_path)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert source.read_bytes() == b'#include <stdio.h>\n/* caf\xe9 */\nvoid f(long n) { printf("%ld\\n", n); }\n'


def test_fix_and_diff_together_is_a_usage_error(tmp_path: Path) -> None:
    (tmp_path / "a.c").write_text("int a;\n")
    proc = run_portkit("scan", "--fix", "--diff", "a.c", cwd=tmp_path)
    assert proc.returncode == 2 and "not allowed with" in proc.stderr


def test_diff_to_a_file_with_o(tmp_path: Path) -> None:
    (tmp_path / "legacy.c").write_text(LEGACY)
    proc = run_portkit("scan", "--no-cache", "--diff", "-o", "fixes.patch", "legacy.c", cwd=tmp_path)
    assert (proc.returncode, proc.stdout) == (0, "")
    assert (tmp_path / "fixes.patch").read_text().startswith("--- a/legacy.c\n")


# ------------------------------------------------------------------ the edits, fuzzed


@given(
    data=st.binary(max_size=200),
    cuts=st.lists(st.tuples(st.integers(0, 200), st.integers(0, 5), st.binary(max_size=6))),
)
def test_edits_apply_like_slicing_from_the_end(data: bytes, cuts: list[tuple[int, int, bytes]]) -> None:
    from portkit.commands.scan.edits import Edit, Overlap, apply

    edits = [Edit(min(s, len(data)), min(s + n, len(data)), t) for s, n, t in cuts]
    try:
        got = apply(data, edits)
    except Overlap:
        spans = sorted({(e.start, e.end, e.text) for e in edits})
        assert any(b[0] < a[1] or a[0] == b[0] for a, b in itertools.pairwise(spans))
        return
    expected = data
    for edit in sorted(set(edits), reverse=True):
        expected = expected[: edit.start] + edit.text + expected[edit.end :]
    assert got == expected


@given(
    lines=st.lists(
        st.sampled_from(["#include <a.h>", "#if X", "#endif", "int x;", "/* c */", "#ifndef G", "#define G", ""]),
        max_size=12,
    )
)
def test_an_include_goes_in_once_and_keeps_the_rest(lines: list[str]) -> None:
    from portkit.commands.scan.edits import apply, include_edit

    data = ("\n".join(lines) + "\n").encode()
    fixed = apply(data, [include_edit(data, "stdint.h")])
    assert fixed.count(b"#include <stdint.h>\n") == 1
    assert fixed.replace(b"#include <stdint.h>\n", b"", 1).replace(b"\n\n", b"\n") in (
        data,
        data.replace(b"\n\n", b"\n"),
    )

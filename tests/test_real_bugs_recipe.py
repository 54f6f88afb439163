"""The real-bug corpus's recipe (bench/scan/real_bugs/corpus.toml) holds
together, and the bench's readers work on small made-up inputs: the recipe
reader, which diagnostics find a defect, and portkit's JSON as the bench
reads it. Fetching the packages and running the tools is the bench's job
(bench/scan/real_bugs/measure.py), not the tests'."""

from __future__ import annotations

import contextlib
import json
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench" / "scan" / "real_bugs"))
import measure  # noqa: E402
import recipe  # noqa: E402

GOOD = """
[package.demo]
version = "1:2.3-4+deb12u1"
upstream = "https://example.org/demo"
configure = ["./configure", "--disable-nls"]
flags = ["-DHAVE_CONFIG_H", "-include", "config.h", "-Iinclude"]

[[defect]]
package = "demo"
file = "src/a.c"
lines = [10, 12]
class = "printf-format"
model = "LP64"
fix = "https://example.org/demo/commit/1"
why = "%d reads 4 bytes of an 8-byte size_t"
found_via = "upstream history"
"""


def test_the_committed_recipe_holds_together() -> None:
    loaded = recipe.load()
    assert loaded.defects
    for d in loaded.defects:
        package = loaded.packages[d.package]
        assert d.kind in recipe.CLASSES and d.model in recipe.MODELS
        assert d.fix.startswith("https://") and package.upstream.startswith("https://")
        assert list(d.lines) == sorted(set(d.lines)) and d.lines[0] > 0
        assert d.why and "\n" not in d.why
    assert len({d.key for d in loaded.defects}) == len(loaded.defects)


def test_a_good_recipe_reads_whole() -> None:
    r = recipe.parse(GOOD)
    (d,) = r.defects
    assert r.packages["demo"].version == "1:2.3-4+deb12u1"
    assert r.packages["demo"].flags[:2] == ("-DHAVE_CONFIG_H", "-include")
    assert (d.file, d.lines, d.kind, d.model, d.miss) == ("src/a.c", (10, 12), "printf-format", "LP64", "")
    assert d.key == "demo:src/a.c:10,12"


@pytest.mark.parametrize(
    ("old", "new", "says"),
    [
        ("lines = [10, 12]", "lines = [12, 10]", "ascending"),
        ("lines = [10, 12]", "lines = []", "non-empty list"),
        ("lines = [10, 12]", "lines = [0]", "non-empty list"),
        ('class = "printf-format"', 'class = "style"', "class 'style'"),
        ('model = "LP64"', 'model = "ILP32"', "neither LP64 nor LLP64"),
        ('fix = "https://example.org/demo/commit/1"', 'fix = "a commit"', "not an https link"),
        ('file = "src/a.c"', 'file = "../etc/passwd.c"', "inside the tree"),
        ('file = "src/a.c"', 'file = "README"', "inside the tree"),
        ('package = "demo"', 'package = "other"', "has no [package.other]"),
        ('version = "1:2.3-4+deb12u1"', 'version = "latest!"', "not a Debian version"),
        ('"-Iinclude"]', '"-Iinclude", "-O2"]', "not -O2"),
        ('found_via = "upstream history"', 'found_via = "a hunch"', "found_via"),
        ('why = "%d reads 4 bytes of an 8-byte size_t"\n', "", "'why' is missing"),
    ],
)
def test_a_bad_recipe_is_refused_naming_the_entry(old: str, new: str, says: str) -> None:
    assert old in GOOD
    with pytest.raises(recipe.RecipeError) as caught:
        recipe.parse(GOOD.replace(old, new))
    assert says in str(caught.value)


def test_a_defect_listed_twice_or_a_package_without_defects_is_refused() -> None:
    twice = GOOD + GOOD[GOOD.index("[[defect]]") :]
    with pytest.raises(recipe.RecipeError, match="listed twice"):
        recipe.parse(twice)
    spare = GOOD + '\n[package.spare]\nversion = "1.0-1"\nupstream = "https://example.org/spare"\n'
    with pytest.raises(recipe.RecipeError, match="spare has no defect"):
        recipe.parse(spare)


def test_an_unreadable_recipe_is_one_error(tmp_path: Path) -> None:
    with pytest.raises(recipe.RecipeError, match="cannot read"):
        recipe.load(tmp_path / "absent.toml")
    (tmp_path / "bad.toml").write_text("[package.x\n")
    with pytest.raises(recipe.RecipeError, match=r"bad\.toml: not TOML"):
        recipe.load(tmp_path / "bad.toml")


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=400))
def test_the_reader_refuses_anything_but_a_recipe_with_one_error(text: str) -> None:
    with contextlib.suppress(recipe.RecipeError):
        recipe.parse(text)


@settings(max_examples=200, deadline=None)
@given(
    st.dictionaries(
        st.sampled_from(
            ["package", "file", "lines", "class", "model", "home", "fix", "why", "found_via", "defines", "miss"]
        ),
        st.one_of(st.none(), st.integers(), st.text(max_size=20), st.lists(st.integers(-3, 50), max_size=4)),
    )
)
def test_any_defect_table_is_read_or_refused(entry: dict) -> None:
    lines = [f"{k} = {v!r}".replace("'", '"') for k, v in entry.items() if v is not None]
    text = GOOD[: GOOD.index("[[defect]]")] + "[[defect]]\n" + "\n".join(lines) + "\n"
    with contextlib.suppress(recipe.RecipeError):
        recipe.parse(text)


def test_gcc_and_clang_diagnostics_find_a_defect_on_one_of_its_lines(tmp_path: Path) -> None:
    src = tmp_path / "a.c"
    text = "\n".join(
        [
            f"{src}:10:5: warning: format '%d' expects argument of type 'int' [-Wformat=]",
            f"{src}:30:1: warning: unused variable 'x' [-Wunused-variable]",
            "other.h:4:2: warning: implicit conversion loses integer precision [-Wshorten-64-to-32]",
            f"{src}:12:3: note: in expansion of macro 'LOG'",
        ]
    )
    diags = measure.scanbench.parse_gnu(text, tmp_path).diags
    said = measure.on_lines(diags, src, (10, 11))
    assert said == ["format '%d' expects argument of type 'int' [-Wformat=]"]
    # the header's warning counts through its note at line 12 of the file
    assert measure.on_lines(diags, src, (12,)) == ["implicit conversion loses integer precision [-Wshorten-64-to-32]"]
    assert measure.on_lines(diags, src, (20,)) == []


def test_cppcheck_output_finds_a_defect(tmp_path: Path) -> None:
    text = f"{tmp_path}/a.c:7:9: portability: Casting pointer to int [AssignmentAddressToInteger]\n"
    diags = measure.scanbench.parse_cppcheck(text, tmp_path).diags
    assert measure.on_lines(diags, tmp_path / "a.c", (7,)) == ["Casting pointer to int [AssignmentAddressToInteger]"]


def test_portkit_findings_and_incomplete_files_are_read_by_path_and_line(tmp_path: Path) -> None:
    document = {
        "findings": [
            {"rule": "PK101", "message": "pointer cast to int", "location": {"path": "src/a.c", "line": 10}},
            {"rule": "PK201", "message": "%d for size_t", "location": {"path": "./src/a.c", "line": 12}},
        ],
        "incomplete": [{"path": "src/b.c", "reason": "config.h not found"}],
    }
    found = measure.findings_by_line(document, tmp_path)
    assert found[tmp_path / "src" / "a.c"][10] == ["PK101 pointer cast to int"]
    assert found[tmp_path / "src" / "a.c"][12] == ["PK201 %d for size_t"]
    assert measure.incomplete_paths(document, tmp_path) == {tmp_path / "src" / "b.c": "config.h not found"}


def test_the_compile_database_gives_each_file_its_flags(tmp_path: Path) -> None:
    d = recipe.parse(GOOD).defects[0]
    source = measure.scanbench.Source(tmp_path / "src" / "a.c", tmp_path, ("-DX=1", "-Iinclude"), "LP64")
    db = measure.compile_database([measure.Case(d, source)], tmp_path / "db")
    (entry,) = json.loads(db.read_text())
    assert entry["directory"] == str(tmp_path)
    assert entry["arguments"] == ["cc", "-DX=1", "-Iinclude", "-c", str(tmp_path / "src" / "a.c")]


def test_a_recipe_that_names_lines_past_the_end_of_the_file_is_a_mismatch(tmp_path: Path) -> None:
    d = recipe.parse(GOOD).defects[0]
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "a.c").write_text("int x;\n" * 11)
    assert "has 11 lines, fewer than 12" in measure.mismatch(d, tmp_path)
    (tmp_path / "src" / "a.c").write_text("int x;\n" * 12)
    assert measure.mismatch(d, tmp_path) == ""
    assert "not in" in measure.mismatch(d, tmp_path / "elsewhere")


def test_a_second_configuration_of_a_package_names_its_debian_source() -> None:
    # a Windows build of the same source: its own label, its own tree, the same apt-get source
    windows = GOOD.replace("[package.demo]", '[package.demo-mingw]\nsource = "demo"').replace(
        'package = "demo"', 'package = "demo-mingw"'
    )
    r = recipe.parse(windows)
    assert r.packages["demo-mingw"].debian_source == "demo"
    assert recipe.parse(GOOD).packages["demo"].debian_source == "demo"
    with pytest.raises(recipe.RecipeError, match="not a Debian source package name"):
        recipe.parse(windows.replace('source = "demo"', 'source = "Demo Source"'))


def test_a_defect_of_portable_code_moving_to_windows_names_its_home() -> None:
    r = recipe.parse(GOOD)
    assert r.defects[0].home == "ILP32"
    lp64 = recipe.parse(GOOD.replace('model = "LP64"', 'model = "LLP64"\nhome = "LP64"'))
    assert (lp64.defects[0].home, lp64.defects[0].model) == ("LP64", "LLP64")
    assert measure.model_cell(lp64.defects[0]) == "LLP64 (from LP64)"
    with pytest.raises(recipe.RecipeError, match="nothing moves"):
        recipe.parse(GOOD.replace('model = "LP64"', 'model = "LP64"\nhome = "LP64"'))
    with pytest.raises(recipe.RecipeError, match="neither ILP32 nor LP64"):
        recipe.parse(GOOD.replace('model = "LP64"', 'model = "LP64"\nhome = "ILP16"'))

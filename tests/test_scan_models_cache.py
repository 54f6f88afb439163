"""The data models' sizes kept between scans: the same answer as a probe,
reused only while nothing it came from has changed. Each change below would
give a wrong answer from a cache that missed it: a header rewritten, a
header added earlier on the search path or where __has_include found none,
another sysroot, a damaged entry."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import run_portkit
from portkit.commands.scan import modelcache
from portkit.commands.scan.modelcache import CLOCK_SLACK_NS, Probed, kept_or_probed, watched_paths
from portkit.commands.scan.models import probe_pair
from portkit.core.abis import parse_abi

ARM, AARCH64 = parse_abi("arm"), parse_abi("aarch64")


def settled() -> None:
    """Past the slack within which a file's change may race the probe (such an answer is not kept)."""
    time.sleep(2 * CLOCK_SLACK_NS / 1e9)


def sysroot_with(tmp_path: Path, headers: dict[str, str]) -> Path:
    root = tmp_path / "sysroot"
    for name, text in headers.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    settled()
    return root


def arm_sizes(root: Path, kept: Path) -> dict[str, int]:
    return probe_pair(ARM, AARCH64, root, kept).source.typedefs


def test_a_kept_pair_is_the_probed_pair(tmp_path: Path) -> None:
    probed = probe_pair(ARM, AARCH64, None, None)
    first = probe_pair(ARM, AARCH64, None, tmp_path)
    assert len(list(tmp_path.glob("*.json"))) == 2
    again = probe_pair(ARM, AARCH64, None, tmp_path)
    assert probed == first == again
    sizes = again.source.typedefs["size_t"], again.target.typedefs["size_t"], again.source.builtins["LONG"]
    assert sizes == (4, 8, 4)


def test_reused_without_probing_until_a_header_it_read_changes(tmp_path: Path) -> None:
    root = sysroot_with(tmp_path, {"usr/include/stdint.h": "typedef long long int64_t;\n"})
    kept = tmp_path / "kept"
    search = [str(root / "usr/include")]
    probes: list[int] = []

    def probe(size: int) -> Probed:
        probes.append(size)
        return Probed({"LONG": 4}, {"int64_t": size}, (str(root / "usr/include/stdint.h"),))

    identity = ["an identity"]
    assert kept_or_probed(kept, identity, search, ["stdint.h"], lambda: probe(8)).typedefs == {"int64_t": 8}
    assert kept_or_probed(kept, identity, search, ["stdint.h"], lambda: probe(99)).typedefs == {"int64_t": 8}
    assert probes == [8]
    (root / "usr/include/stdint.h").write_text("typedef long int64_t;\n")
    settled()
    assert kept_or_probed(kept, identity, search, ["stdint.h"], lambda: probe(4)).typedefs == {"int64_t": 4}
    assert probes == [8, 4]


def test_a_rewritten_header_is_probed_again(tmp_path: Path) -> None:
    root = sysroot_with(tmp_path, {"usr/include/stdint.h": "typedef long long int64_t;\n"})
    assert arm_sizes(root, tmp_path / "kept")["int64_t"] == 8
    (root / "usr/include/stdint.h").write_text("typedef long int64_t;\n")  # the same size in bytes
    settled()
    assert arm_sizes(root, tmp_path / "kept")["int64_t"] == 4


def test_a_header_that_appears_earlier_on_the_search_path_is_probed_again(tmp_path: Path) -> None:
    # the triple's directory is searched before usr/include; it has no sys/ yet
    root = sysroot_with(
        tmp_path,
        {"usr/include/sys/types.h": "typedef long long off_t;\n", "usr/include/arm-linux-gnueabihf/README": ""},
    )
    assert arm_sizes(root, tmp_path / "kept")["off_t"] == 8
    sysroot_with(tmp_path, {"usr/include/arm-linux-gnueabihf/sys/types.h": "typedef int off_t;\n"})
    assert arm_sizes(root, tmp_path / "kept")["off_t"] == 4


def test_a_header_the_probe_did_not_find_then_installed_is_probed_again(tmp_path: Path) -> None:
    root = sysroot_with(tmp_path, {"usr/include/stdint.h": "typedef long long int64_t;\n"})
    assert "time_t" not in arm_sizes(root, tmp_path / "kept")
    sysroot_with(tmp_path, {"usr/include/time.h": "typedef long long time_t;\n"})
    assert arm_sizes(root, tmp_path / "kept")["time_t"] == 8


def test_another_sysroot_is_another_entry(tmp_path: Path) -> None:
    one = sysroot_with(tmp_path / "one", {"usr/include/stdint.h": "typedef long long int64_t;\n"})
    two = sysroot_with(tmp_path / "two", {"usr/include/stdint.h": "typedef int int64_t;\n"})
    assert arm_sizes(one, tmp_path / "kept")["int64_t"] == 8
    assert arm_sizes(two, tmp_path / "kept")["int64_t"] == 4
    assert arm_sizes(one, tmp_path / "kept")["int64_t"] == 8


@pytest.mark.parametrize("damage", ["", "{", "[]", '{"schema": "portkit.scan-models/1"}', "BUILTINS"])
def test_a_damaged_entry_is_probed_again_and_replaced(tmp_path: Path, damage: str) -> None:
    root = sysroot_with(tmp_path, {"usr/include/stdint.h": "typedef long long int64_t;\n"})
    kept = tmp_path / "kept"
    arm_sizes(root, kept)
    good = {entry: json.loads(entry.read_text()) for entry in kept.glob("*.json")}
    for entry, kept_text in good.items():
        entry.write_text(json.dumps({**kept_text, "builtins": {"LONG": "4"}}) if damage == "BUILTINS" else damage)
    assert arm_sizes(root, kept)["int64_t"] == 8
    assert {entry: json.loads(entry.read_text()) for entry in kept.glob("*.json")} == good


def test_a_cache_that_cannot_be_written_only_costs_the_probe(tmp_path: Path) -> None:
    (tmp_path / "afile").write_text("")
    assert probe_pair(ARM, AARCH64, None, tmp_path / "afile" / "models").source.builtins["LONG"] == 4


def test_a_change_during_the_probe_is_not_kept(tmp_path: Path) -> None:
    root = sysroot_with(tmp_path, {"usr/include/stdint.h": "typedef long long int64_t;\n"})
    header = root / "usr/include/stdint.h"

    def probe() -> Probed:
        header.write_text("typedef int int64_t;\n")  # after it was read
        return Probed({"LONG": 4}, {"int64_t": 8}, (str(header),))

    kept_or_probed(tmp_path / "kept", ["x"], [str(root / "usr/include")], [], probe)
    assert not list((tmp_path / "kept").glob("*.json"))


def test_watched_are_the_headers_and_every_directory_searched_for_one() -> None:
    watched = watched_paths(
        ["/r/a/bits/types/x.h", "/r/b/stdio.h", "/elsewhere/y.h"], ["/r/a", "/r/b"], ["sys/types.h", "stdint.h"]
    )
    for path in ("/r/a/bits/types/x.h", "/r/b/stdio.h", "/elsewhere/y.h", "/elsewhere"):
        assert path in watched
    for root in ("/r/a", "/r/b"):
        for sub in ("", "/bits", "/bits/types", "/sys"):
            assert root + sub in watched


def test_scan_keeps_the_models_in_the_users_cache_even_with_no_cache(tmp_path: Path) -> None:
    (tmp_path / "a.c").write_text("long keep(void *p) { return (int) p; }\n")
    home = tmp_path / "xdg"
    documents = []
    for _ in range(2):
        env = {"XDG_CACHE_HOME": str(home)}
        proc = run_portkit("scan", "--no-cache", "--format", "json", "a.c", cwd=tmp_path, env=env)
        assert proc.returncode == 1, proc.stderr
        documents.append(json.loads(proc.stdout))
    assert documents[0] == documents[1] and [f["rule"] for f in documents[0]["findings"]] == ["PK101"]
    assert len(list((home / "portkit" / "models").glob("*.json"))) == 2
    assert not (home / "portkit" / "scan").exists()


def test_the_identity_names_the_abi_sysroot_search_and_library(tmp_path: Path) -> None:
    base = modelcache.probe_identity(ARM, None, "text", ["/a"], "/lib/libclang.so")
    for other in (
        modelcache.probe_identity(AARCH64, None, "text", ["/a"], "/lib/libclang.so"),
        modelcache.probe_identity(ARM, tmp_path, "text", ["/a"], "/lib/libclang.so"),
        modelcache.probe_identity(ARM, None, "other", ["/a"], "/lib/libclang.so"),
        modelcache.probe_identity(ARM, None, "text", ["/a", "/b"], "/lib/libclang.so"),
        modelcache.probe_identity(ARM, None, "text", ["/a"], "/lib/libclang-19.so"),
    ):
        assert modelcache.entry_key(other) != modelcache.entry_key(base)


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)
FIELDS = st.fixed_dictionaries(
    {},
    optional={
        "schema": st.just(modelcache.SCHEMA) | JSON,
        "builtins": st.dictionaries(st.text(max_size=6), st.integers() | JSON, max_size=3),
        "typedefs": st.dictionaries(st.text(max_size=6), st.integers() | JSON, max_size=3),
        "headers": JSON,
        "watched": st.dictionaries(st.text(max_size=6), JSON, max_size=3) | JSON,
    },
)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(entry=FIELDS | JSON, raw=st.binary(max_size=40))
def test_any_entry_is_an_answer_or_a_miss_never_an_error(tmp_path: Path, entry: object, raw: bytes) -> None:
    for content in (json.dumps(entry).encode(), raw):
        (tmp_path / "key.json").write_bytes(content)
        kept = modelcache.lookup(tmp_path, "key")
        assert kept is None or isinstance(kept, Probed)

"""scan's rules as data for the command's own process (commands/scan/catalog):
the same rules the rule files declare, kept between runs, and a kept copy
that is changed, damaged or of another shape never stands in for them."""

from __future__ import annotations

import json
import os
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from portkit.commands.scan.catalog import RULES_DIRECTORY, read_rules, rules_key, scan_rules
from portkit.commands.scan.rules import RULES


def test_the_kept_rules_are_the_rule_files_own(tmp_path: Path) -> None:
    assert scan_rules(tmp_path) == RULES  # imported, then kept
    (kept,) = (tmp_path / "rules").iterdir()
    assert read_rules(kept) == RULES and scan_rules(tmp_path) == RULES


def test_a_rule_file_added_or_touched_is_another_key(tmp_path: Path) -> None:
    rules = tmp_path / "rules"
    rules.mkdir()
    (rules / "pk101_x.py").write_text("RULE = 1\n")
    before = rules_key(rules)
    (rules / "pk999_new.py").write_text("RULE = 2\n")
    added = rules_key(rules)
    os.utime(rules / "pk101_x.py", ns=(1, 1))
    assert len({before, added, rules_key(rules)}) == 3
    assert rules_key(tmp_path / "nowhere") == ""  # unreadable: nothing is kept
    assert rules_key(RULES_DIRECTORY) == rules_key(RULES_DIRECTORY)


def test_a_damaged_copy_is_imported_again(tmp_path: Path) -> None:
    scan_rules(tmp_path)
    (kept,) = (tmp_path / "rules").iterdir()
    entry = json.loads(kept.read_text())
    entry["rules"][0]["severity"] = "LOUD"
    kept.write_text(json.dumps(entry))
    assert read_rules(kept) is None and scan_rules(tmp_path) == RULES


@settings(max_examples=200, deadline=None)
@given(
    st.recursive(
        st.none() | st.booleans() | st.integers() | st.text(max_size=8),
        lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
        max_leaves=12,
    )
)
def test_any_json_is_rules_or_nothing(tmp_path_factory, document) -> None:
    path = tmp_path_factory.mktemp("kept") / "entry.json"
    path.write_text(json.dumps({"schema": "portkit.scan-rules/1", "rules": document}))
    found = read_rules(path)
    assert found is None or all(isinstance(rule.id, str) and rule.severity.name for rule in found)

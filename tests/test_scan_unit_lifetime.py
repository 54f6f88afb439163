"""A scanned unit is freed when its scan ends: nothing of it is left in a
reference cycle for the cycle collector (on sqlite3.c a million cursors and
answers, a third of a second of a full collection)."""

from __future__ import annotations

import gc
from pathlib import Path

from portkit.commands.scan.engine import ScanJob, scan_unit
from portkit.commands.scan.models import probe_pair, resolve_abi
from portkit.commands.scan.rules import RULES
from portkit.commands.scan.unit import Unit

# A pointer made an int in a macro's body: the finding moves to the #define,
# which asks the unit's macro index (the closure that once held the unit).
MACRO_CAST = """#define HANDLE_ID(p) ((int)(long)(p))
int handle_id(void *p)
{
    return HANDLE_ID(p);
}
"""


def test_nothing_of_a_scanned_unit_waits_for_the_cycle_collector(tmp_path: Path) -> None:
    path = tmp_path / "handles.c"
    path.write_text(MACRO_CAST)
    pair = probe_pair(resolve_abi("ILP32", "--from"), resolve_abi("aarch64", "--to"), None)
    job = ScanJob(path, MACRO_CAST, (), pair, None, frozenset(rule.id for rule in RULES))
    gc.collect()
    found = scan_unit(job)
    assert [(f.rule, f.location.line) for f in found.findings if f.rule == "PK101"] == [("PK101", 1)]
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        gc.collect()
        left = [o for o in gc.garbage if isinstance(o, Unit)]
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
    assert left == []

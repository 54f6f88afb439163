"""`portkit rt`: wake-up and interrupt latency under load, on the target, as a
study (the PREEMPT_RT-on-Loongson field report; the IVI team's interrupt
latency idle vs stressed): measure the matrix of loads x intervals, tabulate
it as the field report's Table 2 with percentiles and the load each cell
really had, plot it, compare studies, and import existing cyclictest or rtla
results into the same model.

  run      measure a study on --target into DIR (resumable)
  sysinfo  the target's facts that decide latency, with warnings
  table    a study's table: text, markdown, csv, json
  plot     histograms, latency per loop, box plots (PNG and SVG)
  compare  studies side by side, each against the first
  import   cyclictest (-h, --json, -v) and rtla timerlat hist output into results
"""

# A module per mode beside this file (run.py, sysinfo.py, table.py, plot.py,
# compare.py, importing.py), each with register(modes) that adds the mode's
# parser, options and run function; this file only lists the modes.

from __future__ import annotations

import argparse

from portkit.commands.rt import compare, importing, plot, run, sysinfo, table
from portkit.core.command import add_modes

MODES = (run, sysinfo, table, plot, compare, importing)
SUMMARY = "wake-up and interrupt latency under load: measure, tabulate, plot, compare"
EXAMPLES = (
    "examples:\n"
    "  portkit rt run --loads idle,cpu,io --intervals 1000 --duration 10 -o study/\n"
    "  portkit rt table study/ --format markdown\n"
    "  portkit rt plot study/"
)


def register(subparsers: argparse._SubParsersAction) -> None:
    modes = add_modes(subparsers, "rt", SUMMARY, __doc__, EXAMPLES)
    for mode in MODES:
        mode.register(modes)

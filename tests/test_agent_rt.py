"""`portkit-target rt` (wake-up latency, sysinfo, timerlat) as a black box: portkit.rt/1 and
portkit.rt-sysinfo/1 as docs/formats.md defines them.

- short runs natively, under SCHED_FIFO (this user may: root here) and SCHED_OTHER (--no-rt);
  the shape and the invariants, never the timings (tests never assert on time);
- an unprivileged user (setpriv) gets exit 3 and one line with the fix;
- SIGINT and SIGTERM mid-run leave a complete document;
- --break 0 stops at the first sample, with the trace saved where tracefs is usable;
  with tracefs mounted and not (the agent then mounts it for the run), each in a mount
  namespace of the test's own;
- --timerlat either measures or says why not (this machine's kernel has no timerlat tracer);
- sysinfo against /proc, /sys and the kernel config read with Python's gzip;
- the aarch64 and armhf agents under qemu-user: plumbing only, emulated timings mean nothing.

A run may change what it measures on (it mounts tracefs where nobody did, and unmounts it
after), so what a test expects comes from the agent's own report, or from the kernel's
tracing state read through a mount namespace of the test's own, never from how this
machine's mounts were before the run. This machine's mounts are compared before and after:
the run must leave them as they were.
"""

from __future__ import annotations

import gzip
import json
import math
import os
import re
import shutil
import signal
import stat
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from conftest import ROOT, run, run_json

PERCENTILE_KEYS = ["50", "90", "99", "99.9", "99.99"]
STATS_KEYS = {
    "samples",
    "min_ns",
    "max_ns",
    "mean_ns",
    "stddev_ns",
    "percentiles_ns",
    "histogram",
    "worst",
}
CONFIG_KEYS = {
    "interval_us",
    "distance_us",
    "priority",
    "policy",
    "cpus",
    "loops",
    "duration_s",
    "mlock",
    "dma_latency_held",
    "dma_latency_why",
    "rt",
    "bucket_ns",
    "buckets",
    "break_us",
    "trace_events",
    "timerlat",
}
SYSINFO_KEYS = {
    "kernel",
    "preemption",
    "hz",
    "clock",
    "cpus",
    "cpufreq",
    "cpuidle",
    "rt_throttling",
    "cpu_dma_latency",
    "tracefs",
    "loadavg",
    "hypervisor",
    "warnings",
}
MODELS = {"none", "voluntary", "full", "lazy", "dynamic", "rt", "unknown"}
TRACEFS = Path("/sys/kernel/tracing")


def fifo_permitted() -> bool:
    return os.geteuid() == 0


# The agent's note when it had to mount tracefs itself.
MOUNTED_HERE = f"tracefs was not mounted: mounted on {TRACEFS} for this run and unmounted after"


def tracefs_mounts() -> list[str]:
    """This machine's tracefs and debugfs (which shows tracefs in tracing/) mount points, now."""
    fields = [line.split() for line in Path("/proc/mounts").read_text().splitlines()]
    return [f"{f[2]} {f[1]}" for f in fields if f[2] in {"tracefs", "debugfs"}]


def namespaces_usable() -> bool:
    """Whether a test can mount tracefs in a mount namespace of its own: root, util-linux's
    unshare and a kernel with tracefs."""
    kernel = Path("/proc/filesystems").read_text().split()
    return os.geteuid() == 0 and shutil.which("unshare") is not None and "tracefs" in kernel


def in_namespace(command: list[str], tracefs: bool) -> list[str]:
    """The command in a mount namespace of its own where tracefs is mounted at TRACEFS alone,
    or not at all (nor debugfs, which shows it too). The kernel's tracing state is the same
    either way; this machine's mounts are left alone."""
    none = "awk '$3 ~ /^(tracefs|debugfs)$/ {print $2}' /proc/self/mounts | sort -r | xargs -r umount -l"
    setup = f"{none}; mount -t tracefs nodev {TRACEFS}" if tracefs else none  # sort -r: debugfs/tracing first
    return ["unshare", "--mount", "--propagation", "private", "sh", "-ec", f'{setup}; exec "$@"', "sh", *command]


def read_tracefs(*names: str) -> list[str] | None:
    """Files of tracefs (the kernel's tracing state), read with tracefs mounted in a namespace
    of this test's own, whether or not this machine mounts it; None where that cannot be done."""
    if not namespaces_usable():
        return None
    code = "import json, sys; print(json.dumps([open(f).read() for f in sys.argv[1:]]))"
    proc = run(in_namespace([sys.executable, "-c", code, *(str(TRACEFS / n) for n in names)], tracefs=True))
    return json.loads(proc.stdout)


def online_cpus() -> list[int]:
    text = Path("/sys/devices/system/cpu/online").read_text().strip()
    cpus: list[int] = []
    for part in text.split(","):
        first, _, last = part.partition("-")
        cpus.extend(range(int(first), int(last or first) + 1))
    return cpus


def check_stats(stats: dict, samples: int | None = None) -> None:
    """The invariants of one thread's statistics (pk_hist_json)."""
    assert set(stats) >= STATS_KEYS
    n = stats["samples"]
    if samples is not None:
        assert n == samples
    histogram = stats["histogram"]
    assert sum(histogram["counts"]) + histogram["overflow"] == n
    assert not histogram["counts"] or histogram["counts"][-1] > 0  # trailing zeros trimmed
    if n == 0:
        assert stats["min_ns"] is None and stats["max_ns"] is None and stats["worst"] == []
        return
    low, high = stats["min_ns"], stats["max_ns"]
    assert 0 <= low <= high
    percentiles = [stats["percentiles_ns"][k] for k in PERCENTILE_KEYS]
    assert all(low <= p <= high for p in percentiles)
    assert percentiles == sorted(percentiles)
    assert low <= stats["mean_ns"] <= high and stats["stddev_ns"] >= 0
    worst = stats["worst"]
    assert 1 <= len(worst) <= min(10, n)
    assert worst[0]["ns"] == high
    assert [w["ns"] for w in worst] == sorted((w["ns"] for w in worst), reverse=True)
    assert all(0 <= w["cycle"] < n and w["time_s"] >= 0 for w in worst)
    if histogram["overflow"]:
        assert histogram["overflow_max_ns"] == high
    else:
        assert histogram["overflow_max_ns"] is None
        assert len(histogram["counts"]) == high // histogram["bucket_ns"] + 1


def check_thread(thread: dict, samples: int | None = None) -> None:
    check_stats(thread, samples)
    assert thread["missed"] >= 0
    series = thread["series"]
    block = series["block"]
    assert block >= 1 and block & (block - 1) == 0
    assert len(series["max_ns"]) == math.ceil(thread["samples"] / block) <= 2000
    if thread["samples"]:
        assert max(series["max_ns"]) == thread["max_ns"]


def check_document(doc: dict) -> None:
    assert doc["schema"] == "portkit.rt/1"
    assert set(doc["agent"]) == {"version", "arch", "data_model"}
    assert set(doc["config"]) >= CONFIG_KEYS
    assert set(doc["sysinfo"]) >= SYSINFO_KEYS
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z", doc["started"])
    assert doc["duration_s"] >= 0
    assert doc["stopped"] in {"completed", "interrupted", "break", "error"}
    assert (doc["error"] is None) == (doc["stopped"] != "error")
    assert [t["cpu"] for t in doc["threads"]] == doc["config"]["cpus"]
    for i, thread in enumerate(doc["threads"]):
        assert thread["interval_us"] == doc["config"]["interval_us"] + i * doc["config"]["distance_us"]
        check_thread(thread)
    assert isinstance(doc["notes"], list)


def rt_json(agent: list[str], *args: str, exit_code: int = 0) -> dict:
    doc = run_json(agent, "rt", *args, check_exit=exit_code)
    check_document(doc)
    return doc


@pytest.fixture
def agent(host_agent: Path) -> list[str]:
    return [str(host_agent)]


@pytest.fixture
def nobody_agent(host_agent: Path) -> Iterator[list[str]]:
    """The agent copied where an unprivileged user can run it, run through setpriv."""
    setpriv = shutil.which("setpriv")
    if setpriv is None or os.geteuid() != 0:
        pytest.skip("needs root and setpriv to run the agent as an unprivileged user")
    folder = tempfile.mkdtemp(prefix="pk-rt-")
    try:
        os.chmod(folder, 0o755)
        copy = Path(folder) / "portkit-target"
        shutil.copy(host_agent, copy)
        copy.chmod(copy.stat().st_mode | stat.S_IXOTH | stat.S_IROTH)
        yield [setpriv, "--reuid=65534", "--regid=65534", "--clear-groups", str(copy)]
    finally:
        shutil.rmtree(folder)


# ---------------------------------------------------------------- measuring


def test_fifo_run_shape_and_invariants(agent: list[str]) -> None:
    if not fifo_permitted():
        pytest.skip("SCHED_FIFO needs root here")
    doc = rt_json(agent, "--loops", "200", "--priority", "80", "--interval", "1000")
    config = doc["config"]
    assert config["policy"] == "fifo" and config["priority"] == 80
    assert config["rt"] is True and config["mlock"] is True
    assert config["loops"] == 200 and config["duration_s"] is None
    assert config["cpus"] == sorted(os.sched_getaffinity(0))
    assert config["bucket_ns"] == 1000 and config["buckets"] == 100000
    assert config["break_us"] is None and config["trace_events"] == [] and config["timerlat"] is False
    assert config["dma_latency_held"] is (config["dma_latency_why"] is None)
    assert doc["stopped"] == "completed"
    for thread in doc["threads"]:
        check_thread(thread, samples=200)
    assert doc["timerlat"] is None and doc["break"] is None


def test_no_rt_is_labelled(agent: list[str]) -> None:
    doc = rt_json(agent, "--no-rt", "--loops", "100", "--cpus", "0")
    config = doc["config"]
    assert (config["rt"], config["mlock"], config["policy"], config["priority"]) == (False, False, "other", 0)
    assert config["cpus"] == [0]
    check_thread(doc["threads"][0], samples=100)


def test_distance_and_duration(agent: list[str]) -> None:
    doc = rt_json(agent, "--no-rt", "--duration", "0.3", "--distance", "500")
    assert doc["config"]["duration_s"] == 0.3 and doc["config"]["loops"] is None
    assert doc["stopped"] == "completed"
    for i, thread in enumerate(doc["threads"]):
        assert thread["interval_us"] == 1000 + 500 * i
        # every wake-up was due within the 0.3 s
        assert thread["samples"] * thread["interval_us"] <= 300_000


def test_finer_buckets(agent: list[str]) -> None:
    doc = rt_json(agent, "--no-rt", "--loops", "50", "--bucket-ns", "100", "--buckets", "5000")
    assert (doc["config"]["bucket_ns"], doc["config"]["buckets"]) == (100, 5000)
    for thread in doc["threads"]:
        assert thread["histogram"]["bucket_ns"] == 100
        assert len(thread["histogram"]["counts"]) <= 5000


def test_text_output(agent: list[str]) -> None:
    out = run(agent, "rt", "--no-rt", "--loops", "20", "--cpus", "0").stdout
    assert "SCHED_OTHER" in out and "(not real-time)" in out
    assert re.search(r"^cpu 0 +20 ", out, re.M)
    assert "p99.9" in out


def test_progress_lines(agent: list[str]) -> None:
    proc = run(agent, "rt", "--no-rt", "--duration", "0.7", "--progress", "--json")
    check_document(json.loads(proc.stdout))
    lines = [json.loads(line)["progress"] for line in proc.stderr.splitlines()]
    assert len(lines) >= 2
    for p in lines:
        assert p["phase"] == "measure" and p["total_s"] == 0.7
        assert 0 <= p["elapsed_s"] <= 5  # the main thread's look, however late
        assert p["loops"] == min(t["loops"] for t in p["threads"])
        assert p["max_ns"] == max(t["max_ns"] for t in p["threads"])
    assert [p["loops"] for p in lines] == sorted(p["loops"] for p in lines)


def test_no_progress_on_a_pipe(agent: list[str]) -> None:
    assert run(agent, "rt", "--no-rt", "--duration", "0.4", "--json").stderr == ""


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_signal_mid_run_leaves_a_complete_document(agent: list[str], sig: signal.Signals) -> None:
    args = ["--duration", "20", "--json"] if fifo_permitted() else ["--no-rt", "--duration", "20", "--json"]
    proc = subprocess.Popen([*agent, "rt", *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    time.sleep(0.5)
    proc.send_signal(sig)
    out, err = proc.communicate(timeout=15)
    assert proc.returncode == 0, err
    doc = json.loads(out)
    check_document(doc)
    assert doc["stopped"] == "interrupted"
    assert 0 < doc["duration_s"] < 10
    assert all(t["samples"] > 0 for t in doc["threads"])


# ---------------------------------------------------------------- --break and tracing


def break_at_zero(command: list[str], trace: Path) -> dict:
    """`rt --break 0`, checked but for its trace, which depends on tracefs."""
    doc = rt_json(command, "--loops", "1000", "--break", "0", "--trace-file", str(trace), exit_code=1)
    assert doc["stopped"] == "break"
    brk = doc["break"]
    assert brk["threshold_us"] == 0 and brk["hit"] is True
    assert brk["cpu"] in doc["config"]["cpus"] and brk["cycle"] == 0 and brk["latency_ns"] >= 0
    # The thread that broke stopped at once; the others at their next wake-up
    # (none at all when the break came before their first: a loaded machine
    # may start them late), far from their 1000 loops.
    breaking = [t for t in doc["threads"] if t["cpu"] == brk["cpu"]]
    assert breaking[0]["samples"] == 1
    assert all(t["samples"] <= 10 for t in doc["threads"])
    return doc


def check_trace_saved(doc: dict, trace: Path) -> None:
    brk = doc["break"]
    assert brk["trace_file"] == str(trace) and brk["trace_why"] is None
    marker = f"portkit: latency {brk['latency_ns'] // 1000}.{brk['latency_ns'] % 1000:03d} us on cpu {brk['cpu']}"
    assert marker in trace.read_text()


def test_break_at_zero_stops_at_the_first_sample(agent: list[str], tmp_path: Path) -> None:
    """On this machine as it is: the trace is saved where the agent found tracefs (and may
    use it) or mounted it itself; otherwise it says why. What it found is its own report."""
    trace = tmp_path / "break.trace"
    mounts, tracing_on = tracefs_mounts(), read_tracefs("tracing_on")
    doc = break_at_zero(agent, trace)
    found = doc["sysinfo"]["tracefs"]["path"] is not None  # looked for before the run mounts anything
    mounted_here = MOUNTED_HERE in doc["notes"]
    assert not (found and mounted_here)
    if mounted_here or (found and os.geteuid() == 0):
        check_trace_saved(doc, trace)
    else:
        assert doc["break"]["trace_file"] is None and doc["break"]["trace_why"]
        if not found:
            assert f"mounting it on {TRACEFS} failed" in doc["break"]["trace_why"]
    assert tracefs_mounts() == mounts  # what it mounted, it unmounted
    assert read_tracefs("tracing_on") == tracing_on  # put back


@pytest.mark.parametrize("mounted", [True, False], ids=["tracefs-mounted", "tracefs-not-mounted"])
def test_break_saves_the_trace_whether_or_not_tracefs_is_mounted(
    agent: list[str], tmp_path: Path, mounted: bool
) -> None:
    """Both kinds of machine, whichever this one is: tracefs mounted at boot, or not (the agent
    mounts it for the run)."""
    if not namespaces_usable():
        pytest.skip("needs root, unshare and a kernel with tracefs")
    trace = tmp_path / "break.trace"
    tracing_on = read_tracefs("tracing_on")
    doc = break_at_zero(in_namespace(agent, tracefs=mounted), trace)
    assert doc["sysinfo"]["tracefs"]["path"] == (str(TRACEFS) if mounted else None)
    assert (MOUNTED_HERE in doc["notes"]) is not mounted
    check_trace_saved(doc, trace)
    assert read_tracefs("tracing_on") == tracing_on  # put back


def test_break_not_reached(agent: list[str]) -> None:
    doc = rt_json(agent, "--no-rt", "--loops", "30", "--break", "1000000")
    assert doc["stopped"] == "completed"
    assert doc["break"]["hit"] is False and doc["break"]["cpu"] is None and doc["break"]["trace_file"] is None
    assert doc["break"]["trace_why"]


def test_trace_events_are_put_back(agent: list[str], tmp_path: Path) -> None:
    groups = ["sched", "irq"]
    enables = [f"events/{g}/enable" for g in groups]
    before, mounts = read_tracefs(*enables), tracefs_mounts()
    if before is None:
        pytest.skip("reading tracefs needs root, unshare and a kernel with tracefs")
    trace = tmp_path / "events.trace"
    doc = rt_json(
        agent, "--loops", "100", "--break", "0", "--trace-events", "sched,irq", "--trace-file", str(trace), exit_code=1
    )
    # Its one note, where it mounted tracefs itself: it found none before the run.
    found = doc["sysinfo"]["tracefs"]["path"] is not None
    assert doc["config"]["trace_events"] == groups and doc["notes"] == ([] if found else [MOUNTED_HERE])
    assert read_tracefs(*enables) == before
    assert tracefs_mounts() == mounts
    assert re.search(r"sched_(switch|wakeup)", trace.read_text())


def test_timerlat_measures_or_says_why(agent: list[str]) -> None:
    doc = rt_json(agent, "--no-rt", "--loops", "100", "--timerlat")
    timerlat = doc["timerlat"]
    assert {"available", "ran", "why", "period_us", "duration_s", "lost_events", "threads"} <= set(timerlat)
    assert timerlat["period_us"] == 1000
    # The kernel's tracers (the agent mounts tracefs to run timerlat if need be); where tracefs
    # cannot be read here, those the agent found.
    kernel = read_tracefs("available_tracers")
    tracers = kernel[0].split() if kernel else doc["sysinfo"]["tracefs"]["tracers"]
    if "timerlat" in tracers:
        assert timerlat["available"] is True and timerlat["ran"] is True and timerlat["why"] is None
        assert [t["cpu"] for t in timerlat["threads"]] == doc["config"]["cpus"]
        for thread in timerlat["threads"]:
            check_stats(thread["irq"])
            check_stats(thread["thread"])
        current = read_tracefs("current_tracer")
        assert current is None or current[0].strip() != "timerlat"
    else:
        assert timerlat["available"] is False and timerlat["ran"] is False
        assert timerlat["threads"] == [] and timerlat["duration_s"] is None
        assert "TIMERLAT" in timerlat["why"] or "tracefs" in timerlat["why"]
        if tracers:
            assert "CONFIG_TIMERLAT_TRACER" in timerlat["why"]


# ---------------------------------------------------------------- privileges


def test_without_privileges_exit_3_with_the_fix(nobody_agent: list[str]) -> None:
    proc = run(nobody_agent, "rt", "--loops", "10", "--json", check_exit=3)
    assert proc.stdout == ""
    lines = proc.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("portkit-target rt: ")
    assert "SCHED_FIFO priority 80" in lines[0] and "--no-rt" in lines[0] and "root" in lines[0]


def test_without_privileges_no_rt_runs(nobody_agent: list[str]) -> None:
    doc = run_json(nobody_agent, "rt", "--no-rt", "--loops", "20")
    check_document(doc)
    assert doc["config"]["rt"] is False
    assert doc["config"]["dma_latency_held"] is False and "Permission denied" in doc["config"]["dma_latency_why"]


# ---------------------------------------------------------------- usage


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--priority", "0"], "--priority '0': expected a whole number from 1 to 99"),
        (["--policy", "deadline"], "--policy 'deadline': expected fifo, rr or other"),
        (["--policy", "other", "--priority", "50"], "--priority needs --policy fifo or rr"),
        (["--no-rt", "--policy", "fifo"], "--no-rt measures under SCHED_OTHER"),
        (["--cpus", "1023"], "--cpus: CPU 1023 is not online or not allowed here"),
        (["--cpus", "0-"], "--cpus '0-': expected all or a list"),
        (["--duration", "1x"], "--duration '1x': expected seconds"),
        (["--interval", "5"], "--interval '5': expected a whole number from 10 to 1000000"),
        (["--trace-file", "x"], "--trace-file is where --break saves the trace: it needs --break"),
        (["--trace-events", "sched;rm"], "--trace-events: 'sched;rm' is not an event group name"),
        (["--bogus"], "unknown option '--bogus' (try --help)"),
        (["extra"], "unexpected argument 'extra' (try --help)"),
    ],
)
def test_usage_errors_are_one_line(agent: list[str], args: list[str], message: str) -> None:
    proc = run(agent, "rt", *args, check_exit=2)
    assert proc.stdout == ""
    assert proc.stderr.count("\n") == 1 and proc.stderr.startswith("portkit-target rt: ")
    assert message in proc.stderr


def test_help(agent: list[str]) -> None:
    out = run(agent, "rt", "--help").stdout
    assert "portkit-target rt sysinfo" in out and "--break US" in out and "examples:" in out


# ---------------------------------------------------------------- sysinfo


def kernel_config() -> str | None:
    for path in (Path("/proc/config.gz"), Path(f"/boot/config-{os.uname().release}")):
        try:
            data = path.read_bytes()
        except OSError:
            continue
        return gzip.decompress(data).decode() if path.suffix == ".gz" else data.decode()
    return None


def test_sysinfo_against_the_system(agent: list[str]) -> None:
    doc = run_json(agent, "rt", "sysinfo")
    assert doc["schema"] == "portkit.rt-sysinfo/1"
    assert set(doc) >= SYSINFO_KEYS
    uname = os.uname()
    assert (doc["kernel"]["release"], doc["kernel"]["version"], doc["kernel"]["machine"]) == (
        uname.release,
        uname.version,
        uname.machine,
    )
    assert doc["preemption"]["model"] in MODELS
    assert doc["cpus"]["online"] == online_cpus() and doc["cpus"]["count"] == len(online_cpus())
    runtime = int(Path("/proc/sys/kernel/sched_rt_runtime_us").read_text())
    period = int(Path("/proc/sys/kernel/sched_rt_period_us").read_text())
    assert doc["rt_throttling"] == {"runtime_us": runtime, "period_us": period}
    clocksource = Path("/sys/devices/system/clocksource/clocksource0")
    assert doc["clock"]["clocksource"] == (clocksource / "current_clocksource").read_text().strip()
    assert doc["clock"]["available"] == (clocksource / "available_clocksource").read_text().split()
    assert doc["clock"]["monotonic_resolution_ns"] == round(time.clock_getres(time.CLOCK_MONOTONIC) * 1e9)
    assert len(doc["loadavg"]) == 3
    assert doc["cpufreq"]["available"] == any(
        Path(f"/sys/devices/system/cpu/cpu{c}/cpufreq/scaling_governor").exists() for c in online_cpus()
    )
    assert all(set(w) == {"id", "about", "message"} and w["message"] for w in doc["warnings"])
    assert all(re.fullmatch(r"PKS1\d\d", w["id"]) for w in doc["warnings"])

    config = kernel_config()
    if config is None:
        assert doc["hz"] is None and doc["kernel"]["config"] is None and doc["kernel"]["config_why"]
    else:
        hz = re.search(r"^CONFIG_HZ=(\d+)$", config, re.M)
        assert doc["hz"] == (int(hz.group(1)) if hz else None)
        if "CONFIG_PREEMPT_RT=y" in config:
            assert doc["preemption"]["model"] == "rt"
        elif "CONFIG_PREEMPT_DYNAMIC=y" in config:
            assert doc["preemption"]["model"] == "dynamic"
            assert doc["preemption"]["dynamic_mode"] in {"none", "voluntary", "full", "lazy"}

    # sysinfo mounts nothing: it reports tracefs as this machine has it mounted, or not.
    tracefs = doc["tracefs"]
    assert (tracefs["path"] is None) == (tracefs_mounts() == [])
    if tracefs["path"] is None:
        assert tracefs["tracers"] == [] and "not mounted" in tracefs["why"]
    elif os.access(Path(tracefs["path"]) / "available_tracers", os.R_OK):
        tracers = (Path(tracefs["path"]) / "available_tracers").read_text().split()
        assert tracefs["tracers"] == tracers
        assert tracefs["timerlat"] == ("timerlat" in tracers) and tracefs["osnoise"] == ("osnoise" in tracers)
    if not tracefs["timerlat"]:
        assert tracefs["why"]
        assert any(w["about"] == "tracefs" for w in doc["warnings"])


def test_rt_document_embeds_sysinfo(agent: list[str]) -> None:
    sysinfo = run_json(agent, "rt", "sysinfo")
    doc = rt_json(agent, "--no-rt", "--loops", "10")
    for key in SYSINFO_KEYS - {"loadavg", "warnings"}:
        assert doc["sysinfo"][key] == sysinfo[key], key


def test_sysinfo_warning_ids_are_distinct_and_documented() -> None:
    """Each condition warns under its own rule id, and docs/formats.md lists
    exactly those ids, so a report can cite one."""
    source = (ROOT / "native" / "rt" / "rt_sysinfo_warnings.c").read_text()
    ids = re.findall(r'warn\(s, "(PKS\d{3})"', source)
    assert ids and len(ids) == len(set(ids))
    documented = re.findall(r"^\| (PKS\d{3}) \|", (ROOT / "docs" / "formats.md").read_text(), re.MULTILINE)
    assert documented == sorted(ids)


def test_sysinfo_text(agent: list[str]) -> None:
    out = run(agent, "rt", "sysinfo").stdout
    for label in ("kernel", "preemption", "clocksource", "cpufreq", "cpuidle", "RT throttling", "timerlat"):
        assert re.search(rf"^{label}\b", out, re.M), label


# ---------------------------------------------------------------- emulated targets


@pytest.mark.parametrize(
    ("triple", "arch"), [("aarch64-linux-gnu", "aarch64"), ("arm-linux-gnueabihf", "arm"), ("mips-linux-gnu", "mips")]
)
def test_cross_agents_under_qemu(cross_agent, triple: str, arch: str) -> None:
    target = cross_agent(triple)
    doc = rt_json(target, "--no-rt", "--loops", "50", "--cpus", "0")
    assert doc["agent"]["arch"] == arch
    check_thread(doc["threads"][0], samples=50)
    sysinfo = run_json(target, "rt", "sysinfo")
    assert sysinfo["schema"] == "portkit.rt-sysinfo/1" and sysinfo["preemption"]["model"] in MODELS

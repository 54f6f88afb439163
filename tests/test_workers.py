"""core.workers: a task that crashes or hangs its worker fails alone; every
other task still gets its result, in order."""

from __future__ import annotations

import ctypes
import multiprocessing
import os
import signal
import time

import pytest

from portkit.core.workers import Beside, Failed, Host, run_isolated, spare_workers


def work(task: tuple[str, int]) -> int:
    kind, value = task
    if kind == "segv":
        ctypes.string_at(0)  # a crash inside C code, as libclang's stack overflow is
    if kind == "hang":
        time.sleep(300)
    if kind == "exit":
        os._exit(value)
    if kind == "raise":
        raise ValueError(f"bad task {value}")
    return value * value


@pytest.mark.parametrize("jobs", [1, 2, 4])
def test_results_come_back_in_the_tasks_order(jobs: int) -> None:
    assert run_isolated(work, [("ok", n) for n in range(12)], jobs, timeout=60) == [n * n for n in range(12)]


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_crash_fails_its_task_only(jobs: int) -> None:
    tasks = [("ok", 2), ("segv", 0), ("ok", 3), ("exit", 7), ("ok", 4)]
    assert run_isolated(work, tasks, jobs, timeout=60) == [
        4,
        Failed("was killed by SIGSEGV"),
        9,
        Failed("exited with status 7"),
        16,
    ]


def test_a_task_past_its_time_limit_fails_and_its_worker_goes() -> None:
    results = run_isolated(work, [("hang", 0), ("ok", 5)], jobs=2, timeout=0.5)
    assert results == [Failed("did not finish within 0.5 s"), 25]
    assert multiprocessing.active_children() == []  # no stuck worker stays behind


def test_an_exception_of_the_work_is_raised_here() -> None:
    with pytest.raises(ValueError, match="bad task 3"):
        run_isolated(work, [("ok", 1), ("raise", 3)], jobs=1, timeout=60)


def prepared() -> None:
    """What a host does first: here, something a worker can tell it did."""
    os.environ["PORTKIT_TEST_HOST_PREPARED"] = str(os.getpid())


def prepared_pid(_task: object) -> str:
    return os.environ.get("PORTKIT_TEST_HOST_PREPARED", "")


def test_a_host_gives_what_run_isolated_gives() -> None:
    tasks = [("ok", 2), ("segv", 0), ("ok", 3), ("exit", 7), ("ok", 4)]
    host = Host(lambda: None)
    try:
        ended: list[int] = []
        assert host.run(work, tasks, 2, timeout=60, done=ended.append) == run_isolated(work, tasks, 2, timeout=60)
        assert sorted(ended) == list(range(len(tasks)))
        assert host.run(work, [("ok", 6)], 1, timeout=60) == [36]  # a host serves run after run
        with pytest.raises(ValueError, match="bad task 3"):
            host.run(work, [("ok", 1), ("raise", 3)], 1, timeout=60)
        assert host.run(work, [("hang", 0), ("ok", 5)], 2, timeout=0.5) == [Failed("did not finish within 0.5 s"), 25]
    finally:
        host.stop()
    assert not host.process.is_alive()


def test_a_hosts_workers_are_forked_after_it_prepared() -> None:
    host = Host(prepared)
    try:
        (pid,) = host.run(prepared_pid, [None], 1, timeout=60)
    finally:
        host.stop()
    assert pid == str(host.process.pid) and os.environ.get("PORTKIT_TEST_HOST_PREPARED") is None


def test_when_the_host_is_gone_this_process_does_the_work() -> None:
    host = Host(lambda: None)
    host.process.kill()
    host.process.join()
    assert host.run(work, [("ok", n) for n in range(5)], 2, timeout=60) == [n * n for n in range(5)]
    assert multiprocessing.active_children() == []


def test_a_host_whose_parent_stops_waiting_stops_its_workers() -> None:
    host = Host(lambda: None)
    host.conn.send((work, [("hang", 0), ("hang", 1)], 2, None, 0))
    time.sleep(1)  # both workers busy
    host.conn.close()  # the parent went away (Ctrl-C)
    host.process.join(timeout=30)
    assert host.process.exitcode == 0


def note_pid_then_hang(path: str) -> None:
    with open(path, "w") as out:
        out.write(str(os.getpid()))
    time.sleep(300)


def test_a_worker_whose_parent_is_killed_goes_too(tmp_path) -> None:
    host = Host(lambda: None)
    pidfile = tmp_path / "worker.pid"
    host.conn.send((note_pid_then_hang, [str(pidfile)], 1, None, 0))
    for _ in range(300):
        if pidfile.exists() and pidfile.read_text():
            break
        time.sleep(0.1)
    worker = int(pidfile.read_text())
    host.process.kill()  # no time to stop its workers
    host.process.join()
    for _ in range(100):
        try:
            os.kill(worker, 0)
        except ProcessLookupError:
            break
        time.sleep(0.1)
    else:
        os.kill(worker, 9)
        raise AssertionError("the worker outlived its parent")
    host.stop()


# Beside: one task's other share, in a child forked beside this process


def spare_after(seconds: float) -> int:
    """What spare_workers() says once this task has run for a while."""
    time.sleep(seconds)
    return spare_workers()


def test_a_worker_is_spare_once_no_task_waits_and_the_others_are_done() -> None:
    # the first task ends at once; the second asks a second later, the other worker then idle
    assert run_isolated(spare_after, [0.0, 1.0], 2, timeout=60)[1] == 1
    # four tasks for two workers: the first asks while two still wait for one
    assert run_isolated(spare_after, [0.0, 0.5, 0.5, 0.5], 2, timeout=60)[0] == 0
    # one worker is never spare; nor is anyone outside a worker
    assert run_isolated(spare_after, [0.0, 0.5], 1, timeout=60) == [0, 0]
    assert spare_workers() == 0


def test_beside_gives_what_its_child_worked_out() -> None:
    big = "x" * 1_000_000  # more than a pipe holds: read before the child is waited for
    with Beside(lambda: [big, os.getpid()]) as child:
        here = os.getpid()
        text, pid = child.result()
    assert text == big and pid != here


def test_beside_gives_none_when_its_child_raises_or_dies() -> None:
    def raises() -> int:
        raise ValueError("a rule tripped")

    def dies() -> int:
        os.kill(os.getpid(), signal.SIGSEGV)
        return 1

    for work in (raises, dies):
        with Beside(work) as child:
            assert child.result() is None


def test_beside_leaves_no_child_when_its_answer_is_not_wanted() -> None:
    with pytest.raises(KeyError), Beside(lambda: time.sleep(60)) as child:
        pid = child._pid
        raise KeyError("the parent's own share failed")
    with pytest.raises(ChildProcessError):
        os.waitpid(pid, os.WNOHANG)  # killed and reaped


def test_beside_without_a_process_to_fork_gives_none(monkeypatch: pytest.MonkeyPatch) -> None:
    def no_fork() -> int:
        raise BlockingIOError(11, "Resource temporarily unavailable")

    monkeypatch.setattr(os, "fork", no_fork)
    with Beside(lambda: 1) as child:
        assert child.result() is None  # the caller does the work itself

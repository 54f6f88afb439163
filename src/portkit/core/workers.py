"""Work that may crash this process, done in worker processes instead.

libclang runs inside the Python process: a file that overflows its stack
kills it with SIGSEGV, and every result with it. Here each task runs in a
forked worker (forked, so it shares what this process already loaded, such as
libclang); a worker that dies or runs out of time fails only its own task, is
replaced, and the other tasks go on. N workers also give `-j N`.
"""

from __future__ import annotations

import faulthandler
import multiprocessing
import os
import signal
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from multiprocessing.connection import Connection, wait
from multiprocessing.process import BaseProcess
from typing import Generic, TypeVar

Task = TypeVar("Task")
Result = TypeVar("Result")


@dataclass(frozen=True)
class Failed:
    """A task whose worker died or ran out of time: why, in words."""

    reason: str  # "was killed by SIGSEGV", "did not finish within 120 s"


def default_jobs() -> int:
    """Every core this process may run on."""
    return len(os.sched_getaffinity(0))


def run_isolated(
    work: Callable[[Task], Result],
    tasks: Sequence[Task],
    jobs: int,
    timeout: float | None,
    stack_bytes: int = 0,
    done: Callable[[int], None] | None = None,
) -> list[Result | Failed]:
    """work(task) for every task, in up to `jobs` worker processes; the results
    in the tasks' order. `timeout` bounds each task (None: no bound);
    `stack_bytes` (when not 0) is the stack of the thread that runs it, for
    deeply recursive C code; done(index) is called as each task ends (for a
    progress line). An exception raised by work() is raised here."""
    results: list[Result | Failed | None] = [None] * len(tasks)
    pending = list(range(len(tasks)))[::-1]  # popped from the end: first task first
    idle: list[_Worker] = []
    busy: list[_Worker] = []
    try:
        while pending or busy:
            while pending and len(busy) < jobs:
                worker = idle.pop() if idle else _Worker(work, stack_bytes)
                worker.give(pending.pop(), tasks, timeout)
                busy.append(worker)
            for worker in _ready(busy):
                busy.remove(worker)
                index, outcome = worker.take()
                results[index] = outcome
                if done is not None:
                    done(index)
                if isinstance(outcome, Failed):
                    worker.stop()  # dead or stuck: a fresh one takes the next task
                else:
                    idle.append(worker)
    finally:
        for worker in idle + busy:
            worker.stop()
    return results  # type: ignore[return-value]  # every slot is filled


def _ready(busy: list[_Worker]) -> list[_Worker]:
    """Waits until some worker has a result, has died or has run out of time."""
    deadlines = [w.deadline for w in busy if w.deadline is not None]
    limit = max(0.0, min(deadlines) - time.monotonic()) if deadlines else None
    handles = {h: w for w in busy for h in (w.conn, w.process.sentinel)}
    ready = {handles[h]: None for h in wait(list(handles), limit)}
    now = time.monotonic()
    ready.update({w: None for w in busy if w.deadline is not None and w.deadline <= now})
    return list(ready)


class _Worker(Generic[Task, Result]):
    def __init__(self, work: Callable[[Task], Result], stack_bytes: int) -> None:
        self.conn, child = multiprocessing.Pipe()
        context = multiprocessing.get_context("fork")
        self.process: BaseProcess = context.Process(target=_serve, args=(child, work, stack_bytes), daemon=True)
        self.process.start()
        child.close()
        self.index = -1
        self.timeout: float | None = None
        self.deadline: float | None = None

    def give(self, index: int, tasks: Sequence[Task], timeout: float | None) -> None:
        self.index, self.timeout = index, timeout
        self.deadline = time.monotonic() + timeout if timeout is not None else None
        self.conn.send(tasks[index])

    def take(self) -> tuple[int, Result | Failed]:
        """The outcome of the task given: its result, or why there is none."""
        if self.conn.poll():
            try:
                ok, value = self.conn.recv()
            except EOFError:  # it died without a word
                return self.index, self._death()
            if not ok:
                raise value
            return self.index, value
        late = self.deadline is not None and time.monotonic() >= self.deadline
        if late and self.process.is_alive():
            return self.index, Failed(f"did not finish within {self.timeout:g} s")
        return self.index, self._death()  # its sentinel fired: it is exiting, if not gone

    def _death(self) -> Failed:
        self.process.join()
        code = self.process.exitcode or 0
        return Failed(f"was killed by {signal.Signals(-code).name}" if code < 0 else f"exited with status {code}")

    def stop(self) -> None:
        if self.process.is_alive():
            self.process.kill()
        self.process.join()
        self.conn.close()


def _serve(conn: Connection, work: Callable, stack_bytes: int) -> None:
    """A worker's life: a task in, (True, result) or (False, exception) out."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle
    faulthandler.disable()  # a crash is reported by the parent, in one line, not as a stack dump
    if stack_bytes:
        threading.stack_size(stack_bytes)
    while True:
        try:
            task = conn.recv()
        except EOFError:
            return
        outcome: list[tuple[bool, object]] = []

        def one(task: object = task, outcome: list = outcome) -> None:
            try:
                outcome.append((True, work(task)))
            except BaseException as err:  # raised in the parent, where it can be reported
                outcome.append((False, err))

        thread = threading.Thread(target=one)
        thread.start()
        thread.join()
        try:
            conn.send(outcome[0])
        except Exception as err:  # a result or exception that does not pickle
            conn.send((False, RuntimeError(f"a worker's answer could not be sent back: {err}")))

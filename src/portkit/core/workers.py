"""Work that may crash this process, done in worker processes instead.

libclang runs inside the Python process: a file that overflows its stack
kills it with SIGSEGV, and every result with it. Here each task runs in a
forked worker (forked, so it shares what this process already loaded, such as
libclang); a worker that dies or runs out of time fails only its own task, is
replaced, and the other tasks go on. N workers also give `-j N`.

A command whose workers run code the command itself does not need (scan:
the rules and the walk) can have a Host forked as the program starts, before
that code is imported: the host imports it while the command reads its
input, then forks the workers from itself and hands their results on. The
import then overlaps the command's start instead of preceding the first
parse; a host that is gone leaves the work to run_isolated here.
"""

from __future__ import annotations

import contextlib
import contextvars
import ctypes
import faulthandler
import mmap
import multiprocessing
import os
import pickle
import signal
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from multiprocessing.connection import Connection, wait
from multiprocessing.process import BaseProcess
from types import TracebackType
from typing import Generic, TypeVar

PR_SET_PDEATHSIG = 1  # <linux/prctl.h>
# In a worker's task: its run's count of spare workers (spare_workers), in memory the run's processes share.
_SPARE: contextvars.ContextVar[ctypes.c_int | None] = contextvars.ContextVar("spare_workers", default=None)
Task = TypeVar("Task")
Result = TypeVar("Result")


@dataclass(frozen=True)
class Failed:
    """A task whose worker died or ran out of time: why, in words."""

    reason: str  # "was killed by SIGSEGV", "did not finish within 120 s"


def spare_workers() -> int:
    """In a task of run_isolated: how many of its run's `jobs` no task keeps
    busy now (no task waits, and the other workers are done with theirs), so
    that work forked beside the task (Beside) takes no CPU from another; 0
    outside a worker."""
    spare = _SPARE.get()
    return spare.value if spare is not None else 0


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
    ended: Callable[[int, Result | Failed], None] | None = None,
    abandoned: Connection | None = None,
) -> list[Result | Failed]:
    """work(task) for every task, in up to `jobs` worker processes; the results
    in the tasks' order. `timeout` bounds each task (None: no bound);
    `stack_bytes` (when not 0) is the stack of the thread that runs it, for
    deeply recursive C code; done(index) is called as each task ends (for a
    progress line), ended(index, outcome) before it (a host hands it on). An
    exception raised by work() is raised here. `abandoned`: a connection
    whose end means nobody waits for the results any more (a host's parent
    has gone): the workers are stopped."""
    results: list[Result | Failed | None] = [None] * len(tasks)
    pending = list(range(len(tasks)))[::-1]  # popped from the end: first task first
    idle: list[_Worker] = []
    busy: list[_Worker] = []
    shared = mmap.mmap(-1, ctypes.sizeof(ctypes.c_int))  # anonymous and shared: the workers forked see it change
    spare = ctypes.c_int.from_buffer(shared)
    try:
        while pending or busy:
            while pending and len(busy) < jobs:
                worker = idle.pop() if idle else _Worker(work, stack_bytes, spare)
                worker.give(pending.pop(), tasks, timeout)
                busy.append(worker)
            spare.value = 0 if pending else jobs - len(busy)
            for worker in _ready(busy, abandoned):
                busy.remove(worker)
                try:
                    index, outcome = worker.take()
                    results[index] = outcome
                    if ended is not None:
                        ended(index, outcome)
                    if done is not None:
                        done(index)
                except BaseException:  # work() raised, or the caller stops: this worker is neither busy nor idle
                    worker.stop()
                    raise
                if isinstance(outcome, Failed):
                    worker.stop()  # dead or stuck: a fresh one takes the next task
                else:
                    idle.append(worker)
    finally:
        for worker in idle + busy:
            worker.stop()
        del spare  # the view first: a mapping with one cannot close
        shared.close()
    return results  # type: ignore[return-value]  # every slot is filled


def _ready(busy: list[_Worker], abandoned: Connection | None = None) -> list[_Worker]:
    """Waits until some worker has a result, has died or has run out of time."""
    deadlines = [w.deadline for w in busy if w.deadline is not None]
    limit = max(0.0, min(deadlines) - time.monotonic()) if deadlines else None
    handles: dict[object, _Worker | None] = {h: w for w in busy for h in (w.conn, w.process.sentinel)}
    if abandoned is not None:
        handles[abandoned] = None
    woken = wait(list(handles), limit)
    if abandoned is not None and abandoned in woken:
        raise _Abandoned
    ready: dict[_Worker, None] = {handles[h]: None for h in woken}  # type: ignore[misc]
    now = time.monotonic()
    ready.update({w: None for w in busy if w.deadline is not None and w.deadline <= now})
    return list(ready)


class _Worker(Generic[Task, Result]):
    def __init__(self, work: Callable[[Task], Result], stack_bytes: int, spare: ctypes.c_int) -> None:
        self.conn, child = multiprocessing.Pipe()
        context = multiprocessing.get_context("fork")
        arguments = (child, work, stack_bytes, spare)
        self.process: BaseProcess = context.Process(target=_serve, args=arguments, daemon=True)
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


def _die_with_parent() -> None:
    """A worker whose parent is gone (a host killed, say) is killed by the
    kernel: it would otherwise wait on its connection for ever, since the
    workers forked after it hold copies of the parent's end (Linux's prctl)."""
    parent = os.getppid()
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    if os.getppid() != parent:  # it went before the call
        os._exit(1)


def _serve(conn: Connection, work: Callable, stack_bytes: int, spare: ctypes.c_int) -> None:
    """A worker's life: a task in, (True, result) or (False, exception) out;
    spare: its run's count of spare workers, for spare_workers()."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle
    _die_with_parent()
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
            _SPARE.set(spare)  # a thread starts with a context of its own
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


class Beside(Generic[Result]):
    """work() in a child forked now, while this process does its own share of
    one large task: for work that needs what only this process holds (a parse
    in libclang's memory, which no pipe can carry), and a CPU that would
    otherwise wait. result() is the child's answer, or None if it died or
    raised, or no child could be forked (the caller then does that share
    itself, and meets the same fault where it is reported). Used as a context manager: the child is reaped, or
    killed if its answer is not wanted."""

    def __init__(self, work: Callable[[], Result]) -> None:
        self._read, write = os.pipe()
        try:
            self._pid = os.fork()
        except OSError:  # no process to be had (EAGAIN, ENOMEM): the caller does it all
            self._pid = 0
            os.close(write)
            os.close(self._read)
            self._read = -1
            return
        if self._pid == 0:
            os.close(self._read)
            _answer(write, work)
        os.close(write)

    def result(self) -> Result | None:
        if self._read < 0:
            return None
        with os.fdopen(self._read, "rb") as answer:
            self._read = -1
            data = answer.read()  # before waiting: a large answer fills the pipe
        self._reap()
        try:
            ok, value = pickle.loads(data)
        except Exception:  # it died before it had written all
            return None
        return value if ok else None

    def _reap(self) -> None:
        if self._pid:
            os.waitpid(self._pid, 0)
            self._pid = 0

    def __enter__(self) -> Beside[Result]:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        if self._pid:
            with contextlib.suppress(ProcessLookupError):
                os.kill(self._pid, signal.SIGKILL)
            self._reap()
        if self._read >= 0:
            os.close(self._read)


def _answer(write: int, work: Callable[[], object]) -> None:
    """A Beside child's life: work(), its pickled (ok, answer) written, then
    gone without Python's teardown (the parent's buffers and exit handlers
    are the parent's); a crash is the parent's to report, as a worker's is,
    not a stack dump of the child's."""
    _die_with_parent()
    faulthandler.disable()
    try:
        data = pickle.dumps((True, work()))
    except BaseException:
        data = pickle.dumps((False, None))
    with contextlib.suppress(OSError), os.fdopen(write, "wb") as out:
        out.write(data)
    os._exit(0)


class _Abandoned(Exception):
    """A host's parent went away while its workers were busy."""


class Host:
    """A process forked now, while this one is small and has no other thread
    (forking then is safe), which runs prepare() (imports the code the tasks
    run, loads libraries) at once and then runs run_isolated for this
    process: its workers are forked from it, with all that already loaded."""

    def __init__(self, prepare: Callable[[], None]) -> None:
        self.conn, child = multiprocessing.Pipe()
        context = multiprocessing.get_context("fork")
        # not daemonic: a daemonic process may not have children (it leaves when this one closes conn)
        self.process: BaseProcess = context.Process(target=_host, args=(child, self.conn, prepare))
        self.process.start()
        child.close()

    def run(
        self,
        work: Callable[[Task], Result],
        tasks: Sequence[Task],
        jobs: int,
        timeout: float | None,
        stack_bytes: int = 0,
        done: Callable[[int], None] | None = None,
    ) -> list[Result | Failed]:
        """run_isolated's answer, worked out in the host (work must pickle: a
        module's function, or a partial of one). A host that has gone (it
        crashed, or was killed) leaves the tasks it did not finish to
        run_isolated in this process."""
        results: dict[int, Result | Failed] = {}
        message: tuple = ()
        try:
            self.conn.send((work, list(tasks), jobs, timeout, stack_bytes))
            while (message := self._next())[0] == "ended":
                _, index, outcome = message
                results[index] = outcome
                if done is not None:
                    done(index)
        except (EOFError, OSError):  # the host is gone: this process does the rest
            self.stop()
            rest = [i for i in range(len(tasks)) if i not in results]
            report = (lambda k: done(rest[k])) if done is not None else None
            for index, outcome in zip(
                rest, run_isolated(work, [tasks[i] for i in rest], jobs, timeout, stack_bytes, report), strict=True
            ):
                results[index] = outcome
        if message[:1] == ("raised",):
            raise message[1]
        return [results[i] for i in range(len(tasks))]

    def _next(self) -> tuple:
        """The host's next message; EOFError once it is gone (its sentinel: a
        worker it forked may still hold a copy of its end of the connection)."""
        if not self.conn.poll() and self.conn not in wait([self.conn, self.process.sentinel]):
            raise EOFError
        return self.conn.recv()

    def stop(self) -> None:
        self.conn.close()  # the host's end sees EOF and leaves
        if self.process.is_alive():
            self.process.kill()
        self.process.join()


def _host(conn: Connection, parents_end: Connection, prepare: Callable[[], None]) -> None:
    """A host's life: prepare, then each (work, tasks, ...) run, every outcome
    sent as it ends; it leaves when its parent closes the connection."""
    parents_end.close()  # else the parent's closing it would not reach conn as its end
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's; its going away ends the run
    with contextlib.suppress(Exception):  # the workers import it again and report what fails
        prepare()
    while True:
        try:
            work, tasks, jobs, timeout, stack_bytes = conn.recv()
        except (EOFError, OSError):
            os._exit(0)
        try:
            run_isolated(
                work,
                tasks,
                jobs,
                timeout,
                stack_bytes,
                ended=lambda index, outcome: conn.send(("ended", index, outcome)),
                abandoned=conn,
            )
            conn.send(("end",))
        except (_Abandoned, OSError):  # the parent went away (Ctrl-C): nobody reads any more
            os._exit(0)
        except Exception as err:  # work() raised: the parent reports it
            try:
                conn.send(("raised", err))
            except Exception:  # it does not pickle
                conn.send(("raised", RuntimeError(f"a task failed: {err}")))

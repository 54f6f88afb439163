"""One booted VM: qemu-system with the serial console on its stdin and
stdout, the init serving agent runs over it (core.vm.console).

A reader thread reads the console as it comes: replies go to the run they
name; every other line is kept (the last ones) for the message when the
kernel fails, and "Kernel panic" ends the VM at once. Each agent run is a
GuestProcess, which looks to core.target.Running like a local process:
its stdout and stderr are pipes, it can be polled and waited for."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import threading
import time
from collections import deque
from pathlib import Path

from portkit.core.errors import EnvironmentProblem
from portkit.core.progress import StatusLine, duration
from portkit.core.vm import console

BOOT_SECONDS = 180.0  # from launch to the init's "ready": 3-15 s under TCG on a busy 2-core machine
POWEROFF_SECONDS = 15.0
KEPT_LINES = 5000  # console lines kept for the log of a boot that failed (a boot prints a few hundred)
PANIC = "Kernel panic"


class GuestProcess:
    """An agent run inside the VM, as subprocess.Popen's caller sees one."""

    def __init__(self, session: Session, run: int) -> None:
        self.session, self.run = session, run
        out_r, self._out_w = os.pipe()
        err_r, self._err_w = os.pipe()
        self.stdout = os.fdopen(out_r, "r", errors="replace")
        self.stderr = os.fdopen(err_r, "r", errors="replace")
        self.pid: int | None = None  # the agent's pid in the VM
        self.returncode: int | None = None
        self.pending_signal: str | None = None  # asked for before the VM said it started
        self.stdout_lines: list[str] = []
        self.file: tuple[str, list[str]] | None = None  # a returned file being received
        self.returned: dict[str, bytes | None] = {}  # path -> bytes (None: not written)
        self._ended = threading.Event()

    def poll(self) -> int | None:
        return self.returncode

    def wait(self, timeout: float | None = None) -> int:
        if not self._ended.wait(timeout):
            raise subprocess.TimeoutExpired(f"run {self.run}", timeout or 0)
        assert self.returncode is not None
        return self.returncode

    def error_line(self, text: str) -> None:
        with contextlib.suppress(OSError):
            os.write(self._err_w, (text.rstrip("\r\n") + "\n").encode("utf-8", "replace"))

    def end(self, status: int, stdout: bytes) -> None:
        """The run ended: its stdout goes down the pipe (from a thread of its
        own, so a large document never waits for its reader here), then both
        pipes close and waiters wake."""

        def deliver() -> None:
            with contextlib.suppress(OSError):
                view = memoryview(stdout)
                while view:
                    view = view[os.write(self._out_w, view) :]
            for fd in (self._out_w, self._err_w):
                with contextlib.suppress(OSError):
                    os.close(fd)
            # As Popen says it: a run killed by a signal is minus its number.
            self.returncode = -(status - 128) if status > 128 else status
            self._ended.set()

        threading.Thread(target=deliver, daemon=True).start()


class Session:
    """qemu and its console. start() boots and waits for the init; run()
    starts an agent run; close() powers off."""

    def __init__(self, argv: list[str], marker: str, describe: str) -> None:
        self.argv, self.marker, self.describe = argv, marker, describe
        self.proc: subprocess.Popen[bytes] | None = None
        self.runs: dict[int, GuestProcess] = {}
        self.tail: deque[str] = deque(maxlen=KEPT_LINES)
        self.ready: str | None = None  # the init's ready line: uname -r and the agents
        self.failure: str | None = None  # why the VM stopped before its time
        self.next_run = 1
        self._lock = threading.Lock()
        self._ready = threading.Event()
        self._reader: threading.Thread | None = None
        self._closing = False

    def start(self, status: StatusLine | None, label: str, limit: float = BOOT_SECONDS) -> None:
        """Boots and waits for the init, within limit seconds; a kernel that
        panics or stops is one error naming what it printed last."""
        try:
            self.proc = subprocess.Popen(
                self.argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                start_new_session=True,
            )  # fmt: skip
        except OSError as err:
            raise EnvironmentProblem(f"cannot start {self.argv[0]}: {err.strerror}") from None
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()
        started = time.monotonic()
        while not self._ready.wait(0.25):
            elapsed = time.monotonic() - started
            if self.proc.poll() is not None or self.failure is not None or elapsed > limit:
                self._stop_qemu()
                raise EnvironmentProblem(self._boot_failure(elapsed, limit)) from None
            if status is not None and elapsed >= 1:
                status.show(f"booting {label}: {duration(elapsed)}")

    def _boot_failure(self, elapsed: float, limit: float) -> str:
        lines = [line for line in self.tail if line.strip()]
        said = f"; its console ended with: {lines[-1].strip()}" if lines else "; it printed nothing on the console"
        if self.failure is not None:
            return f"{self.describe}: {self.failure}"
        if self.proc is not None and self.proc.returncode not in (None, 0, -signal.SIGKILL):
            return f"{self.describe}: {self.argv[0]} failed (exit {self.proc.returncode}){said}"
        if elapsed > limit:
            return f"{self.describe}: the kernel did not start portkit's init within {limit:g} s{said}"
        return f"{self.describe}: the VM stopped before portkit's init ran{said}"

    def _read(self) -> None:
        assert self.proc is not None and self.proc.stdout is not None
        for raw in self.proc.stdout:
            line = raw.decode("utf-8", "replace").replace("\r", "")
            reply = console.parse(line, self.marker)
            if reply is None:
                self.tail.append(line.rstrip("\n"))
                if PANIC in line and not self._closing:
                    self.failure = f"the kernel panicked: {line.strip()[line.find(PANIC) :]}"
                    self._stop_qemu()
                continue
            self._dispatch(reply)
        self._vm_ended()

    def _dispatch(self, reply: console.Reply) -> None:
        if reply.run == 0 and reply.kind == console.READY:
            self.ready = reply.text
            self._ready.set()
            return
        with self._lock:
            guest = self.runs.get(reply.run)
        if guest is None:
            return
        if reply.kind == "p":
            guest.pid = int(reply.text) if reply.text.isdigit() else None
            if guest.pending_signal:
                self.send([f"k {guest.run} {guest.pending_signal}"])
        elif reply.kind == "e":
            guest.error_line(reply.text)
        elif reply.kind == "F":
            self._file_done(guest)
            guest.file = (console.decode_text(reply.text), [])
        elif reply.kind == "f" and guest.file is not None:
            guest.file[1].append(reply.text.strip())
        elif reply.kind == "M":
            guest.returned[console.decode_text(reply.text)] = None
        elif reply.kind == "o":
            self._file_done(guest)
            guest.stdout_lines.append(reply.text.strip())
        elif reply.kind == "x":
            self._file_done(guest)
            stdout = console.decode_gzip(guest.stdout_lines)
            if stdout is None:
                guest.error_line(f"the agent's output arrived damaged over {self.describe}'s console")
                stdout = b""
            with self._lock:
                self.runs.pop(guest.run, None)
            self._write_returned(guest)
            guest.end(int(reply.text) if reply.text.strip().isdigit() else 255, stdout)

    def _write_returned(self, guest: GuestProcess) -> None:
        """The files the run wrote in the VM, written to the same paths here."""
        for path, data in guest.returned.items():
            if data is None:
                continue  # the agent said why it did not write it, or had no reason to
            try:
                Path(path).write_bytes(data)
            except OSError as err:
                guest.error_line(f"{path}: cannot write what the agent wrote in the VM: {err.strerror}")

    def _file_done(self, guest: GuestProcess) -> None:
        if guest.file is not None:
            path, lines = guest.file
            guest.returned[path] = console.decode_gzip(lines)
            guest.file = None

    def _vm_ended(self) -> None:
        """qemu is gone: every run still under way ends, saying why."""
        why = self.failure or "the VM stopped"
        with self._lock:
            left, self.runs = list(self.runs.values()), {}
        for guest in left:
            guest.error_line(f"{why} while the agent ran")
            guest.end(128 + signal.SIGKILL, b"")

    def run(self, script: str, returns: list[str]) -> GuestProcess:
        """Starts an agent run: script is the shell command the init runs."""
        if self.proc is None or self.proc.poll() is not None:
            raise EnvironmentProblem(f"{self.describe}: {self.failure or 'the VM has stopped'}")
        with self._lock:
            number, self.next_run = self.next_run, self.next_run + 1
            guest = GuestProcess(self, number)
            self.runs[number] = guest
        self.send(console.run_request(number, script, returns))
        return guest

    def signal(self, guest: GuestProcess, sig: signal.Signals) -> None:
        name = sig.name.removeprefix("SIG")
        if guest.pid is None:
            guest.pending_signal = name  # sent when the init says the run started
        else:
            self.send([f"k {guest.run} {name}"])

    def send(self, lines: list[str]) -> None:
        if self.proc is None or self.proc.stdin is None:
            return
        with self._lock, contextlib.suppress(OSError, ValueError):
            self.proc.stdin.write("".join(line + "\n" for line in lines).encode())
            self.proc.stdin.flush()

    def close(self) -> None:
        """Asks the init to power off, and ends qemu if it does not."""
        if self.proc is None:
            return
        self._closing = True
        if self.proc.poll() is None and self.ready is not None:
            self.send(["q"])
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.proc.wait(POWEROFF_SECONDS)
        self._stop_qemu()
        if self._reader is not None:
            self._reader.join(POWEROFF_SECONDS)

    def _stop_qemu(self) -> None:
        if self.proc is None:
            return
        if self.proc.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.proc.pid, signal.SIGKILL)
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.proc.wait(POWEROFF_SECONDS)
        if self.proc.stdin is not None:
            with contextlib.suppress(OSError):
                self.proc.stdin.close()


def write_initrd(data: bytes, directory: Path) -> Path:
    path = directory / "initrd.cpio"
    path.write_bytes(data)
    return path

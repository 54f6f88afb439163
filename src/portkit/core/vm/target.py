"""`--target vm:PACKAGE` / `vm:PATH`: the agent on a real kernel booted under
qemu-system, as on a board with nothing but the kernel.

The VM boots at the command's first agent run and serves every run of the
command (rt run's loads beside its measurement, in the same kernel) until
close() powers it off. The initramfs holds busybox, the agents this kernel
runs (its own architecture's, and the 32-bit one where it runs them), the
kernel's config at /boot/config-$(uname -r), and the files the first run
reads (its operands and inputs, at their paths here: the VM has no files of
its own). Files a run writes (outputs) come back to the same paths here."""

from __future__ import annotations

import contextlib
import os
import shlex
import signal
import tempfile
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

from portkit.core.agents import AGENT, find_agent
from portkit.core.arches import Arch, arch_of_elf, describe_elf, find_arch
from portkit.core.errors import BadInput, EnvironmentProblem
from portkit.core.progress import StatusLine
from portkit.core.target import AgentCall, AgentResult, Running, Target
from portkit.core.vm import console, kernel, machine
from portkit.core.vm.initramfs import AGENTS, CONFIG, Entry, init_script, newc
from portkit.core.vm.session import BOOT_SECONDS, GuestProcess, Session

MAX_INPUT_BYTES = 256 << 20  # files copied into the VM live in its memory
TCG_SLOWDOWN = 20.0  # an agent's work under TCG takes up to this many times a board's (vdso bench: 10-180x per call)
KILL_SECONDS = 5.0


@dataclass
class _State:
    """What a VmTarget learns and holds once it boots."""

    kernel: kernel.Kernel | None = None
    machine: machine.Machine | None = None
    accelerator: str | None = None
    session: Session | None = None
    scratch: tempfile.TemporaryDirectory | None = None
    agent_in_vm: PurePosixPath | None = None
    inputs: set[str] = field(default_factory=set)


@dataclass(frozen=True)
class VmTarget(Target):
    what: str = ""  # the spec after vm:
    agent_file: Path | None = None  # --agent: this file is the agent in the VM
    agent_arch: Arch | None = None  # --agent-arch
    state: _State = field(default_factory=_State, compare=False, repr=False)

    def facts(self) -> dict:
        s = self.state
        if s.kernel is None or s.machine is None or s.session is None:
            return {}
        ready = (s.session.ready or "").split()
        return {
            "vm": {
                "kernel": s.kernel.source,
                "release": ready[0] if ready else s.kernel.release,
                "config": str(s.kernel.config) if s.kernel.config else None,
                "emulator": s.machine.qemu,
                "machine": s.machine.name,
                "accelerator": s.accelerator,
            }
        }

    def start(self, call: AgentCall, status: StatusLine | None = None) -> GuestProcess:  # type: ignore[override]
        files = self._files_of(call)
        if self.state.session is None:
            # --timeout bounds the boot too; without it, the boot has its own limit
            self._boot(files, status, call.timeout if call.limit_given and call.timeout else BOOT_SECONDS)
        session = self.state.session
        assert session is not None and self.state.agent_in_vm is not None
        missing = [name for name in files if name not in self.state.inputs]
        if missing:
            raise BadInput(f"--target {self.spec}: {missing[0]} was not given to the VM when it booted")
        words = " ".join(shlex.quote(word) for word in (str(self.state.agent_in_vm), *call.argv()))
        script = f"cd {shlex.quote(os.getcwd())} 2>/dev/null || cd /\nexec {words}\n"
        return session.run(script, [os.path.abspath(name) for name in call.outputs])

    def _files_of(self, call: AgentCall) -> list[str]:
        """The files here the call reads, absolute."""
        names = [*call.operands, *call.inputs]
        if "-" in names:
            raise BadInput(f"--target {self.spec}: '-' (standard input) cannot reach a VM; name a file")
        return [os.path.abspath(name) for name in names]

    def _boot(self, files: list[str], status: StatusLine | None, limit: float) -> None:
        s = self.state
        s.kernel = kernel.resolve(self.what, self.spec, status)
        s.machine = machine.machine_for(s.kernel, self.spec)
        agents, s.agent_in_vm = self._agents(s.kernel, s.machine)
        busybox = kernel.busybox(s.kernel.arch, status)
        marker = console.new_marker()
        entries = [
            Entry.program("/init", init_script(marker, {arch: str(path) for arch, path in agents.items()})),
            Entry.program("/bin/busybox", busybox.read_bytes()),
            *(Entry.program(path, data) for path, data in self._agent_files(agents)),
        ]
        if s.kernel.config is not None:
            entries.append(Entry(CONFIG, s.kernel.config.read_bytes()))
        entries += self._input_entries(files)
        s.inputs = set(files)
        s.accelerator = machine.accelerator(s.machine)
        s.scratch = tempfile.TemporaryDirectory(prefix="portkit-vm-")
        initrd = Path(s.scratch.name) / "initrd.cpio"
        initrd.write_bytes(newc(entries))
        argv = machine.command_line(s.machine, s.kernel, initrd, s.accelerator, self.spec)
        s.session = Session(argv, marker, f"--target {self.spec}")
        label = f"{s.kernel.source} on {s.machine.qemu} ({s.accelerator.upper()})"
        try:
            s.session.start(status, label, limit)
        except EnvironmentProblem as err:
            self.close()
            raise EnvironmentProblem(str(err), hint=self._console_log(s.session)) from None
        except BaseException:
            self.close()
            raise

    def _console_log(self, session: Session) -> str:
        """The failed boot's whole console, kept in the cache for the user to read."""
        log = kernel.cache_root() / "vm" / "last-boot.log"
        lines = list(session.tail)
        try:
            log.parent.mkdir(parents=True, exist_ok=True)
            log.write_text(f"# {' '.join(session.argv)}\n" + "".join(line + "\n" for line in lines))
        except OSError:
            return "is the kernel built for this machine and its serial console?"
        if not any(line.strip() for line in lines):
            return f"it printed nothing: is it built for {session.argv[0]}'s machine and its serial console? ({log})"
        return f"the kernel's messages before that are in {log}"

    def _agents(self, k: kernel.Kernel, m: machine.Machine) -> tuple[dict[str, Path], PurePosixPath]:
        """The agents the VM gets (architecture -> file here) and the path in
        the VM of the one that runs."""
        if self.agent_file is not None:
            try:
                with open(self.agent_file, "rb") as f:
                    header = f.read(64)
            except OSError as err:
                raise BadInput(f"--agent {self.agent_file}: {err.strerror}") from None
            arch = arch_of_elf(header)
            if arch is None or arch.name not in m.runs:
                raise BadInput(
                    f"--agent {self.agent_file} is {describe_elf(header)}: a {k.arch.name} kernel runs "
                    f"{' and '.join(m.runs)} programs"
                )
            return {arch.name: self.agent_file}, AGENTS / arch.name / AGENT
        chosen = self.agent_arch or k.arch
        if chosen.name not in m.runs:
            raise BadInput(
                f"--agent-arch {chosen.name} with --target {self.spec}: a {k.arch.name} kernel runs "
                f"{' and '.join(m.runs)} programs"
            )
        agents = {chosen.name: find_agent(chosen)}
        for name in m.runs:  # the others it runs, where they are built: for a look from inside
            other = find_arch(name)
            if other is not None and name not in agents:
                with contextlib.suppress(EnvironmentProblem):
                    agents[name] = find_agent(other)
        return agents, AGENTS / chosen.name / AGENT

    @staticmethod
    def _agent_files(agents: dict[str, Path]) -> list[tuple[PurePosixPath, bytes]]:
        files = []
        for arch, path in agents.items():
            try:
                files.append((AGENTS / arch / AGENT, path.read_bytes()))
            except OSError as err:
                raise EnvironmentProblem(f"cannot read the {arch} agent {path}: {err.strerror}") from None
        return files

    def _input_entries(self, files: list[str]) -> list[Entry]:
        entries = [Entry(PurePosixPath(os.getcwd()), mode=0o040755)]
        total = 0
        for name in files:
            try:
                data = Path(name).read_bytes()
            except IsADirectoryError:
                continue  # the agent says what it says of a directory, in the VM too
            except OSError:
                continue  # nor is a missing or unreadable file copied: the agent reports it
            total += len(data)
            if total > MAX_INPUT_BYTES:
                raise BadInput(
                    f"--target {self.spec}: the files given come to more than {MAX_INPUT_BYTES >> 20} MB, "
                    "which a VM holds in its memory"
                )
            entries.append(Entry(PurePosixPath(name), data))
        return entries

    def launch(self, call: AgentCall, status: StatusLine | None = None) -> Running:
        """As Target.launch; under TCG the call's time limit is stretched by
        TCG_SLOWDOWN, as the agent's work runs that much slower than on a
        board (a limit the user gave with --timeout is kept as given)."""
        running = Running(self, call, self.start(call, status))
        if self.state.accelerator == "tcg" and call.timeout is not None and not call.limit_given:
            running.call = _stretched(call)
        return running

    def signal(self, running: Running, sig: signal.Signals) -> None:
        session = self.state.session
        if session is not None and isinstance(running.proc, GuestProcess):
            session.signal(running.proc, sig)

    def kill(self, running: Running) -> None:
        """Ends the run at once (the VM goes on for the command's other runs until close())."""
        proc = running.proc
        if not isinstance(proc, GuestProcess) or proc.returncode is not None:
            return
        self.signal(running, signal.SIGKILL)
        try:
            proc.wait(KILL_SECONDS)
        except Exception:  # the VM does not answer: its runs end with it at close()
            self.close()

    def close(self) -> None:
        s = self.state
        if s.session is not None:
            s.session.close()
        if s.scratch is not None:
            s.scratch.cleanup()
            s.scratch = None

    def _result(self, returncode: int, stdout: str, stderr: str, call: AgentCall) -> AgentResult:
        session = self.state.session
        stopped = session is not None and (session.failure or (session.proc and session.proc.poll() is not None))
        if stopped and not stdout.strip():
            assert session is not None
            why = session.failure or "the VM stopped"
            raise EnvironmentProblem(f"--target {self.spec}: {why} while `{call.name}` ran")
        return super()._result(returncode, stdout, stderr, call)


def _stretched(call: AgentCall) -> AgentCall:
    from dataclasses import replace

    assert call.timeout is not None
    return replace(call, timeout=call.timeout * TCG_SLOWDOWN)


def vm_target(spec: str, agent: Path | None, agent_arch: Arch | None) -> VmTarget:
    """`vm:PACKAGE[:ARCH]` or `vm:PATH`; nothing is fetched or booted until the first run."""
    what = spec.removeprefix("vm:")
    if not what:
        raise BadInput(f"--target {spec}: expected vm:PACKAGE (a Debian kernel package) or vm:PATH")
    return VmTarget(spec, (), agent or Path(AGENT), what, agent, agent_arch)

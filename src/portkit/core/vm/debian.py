"""Debian packages as a VM's parts: a kernel package named by the user
(`vm:linux-image-arm64`) and busybox-static for its architecture, looked up
with apt-cache, fetched with `apt-get download` (never installed) and read
with `dpkg-deb`, keeping only the files a VM needs. Nothing here runs as a
package's maintainer scripts would, and nothing is installed."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import tarfile
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from portkit.core.errors import BadInput, EnvironmentProblem

APT_SECONDS = 60.0  # apt-cache and dpkg-deb on local files
DOWNLOAD_SECONDS = 900.0  # a kernel package is 60-70 MB
APT_LISTS = Path("/var/lib/apt/lists")  # apt-get update rewrites it: a lookup is good until then
IMAGE_NAME = re.compile(r"^linux-image-\d+\.\d+")  # linux-image-6.1.0-50-arm64: the package holding /boot/vmlinuz
MAX_DEPTH = 3  # linux-image-rt-arm64 -> linux-image-6.1.0-50-rt-arm64: metapackages point to the image


@dataclass(frozen=True)
class Package:
    name: str
    arch: str  # Debian's architecture name
    version: str
    depends: tuple[str, ...] = ()  # the first alternative of each Depends entry, by name

    @property
    def spec(self) -> str:
        return f"{self.name}:{self.arch}"

    @property
    def key(self) -> str:
        """A cache directory's name for this exact package."""
        return f"{self.name}_{self.version.replace(':', '%3a')}_{self.arch}"


def debian_arches() -> list[str]:
    """The architectures apt has package lists for here (native first)."""
    arches = []
    for option in ("--print-architecture", "--print-foreign-architectures"):
        arches += _run(["dpkg", option], "dpkg").split()
    return list(dict.fromkeys(arches))


def lookup(name: str, arch: str | None, spec: str, memo: Path | None = None) -> Package:
    """The candidate version of NAME (for ARCH, else the one architecture
    that has it), following a metapackage to the kernel image it depends on.
    With memo (a JSON file), an answer is kept until apt's package lists
    change: apt-cache takes seconds where apt keeps no binary cache."""
    key = f"{name}:{arch or ''}"
    remembered = _recall(memo, key)
    if remembered is not None:
        return remembered
    package = _lookup(name, arch, spec)
    _remember(memo, key, package)
    return package


def _lookup(name: str, arch: str | None, spec: str) -> Package:
    arches = [arch] if arch else debian_arches()
    found = _show(name, arches)
    if not found:
        where = f"for {arch}" if arch else f"for {', '.join(arches)}, the architectures apt knows here"
        raise BadInput(
            f"--target {spec}: no package {name} {where}",
            hint="`apt-cache search --names-only linux-image` lists the kernels; another architecture is "
            "`dpkg --add-architecture ARCH && apt-get update` away",
        )
    if len(found) > 1:
        names = ", ".join(f"vm:{p.name}:{p.arch}" for p in found)
        raise BadInput(f"--target {spec}: {name} exists for several architectures; name one: {names}")
    package = found[0]
    for _ in range(MAX_DEPTH):
        if IMAGE_NAME.match(package.name):
            return package
        image = next((d for d in package.depends if d.startswith("linux-image-")), None)
        if image is None:
            break
        following = _show(image, [package.arch])
        if not following:
            raise EnvironmentProblem(f"--target {spec}: {package.name} depends on {image}, which apt does not have")
        package = following[0]
    raise BadInput(f"--target {spec}: {name} is not a kernel package (it depends on no linux-image package)")


def lookup_exact(name: str, arch: str, memo: Path | None = None) -> Package:
    """The candidate of name:arch, a package portkit itself needs."""
    key = f"={name}:{arch}"
    remembered = _recall(memo, key)
    if remembered is not None:
        return remembered
    found = _show(name, [arch])
    if not found:
        raise EnvironmentProblem(
            f"apt has no {name}:{arch}",
            hint=f"`dpkg --add-architecture {arch} && apt-get update` gives apt that architecture's packages",
        )
    _remember(memo, key, found[0])
    return found[0]


def _lists_stamp() -> int | None:
    try:
        return APT_LISTS.stat().st_mtime_ns
    except OSError:
        return None


def _recall(memo: Path | None, key: str) -> Package | None:
    stamp = _lists_stamp()
    if memo is None or stamp is None:
        return None
    try:
        entry = json.loads(memo.read_text()).get(key)
        if entry and entry.get("lists") == stamp:
            return Package(entry["name"], entry["arch"], entry["version"], tuple(entry.get("depends", ())))
    except (OSError, ValueError, AttributeError, KeyError, TypeError):
        pass
    return None


def _remember(memo: Path | None, key: str, package: Package) -> None:
    stamp = _lists_stamp()
    if memo is None or stamp is None:
        return
    try:
        known = json.loads(memo.read_text())
        known = known if isinstance(known, dict) else {}
    except (OSError, ValueError):
        known = {}
    known[key] = {"lists": stamp, "name": package.name, "arch": package.arch, "version": package.version}
    memo.parent.mkdir(parents=True, exist_ok=True)
    scratch = memo.with_name(f".{memo.name}.{os.getpid()}")
    scratch.write_text(json.dumps(known, indent=1))
    os.replace(scratch, memo)


def _show(name: str, arches: list[str]) -> list[Package]:
    """apt-cache's candidate of name for each architecture that has it."""
    if shutil.which("apt-cache") is None:
        raise EnvironmentProblem(
            "vm:PACKAGE needs apt (Debian or Ubuntu): apt-cache is not installed",
            hint="pass vm:PATH, a kernel image or a .deb",
        )
    text = _run(["apt-cache", "show", "--no-all-versions", *(f"{name}:{a}" for a in arches)], "apt-cache", check=False)
    packages = []
    for stanza in text.split("\n\n"):
        fields = _fields(stanza)
        if fields.get("Package") == name and fields.get("Architecture") in arches:
            depends = tuple(
                item.split("|")[0].split("(")[0].split(":")[0].strip()
                for item in fields.get("Depends", "").split(",")
                if item.strip()
            )
            packages.append(Package(name, fields["Architecture"], fields.get("Version", "?"), depends))
    return packages


def _fields(stanza: str) -> dict[str, str]:
    fields: dict[str, str] = {}
    for line in stanza.splitlines():
        if line and not line[0].isspace() and ":" in line:
            key, _, value = line.partition(":")
            fields[key] = value.strip()
    return fields


def deb_fields(deb: Path) -> Package:
    """The Package, Architecture and Version of a .deb file."""
    text = _run(["dpkg-deb", "-f", str(deb), "Package", "Architecture", "Version"], "dpkg-deb", check=False)
    fields = _fields(text)
    if not {"Package", "Architecture", "Version"} <= fields.keys():
        raise BadInput(f"{deb}: not a Debian package (dpkg-deb finds no Package, Architecture and Version)")
    return Package(fields["Package"], fields["Architecture"], fields["Version"])


def download(package: Package, into: Path) -> Path:
    """`apt-get download NAME:ARCH=VERSION` into a directory of its own; the .deb."""
    into.mkdir(parents=True, exist_ok=True)
    proc = _call(["apt-get", "download", "-q", f"{package.spec}={package.version}"], into, DOWNLOAD_SECONDS)
    debs = sorted(into.glob("*.deb"))
    if proc.returncode != 0 or not debs:
        lines = [line for line in proc.stderr.splitlines() if line.startswith("E:")] or proc.stderr.splitlines()
        raise EnvironmentProblem(
            f"apt-get download {package.spec}={package.version} failed: {lines[-1] if lines else 'no reason given'}",
            hint="apt-get update, and a network that reaches the package mirror",
        )
    return debs[0]


def extract(deb: Path, keep: Callable[[PurePosixPath], bool], into: Path) -> list[Path]:
    """The package's regular files that keep() accepts (paths as in the
    package, without the leading ./), written under into; the others (a
    kernel's 300 MB of modules) are never written."""
    if shutil.which("dpkg-deb") is None:
        raise EnvironmentProblem("dpkg-deb is not installed", hint="apt-get install dpkg")
    written = []
    with subprocess.Popen(
        ["dpkg-deb", "--fsys-tarfile", str(deb)], stdout=subprocess.PIPE, stderr=subprocess.PIPE
    ) as proc:
        assert proc.stdout is not None
        try:
            with tarfile.open(fileobj=proc.stdout, mode="r|") as archive:
                for member in archive:
                    path = PurePosixPath(os.path.normpath(member.name.removeprefix("./")))
                    if not member.isfile() or path.is_absolute() or ".." in path.parts or not keep(path):
                        continue
                    source = archive.extractfile(member)
                    assert source is not None
                    target = into / path
                    target.parent.mkdir(parents=True, exist_ok=True)
                    with open(target, "wb") as out:
                        shutil.copyfileobj(source, out)
                    target.chmod(0o755 if member.mode & 0o111 else 0o644)
                    written.append(target)
        except tarfile.TarError as err:
            raise BadInput(f"{deb}: not a Debian package dpkg-deb can read ({err})") from None
        finally:
            proc.stdout.close()
            error = proc.stderr.read().decode(errors="replace").strip() if proc.stderr else ""
            proc.wait()
    if proc.returncode != 0:
        raise BadInput(f"{deb}: dpkg-deb cannot read it ({error.splitlines()[-1] if error else proc.returncode})")
    return written


def fetch_into(package: Package, keep: Callable[[PurePosixPath], bool], final: Path) -> Path:
    """The package's kept files under final, downloaded and extracted once:
    into a directory beside it that becomes final by one rename, so two
    portkits fetching the same kernel never see half of it."""
    if final.is_dir():
        return final
    final.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=final.parent, prefix=".fetch-") as scratch:
        deb = download(package, Path(scratch) / "deb")
        unpacked = Path(scratch) / "files"
        extract(deb, keep, unpacked)
        try:
            unpacked.rename(final)
        except OSError:
            if not final.is_dir():  # another portkit's rename came first otherwise
                raise
    return final


def _call(argv: list[str], cwd: Path | None, timeout: float) -> subprocess.CompletedProcess[str]:
    if shutil.which(argv[0]) is None:
        raise EnvironmentProblem(f"{argv[0]} is not installed", hint="vm:PACKAGE needs apt (Debian or Ubuntu)")
    try:
        return subprocess.run(
            argv,
            cwd=cwd,
            capture_output=True,
            text=True,
            errors="replace",
            timeout=timeout,
            check=False,
            stdin=subprocess.DEVNULL,
        )
    except subprocess.TimeoutExpired:
        raise EnvironmentProblem(f"{' '.join(argv)} did not finish within {timeout:g} s") from None


def _run(argv: list[str], name: str, check: bool = True) -> str:
    proc = _call(argv, None, APT_SECONDS)
    if check and proc.returncode != 0:
        lines = proc.stderr.strip().splitlines()
        raise EnvironmentProblem(f"{name} failed: {lines[-1] if lines else 'no reason given'}")
    return proc.stdout

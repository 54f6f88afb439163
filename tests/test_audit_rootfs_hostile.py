"""portkit audit rootfs on hostile images and inputs: FIFOs, device nodes,
symlink loops, links that climb out of the image or name the build machine's
files, unreadable files, truncated and mutated ELF files, damaged archives.
Each is one line (or one PKR102 finding) and the audit goes on; nothing is
followed out of the image and nothing hangs. Plus property tests of the ELF
reader, the image tree and the kernel config reader on mutated input."""

from __future__ import annotations

import io
import os
import re
import shutil
import stat
import subprocess
import tarfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import ROOT, run_portkit

DATA = ROOT / "tests" / "data" / "audit_rootfs"
HOST_LIBC = Path("/lib/x86_64-linux-gnu/libc.so.6")


def audit(*args: str | Path, prefix: tuple[str, ...] = ()) -> subprocess.CompletedProcess[str]:
    return run_portkit("audit", "rootfs", *args, prefix=prefix, timeout=120)


@pytest.fixture(scope="module")
def program(tmp_path_factory) -> bytes:
    """A real arm64 program, dynamically linked against glibc."""
    if shutil.which("aarch64-linux-gnu-gcc") is None:
        if os.environ.get("CI"):
            pytest.fail("aarch64-linux-gnu-gcc is missing")
        pytest.skip("aarch64-linux-gnu-gcc is missing")
    out = tmp_path_factory.mktemp("prog") / "prog"
    subprocess.run(["aarch64-linux-gnu-gcc", "-o", str(out), str(DATA / "main.c")], check=True, capture_output=True)
    return out.read_bytes()


@pytest.fixture
def hostile(tmp_path: Path, program: bytes) -> Path:
    root = tmp_path / "rootfs"
    for directory in ("bin", "dev", "lib", "etc", "usr/lib"):
        (root / directory).mkdir(parents=True)
    (root / "bin/prog").write_bytes(program)
    os.mkfifo(root / "dev/fifo")
    os.mknod(root / "dev/null", stat.S_IFCHR | 0o666, os.makedev(1, 3))
    os.symlink("b", root / "lib/a")
    os.symlink("a", root / "lib/b")
    os.symlink("../../../../../../etc/passwd", root / "usr/lib/libescape.so.1")
    # The loader's link names a file of the build machine: inside the image it leads nowhere.
    os.symlink(str(HOST_LIBC), root / "lib/ld-linux-aarch64.so.1")
    (root / "usr/lib/libtruncated.so.1").write_bytes(program[:200])
    mutated = bytearray(program)
    mutated[0x20:0x28] = (0x7FFF_FFFF_FFFF_0000).to_bytes(8, "little")  # e_phoff far past the end
    (root / "usr/lib/libmutated.so.1").write_bytes(bytes(mutated))
    locked = root / "usr/lib/liblocked.so.1"
    locked.write_bytes(program)
    locked.chmod(0)
    return root


def test_a_hostile_image_gives_one_line_per_oddity_and_goes_on(hostile: Path) -> None:
    # Without the capability to read any file (root has it), the mode-0 file is unreadable.
    prefix = ("setpriv", "--bounding-set=-dac_override,-dac_read_search", "--inh-caps=-dac_override,-dac_read_search")
    proc = audit(hostile, "--format", "json", "--fail-on", "never", prefix=prefix if os.geteuid() == 0 else ())
    assert proc.returncode == 0 and "Traceback" not in proc.stderr, proc.stderr
    lines = proc.stderr.splitlines()
    expected = [
        "dev/fifo: a FIFO, not read",
        "dev/null: a character device, not read",
        "lib/a: a symlink loop at lib/a, not followed",
        "lib/b: a symlink loop at lib/b, not followed",
        "usr/lib/libescape.so.1: points above the image root (../../../../../../etc/passwd), resolved inside it",
        "usr/lib/liblocked.so.1: cannot read (Permission denied)",
    ]
    assert sorted(lines) == sorted(f"portkit: warning: {line}" for line in expected)
    import json

    document = json.loads(proc.stdout)
    found = {(f["location"]["path"], f["rule"]) for f in document["findings"]}
    assert ("usr/lib/libtruncated.so.1", "PKR102") in found
    assert ("usr/lib/libmutated.so.1", "PKR102") in found
    # The interpreter's link is not followed to this machine's x86-64 libc (that would be PKR205).
    assert ("bin/prog", "PKR204") in found and ("bin/prog", "PKR205") not in found
    assert document["problems"] == sorted(expected, key=expected.index) or set(document["problems"]) == set(expected)


def test_a_filesystem_mounted_inside_is_not_read(tmp_path: Path, program: bytes) -> None:
    """A live system's root holds /proc (kcore is an ELF file as large as the
    memory): like find -xdev, the audit does not enter another filesystem."""
    root = tmp_path / "rootfs"
    (root / "bin").mkdir(parents=True)
    (root / "proc").mkdir()
    (root / "bin/prog").write_bytes(program)
    mounted = subprocess.run(["mount", "-t", "tmpfs", "none", str(root / "proc")], capture_output=True, check=False)
    if mounted.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {mounted.stderr.decode().strip()}")
    try:
        (root / "proc/kcore").write_bytes(program)
        proc = audit(root, "--format", "json", "--fail-on", "never")
    finally:
        subprocess.run(["umount", str(root / "proc")], check=True)
    assert proc.returncode == 0 and "Traceback" not in proc.stderr, proc.stderr
    assert proc.stderr.splitlines() == ["portkit: warning: proc: another filesystem is mounted here, not read"]
    import json

    assert all(f["location"]["path"] != "proc/kcore" for f in json.loads(proc.stdout)["findings"])


def test_a_damaged_archive_keeps_what_it_read(tmp_path: Path, program: bytes) -> None:
    archive = tmp_path / "rootfs.tar"
    with tarfile.open(archive, "w") as tar:
        for name in ("bin/prog", "usr/bin/prog2"):
            info = tarfile.TarInfo(name)
            info.size = len(program)
            tar.addfile(info, io.BytesIO(program))
        escape = tarfile.TarInfo("../../outside")
        escape.size = 4
        tar.addfile(escape, io.BytesIO(b"evil"))
        fifo = tarfile.TarInfo("dev/fifo")
        fifo.type = tarfile.FIFOTYPE
        tar.addfile(fifo)
    data = archive.read_bytes()
    (tmp_path / "cut.tar").write_bytes(data[: 512 + len(program) + 1000])  # the second program cut short
    proc = audit(tmp_path / "cut.tar", "--arch", "arm64", "--fail-on", "never")
    assert proc.returncode == 0 and "Traceback" not in proc.stderr, proc.stderr
    assert "cut.tar: the archive ends early after 1 member (unexpected end of data)" in proc.stderr
    full = audit(archive, "--fail-on", "never")
    assert "../../outside: an archive member outside the image root, not read" in full.stderr
    assert "dev/fifo: a FIFO, not read" in full.stderr
    assert not (tmp_path.parent / "outside").exists()


def test_not_an_archive_is_one_line(tmp_path: Path) -> None:
    junk = tmp_path / "junk.tar"
    junk.write_bytes(b"not a tar archive at all" * 40)
    proc = audit(junk)
    assert proc.returncode == 2 and proc.stderr.count("\n") == 1 and "Traceback" not in proc.stderr
    # tarfile's list of every decompressor it tried comes down to the tar reader's reason.
    reason = "not a directory or a tar archive portkit can read (invalid header)"
    hint = "(hint: audit rootfs reads a directory, or a .tar, .tar.gz, .tar.bz2 or .tar.xz archive)"
    assert proc.stderr == f"portkit: error: {junk}: {reason} {hint}\n"


# -- property tests --------------------------------------------------------------------


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_any_truncated_or_mutated_elf_is_read_or_malformed(program: bytes, data) -> None:
    from portkit.commands.audit.rootfs.elf import Malformed, read_elf_bytes

    blob = bytearray(program[: data.draw(st.integers(4, len(program)), label="length")])
    for _ in range(data.draw(st.integers(0, 8), label="flips")):
        at = data.draw(st.integers(0, len(blob) - 1))
        blob[at] = data.draw(st.integers(0, 255))
    blob[:4] = b"\x7fELF"
    try:
        facts = read_elf_bytes(bytes(blob), "usr/lib/libx.so")
    except Malformed as err:
        assert str(err)
    else:
        assert facts.elf_class in (32, 64)


@settings(max_examples=300, deadline=None)
@given(
    st.dictionaries(
        st.lists(st.sampled_from(["a", "b", "lib", "..", ".", "usr"]), min_size=1, max_size=4).map("/".join),
        st.one_of(st.just("dir"), st.just("file"), st.lists(st.sampled_from(["a", "b", "..", "/", "lib"]), max_size=5)),
        max_size=12,
    ),
    st.lists(st.sampled_from(["a", "b", "lib", "..", "/", "usr"]), max_size=6).map("/".join),
)
def test_resolving_never_leaves_the_tree_or_hangs(entries: dict, query: str) -> None:
    from portkit.commands.audit.rootfs.image import Image, Node

    image = Image("test", None)
    for path, what in entries.items():
        clean = "/".join(p for p in path.split("/") if p not in ("", ".", ".."))
        if not clean:
            continue
        node = Node(what) if isinstance(what, str) else Node("link", "/".join(what))
        image.add(clean, node)
    resolved = image.resolve(query)
    if resolved.path is not None:
        assert resolved.path in image.nodes and ".." not in resolved.path.split("/")
        assert image.nodes[resolved.path].kind != "link"
    else:
        assert resolved.why


def test_the_kernel_config_is_read_by_the_kconfig_audits_reader(tmp_path: Path) -> None:
    """--kconfig goes through audit kconfig's reader (gzip by its first bytes,
    `is not set` as n) and refuses what is not a config in one line."""
    import gzip

    from portkit.commands.audit.kconfig.reader import read_config_file
    from portkit.core.errors import BadInput

    packed = tmp_path / "config.gz"
    packed.write_bytes(gzip.compress(b"CONFIG_ARM64=y\n# CONFIG_COMPAT is not set\nCONFIG_HZ=250\n"))
    assert read_config_file(packed).values() == {"ARM64": "y", "COMPAT": "n", "HZ": "250"}
    (tmp_path / "cut.gz").write_bytes(packed.read_bytes()[:12])
    (tmp_path / "text").write_text("hello\n")
    for bad in ("cut.gz", "text", "absent"):
        with pytest.raises(BadInput):
            read_config_file(tmp_path / bad)


def test_a_missing_library_is_looked_for_by_name_not_in_every_entry(monkeypatch: pytest.MonkeyPatch) -> None:
    """Where else a missing library lies: only the entries of that name are
    looked at (each of /usr's 188000 entries once per missing library took
    minutes)."""
    from portkit.commands.audit.rootfs.abi import abi_of
    from portkit.commands.audit.rootfs.elf import read_elf_bytes
    from portkit.commands.audit.rootfs.image import Image, Node
    from portkit.commands.audit.rootfs.wording import elsewhere

    image = Image("image", None)
    for n in range(2000):
        image.add(f"usr/share/doc/package{n}/changelog.gz", Node("file"))
    image.add("opt/vendor/lib/libvendor.so.1", Node("file"))
    facts = image.elves["opt/vendor/lib/libvendor.so.1"] = read_elf_bytes(HOST_LIBC.read_bytes(), "libc.so.6")
    resolved: list[str] = []
    original = Image.resolve

    def counting(self: Image, path: str, *, follow_last: bool = True):
        resolved.append(path)
        return original(self, path, follow_last=follow_last)

    monkeypatch.setattr(Image, "resolve", counting)
    assert elsewhere(image, "libvendor.so.1", ["lib", "usr/lib"], abi_of(facts)) == (
        ["opt/vendor/lib/libvendor.so.1"],
        [],
    )
    assert len(resolved) <= 4, len(resolved)


# -- archives: what tar would do with hostile members, said once each ---------------------------------


def _archive(path: Path, members: list[tuple[str, str, bytes | str]]) -> Path:
    """A tar archive of (name, kind, data or link target) members, written as given (tarfile keeps absolute names)."""
    kinds = {"file": tarfile.REGTYPE, "dir": tarfile.DIRTYPE, "symlink": tarfile.SYMTYPE, "hardlink": tarfile.LNKTYPE}
    mode = {".gz": "w:gz", ".xz": "w:xz"}.get(path.suffix, "w")
    with tarfile.open(path, mode) as tar:
        for name, kind, value in members:
            info = tarfile.TarInfo(name)
            info.type = kinds[kind]
            if kind == "file":
                assert isinstance(value, bytes)
                info.size = len(value)
                tar.addfile(info, io.BytesIO(value))
            else:
                info.linkname = value if isinstance(value, str) else ""
                tar.addfile(info)
    return path


def test_absolute_member_paths_are_read_from_the_root_and_said(tmp_path: Path, program: bytes) -> None:
    archive = _archive(tmp_path / "abs.tar", [("/bin/prog", "file", program), ("/usr/bin/prog2", "file", program)])
    proc = audit(archive, "--format", "json", "--fail-on", "never")
    assert proc.returncode == 0, proc.stderr
    line = ("portkit: warning: 2 members with an absolute path (/bin/prog, /usr/bin/prog2): read from the image "
            "root, as tar does when it strips the leading /")  # fmt: skip
    assert proc.stderr.splitlines() == [line]
    import json

    paths = {f["location"]["path"] for f in json.loads(proc.stdout)["findings"]}
    assert {"bin/prog", "usr/bin/prog2"} <= paths


def test_hard_links_out_of_the_image_or_to_nothing_are_said_and_not_read(tmp_path: Path, program: bytes) -> None:
    archive = _archive(
        tmp_path / "links.tar",
        [
            ("bin/prog", "file", program),
            ("bin/same", "hardlink", "bin/prog"),
            ("bin/rooted", "hardlink", "/bin/prog"),  # tar strips the / from a hard link's target too
            ("bin/escape", "hardlink", "../../etc/passwd"),
            ("bin/outside", "hardlink", "/etc/passwd"),
            ("bin/early", "hardlink", "bin/later"),
            ("bin/later", "file", program),
        ],
    )
    proc = audit(archive, "--format", "json", "--fail-on", "never")
    assert proc.returncode == 0, proc.stderr
    assert sorted(proc.stderr.splitlines()) == [
        "portkit: warning: bin/early: a hard link to bin/later, which the archive does not hold as a file before it, "
        "not read",
        "portkit: warning: bin/escape: a hard link to ../../etc/passwd, outside the image, not read",
        "portkit: warning: bin/outside: a hard link to /etc/passwd, outside the image, not read",
    ]
    import json

    findings = json.loads(proc.stdout)["findings"]
    assert {f["location"]["path"] for f in findings if f["rule"] == "PKR204"} == {
        "bin/later",
        "bin/prog",
        "bin/rooted",
        "bin/same",
    }


def test_a_file_under_a_symlink_member_lands_where_the_link_leads_or_is_said(tmp_path: Path, program: bytes) -> None:
    archive = _archive(
        tmp_path / "under.tar",
        [
            ("usr/lib/.keep", "file", b""),
            ("usr/lib64", "symlink", "lib"),  # inside: tar writes through it, into usr/lib
            ("usr/lib64/prog", "file", program),
            ("evil", "symlink", "/tmp/evil"),  # outside: tar would write into this machine's /tmp
            ("evil/prog", "file", program),
            ("up", "symlink", "../.."),
            ("up/prog", "file", program),
        ],
    )
    proc = audit(archive, "--format", "json", "--fail-on", "never", "--arch", "arm64")
    assert proc.returncode == 0, proc.stderr
    assert sorted(line for line in proc.stderr.splitlines() if "symlink member" in line) == [
        "portkit: warning: evil/prog: under evil, a symlink member to /tmp/evil, outside the image, not read",
        "portkit: warning: up/prog: under up, a symlink member to ../.., outside the image, not read",
    ]
    import json

    paths = {f["location"]["path"] for f in json.loads(proc.stdout)["findings"]}
    assert "usr/lib/prog" in paths and "usr/lib64/prog" not in paths
    assert not any(path.startswith(("evil", "up")) for path in paths)


def test_a_cut_archive_without_an_elf_file_says_it_ends_early(tmp_path: Path, program: bytes) -> None:
    members = [(f"etc/file{n}", "file", os.urandom(20000)) for n in range(5)] + [("bin/prog", "file", program)]
    whole = _archive(tmp_path / "rootfs.tar.gz", members).read_bytes()
    cut = tmp_path / "cut.tar.gz"
    cut.write_bytes(whole[: len(whole) // 2])
    proc = audit(cut)
    assert proc.returncode == 2 and proc.stderr.count("\n") == 1, proc.stderr
    assert re.fullmatch(
        rf"portkit: error: {re.escape(str(cut))}: the archive ends early after [1-4] members? \(.*\), and no ELF "
        r"file of a known ABI is in what was read\n",
        proc.stderr,
    ), proc.stderr


def test_a_report_written_to_a_file_lists_what_was_not_read(hostile: Path, tmp_path: Path) -> None:
    report = tmp_path / "report.txt"
    proc = audit(hostile, "-o", report, "--fail-on", "never")
    assert proc.returncode == 0 and "dev/fifo: a FIFO, not read" in proc.stderr
    text = report.read_text()
    assert "dev/fifo: a FIFO, not read" in text and "lib/a: a symlink loop at lib/a, not followed" in text
    assert "warnings above" not in text and "on stderr" not in text
    piped = audit(hostile, "--fail-on", "never")
    assert re.search(r"^not read\s+5 warnings \(on stderr\)$", piped.stdout, re.M), piped.stdout


def test_large_members_go_through_a_temporary_file(tmp_path: Path, program: bytes, monkeypatch) -> None:
    from portkit.commands.audit.rootfs import read_tar
    from portkit.commands.audit.rootfs.elf import read_elf_bytes
    from portkit.commands.audit.rootfs.image import Exclusions, Image

    archive = _archive(tmp_path / "big.tar.gz", [("bin/prog", "file", program)])
    monkeypatch.setattr(read_tar, "IN_MEMORY_BYTES", 100)
    image = Image(str(archive), None)
    read_tar.read_archive(archive, image, Exclusions(), None)
    assert image.elves["bin/prog"] == read_elf_bytes(program, "bin/prog")


@settings(max_examples=100, deadline=None)
@given(st.binary(max_size=50000), st.lists(st.tuples(st.booleans(), st.integers(0, 9000)), max_size=30))
def test_the_read_ahead_stream_gives_the_bytes_in_order(data: bytes, steps: list[tuple[bool, int]]) -> None:
    import gzip

    from portkit.commands.audit.rootfs import read_tar

    packed = io.BytesIO(gzip.compress(data))
    stream = read_tar.Ahead(read_tar.decompressed(packed, read_tar.COMPRESSED[0][1]), pieces=2)
    position = 0
    try:
        for skip, size in steps:
            if skip:
                position = min(len(data), position + size)
                assert stream.seek(position) == position
            else:
                assert stream.read(size) == data[position : position + size]
                position = min(len(data), position + size)
            assert stream.tell() == position
        assert stream.read() == data[position:]
    finally:
        stream.close()


@settings(max_examples=100, deadline=None)
@given(
    st.lists(st.binary(max_size=20000), min_size=1, max_size=3),
    st.sampled_from(["gzip", "bz2", "lzma"]),
    st.integers(0, 1000),
    st.booleans(),
)
def test_decompression_gives_every_stream_and_says_where_a_cut_one_ends(
    streams: list[bytes], kind: str, padding: int, cut: bool
) -> None:
    """As the gzip, bz2 and lzma modules read the same file: every stream
    one after another, zeros after the last ignored; a file cut inside a
    stream gives what came before the cut (at most), then EOFError."""
    import bz2
    import gzip
    import lzma

    from portkit.commands.audit.rootfs import read_tar

    module = {"gzip": gzip, "bz2": bz2, "lzma": lzma}[kind]
    packed = b"".join(module.compress(part) for part in streams)
    new = dict(zip(("gzip", "bz2", "lzma"), (n for _, n in read_tar.COMPRESSED), strict=True))[kind]
    whole = b"".join(streams)
    if not cut:
        assert b"".join(read_tar.decompressed(io.BytesIO(packed + b"\0" * padding), new)) == whole
        return
    last = len(module.compress(streams[-1]))  # cut inside the last stream, not between two
    short = packed[: len(packed) - 1 - padding % (last - 1)]
    got = b""
    with pytest.raises(EOFError):
        for piece in read_tar.decompressed(io.BytesIO(short), new):
            got += piece
    assert whole.startswith(got)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_any_damaged_archive_is_read_as_far_as_it_goes(program: bytes, tmp_path: Path, data) -> None:
    """A tar.gz (or plain tar) cut anywhere and with bytes changed anywhere:
    read_archive keeps what it could read and says why it stopped, or the
    file is refused in one line (BadInput); it never raises anything else."""
    from portkit.commands.audit.rootfs.image import Exclusions, Image
    from portkit.commands.audit.rootfs.read_tar import read_archive
    from portkit.core.errors import BadInput

    suffix = data.draw(st.sampled_from(["tar", "tar.gz", "tar.xz"]), label="kind")
    whole = _archive(
        tmp_path / f"a.{suffix}",
        [("bin", "dir", ""), ("bin/prog", "file", program), ("lib", "symlink", "usr/lib"), ("etc/x", "file", b"x")],
    ).read_bytes()
    blob = bytearray(whole[: data.draw(st.integers(1, len(whole)), label="length")])
    for _ in range(data.draw(st.integers(0, 4), label="changes")):
        blob[data.draw(st.integers(0, len(blob) - 1))] = data.draw(st.integers(0, 255))
    damaged = tmp_path / f"damaged.{suffix}"
    damaged.write_bytes(bytes(blob))
    image = Image(str(damaged), None)
    try:
        read_archive(damaged, image, Exclusions(), None)
    except BadInput as err:
        assert str(err) and "\n" not in str(err)
    else:
        assert all(path in image.nodes for path in image.elves)

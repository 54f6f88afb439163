"""portkit audit rootfs on images assembled from real Debian packages (arm64,
with armhf's libc as a second ABI) and on the same image with defects
planted by cross-compiled programs (tests/data/audit_rootfs/README.md).

Every planted defect is first shown with readelf, then the audit must report
it at that file; the clean image must have no error. The notes on Debian's
own files are checked against readelf's view of each file."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import tarfile
from pathlib import Path

import pytest

from conftest import ROOT, load_tool, run_portkit, validate_sarif
from debian_packages import unpack

DATA = ROOT / "tests" / "data" / "audit_rootfs"
PACKAGES = [
    "libc6:arm64",
    "libc-bin:arm64",
    "libc6:armhf",
    "zlib1g:arm64",
    "dash:arm64",
    "gzip:arm64",
    "busybox-static:arm64",
]
AARCH64_CC = "aarch64-linux-gnu-gcc"
ARMHF_CC = "arm-linux-gnueabihf-gcc"


def audit(*args: str | Path, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return run_portkit("audit", "rootfs", *args, cwd=cwd)


def audit_json(*args: str | Path) -> tuple[int, dict, str]:
    proc = audit(*args, "--format", "json", "--fail-on", "never")
    assert "Traceback" not in proc.stderr, proc.stderr
    assert proc.returncode == 0, proc.stderr
    return proc.returncode, json.loads(proc.stdout), proc.stderr


def findings(document: dict, rule: str | None = None) -> list[tuple[str, str]]:
    return [(f["location"]["path"], f["rule"]) for f in document["findings"] if rule in (None, f["rule"])]


def readelf(*args: str | Path) -> str:
    return subprocess.run(["readelf", *map(str, args)], capture_output=True, text=True, check=True).stdout


def compile_for(cc: str, out: Path, *args: str) -> Path:
    if shutil.which(cc) is None:
        if os.environ.get("CI"):
            pytest.fail(f"{cc} is missing (scripts/install-system-packages)")
        pytest.skip(f"{cc} is missing")
    subprocess.run([cc, "-O1", "-o", str(out), *args], check=True, capture_output=True, timeout=120)
    return out


@pytest.fixture(scope="session")
def clean_image(tmp_path_factory) -> Path:
    return unpack(PACKAGES, tmp_path_factory.mktemp("debian") / "rootfs")


@pytest.fixture(scope="session")
def planted(tmp_path_factory, clean_image: Path) -> Path:
    """The clean image plus one file per defect."""
    root = tmp_path_factory.mktemp("planted") / "rootfs"
    shutil.copytree(clean_image, root, symlinks=True)
    build = tmp_path_factory.mktemp("build")
    libdir = root / "usr/lib/aarch64-linux-gnu"
    (root / "usr/bin").mkdir(parents=True, exist_ok=True)

    def library(name: str, soname: str) -> Path:
        return compile_for(AARCH64_CC, build / name, "-shared", "-fPIC", f"-Wl,-soname,{soname}", str(DATA / "lib.c"))

    def program(out: str, *args: str) -> Path:
        return compile_for(AARCH64_CC, root / "usr/bin" / out, *args)

    # wrong-arch library: linked against an arm64 build, the x86-64 build installed
    library("libwrong.so", "libwrong.so.1")
    program("uses-wrong-arch", str(DATA / "calls_lib.c"), f"-L{build}", "-lwrong")
    compile_for("gcc", libdir / "libwrong.so.1", "-shared", "-fPIC", "-Wl,-soname,libwrong.so.1", str(DATA / "lib.c"))
    # host RUNPATH
    program("host-rpath", str(DATA / "main.c"), "-Wl,-rpath,/home/builder/bsp/build/tmp/work/lib")
    # /lib64 on arm64
    (root / "lib64").mkdir()
    shutil.copy(library("libfoo.so", "libfoo.so.1"), root / "lib64/libfoo.so.1")
    program("uses-lib64", str(DATA / "calls_lib.c"), f"-L{build}", "-lfoo")
    # a library that is not installed at all
    library("libgone.so", "libgone.so.2")
    program("uses-missing", str(DATA / "calls_lib.c"), f"-L{build}", "-lgone")
    # 32-bit time_t calls in an armhf program (its libc is the image's armhf libc6)
    compile_for(ARMHF_CC, root / "usr/bin/clock32", str(DATA / "time32.c"))
    # text relocations, executable stack
    compile_for(
        AARCH64_CC, libdir / "libtextrel.so.1", "-shared", "-Wl,-soname,libtextrel.so.1", str(DATA / "textrel.S")
    )
    program("exec-stack", str(DATA / "main.c"), "-Wl,-z,execstack")
    return root


# -- the clean image -------------------------------------------------------------


def test_a_clean_debian_image_has_no_error(clean_image: Path) -> None:
    proc = audit(clean_image, "--fail-on", "error")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "Traceback" not in proc.stderr
    assert "arm64 (AArch64, 64-bit, little-endian), inferred from" in proc.stdout


def test_the_target_and_loaders_are_read_from_the_image(clean_image: Path) -> None:
    _, document, _ = audit_json(clean_image)
    assert document["schema"] == "portkit.audit-rootfs/1"
    assert document["target"]["abi"] == "arm64"
    loaders = {loader["abi"]: loader for loader in document["loaders"]}
    # The directories glibc's ld.so prints with --help, read from the file here
    # (strings(1) shows them in lib/aarch64-linux-gnu/ld-linux-aarch64.so.1).
    assert loaders["arm64"]["system_dirs"] == [
        "/lib/aarch64-linux-gnu",
        "/usr/lib/aarch64-linux-gnu",
        "/lib",
        "/usr/lib",
    ]
    assert loaders["arm64"]["program"] == "lib/aarch64-linux-gnu/ld-linux-aarch64.so.1"
    # Debian's etc/ld.so.conf.d/aarch64-linux-gnu.conf, through ld.so.conf's include
    assert "/usr/local/lib/aarch64-linux-gnu" in loaders["arm64"]["conf_dirs"]


def _dynamic_programs(root: Path) -> dict[str, str]:
    """Each arm64 ELF program of the image with its `readelf -d` output."""
    out = {}
    for path in sorted(root.rglob("*")):
        if path.is_symlink() or not path.is_file() or path.read_bytes()[:4] != b"\x7fELF":
            continue
        header = readelf("-h", path)
        if "AArch64" in header and ("EXEC" in header or "Position-Independent" in header):
            out[path.relative_to(root).as_posix()] = readelf("-d", "-l", path)
    return out


def test_hardening_notes_agree_with_readelf(clean_image: Path) -> None:
    _, document, _ = audit_json(clean_image)
    programs = _dynamic_programs(clean_image)
    assert programs, "the image has programs"
    # Lazy binding is a dynamically linked program's (static ones, ldconfig and busybox, bind nothing).
    dynamic = {p: out for p, out in programs.items() if "Requesting program interpreter" in out}
    lazy = {p for p, out in dynamic.items() if "GNU_RELRO" in out and not re.search(r"BIND_NOW|Flags:.*\bNOW\b", out)}
    assert {p for p, _ in findings(document, "PKR604")} == lazy
    fixed = {p for p, out in programs.items() if "EXEC (Executable file)" in readelf("-h", clean_image / p)}
    assert {p for p, _ in findings(document, "PKR605")} == fixed
    assert "bin/busybox" in fixed  # busybox-static: ET_EXEC


def test_debian_bookworm_armhf_is_still_32_bit_time(clean_image: Path) -> None:
    """The clean image's only warning: bookworm's armhf glibc was built before
    Debian's 64-bit time_t transition, and its libmemusage.so calls setitimer."""
    library = clean_image / "lib/arm-linux-gnueabihf/libmemusage.so"
    assert " UND setitimer@GLIBC_2.4" in readelf("--dyn-syms", "-W", library)
    _, document, _ = audit_json(clean_image)
    serious = [
        (f["location"]["path"], f["rule"], f["message"]) for f in document["findings"] if f["severity"] != "note"
    ]
    assert serious == [("lib/arm-linux-gnueabihf/libmemusage.so", "PKR401", "calls 32-bit time_t functions: setitimer")]


def test_every_needed_library_of_the_clean_image_is_found(clean_image: Path) -> None:
    _, document, _ = audit_json(clean_image)
    assert findings(document, "PKR201") == [] and findings(document, "PKR202") == []
    # readelf -d bin/dash: NEEDED libc.so.6, which lives in lib/aarch64-linux-gnu
    assert "Shared library: [libc.so.6]" in readelf("-d", clean_image / "bin/dash")


def test_the_elf_reader_agrees_with_readelf_on_every_file(clean_image: Path) -> None:
    """elf.py reads the tables itself: on every ELF file of real Debian
    packages (arm64 and armhf), what it reads is what readelf prints."""
    from portkit.commands.audit.rootfs.elf import read_elf_bytes

    files = [p for p in sorted(clean_image.rglob("*")) if p.is_file() and not p.is_symlink()]
    files = [p for p in files if p.read_bytes()[:4] == b"\x7fELF"]
    assert len(files) > 50
    for path in files:
        facts = read_elf_bytes(path.read_bytes(), path.name)
        out = readelf("-h", "-l", "-d", "-W", path)
        assert re.findall(r"\(NEEDED\)\s+Shared library: \[(.*)\]", out) == list(facts.needed), path
        soname = re.search(r"\(SONAME\)\s+Library soname: \[(.*)\]", out)
        assert (soname.group(1) if soname else None) == facts.soname, path
        runpath = re.search(r"\(RUNPATH\)\s+Library runpath: \[(.*)\]", out)
        assert (runpath.group(1) if runpath else None) == facts.runpath, path
        interpreter = re.search(r"\[Requesting program interpreter: (.*)\]", out)
        assert (interpreter.group(1) if interpreter else None) == facts.interpreter, path
        assert (" DYNAMIC " in out) == facts.dynamic and ("GNU_RELRO" in out) == facts.relro, path
        assert ("TEXTREL" in out) == facts.textrel, path
        bind_now = bool(re.search(r"\(BIND_NOW\)|\(FLAGS\).*BIND_NOW|Flags:.*\bNOW\b", out))
        assert bind_now == facts.bind_now, path
        machine = {"AArch64": 183, "ARM": 40}[re.search(r"Machine:\s+(\S+)", out).group(1)]
        assert machine == facts.machine and f"ELF{facts.elf_class}" in out, path


def test_an_archive_gives_the_same_findings(clean_image: Path, tmp_path: Path) -> None:
    archive = tmp_path / "rootfs.tar.gz"
    with tarfile.open(archive, "w:gz") as tar:
        tar.add(clean_image, arcname=".")
    _, from_dir, _ = audit_json(clean_image)
    _, from_tar, _ = audit_json(archive)
    assert from_tar["image"]["kind"] == "archive"
    assert findings(from_tar) == findings(from_dir)
    assert [f["fingerprint"] for f in from_tar["findings"]] == [f["fingerprint"] for f in from_dir["findings"]]


# -- planted defects ---------------------------------------------------------------


def test_a_library_of_another_architecture_is_found(planted: Path) -> None:
    assert "X86-64" in readelf("-h", planted / "usr/lib/aarch64-linux-gnu/libwrong.so.1")
    assert "[libwrong.so.1]" in readelf("-d", planted / "usr/bin/uses-wrong-arch")
    _, document, _ = audit_json(planted)
    assert ("usr/lib/aarch64-linux-gnu/libwrong.so.1", "PKR101") in findings(document)
    assert ("usr/bin/uses-wrong-arch", "PKR202") in findings(document)
    message = next(f["message"] for f in document["findings"] if f["rule"] == "PKR202")
    assert "usr/lib/aarch64-linux-gnu/libwrong.so.1 (amd64" in message


def test_a_build_machine_runpath_is_found(planted: Path) -> None:
    assert "[/home/builder/bsp/build/tmp/work/lib]" in readelf("-d", planted / "usr/bin/host-rpath")
    _, document, _ = audit_json(planted)
    assert ("usr/bin/host-rpath", "PKR301") in findings(document)


def test_a_library_in_lib64_on_arm64_is_found(planted: Path) -> None:
    _, document, _ = audit_json(planted)
    assert ("lib64/libfoo.so.1", "PKR305") in findings(document)
    missing = [
        f for f in document["findings"] if f["rule"] == "PKR201" and f["location"]["path"] == "usr/bin/uses-lib64"
    ]
    assert len(missing) == 1 and "lib64/libfoo.so.1 lies in a directory it does not search" in missing[0]["message"]
    # The image's own loader, under qemu-user, agrees: it does not look in /lib64.
    assert _real_loader_runs(planted, "usr/bin/uses-lib64") in (False, None)


def test_a_missing_library_is_found(planted: Path) -> None:
    assert "[libgone.so.2]" in readelf("-d", planted / "usr/bin/uses-missing")
    _, document, _ = audit_json(planted)
    assert ("usr/bin/uses-missing", "PKR201") in findings(document)


def test_32_bit_time_calls_are_listed(planted: Path) -> None:
    symbols = readelf("--dyn-syms", "-W", planted / "usr/bin/clock32")
    imported = set(re.findall(r" UND (\w+)@", symbols))
    assert {"clock_gettime", "gettimeofday", "time", "stat"} <= imported
    _, document, _ = audit_json(planted)
    [finding] = [
        f for f in document["findings"] if f["location"]["path"] == "usr/bin/clock32" and f["rule"] == "PKR401"
    ]
    assert finding["severity"] == "warning"
    for name in ("clock_gettime", "gettimeofday", "time", "stat"):
        assert re.search(rf"\b{name}\b", finding["message"]), finding["message"]


def test_32_bit_programs_need_compat_and_its_vdso(planted: Path, tmp_path: Path) -> None:
    _, document, _ = audit_json(planted)
    assert ("usr/bin/clock32", "PKR501") in findings(document)
    assert ("usr/bin/clock32", "PKR502") in findings(document)
    assert {f["severity"] for f in document["findings"] if f["rule"] in ("PKR501", "PKR502")} == {"note"}
    without = tmp_path / "config"
    without.write_text("CONFIG_ARM64=y\n# CONFIG_COMPAT is not set\n")
    _, checked, _ = audit_json(planted, "--kconfig", without)
    severities = {f["rule"]: f["severity"] for f in checked["findings"] if f["rule"] in ("PKR501", "PKR502")}
    assert severities == {"PKR501": "error", "PKR502": "warning"}
    assert checked["kernel"]["needs"] == [
        {"option": "COMPAT", "value": "n", "programs": 1},
        {"option": "COMPAT_VDSO", "value": "n", "programs": 1},
    ]
    with_both = tmp_path / "config.ok"
    with_both.write_text("CONFIG_ARM64=y\nCONFIG_COMPAT=y\nCONFIG_COMPAT_VDSO=y\n")
    _, passed, _ = audit_json(planted, "--kconfig", with_both)
    assert [f for f in passed["findings"] if f["rule"] in ("PKR501", "PKR502")] == []


def test_a_config_of_another_architecture_is_refused(planted: Path, tmp_path: Path) -> None:
    config = tmp_path / "config"
    config.write_text("CONFIG_X86_64=y\nCONFIG_IA32_EMULATION=y\n")
    proc = audit(planted, "--kconfig", config)
    assert proc.returncode == 2 and proc.stderr.count("\n") == 1
    assert "not a configuration for arm64 (CONFIG_ARM64 is not set)" in proc.stderr


def test_a_kconfig_that_is_no_config_is_one_line_naming_the_option(planted: Path, tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("hello\n")
    for bad, why in ((tmp_path / "absent", "No such file"), (tmp_path / "notes.txt", "not a kernel config")):
        proc = audit(planted, "--kconfig", bad)
        assert proc.returncode == 2 and proc.stderr.count("\n") == 1, proc.stderr
        assert proc.stderr.startswith(f"portkit: error: --kconfig {bad}: ") and why in proc.stderr


def test_text_relocations_and_an_executable_stack_are_found(planted: Path) -> None:
    assert "TEXTREL" in readelf("-d", planted / "usr/lib/aarch64-linux-gnu/libtextrel.so.1")
    assert re.search(r"GNU_STACK.*RWE", readelf("-lW", planted / "usr/bin/exec-stack"))
    _, document, _ = audit_json(planted)
    assert ("usr/lib/aarch64-linux-gnu/libtextrel.so.1", "PKR601") in findings(document)
    assert ("usr/bin/exec-stack", "PKR602") in findings(document)


def test_each_planted_defect_is_an_error_or_warning_and_nothing_else_is(clean_image: Path, planted: Path) -> None:
    _, clean, _ = audit_json(clean_image)
    _, document, _ = audit_json(planted)
    before = set(findings(clean))
    serious = {(f["location"]["path"], f["rule"]) for f in document["findings"] if f["severity"] != "note"}
    assert {p for p, r in serious - before} == {
        "usr/lib/aarch64-linux-gnu/libwrong.so.1",
        "usr/bin/uses-wrong-arch",
        "usr/bin/host-rpath",
        "lib64/libfoo.so.1",
        "usr/bin/uses-lib64",
        "usr/bin/uses-missing",
        "usr/bin/clock32",
        "usr/lib/aarch64-linux-gnu/libtextrel.so.1",
        "usr/bin/exec-stack",
    }


# -- output ----------------------------------------------------------------------------


def test_text_output_groups_the_findings_and_fails_on_errors(planted: Path) -> None:
    proc = audit(planted)
    assert proc.returncode == 1
    assert re.search(r"^PKR201\s+missing-library\s+\d+$", proc.stdout, re.M)
    assert re.search(r"^usr/bin/uses-lib64\s+\d+\s+PKR201", proc.stdout, re.M)
    assert "usr/bin/uses-missing: error [PKR201] needs libgone.so.2" in proc.stdout


def test_sarif_paths_are_relative_to_the_image_root(planted: Path, tmp_path: Path) -> None:
    out = tmp_path / "audit.sarif"
    proc = audit(planted, "--format", "sarif", "-o", out, "--ignore", "PKR6")
    assert proc.returncode == 1, proc.stderr
    sarif = json.loads(out.read_text())
    validate_sarif(sarif)
    run = sarif["runs"][0]
    assert run["originalUriBaseIds"]["IMAGEROOT"]["uri"] == planted.resolve().as_uri() + "/"
    locations = [r["locations"][0]["physicalLocation"]["artifactLocation"] for r in run["results"]]
    assert {"uri": "usr/bin/uses-missing", "uriBaseId": "IMAGEROOT"} in locations
    assert not any(r["ruleId"].startswith("PKR6") for r in run["results"])


def test_a_baseline_hides_known_findings(planted: Path, tmp_path: Path) -> None:
    baseline = tmp_path / "known.json"
    assert audit(planted, "--format", "json", "-o", baseline).returncode == 1
    proc = audit(planted, "--baseline", baseline)
    assert proc.returncode == 0, proc.stdout
    assert "no findings;" in proc.stdout and "in the baseline" in proc.stdout


def test_select_runs_only_the_rules_named(planted: Path) -> None:
    _, document, _ = audit_json(planted, "--select", "PKR3")
    assert {rule for _, rule in findings(document)} == {"PKR301", "PKR305"}
    assert [r["id"] for r in document["rules"]] == ["PKR301", "PKR302", "PKR303", "PKR304", "PKR305"]


def test_bad_usage_is_one_line() -> None:
    for args in (["--arch", "vax", "."], ["/nonexistent/rootfs"], []):
        proc = audit(*args)
        assert proc.returncode == 2 and proc.stderr.count("\n") == 1 and "Traceback" not in proc.stderr, proc.stderr


def test_list_rules() -> None:
    proc = audit("--list-rules", "--format", "json")
    ids = [r["id"] for r in json.loads(proc.stdout)["rules"]]
    assert ids[0] == "PKR101" and len(ids) == len(set(ids)) == 22


# -- the loader model against the real loader ---------------------------------------------


def test_the_time32_table_is_glibcs_own(clean_image: Path) -> None:
    """time32_symbols.py is what tools/time32_gen.py reads off Debian's armhf libc.so.6."""
    from portkit.commands.audit.rootfs.time32_symbols import TIME32_SYMBOLS

    time32_gen = load_tool("time32_gen")
    table = time32_gen.time32_names(clean_image / "lib/arm-linux-gnueabihf/libc.so.6")
    assert table == TIME32_SYMBOLS, "regenerate: python tools/time32_gen.py LIBC"
    # from `readelf --dyn-syms`: glibc 2.34's 64-bit time entry points
    symbols = readelf("--dyn-syms", "-W", clean_image / "lib/arm-linux-gnueabihf/libc.so.6")
    assert "__clock_gettime64@@GLIBC_2.34" in symbols and "__stat64_time64@@GLIBC_2.34" in symbols
    assert table["clock_gettime"] == "__clock_gettime64" and table["stat"] == "__stat64_time64"


@pytest.fixture(scope="session")
def chained(tmp_path_factory, clean_image: Path) -> Path:
    """opt/app/bin/{with-rpath,with-runpath} need liba.so.1 in opt/app/lib, which
    needs libb.so.1 there too; liba has no path of its own. glibc searches the
    program's DT_RPATH for liba's needs, but not its DT_RUNPATH."""
    root = tmp_path_factory.mktemp("chained") / "rootfs"
    shutil.copytree(clean_image, root, symlinks=True)
    build = tmp_path_factory.mktemp("chain-build")
    lib = root / "opt/app/lib"
    lib.mkdir(parents=True)
    (root / "opt/app/bin").mkdir()
    compile_for(AARCH64_CC, lib / "libb.so.1", "-shared", "-fPIC", "-Wl,-soname,libb.so.1", str(DATA / "lib.c"))
    (build / "shim.c").write_text("int planted_value(void);\nint shim(void) { return planted_value(); }\n")
    compile_for(AARCH64_CC, lib / "liba.so.1", "-shared", "-fPIC", "-Wl,-soname,liba.so.1", str(build / "shim.c"),
                f"-L{lib}", "-l:libb.so.1")  # fmt: skip
    (build / "app.c").write_text("int shim(void);\nint main(void) { return shim() == 42 ? 0 : 1; }\n")
    for name, tags in (("with-rpath", "--disable-new-dtags"), ("with-runpath", "--enable-new-dtags")):
        compile_for(AARCH64_CC, root / "opt/app/bin" / name, str(build / "app.c"), f"-L{lib}", "-l:liba.so.1",
                    f"-Wl,{tags},-rpath,$ORIGIN/../lib", f"-Wl,-rpath-link,{lib}")  # fmt: skip
    return root


def _real_loader_runs(root: Path, program: str) -> bool | None:
    """Whether the image's own ld.so, under qemu-aarch64 -L ROOT, loads and runs the program."""
    if shutil.which("qemu-aarch64") is None:
        return None
    proc = subprocess.run(["qemu-aarch64", "-L", str(root), str(root / program)], capture_output=True, text=True)
    return proc.returncode == 0


def test_rpath_and_runpath_are_searched_as_the_real_loader_does(chained: Path) -> None:
    assert "(RPATH)" in readelf("-d", chained / "opt/app/bin/with-rpath")
    assert "(RUNPATH)" in readelf("-d", chained / "opt/app/bin/with-runpath")
    _, document, _ = audit_json(chained)
    missing = [f for f in document["findings"] if f["rule"] == "PKR201" and f["location"]["path"].startswith("opt/")]
    # liba's need of libb fails only when liba is loaded by the RUNPATH program
    assert [f["location"]["path"] for f in missing] == ["opt/app/lib/liba.so.1"]
    assert missing[0]["message"].startswith("needs libb.so.1, which the loader does not find (when loaded by "
                                            "opt/app/bin/with-runpath);")  # fmt: skip
    real = (
        _real_loader_runs(chained, "opt/app/bin/with-rpath"),
        _real_loader_runs(chained, "opt/app/bin/with-runpath"),
    )
    if real != (None, None):
        assert real == (True, False), "glibc's own loader disagrees with the model"

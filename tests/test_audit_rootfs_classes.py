"""The classes of false findings `audit rootfs` once gave on a real Debian
image (issue 19), each on a small image of the real Debian packages that
showed it, next to a planted true defect of the same kind that must still be
found:

- separate debug files (libc6-dbg's usr/lib/debug/.build-id/*.debug, and
  one made with objcopy --only-keep-debug elsewhere): debug data, not
  malformed programs; a truncated real library still is malformed;
- klibc's programs (PT_INTERP, no PT_DYNAMIC) bind nothing: no lazy-binding
  note; a dynamically linked lazy program still gets one;
- a plugin that needs a library its launcher opens by path first (as
  java's libjli opens libjvm.so): a note, checked against glibc's own loader
  under qemu-user; a program that links that library still fails (PKR201);
- libcaca's GL plugin, whose libraries are not installed: the plugin's
  problem (PKR206), not the image's; a program needing one of them is PKR201;
- libblas/liblapack without the links update-alternatives makes: PKR201 for
  a program that needs libblas.so.3, saying where it lies and, on an image
  that says its maintainer scripts have not run, why;
- an armhf program on an arm64 image without armhf's libc: the arm64 libc is
  named as another ABI's, not as a candidate, and the fix names armhf's
  multiarch directory.
Every planted file is first shown with readelf."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from conftest import ROOT, run_portkit
from debian_packages import unpack

DATA = ROOT / "tests" / "data" / "audit_rootfs"
AARCH64_CC = "aarch64-linux-gnu-gcc"
LIBDIR = "usr/lib/aarch64-linux-gnu"
PACKAGES = [
    "libc6:arm64",
    "libc6-dbg:arm64",
    "klibc-utils:arm64",
    "libklibc:arm64",
    "libcaca0:arm64",
    "libslang2:arm64",
    "libncursesw6:arm64",
    "libtinfo6:arm64",
    "libstdc++6:arm64",
    "libgcc-s1:arm64",
    "zlib1g:arm64",
    "libblas3:arm64",
    "liblapack3:arm64",
    "libgfortran5:arm64",
]


def audit_json(root: Path, *args: str) -> dict:
    proc = run_portkit("audit", "rootfs", root, "--format", "json", "--fail-on", "never", *args, timeout=300)
    assert proc.returncode == 0 and "Traceback" not in proc.stderr, proc.stderr
    return json.loads(proc.stdout)


def at(document: dict, path: str, rule: str | None = None) -> list[dict]:
    return [f for f in document["findings"] if f["location"]["path"] == path and rule in (None, f["rule"])]


def readelf(*args: str | Path) -> str:
    return subprocess.run(["readelf", *map(str, args)], capture_output=True, text=True, check=True).stdout


def cc(out: Path, *args: str, compiler: str = AARCH64_CC) -> Path:
    if shutil.which(compiler) is None:
        if os.environ.get("CI"):
            pytest.fail(f"{compiler} is missing (scripts/install-system-packages)")
        pytest.skip(f"{compiler} is missing")
    out.parent.mkdir(parents=True, exist_ok=True)
    subprocess.run([compiler, "-O1", "-o", str(out), *args], check=True, capture_output=True, timeout=120)
    return out


def runs_under_qemu(root: Path, program: str, *args: str) -> bool | None:
    """Whether the image's own glibc loader (qemu-aarch64 -L ROOT) loads and runs the program."""
    if shutil.which("qemu-aarch64") is None:
        return None
    proc = subprocess.run(["qemu-aarch64", "-L", str(root), str(root / program), *args], capture_output=True)
    return proc.returncode == 0


@pytest.fixture(scope="module")
def image(tmp_path_factory) -> Path:
    """The packages above, unpacked as a cross build assembles an image,
    plus the planted files (one per case, named after it)."""
    root = unpack(PACKAGES, tmp_path_factory.mktemp("classes") / "rootfs")
    build = tmp_path_factory.mktemp("classes-build")

    def write(name: str, text: str) -> Path:
        (build / name).write_text(text)
        return build / name

    # Loaded first by path: opt/app/bin/launcher opens lib/core/libcore.so by its path, then lib/libplugin.so,
    # which needs libcore.so (its SONAME) and has no RUNPATH to find it.
    app = root / "opt/app"
    cc(app / "lib/core/libcore.so", "-shared", "-fPIC", "-Wl,-soname,libcore.so",
       str(write("core.c", "int core_value(void) { return 7; }\n")))  # fmt: skip
    cc(app / "lib/libplugin.so", "-shared", "-fPIC", str(write("plugin.c", "int core_value(void);\n"
       "int plugin_value(void) { return core_value(); }\n")), f"-L{app / 'lib/core'}", "-lcore")  # fmt: skip
    launcher = (
        "#include <dlfcn.h>\n#include <stdio.h>\n#include <string.h>\n"
        "int main(int argc, char **argv) {\n"
        '  if (argc > 1 && !strcmp(argv[1], "core-first") && !dlopen("/opt/app/lib/core/libcore.so", RTLD_NOW))\n'
        "    return 2;\n"
        '  if (!dlopen("/opt/app/lib/libplugin.so", RTLD_NOW)) { puts(dlerror()); return 1; }\n'
        "  return 0;\n}\n"
    )
    cc(app / "bin/launcher", str(write("launcher.c", launcher)))
    # ... and a program that links libcore.so itself: the loader does not find it.
    linked = write("linked.c", "int core_value(void);\nint main(void) { return core_value() != 7; }\n")
    cc(app / "bin/linked", str(linked), f"-L{app / 'lib/core'}", "-lcore")
    # A program needing a library libcaca's GL plugin needs too (built here as a stand-in, not installed).
    cc(build / "libGLU.so.1", "-shared", "-fPIC", "-Wl,-soname,libGLU.so.1", str(DATA / "lib.c"))
    cc(root / "usr/bin/uses-glu", str(DATA / "calls_lib.c"), f"-L{build}", "-l:libGLU.so.1")
    # A program that needs libblas.so.3, linked against the image's own blas/libblas.so.3.
    blas = "double ddot_(const int *, const double *, const int *, const double *, const int *);\n"
    blas += "int main(void) { int n = 1, one = 1; double x = 2; return ddot_(&n, &x, &one, &x, &one) != 4; }\n"
    cc(root / "usr/bin/uses-blas", str(write("blas.c", blas)), f"-L{root / LIBDIR / 'blas'}", "-l:libblas.so.3")
    # A dynamically linked program that binds lazily, beside klibc's static ones.
    cc(root / "usr/bin/lazy", str(DATA / "main.c"), "-Wl,-z,relro,-z,lazy")
    # A truncated real library, and a separate debug file made from a real one, outside usr/lib/debug.
    libc = (root / "lib/aarch64-linux-gnu/libc.so.6").resolve()
    (root / LIBDIR / "libtruncated.so.1").write_bytes(libc.read_bytes()[:60000])
    subprocess.run(["aarch64-linux-gnu-objcopy", "--only-keep-debug", str(app / "lib/core/libcore.so"),
                    str(app / "lib/core/libcore.so.debug")], check=True)  # fmt: skip
    # An armhf program: the image has no armhf libc.
    cc(root / "usr/bin/armhf-app", str(DATA / "time32.c"), compiler="arm-linux-gnueabihf-gcc")
    return root


# -- separate debug files -------------------------------------------------------------------


def test_separate_debug_files_are_debug_data(image: Path) -> None:
    debug = sorted(p for p in (image / "usr/lib/debug/.build-id").rglob("*.debug") if p.is_file())
    assert len(debug) > 50, "libc6-dbg ships its debug files by build id"
    sections = readelf("-SW", debug[0])
    assert re.search(r"\.text\s+NOBITS", sections) and re.search(r"\.dynamic\s+NOBITS", sections)
    document = audit_json(image)
    findings = [f for f in document["findings"] if f["location"]["path"].startswith("usr/lib/debug/")]
    assert findings == []
    # objcopy --only-keep-debug's output outside usr/lib/debug is recognised by its sections
    assert re.search(r"\.text\s+NOBITS", readelf("-SW", image / "opt/app/lib/core/libcore.so.debug"))
    assert at(document, "opt/app/lib/core/libcore.so.debug") == []
    assert document["files"]["debug"] == len(debug) + 1


def test_a_truncated_library_is_still_malformed(image: Path) -> None:
    proc = subprocess.run(["readelf", "-hW", image / LIBDIR / "libtruncated.so.1"], capture_output=True, text=True)
    shoff = int(re.search(r"Start of section headers:\s+(\d+)", proc.stdout).group(1))
    assert shoff > 60000  # the section headers lie past the cut
    [finding] = at(audit_json(image), f"{LIBDIR}/libtruncated.so.1")
    assert finding["rule"] == "PKR102" and "past the end of the file (60000 bytes)" in finding["message"]


# -- static programs with an interpreter ------------------------------------------------------


def test_klibc_programs_bind_nothing_and_dynamic_ones_still_do(image: Path) -> None:
    programs = sorted(p for p in (image / "usr/lib/klibc/bin").iterdir() if not p.is_symlink())
    assert programs
    for program in programs[:5]:
        headers = readelf("-lW", program)
        assert "klibc-" in headers and " INTERP " in headers and " DYNAMIC " not in headers
    document = audit_json(image)
    lazy = {f["location"]["path"] for f in document["findings"] if f["rule"] == "PKR604"}
    assert not any(path.startswith("usr/lib/klibc/") for path in lazy)
    headers = readelf("-lWd", image / "usr/bin/lazy")
    assert " DYNAMIC " in headers and "GNU_RELRO" in headers and "BIND_NOW" not in headers
    assert "usr/bin/lazy" in lazy


# -- loaded first by path ----------------------------------------------------------------------


def test_a_plugin_whose_library_its_launcher_opens_first_is_a_note(image: Path) -> None:
    dynamic = readelf("-d", image / "opt/app/lib/libplugin.so")
    assert "[libcore.so]" in dynamic and "RUNPATH" not in dynamic and "RPATH" not in dynamic
    assert "Library soname: [libcore.so]" in readelf("-d", image / "opt/app/lib/core/libcore.so")
    document = audit_json(image)
    [finding] = at(document, "opt/app/lib/libplugin.so")
    assert finding["rule"] == "PKR207" and finding["severity"] == "note"
    assert "opt/app/lib/core/libcore.so has that SONAME" in finding["message"]
    assert "nothing in the image links it" in finding["message"]
    # glibc's own loader: the plugin loads after its launcher opened the core by path, and not alone
    first, alone = (runs_under_qemu(image, "opt/app/bin/launcher", how) for how in ("core-first", "alone"))
    if first is not None:
        assert (first, alone) == (True, False), "glibc's loader disagrees with the model"


def test_a_program_that_links_that_library_still_fails(image: Path) -> None:
    assert "[libcore.so]" in readelf("-d", image / "opt/app/bin/linked")
    [finding] = at(audit_json(image), "opt/app/bin/linked", "PKR201")
    assert finding["severity"] == "error"
    assert "opt/app/lib/core/libcore.so lies in a directory it does not search" in finding["message"]
    assert runs_under_qemu(image, "opt/app/bin/linked") in (False, None)


# -- optional plugins -------------------------------------------------------------------------------


def test_an_optional_plugins_missing_libraries_are_its_own(image: Path) -> None:
    plugin = f"{LIBDIR}/caca/libgl_plugin.so.0.0.0"
    needed = set(re.findall(r"\[(lib\w+\.so[.\d]*)\]", readelf("-d", image / plugin)))
    assert {"libGL.so.1", "libGLU.so.1", "libglut.so.3.12"} <= needed
    document = audit_json(image)
    findings = at(document, plugin)
    assert {f["rule"] for f in findings} == {"PKR206"} and {f["severity"] for f in findings} == {"warning"}
    named = {re.match(r".* needs (\S+),", f["message"]).group(1) for f in findings}
    assert {"libGL.so.1", "libGLU.so.1", "libglut.so.3.12"} <= named
    assert all("that plugin fails to load" in f["message"] for f in findings)
    # the same library missing for a program is the image's error
    assert "[libGLU.so.1]" in readelf("-d", image / "usr/bin/uses-glu")
    assert [f["rule"] for f in at(document, "usr/bin/uses-glu") if f["severity"] != "note"] == ["PKR201"]


# -- links made by maintainer scripts -----------------------------------------------------------------


def test_libblas_without_its_alternatives_link(image: Path, tmp_path: Path) -> None:
    assert "[libblas.so.3]" in readelf("-d", image / "usr/bin/uses-blas")
    assert not (image / LIBDIR / "libblas.so.3").exists()  # update-alternatives makes it, in libblas3's postinst
    [finding] = at(audit_json(image), "usr/bin/uses-blas", "PKR201")
    assert f"{LIBDIR}/blas/libblas.so.3 lies in a directory it does not search" in finding["message"]
    assert "maintainer scripts" not in finding["message"]  # nothing in this image says they have not run
    # liblapack (in lapack/, linked by nothing here) needs it too: a note that the image has it under that SONAME
    [lapack] = at(audit_json(image), f"{LIBDIR}/lapack/liblapack.so.3.11.0", "PKR207")
    assert f"{LIBDIR}/blas/libblas.so.3" in lapack["message"]

    first_stage = tmp_path / "rootfs"
    shutil.copytree(image, first_stage, symlinks=True)
    (first_stage / "debootstrap").mkdir()
    (first_stage / "debootstrap/debootstrap").write_text("#!/bin/sh\n")  # what debootstrap --foreign leaves
    [finding] = at(audit_json(first_stage), "usr/bin/uses-blas", "PKR201")
    assert "a first-stage debootstrap image (debootstrap/ at its root), whose maintainer scripts have not run: " \
           "links they make (update-alternatives) are not there yet" in finding["message"]  # fmt: skip
    assert "debootstrap --second-stage" in finding["fix"]
    # the links update-alternatives makes, the second one missing: the dangling link is named
    os.symlink("/etc/alternatives/libblas.so.3-aarch64-linux-gnu", first_stage / LIBDIR / "libblas.so.3")
    [finding] = at(audit_json(first_stage), "usr/bin/uses-blas", "PKR201")
    assert (f"{LIBDIR}/libblas.so.3 is a link to /etc/alternatives/libblas.so.3-aarch64-linux-gnu, where "
            "etc/alternatives does not exist") in finding["message"]  # fmt: skip
    assert runs_under_qemu(first_stage, "usr/bin/uses-blas") in (False, None)
    alternative = first_stage / "etc/alternatives/libblas.so.3-aarch64-linux-gnu"
    alternative.parent.mkdir(parents=True, exist_ok=True)
    os.symlink(f"/{LIBDIR}/blas/libblas.so.3", alternative)
    assert at(audit_json(first_stage), "usr/bin/uses-blas", "PKR201") == []
    # qemu-user's -L re-roots the paths a program opens, not the targets of absolute links inside them:
    # the same links made relative, for glibc's loader under qemu
    (first_stage / LIBDIR / "libblas.so.3").unlink()
    os.symlink("../../../etc/alternatives/libblas.so.3-aarch64-linux-gnu", first_stage / LIBDIR / "libblas.so.3")
    alternative.unlink()
    os.symlink("../../usr/lib/aarch64-linux-gnu/blas/libblas.so.3", alternative)
    assert at(audit_json(first_stage), "usr/bin/uses-blas", "PKR201") == []
    assert runs_under_qemu(first_stage, "usr/bin/uses-blas") in (True, None)


# -- messages ------------------------------------------------------------------------------------------


def test_an_armhf_program_is_not_offered_the_arm64_libc(image: Path) -> None:
    header = readelf("-h", image / "usr/bin/armhf-app")
    assert "ARM" in header and "hard-float" in header
    [finding] = at(audit_json(image), "usr/bin/armhf-app", "PKR201")
    assert "lies in a directory" not in finding["message"]
    assert "the image has it only for another ABI: lib/aarch64-linux-gnu/libc.so.6 (arm64)" in finding["message"]
    assert "/usr/lib/arm-linux-gnueabihf" in finding["fix"] and "--libdir=/usr/lib " not in finding["fix"]

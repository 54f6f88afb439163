"""The images bench/audit/run.py measures, built once and cached under
build/bench/ (never in the repository):

- arm64-large: Debian 12 arm64 as `debootstrap --foreign --variant=minbase
  --include=...` resolves it (about 630 packages: desktop libraries, a JVM,
  two databases, two web servers with PHP, an office suite's core, valgrind,
  a kernel package, klibc, libc6-dbg's separate debug files), every package
  then unpacked with `dpkg-deb --fsys-tarfile | tar -x --keep-directory-symlink`:
  the first stage unpacks only the required packages, and `dpkg-deb -x`
  would replace merged-usr's /bin and /lib links with directories. Nothing
  of arm64 runs here, so no maintainer script runs: the image is what a
  first-stage debootstrap leaves, as the field report's was.
- arm64-large-planted: the same (hard links: nothing is copied) plus the
  defects the demo plants and one true defect next to each class of false
  finding issue 19 fixed, so the fix is seen not to hide them (PLANTED).
- arm64-large.tar.gz: the image as one archive (GNU tar and gzip -6).
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "tests" / "data" / "audit_rootfs"
MIRROR = "http://deb.debian.org/debian"
SUITE = "bookworm"
# What the field report's image held, by kind; debootstrap adds what they depend on.
PACKAGES = (
    # desktop libraries and media: toolkits, their plugins (Qt platform and QML, GStreamer, PulseAudio)
    "libgtk-3-0", "libgtk-4-1", "libqt5widgets5", "libqt5gui5", "qml-module-qtquick2", "gstreamer1.0-plugins-base",
    "gstreamer1.0-plugins-good", "gstreamer1.0-plugins-bad", "gstreamer1.0-libav", "pulseaudio", "libgl1-mesa-dri",
    "libsdl2-2.0-0", "libcaca0",
    # a JVM, databases, web servers, an office suite's core, languages
    "openjdk-17-jre-headless", "postgresql-15", "mariadb-server", "apache2", "libapache2-mod-php8.2", "nginx",
    "libreoffice-core", "python3", "perl", "ruby",
    # tools, a kernel, klibc, separate debug files, BLAS/LAPACK (update-alternatives links)
    "valgrind", "gdb", "linux-image-arm64", "klibc-utils", "libc6-dbg", "libblas3", "liblapack3", "iproute2",
    "openssh-server", "systemd", "udev", "curl", "git", "vim", "busybox", "e2fsprogs", "sqlite3", "libssl3",
    "ca-certificates",
)  # fmt: skip

# Planted path -> the rules that must report it (errors and warnings; notes are not asserted).
PLANTED = {
    # the demo's: the IVI porting field report's /lib64 library and build-machine RUNPATH,
    # the compat-vDSO field report's legacy 32-bit program (no armhf libc here: the armhf message case)
    "lib64/libvendor.so.1": {"PKR305"},
    "opt/vendor/bin/vendor-app": {"PKR201", "PKR301"},
    "usr/bin/legacy-logger": {"PKR201", "PKR204", "PKR401"},
    # a truncated library beside the debug files, which are no longer malformed
    "usr/lib/aarch64-linux-gnu/libtruncated.so.1": {"PKR102"},
    # a program that links a library lying off the path under its SONAME, beside the JVM's plugins,
    # which need libjvm.so the same way but are opened by java's launcher after it
    "opt/app/bin/linked": {"PKR201"},
    # a program that needs libatm.so.1, which tc's q_atm plugin misses too (PKR206 there)
    "usr/bin/uses-atm": {"PKR201"},
    # a plugin of its own whose library is missing
    "usr/lib/aarch64-linux-gnu/app/plugins/libplug.so": {"PKR206"},
}


def large_image(bench: Path) -> Path:
    image = bench / "arm64-large"
    if image.exists():
        return image
    work = bench.resolve() / "arm64-large.tmp"
    cache = bench.resolve() / "debs-cache"  # debootstrap wants it absolute; the .debs are kept for a rebuild
    shutil.rmtree(work, ignore_errors=True)
    cache.mkdir(parents=True, exist_ok=True)
    subprocess.run(
        ["debootstrap", "--foreign", "--arch=arm64", "--variant=minbase", "--merged-usr", f"--cache-dir={cache}",
         f"--include={','.join(PACKAGES)}", SUITE, str(work), MIRROR],
        check=True, stdout=subprocess.DEVNULL,
    )  # fmt: skip
    for deb in sorted((work / "var/cache/apt/archives").glob("*.deb")):
        unpack = f"dpkg-deb --fsys-tarfile '{deb}' | tar -x --keep-directory-symlink -C '{work}'"
        subprocess.run(["sh", "-c", unpack], check=True)
    work.rename(image)
    return image


def archive(image: Path) -> Path:
    tarball = image.with_name(image.name + ".tar.gz")
    if not tarball.exists():
        partial = tarball.with_suffix(".tmp")
        subprocess.run(["tar", "-C", str(image), "-czf", str(partial), "."], check=True)
        partial.rename(tarball)
    return tarball


def planted_image(image: Path) -> Path:
    planted = image.with_name(image.name + "-planted")
    if planted.exists():
        return planted
    work = planted.with_name(planted.name + ".tmp")
    shutil.rmtree(work, ignore_errors=True)
    subprocess.run(["cp", "-al", str(image), str(work)], check=True)  # hard links: new files only are planted
    build = work / "tmp/plant"
    build.mkdir(parents=True)
    cc, libdir = "aarch64-linux-gnu-gcc", work / "usr/lib/aarch64-linux-gnu"

    def compile_(out: Path, *args: str, compiler: str = cc) -> None:
        out.parent.mkdir(parents=True, exist_ok=True)
        subprocess.run([compiler, "-O1", "-o", str(out), *args], check=True)

    def library(out: Path, soname: str) -> None:
        compile_(out, "-shared", "-fPIC", f"-Wl,-soname,{soname}", str(DATA / "lib.c"))

    library(work / "lib64/libvendor.so.1", "libvendor.so.1")
    compile_(work / "opt/vendor/bin/vendor-app", str(DATA / "calls_lib.c"), f"-L{work / 'lib64'}", "-l:libvendor.so.1",
             "-Wl,-rpath,/home/builder/bsp/build/tmp/work/vendor/image/usr/lib")  # fmt: skip
    compile_(work / "usr/bin/legacy-logger", str(DATA / "time32.c"), compiler="arm-linux-gnueabihf-gcc")
    real = (libdir / "libz.so.1").resolve()
    (libdir / "libtruncated.so.1").write_bytes(real.read_bytes()[: real.stat().st_size // 2])
    library(work / "opt/app/lib/core/libcore.so", "libcore.so")
    compile_(work / "opt/app/bin/linked", str(DATA / "calls_lib.c"), f"-L{work / 'opt/app/lib/core'}", "-lcore")
    library(build / "libatm.so.1", "libatm.so.1")  # linked against, not installed
    compile_(work / "usr/bin/uses-atm", str(DATA / "calls_lib.c"), f"-L{build}", "-l:libatm.so.1")
    library(build / "libgone.so.3", "libgone.so.3")
    plugin = build / "plugin.c"
    plugin.write_text("int planted_value(void);\nint plugin_entry(void) { return planted_value(); }\n")
    compile_(libdir / "app/plugins/libplug.so", "-shared", "-fPIC", str(plugin), f"-L{build}", "-l:libgone.so.3")
    shutil.rmtree(build)
    work.rename(planted)
    return planted

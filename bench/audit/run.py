"""portkit audit rootfs against the anchors' checks on the same image, in one run.

    python bench/audit/run.py [--repeat 5] [--image build/bench/arm64-minbase]

The image is a real Debian bookworm arm64 minbase root filesystem, made once
with `debootstrap --foreign --variant=minbase --arch=arm64` (the first stage
only unpacks packages: nothing of arm64 runs here). The peers, each on the
same files:

- readelf_loop.sh: the shell loop Buildroot's check-bin-arch and Yocto's
  insane.bbclass amount to, readelf per file plus `test -e` for each NEEDED;
- scanelf -R (pax-utils): TEXTREL, executable stacks and RPATHs, in C;
- lddtree -R (pax-utils): each file's NEEDED resolved inside the root.

Each is timed `--repeat` times; the medians and the ratios to portkit are
printed as Markdown with the machine line, then what each found per check.
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import subprocess
import sys
import tarfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent
PYTHON = sys.executable
sys.path.insert(0, str(ROOT / "bench"))
from benchlib import machine  # noqa: E402


def make_image(image: Path) -> None:
    if image.exists():
        return
    image.parent.mkdir(parents=True, exist_ok=True)
    subprocess.run(
        ["debootstrap", "--foreign", "--variant=minbase", "--arch=arm64", "bookworm", str(image),
         "http://deb.debian.org/debian"],
        check=True, stdout=subprocess.DEVNULL,
    )  # fmt: skip


def timed(command: list[str], repeat: int, **kwargs) -> tuple[float, str]:
    times, out = [], ""
    for _ in range(repeat):
        start = time.perf_counter()
        proc = subprocess.run(command, capture_output=True, text=True, **kwargs)
        times.append(time.perf_counter() - start)
        out = proc.stdout
    return statistics.median(times), out


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--image", type=Path, default=ROOT / "build" / "bench" / "arm64-minbase")
    args = parser.parse_args()
    image = args.image
    make_image(image)
    archive = image.with_suffix(".tar.gz")
    if not archive.exists():
        with tarfile.open(archive, "w:gz") as tar:
            tar.add(image, arcname=".")
    portkit = [PYTHON, "-m", "portkit", "audit", "rootfs", "--format", "json", "--fail-on", "never"]
    files = sorted(
        "/" + p.relative_to(image).as_posix()
        for top in ("usr/bin", "usr/sbin", "usr/lib")
        for p in (image / top).rglob("*")
        if p.is_file() and not p.is_symlink()
    )
    runs = {
        "portkit audit rootfs DIR": timed([*portkit, str(image)], args.repeat),
        "portkit audit rootfs ARCHIVE (tar.gz)": timed([*portkit, str(archive)], args.repeat),
        "readelf loop (readelf_loop.sh)": timed(["bash", str(HERE / "readelf_loop.sh"), str(image)], args.repeat),
        "scanelf -R (TEXTREL, stack, RPATH)": timed(
            ["scanelf", "-RqBF", "%t %e %r %F", "-T", "-e", "-r", str(image)], args.repeat
        ),
        "lddtree -R (NEEDED resolved)": timed(
            [PYTHON, "/usr/bin/lddtree", "-R", str(image), "--skip-non-elfs", *files], args.repeat
        ),
    }
    base = runs["portkit audit rootfs DIR"][0]
    document = json.loads(runs["portkit audit rootfs DIR"][1])
    print(f"Machine: {machine()}, Python {platform.python_version()}; image: {document['image']['entries']} entries, "
          f"{document['files']['elf']} ELF files; median of {args.repeat} runs.\n")  # fmt: skip
    print("| tool | median s | / portkit |\n|---|---:|---:|")
    for name, (seconds, _) in runs.items():
        print(f"| {name} | {seconds:.2f} | {seconds / base:.1f}x |")
    rules = Counter(f["rule"] for f in document["findings"])
    loop = Counter(line.split(" ", 1)[0] for line in runs["readelf loop (readelf_loop.sh)"][1].splitlines())
    scanelf = runs["scanelf -R (TEXTREL, stack, RPATH)"][1].splitlines()
    lddtree = runs["lddtree -R (NEEDED resolved)"][1]
    print("\n| check | portkit | readelf loop | scanelf | lddtree |\n|---|---:|---:|---:|---:|")
    print(f"| foreign architecture | {rules['PKR101']} | {loop['arch']} | | |")
    print(f"| missing NEEDED | {rules['PKR201'] + rules['PKR202']} | {loop['missing']} | | "
          f"{lddtree.count('not found')} |")  # fmt: skip
    rpath_rules = sum(rules[r] for r in ("PKR301", "PKR302", "PKR303", "PKR304"))
    scanelf_rpaths = sum(any(f[0] in "/$" for f in line.split()[:-1]) for line in scanelf)
    print(f"| RPATH/RUNPATH (portkit: those with a problem) | {rpath_rules} | {loop['rpath']} (all) | "
          f"{scanelf_rpaths} (all) | |")  # fmt: skip
    textrel, execstack = sum("TEXTREL" in line for line in scanelf), sum("RWX" in line for line in scanelf)
    print(f"| TEXTREL | {rules['PKR601']} | {loop['textrel']} | {textrel} | |")
    print(f"| executable stack | {rules['PKR602']} | {loop['execstack']} | {execstack} | |")
    print(f"| lazy binding (partial RELRO) | {rules['PKR604']} | {loop['lazy']} | | |")
    print(f"\nportkit's findings by rule: {dict(sorted(rules.items()))}; problems: {len(document['problems'])}")
    plant_lib64_defect(image, portkit)


def plant_lib64_defect(image: Path, portkit: list[str]) -> None:
    """The field report's defect planted into a copy: an arm64 library installed
    to /lib64 and a program that needs it. Who notices?"""
    planted = image.with_name(image.name + "-lib64")
    if not planted.exists():
        subprocess.run(["cp", "-a", str(image), str(planted)], check=True)
        data = ROOT / "tests" / "data" / "audit_rootfs"
        build = planted / "tmp"
        (planted / "lib64").mkdir(exist_ok=True)
        cc = "aarch64-linux-gnu-gcc"
        subprocess.run([cc, "-shared", "-fPIC", "-Wl,-soname,libfoo.so.1", "-o", str(build / "libfoo.so"),
                        str(data / "lib.c")], check=True)  # fmt: skip
        subprocess.run(["cp", str(build / "libfoo.so"), str(planted / "lib64/libfoo.so.1")], check=True)
        subprocess.run([cc, "-o", str(planted / "usr/bin/lib64-app"), str(data / "calls_lib.c"), f"-L{build}", "-lfoo"],
                       check=True)  # fmt: skip
    document = json.loads(subprocess.run([*portkit, str(planted)], capture_output=True, text=True).stdout)
    found = [f"{f['rule']} {f['location']['path']}" for f in document["findings"] if f["rule"] in ("PKR201", "PKR305")]
    loop = subprocess.run(["bash", str(HERE / "readelf_loop.sh"), str(planted)], capture_output=True, text=True).stdout
    tree = subprocess.run([PYTHON, "/usr/bin/lddtree", "-R", str(planted), "/usr/bin/lib64-app"],
                          capture_output=True, text=True).stdout  # fmt: skip
    print("\nThe field report's defect (an arm64 libfoo.so.1 in /lib64, usr/bin/lib64-app needing it):\n")
    print(f"- portkit: {'; '.join(found)}")
    print(f"- readelf loop: {[line for line in loop.splitlines() if 'lib64-app' in line or 'lib64' in line]}")
    print(f"- lddtree: {' '.join(tree.split())}")


if __name__ == "__main__":
    main()

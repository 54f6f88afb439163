"""PKR206: a library only plugins load needs one that is not in the image."""

from __future__ import annotations

from collections.abc import Iterator

from portkit.commands.audit.rootfs.audit import Audit
from portkit.commands.audit.rootfs.missing import details, fix, missing_libraries, searched_phrase
from portkit.commands.audit.rootfs.wording import listed
from portkit.findings.model import Finding, Rule, Severity

RULE = Rule(
    id="PKR206",
    name="plugin-missing-library",
    severity=Severity.WARNING,
    family="Loading",
    summary="A plugin (a library nothing in the image links and the loader cannot find by name, so it is loaded "
    "by path with dlopen), or a library only plugins load, needs a library that is not in the image.",
    why=(
        "Only that plugin fails to load: the program that opens it reports an error or goes on without the "
        "feature (a tc qualifier, a GStreamer element, an office suite's database driver). Distributions leave "
        "such dependencies to optional packages (Debian's Recommends and Suggests), so a minimal image has "
        "many; on a board's image it is worth knowing which features will not work. A plugin's dependency "
        "that a program or a public library needs as well is PKR201, an error."
    ),
    wrong=(
        "$ readelf -d rootfs/usr/lib/aarch64-linux-gnu/tc/q_atm.so | grep NEEDED\n"
        " 0x0000000000000001 (NEEDED)  Shared library: [libatm.so.1]\n"
        "$ find rootfs -name 'libatm.so*'\n"
        "# nothing: libatm1 is only recommended by iproute2"
    ),
    right="$ find rootfs -name 'libatm.so*'\nrootfs/usr/lib/aarch64-linux-gnu/libatm.so.1",
    fix="Install the package that provides the library if the plugin's feature is wanted (Debian: the Recommends "
    "of the plugin's package), or leave the plugin out of the image.",
    language="console",
)


def check(audit: Audit) -> Iterator[Finding]:
    for item in missing_libraries(audit):
        if not item.plugins_only or audit.by_soname_for(item.path, item.name):
            continue  # PKR201: a program needs it; PKR207: the image has it under that SONAME
        plugins = sorted(set(item.roots))
        if plugins == [item.path]:
            who = "a plugin: nothing in the image links it, and the loader cannot find it by name (dlopen opens it "
            who += "by path); it"
        else:
            who = (f"loaded only by {'the plugin' if len(plugins) == 1 else 'plugins'} {listed(plugins, 3)} "
                   "(nothing in the image links them: dlopen opens them by path); it")  # fmt: skip
        more, usable = details(audit, item)
        message = (f"{who} needs {item.name}, which is not where the loader searches ({searched_phrase(item.lookup)})"
                   f"{more}: {'that plugin fails' if len(plugins) == 1 else 'those plugins fail'} to load")  # fmt: skip
        yield audit.finding(RULE, item.path, message, fix(audit, item, usable) if usable else None)

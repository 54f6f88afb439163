"""PKR401: a 32-bit file that calls glibc's 32-bit time_t functions (Y2038)."""

from __future__ import annotations

from collections.abc import Iterator

from portkit.commands.audit.rootfs.audit import Audit
from portkit.commands.audit.rootfs.time32_symbols import TIME32_SYMBOLS
from portkit.commands.audit.rootfs.wording import listed
from portkit.findings.model import Finding, Rule, Severity

RULE = Rule(
    id="PKR401",
    name="time32-calls",
    severity=Severity.WARNING,
    family="Time",
    summary="A 32-bit program or library that imports glibc functions taking a 32-bit time_t (clock_gettime, "
    "gettimeofday, time, stat, ...) instead of their 64-bit time entry points.",
    why=(
        "A signed 32-bit time_t ends on 2038-01-19 03:14:07 UTC; after it these calls fail with EOVERFLOW or "
        "return dates in 1901, and file times, timeouts and certificates go wrong with them. Since glibc 2.34 "
        "a 32-bit program built with -D_TIME_BITS=64 imports __clock_gettime64, __stat64_time64 and so on "
        "instead; one that imports the plain names was built without it. The list of names is read from "
        "glibc's own 32-bit libc.so.6 (time32_gen.py). Calls such as ioctl, fcntl, setsockopt and sendmsg "
        "pass a time only with some requests: a file that imports only those is a note."
    ),
    wrong="$ readelf --dyn-syms -W rootfs/usr/bin/logger | grep UND | grep -E ' (clock_gettime|stat)@'\n"
    "    12: 00000000     0 FUNC    GLOBAL DEFAULT  UND clock_gettime@GLIBC_2.17 (3)",
    right="$ readelf --dyn-syms -W rootfs/usr/bin/logger | grep UND | grep time64\n"
    "    12: 00000000     0 FUNC    GLOBAL DEFAULT  UND __clock_gettime64@GLIBC_2.34 (4)",
    fix="Rebuild with -D_TIME_BITS=64 -D_FILE_OFFSET_BITS=64 (glibc 2.34 or later), and check the data it "
    "stores or sends that holds a time_t, whose size then changes from 4 to 8 bytes (portkit layout).",
    language="console",
)

# Calls that carry a time only for some requests (SO_RCVTIMEO, SIOCGSTAMP, F_SETLK ...).
BY_REQUEST = frozenset({"ioctl", "fcntl", "fcntl64", "getsockopt", "setsockopt", "sendmsg", "recvmsg", "prctl"})


def check(audit: Audit) -> Iterator[Finding]:
    for path, facts in audit.programs_and_libraries.items():
        abi = audit.abis[path]
        if abi.known is None or not abi.known.time32:
            continue
        calls = sorted(name for name in facts.undefined if name in TIME32_SYMBOLS)
        if not calls:
            continue
        direct = [c for c in calls if c not in BY_REQUEST]
        ordered = direct + [c for c in calls if c in BY_REQUEST]
        count = f" ({len(calls)} in all)" if len(calls) > 6 else ""
        if direct:
            message = f"calls 32-bit time_t functions: {listed(ordered, 6)}{count}"
        else:
            message = f"built with a 32-bit time_t: it calls {listed(ordered, 6)}, which pass a time with some requests"
        yield audit.finding(RULE, path, message, severity=None if direct else Severity.NOTE)

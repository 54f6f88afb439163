"""audit rootfs's kernel needs as rows of audit kconfig's engine: for any
config and any set of 32-bit program ABIs, each needed option reads as the
config writes it (y or m) or n, and only the options the programs need are
read. The options and the ABIs they serve are the kernels' own (arch/*/Kconfig)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from portkit.commands.audit.kconfig.reader import parse_config_text
from portkit.commands.audit.rootfs.kernel import KERNELS, check_config_family, kernel_rows, kernel_states
from portkit.core.errors import BadInput

NEEDED = {  # image ABI -> 32-bit ABI -> the option; PKR502's COMPAT_VDSO on arm64
    "arm64": {"armhf": "COMPAT", "armel": "COMPAT"},
    "amd64": {"i386": "IA32_EMULATION", "x32": "X86_X32_ABI"},
    "mips64el": {"mipsel": "MIPS32_O32", "mipsn32el": "MIPS32_N32"},
    "mips64": {"mips": "MIPS32_O32"},
    "ppc64": {"powerpc": "COMPAT"},
}
OPTIONS = sorted({o for needs in NEEDED.values() for o in needs.values()} | {"COMPAT_VDSO"})
values = st.sampled_from(["y", "m", "n", "not set", "absent"])


def config_text(image_abi: str, chosen: dict[str, str]) -> str:
    lines = [f"CONFIG_{KERNELS[image_abi][1]}=y"]
    for option, value in chosen.items():
        if value == "not set":
            lines.append(f"# CONFIG_{option} is not set")
        elif value != "absent":
            lines.append(f"CONFIG_{option}={value}")
    return "\n".join(lines) + "\n"


@settings(max_examples=300, deadline=None)
@given(
    image_abi=st.sampled_from(sorted(NEEDED)),
    chosen=st.fixed_dictionaries({option: values for option in OPTIONS}),
    data=st.data(),
)
def test_each_needed_option_reads_as_the_config_has_it(image_abi: str, chosen: dict[str, str], data) -> None:
    runs = frozenset(data.draw(st.sets(st.sampled_from(sorted(NEEDED[image_abi])))))
    config = parse_config_text(config_text(image_abi, chosen), "config")
    states = kernel_states(config, image_abi, runs)
    expected = {NEEDED[image_abi][abi] for abi in runs}
    if image_abi == "arm64" and runs:
        expected.add("COMPAT_VDSO")
    assert set(states) == expected
    for option, state in states.items():
        assert state == (chosen[option] if chosen[option] in ("y", "m") else "n")


def test_the_rows_are_the_needed_options() -> None:
    for image_abi, needs in NEEDED.items():
        options = {row.option for row in kernel_rows(image_abi) if row.id == "PKR501"}
        # a big-endian MIPS kernel has MIPS32_N32 too, for an n32 ABI Debian does not have
        assert options == set(needs.values()) | ({"MIPS32_N32"} if image_abi == "mips64" else set())
    assert [row.option for row in kernel_rows("arm64") if row.id == "PKR502"] == ["COMPAT_VDSO"]
    assert kernel_rows("armhf") == [] and kernel_rows("riscv64") == []


def test_a_config_of_another_architecture_is_refused() -> None:
    check_config_family(parse_config_text("CONFIG_ARM64=y\n", "c"), "arm64", "--kconfig c")
    with pytest.raises(BadInput, match=r"--kconfig c: not a configuration for arm64 \(CONFIG_ARM64 is not set\)"):
        check_config_family(parse_config_text("CONFIG_X86_64=y\n", "c"), "arm64", "--kconfig c")

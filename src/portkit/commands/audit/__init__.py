"""`portkit audit`: check what was built for a board before the board does:
a root filesystem (`audit rootfs`) and a kernel configuration (`audit kconfig`)."""

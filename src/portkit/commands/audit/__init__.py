"""`portkit audit MODE`: check what goes onto a board before the board does:
a root filesystem (`audit rootfs`) and a kernel configuration (`audit kconfig`)."""

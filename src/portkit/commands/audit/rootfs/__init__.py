"""`portkit audit rootfs`: a cross-built root filesystem, sysroot or tar archive
of one, checked file by file and as a whole the way its loader and kernel
will meet it (docs/audit-rootfs-rules.md)."""

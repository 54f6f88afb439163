"""`portkit vdso`."""

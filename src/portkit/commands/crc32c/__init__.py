"""`portkit crc32c`."""

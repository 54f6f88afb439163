"""`portkit scan`: 64-bit portability defects in C and C++ source."""

"""`portkit cpu`."""

"""`portkit rt`: real-time latency results (docs/formats.md, "portkit.rt/1")."""

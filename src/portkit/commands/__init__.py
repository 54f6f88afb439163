"""One package per `portkit` command, named after it; each has command.py
with register() (docs/architecture.md, "Adding a host command")."""

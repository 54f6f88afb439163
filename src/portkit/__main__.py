from portkit.cli import entry

entry()

"""What every command stands on: errors and exit codes, the architectures and
ABIs, targets and the agent, output, and how a command plugs into the CLI."""

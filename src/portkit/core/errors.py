"""Exit codes and the errors that carry them (docs/architecture.md, "Conventions")."""

from __future__ import annotations

from enum import IntEnum


class Exit(IntEnum):
    OK = 0  # success, nothing at or above --fail-on
    FINDINGS = 1  # a check failed or findings at or above --fail-on
    USAGE = 2  # bad usage or bad input
    ENVIRONMENT = 3  # this environment cannot do it


class PortkitError(Exception):
    """An error reported as one line, ending the command with its exit code."""

    exit_code = Exit.USAGE

    def __init__(self, message: str, hint: str | None = None) -> None:
        super().__init__(message)
        self.hint = hint


class BadInput(PortkitError):
    exit_code = Exit.USAGE


class EnvironmentProblem(PortkitError):
    exit_code = Exit.ENVIRONMENT

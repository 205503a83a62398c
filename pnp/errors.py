"""User-facing errors: one clear line, no traceback."""

from __future__ import annotations

from pathlib import Path


class PnpError(Exception):
    """An error caused by user input; the CLI prints it as one line and exits 1.

    Messages say what went wrong, where (file, row/line), and what was expected.
    """

    #: Exit status the CLI uses for this error.
    exit_code: int = 1

    def __init__(self, message: str, *, path: Path | str | None = None,
                 line: int | None = None) -> None:
        self.message = message
        self.path = Path(path) if path is not None else None
        self.line = line
        super().__init__(str(self))

    def __str__(self) -> str:
        where = ""
        if self.path is not None:
            where = str(self.path)
            if self.line is not None:
                where += f":{self.line}"
            where += ": "
        return f"{where}{self.message}"


class Interrupted(PnpError):
    """The run was stopped by Ctrl-C or SIGTERM; workers are gone, nothing written."""

    exit_code = 130

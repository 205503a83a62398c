"""Command-line edges: option types that refuse bad values, and errors as one line.

Every value a user types is checked here, where the command line is parsed,
so a bad one is a single line naming the option, the value and what is
expected, never a traceback from deep inside a build.
"""

from __future__ import annotations

import math
import sys
from pathlib import Path
import typing as t
from typing import Any

import click

from pnp.errors import PnpError
from pnp.limits import MAX_JOBS as _MAX_JOBS

#: Re-exported for the command line (one source: :mod:`pnp.limits`).
MAX_JOBS = _MAX_JOBS


class BadValue(click.BadParameter):
    """A refused option value: exit status 1, like every other input error.

    (click's own usage errors, an unknown option or a missing argument, keep
    status 2.)
    """

    exit_code = 1


class _Checked(click.ParamType):
    """A parameter type whose refusals are :class:`BadValue`."""

    def fail(self, message: str, param: click.Parameter | None = None,
             ctx: click.Context | None = None) -> "t.NoReturn":
        """Refuse the value with ``message`` (exit status 1)."""
        raise BadValue(message, ctx=ctx, param=param)


class FiniteFloat(_Checked):
    """A number that must be finite (no ``nan``/``inf``) and, optionally, within bounds."""

    name = "number"

    def __init__(self, low: float | None = None, high: float | None = None,
                 unit: str = "") -> None:
        """Accept numbers in [``low``, ``high``] (either bound may be open)."""
        self.low = low
        self.high = high
        self.unit = unit

    def convert(self, value: Any, param: click.Parameter | None,
                ctx: click.Context | None) -> float:
        """Return ``value`` as a float or fail with what was expected."""
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            number = float(value)
        else:
            try:
                text = str(value).strip()
                if "_" in text:       # float() reads "1_0" as 10: a typo, not a number
                    raise ValueError(text)
                number = float(text)
            except ValueError:
                self.fail(f"{value!r} is not a number{self._range()}", param, ctx)
        if not math.isfinite(number):
            self.fail(f"{value!r}: expected a finite number{self._range()}", param, ctx)
        if (self.low is not None and number < self.low) or (
                self.high is not None and number > self.high):
            self.fail(f"{number:g}{self.unit} is out of range{self._range()}", param, ctx)
        return number

    def _range(self) -> str:
        """`` (from LOW to HIGH unit)`` for messages, or ``""`` when unbounded."""
        if self.low is None and self.high is None:
            return ""
        if self.high is None:
            return f" (at least {self.low:g}{self.unit})"
        if self.low is None:
            return f" (at most {self.high:g}{self.unit})"
        return f" (from {self.low:g} to {self.high:g}{self.unit})"


class FolderPath(_Checked):
    """A folder path: an input folder must exist; an output folder must not be a file."""

    name = "folder"

    def __init__(self, *, must_exist: bool = False, what: str = "") -> None:
        """``must_exist``: the folder is read from (data, templates); ``what`` names it."""
        self.must_exist = must_exist
        self.what = what or ("folder" if must_exist else "output folder")

    def convert(self, value: Any, param: click.Parameter | None,
                ctx: click.Context | None) -> Path:
        """Return ``value`` as a Path, or fail if it names a file (or nothing, for inputs)."""
        path = Path(value)
        if str(value).strip() == "":
            self.fail("expected a folder, found an empty name", param, ctx)
        if path.exists() and not path.is_dir():
            self.fail(f"{self.what} {str(path)!r} is a file, expected a folder", param, ctx)
        blocker = next((p for p in path.parents if p.exists() and not p.is_dir()), None)
        if blocker is not None:
            self.fail(f"cannot create {self.what} {str(path)!r}: {str(blocker)!r} is a file",
                      param, ctx)
        if self.must_exist and not path.exists():
            self.fail(f"{self.what} {str(path)!r} not found", param, ctx)
        return path


class FilePath(_Checked):
    """An existing file to read (a folder or a missing path is refused)."""

    name = "file"

    def convert(self, value: Any, param: click.Parameter | None,
                ctx: click.Context | None) -> Path:
        """Return ``value`` as a Path to an existing file, or fail saying what it is."""
        path = Path(value)
        if path.is_dir():
            self.fail(f"{str(path)!r} is a folder, expected a file", param, ctx)
        if not path.exists():
            self.fail(f"file {str(path)!r} not found", param, ctx)
        return path


def _one_line(text: str) -> str:
    """Collapse a message onto one line (click joins some of its hints with newlines)."""
    return " ".join(text.split())


class OneLineGroup(click.Group):
    """A command group whose every error is one line on stderr: ``error: …``.

    click prints a usage error as a usage block, a hint and the message on
    separate lines; a failing file operation would be a traceback. Here both
    become one line (exit 2 for a usage error, 1 otherwise), and a mistyped
    command gets a "did you mean".
    """

    def resolve_command(self, ctx: click.Context, args: list[str]) -> Any:
        """Find the command; an unknown one is an error naming the closest command."""
        name = args[0] if args else ""
        if name and not name.startswith("-") and self.get_command(ctx, name) is None:
            from difflib import get_close_matches  # only on a mistyped command

            hint = get_close_matches(name, self.list_commands(ctx), n=1, cutoff=0.5)
            extra = f"; did you mean {hint[0]!r}?" if hint else ""
            raise click.UsageError(f"unknown command {name!r} (commands: "
                                   f"{', '.join(self.list_commands(ctx))}){extra}", ctx)
        # The command's own arguments, for the group's callback (which click
        # runs after this, before the command parses them): see pnp.cli.main.
        ctx.meta["pnp.command_args"] = list(args[1:])
        return super().resolve_command(ctx, args)

    def main(self, args: Any = None, prog_name: str | None = None,
             complete_var: str | None = None, standalone_mode: bool = True,
             **extra: Any) -> Any:
        """Run the CLI; in standalone mode turn every error into one line and an exit code."""
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
        try:
            result = super().main(args, prog_name, complete_var, standalone_mode=False,
                                  **extra)
        except click.exceptions.Abort:
            # Ctrl-C before a command started (every command's own is pnp.cli's
            # one line): the same words, pnp.sim.stopped's (not importable here)
            click.echo("error: interrupted: nothing was written", err=True)
            sys.exit(130)
        except click.ClickException as exc:
            ctx = getattr(exc, "ctx", None)
            where = f" (see '{ctx.command_path} --help')" if ctx is not None else ""
            click.echo(f"error: {_one_line(exc.format_message())}{where}", err=True)
            # A refused option value is an input error like any other (1); click's
            # usage errors proper (unknown option, missing argument) stay 2.
            refused = (isinstance(exc, click.BadParameter)
                       and not isinstance(exc, click.MissingParameter))
            sys.exit(1 if refused else exc.exit_code)
        except PnpError as exc:  # raised outside a command body (an option callback)
            click.echo(f"error: {_one_line(str(exc))}", err=True)
            sys.exit(exc.exit_code)
        except OSError as exc:  # a file operation no check foresaw: still one line
            name = f"{exc.filename}: " if exc.filename else ""
            click.echo(f"error: {name}{exc.strerror or exc}", err=True)
            sys.exit(1)
        sys.exit(result if isinstance(result, int) else 0)

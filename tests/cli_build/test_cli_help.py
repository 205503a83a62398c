"""Every command's --help explains every option, and shared options read the same everywhere."""

from __future__ import annotations

import click

from pnp.cli import main


def _commands() -> dict[str, click.Command]:
    """The CLI's commands by name."""
    return dict(main.commands)


def test_every_option_has_help() -> None:
    bare = [f"{name} {'/'.join(p.opts)}" for name, cmd in _commands().items()
            for p in cmd.params
            if isinstance(p, click.Option) and not p.hidden and not (p.help or "").strip()
            and "--help" not in p.opts]
    assert bare == []


def test_shared_folder_options_read_the_same_in_every_command() -> None:
    ctx = click.Context(main)
    for option in ("--templates-dir", "--data-dir"):
        helps = {}
        for name, cmd in _commands().items():
            for p in cmd.params:
                if isinstance(p, click.Option) and option in p.opts:
                    record = p.get_help_record(click.Context(cmd, parent=ctx))
                    helps[name] = record[1] if record else ""
        assert len(helps) >= 3, (option, helps)
        assert len(set(helps.values())) == 1, (option, helps)

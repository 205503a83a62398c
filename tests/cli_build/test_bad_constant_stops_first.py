"""A rule parameter the engine refuses stops build, preview, watch and rulebook first.

`starting_hp = 0` in 第2話's [game.constants] used to give half a build (five
sheets, the HP tracker drawn with HP 0) and then an error naming the
rulebook; a sheets-only build or a preview drew it without a word. Now each
command stops before writing anything, with one line naming the manifest's
file and line, as `check` and `simulate` do.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from pnp import PROJECT_ROOT
from pnp.builder.preview import load_game
from pnp.cli import main
from pnp.data.manifest import engine_params
from pnp.errors import PnpError
from pnp.games import registered_games

DATA = PROJECT_ROOT / "card_data"


def _data_with(tmp_path: Path, value: str) -> tuple[Path, int]:
    """A copy of 第2話's data with ``starting_hp = value``; (data folder, its line)."""
    data = tmp_path / "card_data"
    shutil.copytree(DATA / "episode2", data / "episode2")
    manifest = data / "episode2" / "manifest.toml"
    lines = manifest.read_text(encoding="utf-8").splitlines()
    (number,) = [i for i, line in enumerate(lines, 1) if line.startswith("starting_hp =")]
    lines[number - 1] = f"starting_hp = {value}"
    manifest.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return data, number


@pytest.mark.parametrize("command", [
    ["build", "episode2", "-q", "-j", "1"],
    ["build", "episode2", "-q", "--no-rulebook"],
    ["rulebook", "episode2", "-q", "-j", "1"],
    ["preview", "episode2", "hp_tracker", "--no-server"],
])
def test_a_bad_starting_hp_stops_the_command_before_any_file(tmp_path: Path,
                                                              command: list[str]) -> None:
    data, number = _data_with(tmp_path, "0")
    out = tmp_path / "out"
    result = CliRunner().invoke(main, [*command, "--out", str(out), "--data-dir", str(data)])
    assert result.exit_code == 1, result.output
    errors = [line for line in result.output.splitlines() if line.startswith("error: ")]
    assert len(errors) == 1, result.output
    assert re.fullmatch(
        rf"error: \S*card_data/episode2/manifest\.toml:{number}: \[game\.constants\] "
        r"starting_hp = 0: expected a whole number from 1 to 30", errors[0]), errors[0]
    assert "wrote" not in result.output
    assert not out.exists() or [p for p in out.rglob("*") if p.is_file()] == []


def test_watch_and_text_values_name_the_line_too(tmp_path: Path) -> None:
    """`pnp watch` loads through load_game; a text value is quoted as TOML writes it."""
    data, number = _data_with(tmp_path, '"ten"')
    with pytest.raises(PnpError) as caught:
        load_game("episode2", data)
    assert caught.value.line == number
    assert caught.value.message == ('[game.constants] starting_hp = "ten": expected a whole '
                                    "number from 1 to 30")


def test_the_shipped_value_passes(tmp_path: Path) -> None:
    data, _ = _data_with(tmp_path, "30")
    assert load_game("episode2", data).manifest.constants["starting_hp"] == 30


def test_parameters_read_off_the_source_equal_the_engines() -> None:
    """The sheets-only build reads each engine's source; it must agree with the engine."""
    # (other tests register toy games of their own, which have no package here)
    games = {slug: entry for slug, entry in registered_games().items()
             if (PROJECT_ROOT / "pnp" / "games" / slug / "engine.py").is_file()}
    assert {"episode2", "fortune_clover", "fortuna"} <= set(games)
    for slug, entry in games.items():
        game = entry.game
        assert engine_params(slug) == ({p.name: p for p in game.param_specs},
                                       tuple(game.params_from_manifest)), slug

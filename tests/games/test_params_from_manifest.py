"""Rule parameters the manifest sets: the engine and the printed aid read one number.

Fortune Clover's deal count and 第2話's starting HP live in the manifest's
``[game.constants]``; the engines default to them (``Game.params_from_manifest``)
and the player aids print them, so a designer who edits the manifest gets a
simulator and a printed kit that agree.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from pnp.builder.context import card_context
from pnp.data import load_game_data
from pnp.errors import PnpError
from pnp.games import make_game
from pnp.render.jinja_env import make_environment

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "card_data"
TEMPLATES = ROOT / "templates"


def _copy_with_constant(tmp_path: Path, slug: str, name: str, value: str) -> Path:
    """A copy of the card data whose manifest sets ``name = value`` in [game.constants]."""
    data = tmp_path / "card_data"
    shutil.copytree(DATA / slug, data / slug)
    manifest = data / slug / "manifest.toml"
    text = manifest.read_text(encoding="utf-8")
    lines = [f"{name} = {value}" if line.startswith(f"{name} =") else line
             for line in text.splitlines()]
    assert lines != text.splitlines(), f"{slug} manifest has no {name}"
    manifest.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return data


def _aid_text(data_dir: Path, slug: str, deck: str, template: str) -> str:
    """The rendered markup of one side of a game's player aid."""
    game = load_game_data(data_dir, slug, strict=True)
    component = game.manifest.components[deck]
    env = make_environment(TEMPLATES)
    return env.get_template(template).render(**card_context(game, component, None, "back"))


def test_fortune_clover_deals_follow_the_manifest(tmp_path: Path) -> None:
    """deals = 2 in the manifest: the engine plays 2 deals and both aids say so."""
    data = _copy_with_constant(tmp_path, "fortune_clover", "deals", "2")
    loaded = load_game_data(data, "fortune_clover", strict=True)
    assert make_game(loaded).params["deals"] == 2
    assert make_game(loaded, {"deals": "4"}).params["deals"] == 4   # --param still wins
    assert make_game(load_game_data(DATA, "fortune_clover", strict=True)).params["deals"] == 3
    ja = _aid_text(data, "fortune_clover", "aid", "fortune_clover/aid_back.xml.j2")
    en = _aid_text(data, "fortune_clover", "aid_en", "fortune_clover/aid_en_back.xml.j2")
    assert "2ディールのあと" in ja and "3ディール" not in ja
    assert "after 2 deals" in en


def test_episode2_starting_hp_follows_the_manifest(tmp_path: Path) -> None:
    """starting_hp = 12 in the manifest: the engine starts at 12 HP."""
    data = _copy_with_constant(tmp_path, "episode2", "starting_hp", "12")
    game = make_game(load_game_data(data, "episode2", strict=True))
    assert game.params["starting_hp"] == 12
    assert game.new_initial_state(1, 0).clone().game.starting_hp == 12  # type: ignore[attr-defined]


def test_a_bad_manifest_constant_names_the_manifest(tmp_path: Path) -> None:
    """An out-of-range constant is one error naming the manifest, not a traceback."""
    data = _copy_with_constant(tmp_path, "fortune_clover", "deals", "0")
    with pytest.raises(PnpError,
                       match=r"manifest\.toml:\d+: \[game\.constants\] deals = 0: expected"):
        make_game(load_game_data(data, "fortune_clover", strict=True))

"""A TTS deck with a card lacking its back is refused before any image is written."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from pnp import PROJECT_ROOT
from pnp.builder.decks import printable_components, render_cards
from pnp.data import load_game_data
from pnp.errors import PnpError
from pnp.printing.profiles import builtin_profiles
from pnp.printing.service import ServiceCard
from pnp.printing.tts import UrlMaker, export_deck
from pnp.render.jinja_env import make_environment
from pnp.units import mm

POKER = (mm(63), mm(88))


def _cards(missing: set[int]) -> list[ServiceCard]:
    """75 distinct two-sided cards (two TTS sheets); the ones in ``missing`` have no back."""
    env = make_environment(PROJECT_ROOT / "templates")
    game = load_game_data(PROJECT_ROOT / "card_data", "fortuna", strict=True)
    base = render_cards(env, game, printable_components(game)[0])
    return [ServiceCard(f"c{i}", 1, base[i % len(base)].front,
                        None if i in missing else base[i % len(base)].back) for i in range(75)]


@pytest.mark.parametrize("missing", [{72}, set(range(75))], ids=["on-sheet-2", "all"])
def test_missing_back_writes_nothing(tmp_path: Path, missing: set[int]) -> None:
    tts = replace(builtin_profiles().get("tts"), max_card_px=40)   # small images: fast
    out = tmp_path / "out"
    with pytest.raises(PnpError) as err:
        export_deck(out / "g" / "tts", "g", "big", "Big deck", _cards(missing), POKER, tts,
                    two_sided=True, urls=UrlMaker(out, None), used_keys=set())
    message = err.value.message
    assert "\n" not in message
    assert message.startswith("g/big: Tabletop Simulator needs a back for every card")
    assert ("no card has one" in message) if len(missing) > 1 else ("c72" in message)
    # Before, the first sheet's faces and backs were written, then the second sheet failed.
    assert not out.exists() or not any(out.rglob("*"))

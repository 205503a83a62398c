"""Fixtures for engine tests: games built from the project's card data."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any, Callable

import pytest

_HERE = str(Path(__file__).resolve().parent)
if _HERE not in sys.path:
    sys.path.insert(0, _HERE)

from gamedata import build_game  # noqa: E402
from pnp.games.api import Game  # noqa: E402


@pytest.fixture()
def load() -> Callable[..., Game[Any]]:
    """``load(slug, params=None)`` → the game built from ``card_data/``."""
    return build_game

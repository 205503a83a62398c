"""pnp: print-and-play toolkit for tabletop card-game designers."""

from __future__ import annotations

from pathlib import Path

__version__ = "0.1.0"

#: Repository root when running from a checkout (card_data/, templates/ live here).
PROJECT_ROOT = Path(__file__).resolve().parent.parent

"""Make ``toy_game`` importable by the tests and by spawned worker processes.

Spawned workers inherit the parent's ``sys.path``, so putting this folder on it
lets them unpickle :class:`toy_game.ToyGame`.
"""

from __future__ import annotations

import sys
from pathlib import Path

_HERE = str(Path(__file__).resolve().parent)
if _HERE not in sys.path:
    sys.path.insert(0, _HERE)

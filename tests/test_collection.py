"""Every test module under tests/ is collected by a plain ``pytest`` run.

pytest skips folders matching its ``norecursedirs`` patterns (``build``,
``dist``, ``venv`` … by default), so a test folder named like one of them is
silently never run in CI (tests/build/ was, for half a session).
"""

from __future__ import annotations

from fnmatch import fnmatch
from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parent


def test_no_test_folder_is_skipped_by_norecursedirs(pytestconfig: pytest.Config) -> None:
    """No folder under tests/ matches a ``norecursedirs`` pattern."""
    patterns = pytestconfig.getini("norecursedirs")
    assert "build" in patterns  # pytest's default: what this test guards against
    folders = [p for p in TESTS.rglob("*") if p.is_dir() and "__pycache__" not in p.parts]
    skipped = [str(p.relative_to(TESTS)) for p in folders
               if any(fnmatch(p.name, pat) for pat in patterns)]
    assert not skipped, f"pytest never collects these test folders: {skipped}"

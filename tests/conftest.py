"""Shared pytest options: ``--bless`` rewrites golden files instead of comparing."""

from __future__ import annotations

import pytest


def pytest_addoption(parser: pytest.Parser) -> None:
    """Register ``--bless`` (re-bless golden images after an intended change)."""
    parser.addoption("--bless", action="store_true", default=False,
                     help="rewrite golden files under tests/golden/ instead of comparing")


@pytest.fixture()
def bless(request: pytest.FixtureRequest) -> bool:
    """True when the run was started with ``--bless``."""
    return bool(request.config.getoption("--bless"))

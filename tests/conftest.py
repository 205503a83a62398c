"""Shared pytest options and fixtures: ``--bless`` rewrites golden files; ``chromium``.

The whole suite runs with ``PNP_PREVIEW_SERVER=0``: a ``pnp preview`` in a
test renders in its own process and never leaves a background preview
server behind. Only the preview server's own tests turn it on, each with a
cache folder of its own, and stop their server at the end.
"""

from __future__ import annotations

import os

import pytest

from browser_support import find_chromium  # tests/browser_support.py

# set at import, before any test (or a subprocess it starts) runs pnp preview
os.environ["PNP_PREVIEW_SERVER"] = "0"


def pytest_addoption(parser: pytest.Parser) -> None:
    """Register ``--bless`` (re-bless golden images after an intended change)."""
    parser.addoption("--bless", action="store_true", default=False,
                     help="rewrite golden files under tests/golden/ instead of comparing")


@pytest.fixture()
def bless(request: pytest.FixtureRequest) -> bool:
    """True when the run was started with ``--bless``."""
    return bool(request.config.getoption("--bless"))


@pytest.fixture(scope="session")
def chromium() -> str:
    """Path of a headless Chromium for the HTML page tests (tests/browser_support.py).

    Installed from Debian's package when the tests run as root with apt-get;
    otherwise a missing browser fails the test with the command to run.
    """
    path = find_chromium()
    if path is None:
        pytest.fail("no Chromium for the HTML page tests: install Debian's chromium "
                    "(apt-get install chromium) or set PNP_CHROMIUM to a Chromium binary")
    return path

"""Fixtures shared by the build-cache tests."""

from __future__ import annotations

from pathlib import Path

import pytest

from pnp.render import fonts


@pytest.fixture()
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A fresh pnp cache folder for this test (and a subset cache opened anew)."""
    folder = tmp_path / "cache"
    monkeypatch.setenv("PNP_CACHE_DIR", str(folder))
    monkeypatch.delenv("PNP_BUILD_CACHE", raising=False)
    monkeypatch.setattr(fonts, "_subset_store", False)
    return folder

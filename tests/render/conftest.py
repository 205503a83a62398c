"""Shared fixtures for the render-core tests: a throw-away templates folder."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Callable

import pytest

from pnp import PROJECT_ROOT
from pnp.render.jinja_env import PnpEnvironment, make_environment
from pnp.render.layout import Layout, render_layout


@pytest.fixture()
def templates(tmp_path: Path) -> Path:
    """A templates folder with the project's common icons and an empty 'test' slug."""
    root = tmp_path / "templates"
    (root / "test" / "icons").mkdir(parents=True)
    shutil.copytree(PROJECT_ROOT / "templates" / "common", root / "common")
    return root


@pytest.fixture()
def env(templates: Path) -> PnpEnvironment:
    """A Jinja environment on the temporary templates folder."""
    return make_environment(templates)


@pytest.fixture()
def card(templates: Path, env: PnpEnvironment) -> Callable[..., Layout]:
    """Return a function that renders card markup (a body inside <card>) to a Layout."""
    counter = [0]

    def make(body: str, context: dict | None = None, *, size: str = 'width="63mm" height="88mm"',
             where: str = "test/card c-1") -> Layout:
        counter[0] += 1
        name = f"test/t{counter[0]}.xml.j2"
        (templates / name).write_text(f"<card {size}>\n{body}\n</card>\n", encoding="utf-8")
        return render_layout(env, name, context or {}, where=where)

    return make

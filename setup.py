"""Build hook: a wheel carries the shipped games (card data, templates, rulebooks).

pyproject.toml holds the project's metadata; this file only adds a step to
``build_py``: the checkout's ``card_data/``, ``templates/`` and ``rulebooks/``
are copied into the built package as ``pnp/_shipped/``, so that a
non-editable ``pip install .`` finds the five games from any folder (see
``pnp/project.py``). An editable install reads the checkout's folders
directly and copies nothing.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

#: Folders of the checkout that ship inside the package (pnp.project.SHIPPED_FOLDERS).
SHIPPED = ("card_data", "templates", "rulebooks")


class BuildPyWithGames(build_py):
    """``build_py`` that also copies the shipped games into ``pnp/_shipped``."""

    def run(self) -> None:
        """Build the package, then add the games' folders to it."""
        super().run()
        if getattr(self, "editable_mode", False):
            return
        here = Path(__file__).resolve().parent
        target = Path(self.build_lib) / "pnp" / "_shipped"
        for name in SHIPPED:
            source = here / name
            if not source.is_dir():
                raise SystemExit(f"setup.py: {source} is missing; build from a full checkout")
            shutil.rmtree(target / name, ignore_errors=True)
            shutil.copytree(source, target / name, ignore=shutil.ignore_patterns(
                "__pycache__", "*.pyc", ".*"))


setup(cmdclass={"build_py": BuildPyWithGames})

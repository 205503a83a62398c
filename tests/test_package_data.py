"""Every data file inside the ``pnp`` package ships in a wheel install.

A file the code reads at run time (a table, a word list) but that
``[tool.setuptools.package-data]`` does not name is left out of a
non-editable ``pip install .``: the editable install the tests run in
would never notice.
"""

from __future__ import annotations

import tomllib
from fnmatch import fnmatch
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "pnp"
#: Files that are not package data: Python sources and what Python writes.
NOT_DATA = (".py", ".pyc", ".pyi")


def _declared() -> dict[str, list[str]]:
    """The ``package-data`` table of pyproject.toml."""
    with open(ROOT / "pyproject.toml", "rb") as f:
        return tomllib.load(f)["tool"]["setuptools"]["package-data"]


def _data_files() -> list[Path]:
    """Non-Python files in the package source (compiled caches excluded)."""
    return sorted(p for p in PACKAGE.rglob("*")
                  if p.is_file() and "__pycache__" not in p.parts
                  and not p.name.endswith(NOT_DATA))


def test_package_has_data_files() -> None:
    """The walk finds the known data files (so the next test is not vacuous)."""
    names = {p.name for p in _data_files()}
    assert {"profiles.toml", "katakana_words.txt"} <= names


def test_every_data_file_is_declared() -> None:
    """Each data file matches a pattern of its own package in package-data."""
    declared = _declared()
    missing = []
    for path in _data_files():
        rel = path.relative_to(ROOT)
        package = ".".join(rel.parent.parts)
        patterns = declared.get(package, [])
        if not any(fnmatch(path.name, pat) for pat in patterns):
            missing.append(str(rel))
    assert not missing, f"not in [tool.setuptools.package-data]: {missing}"

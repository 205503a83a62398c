"""Whether a template reads ``tables``: found out once, then kept with the build caches."""

from __future__ import annotations

from pathlib import Path

import pytest

from pnp import PROJECT_ROOT
from pnp.builder import decks
from pnp.builder.decks import BuildOptions, build, load_for_build
from pnp.builder.markup_cache import READS_FORMAT, MarkupStore
from pnp.render.diskcache import DiskCache, digest


def _folder(path: Path) -> DiskCache:
    """A cache folder (made if missing, as open_cache does)."""
    path.mkdir(parents=True, exist_ok=True)
    return DiskCache(path, 2**20)


def _store(tmp_path: Path, salt: str = "salt", answers: bool = True) -> MarkupStore:
    """A markup store over cache folders in ``tmp_path`` (answers kept in their own)."""
    return MarkupStore(_folder(tmp_path / "markup"), salt,
                       _folder(tmp_path / "answers") if answers else None)


def test_an_answer_is_asked_once_then_read_back(tmp_path: Path) -> None:
    """A later store (a later build) reads the answer instead of loading the template."""
    asked: list[str] = []

    def ask(answer: bool, name: str) -> bool:
        asked.append(name)
        return answer

    first = _store(tmp_path)
    assert first.reads("g/aid.xml.j2", lambda: ask(True, "aid")) is True
    assert first.reads("g/face.xml.j2", lambda: ask(False, "face")) is False
    assert first.reads("g/aid.xml.j2", lambda: ask(False, "again")) is True   # in memory
    later = _store(tmp_path)
    assert later.reads("g/aid.xml.j2", lambda: ask(False, "x")) is True
    assert later.reads("g/face.xml.j2", lambda: ask(True, "y")) is False
    assert asked == ["aid", "face"]
    assert not any((tmp_path / "markup").glob("*.entry"))     # kept apart from the sides


def test_other_templates_or_code_ask_again(tmp_path: Path) -> None:
    """Another salt (templates folder, pnp's code, fonts) is another question."""
    _store(tmp_path).reads("g/face.xml.j2", lambda: False)
    assert _store(tmp_path, salt="edited").reads("g/face.xml.j2", lambda: True) is True


def test_a_damaged_or_foreign_answer_is_asked_again(tmp_path: Path) -> None:
    """Anything but a kept 0 or 1 is no answer: asked, and written anew."""
    answers = _folder(tmp_path / "answers")
    key = digest(READS_FORMAT, "salt", "g/face.xml.j2")
    answers.put(key, b"maybe")
    assert _store(tmp_path).reads("g/face.xml.j2", lambda: True) is True
    assert answers.get(key) == b"1"


def test_without_a_folder_for_answers_every_store_asks(tmp_path: Path) -> None:
    """No answers folder: each build asks once, as before."""
    asked: list[int] = []
    for _ in range(2):
        _store(tmp_path, answers=False).reads("g/face.xml.j2", lambda: asked.append(1) or False)
    assert asked == [1, 1]


def test_a_warm_build_loads_no_template_to_answer(tmp_path: Path, cache: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """Built once, a build of the same inputs answers from the cache (same files)."""
    asked: list[str] = []
    real = decks.reads_card

    def spy(env: object, name: str, *args: object, **kwargs: object) -> bool:
        if kwargs.get("var") == "tables":
            asked.append(name)
        return real(env, name, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(decks, "reads_card", spy)
    files = []
    for run in ("cold", "warm"):
        options = BuildOptions(out_dir=tmp_path / run, data_dir=PROJECT_ROOT / "card_data",
                               templates_dir=PROJECT_ROOT / "templates")
        result = build(load_for_build(["fortuna"], options), options)
        files.append(sorted((p.name, p.read_bytes()) for p in result.files))
        if run == "cold":
            assert "fortuna/reel_face.xml.j2" in asked
            asked.clear()
    assert asked == []
    assert files[0] == files[1]

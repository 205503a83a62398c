"""`pnp build -j N`: rulebooks typeset in worker processes give the serial build's files.

The duo game of ``test_rulebook_cache`` (one deck, a Japanese and an English
rules text) is built with its rulebooks by one process and by two; the
books, their order, the cache entries and the errors must be the same, and a
build that fails writes no book.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from pnp.builder.decks import BuildOptions, build, load_for_build
from pnp.cli import main
from pnp.errors import PnpError
from pnp.render import fonts
from pnp.rulebook.step import rulebook_step

from cache_entries import entries, file_hashes, replace_in
from test_rulebook_cache import _BOOKS, _game, _reads, typeset  # noqa: F401  (fixture)


def _build(data: Path, templates: Path, out: Path, jobs: int) -> list[str]:
    """Build duo with its rulebooks in ``jobs`` processes; the rulebooks listed, in order."""
    opts = BuildOptions(out_dir=out, data_dir=data, templates_dir=templates)
    step = rulebook_step(out, data, templates, jobs)
    result = build(load_for_build([], opts), opts, rulebooks=step)
    fonts._subset_store = False
    assert step._pool is None and not step._books      # closed: no worker left
    return [p.relative_to(out).as_posix() for p in result.rulebooks]


def test_two_processes_write_the_serial_books(tmp_path: Path, cache: Path,
                                              typeset: list[str],
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """Same books, same order, same bytes; workers' books are kept for the next build."""
    data, templates = _game(tmp_path / "game")
    with monkeypatch.context() as m:
        m.setenv("PNP_BUILD_CACHE", "0")
        assert _build(data, templates, tmp_path / "serial", 1) == _BOOKS
    assert typeset == _BOOKS                      # typeset here, in this process
    typeset.clear()
    assert _build(data, templates, tmp_path / "two", 2) == _BOOKS
    assert typeset == []                          # typeset by the workers
    serial = file_hashes(tmp_path / "serial")
    assert file_hashes(tmp_path / "two") == serial
    assert len(entries(cache, "rulebooks")) == 4  # and kept (each PDF and what it read)
    read = _reads(cache)                          # the workers noted what they read
    assert len(read) == 2 and {"duo/face.xml.j2", "common/icons/bolt.svg"} <= set(read[0])
    assert _build(data, templates, tmp_path / "warm", 2) == _BOOKS
    assert typeset == [] and file_hashes(tmp_path / "warm") == serial


def test_a_failing_book_is_the_serial_error_and_nothing_is_left(tmp_path: Path, cache: Path
                                                                ) -> None:
    """A rules text the export rejects: the serial one-line error; the other book not written."""
    data, templates = _game(tmp_path / "game")
    text = tmp_path / "game" / "rulebooks" / "duo.en.md"
    text.write_text(text.read_text(encoding="utf-8") + "\n{{ nosuchthing }}\n", encoding="utf-8")
    messages = []
    for jobs in (1, 2):
        out = tmp_path / f"out{jobs}"
        with pytest.raises(PnpError) as failed:
            _build(data, templates, out, jobs)
        messages.append(str(failed.value))
        assert not (out / "duo" / "rulebook-en-a5.pdf").exists()
    assert messages[0] == messages[1] and "nosuchthing" in messages[0]


def test_a_build_that_fails_on_a_card_writes_no_book(tmp_path: Path, cache: Path) -> None:
    """Workers started, then a card fails to render: no rulebook reaches the output folder."""
    data, templates = _game(tmp_path / "game")
    replace_in(templates / "duo" / "face.xml.j2", "{{ card.name }}", "{{ card.name }")
    out = tmp_path / "out"
    with pytest.raises(PnpError):
        _build(data, templates, out, 2)
    assert not list(out.rglob("*.pdf"))


def test_jobs_option_is_checked() -> None:
    """-j 0 is a one-line error naming the option."""
    done = CliRunner().invoke(main, ["build", "-j", "0", "--out", "/nonexistent-pnp"])
    assert done.exit_code == 1 and "'--jobs' / '-j': 0 is not in the range" in done.output
    assert len(done.output.strip().splitlines()) == 1


def _rulebook(data: Path, templates: Path, out: Path, *args: str) -> list[str]:
    """`pnp rulebook duo` with ``args``; the files it names, relative to ``out``, in order."""
    done = CliRunner().invoke(main, ["rulebook", "duo", "--out", str(out), "--data-dir",
                                     str(data), "--templates-dir", str(templates), *args])
    assert done.exit_code == 0, done.output
    fonts._subset_store = False
    return [Path(line.removeprefix("wrote ")).relative_to(out).as_posix()
            for line in done.stdout.splitlines()]


def test_pnp_rulebook_in_two_processes_and_from_the_cache(tmp_path: Path, cache: Path,
                                                          typeset: list[str],
                                                          monkeypatch: pytest.MonkeyPatch
                                                          ) -> None:
    """`pnp rulebook -j 2` writes the serial files; a second run writes them from the cache."""
    data, templates = _game(tmp_path / "game")
    args = ("--paper", "a4", "--format", "pdf", "--format", "md")
    with monkeypatch.context() as m:
        m.setenv("PNP_BUILD_CACHE", "0")
        serial = _rulebook(data, templates, tmp_path / "serial", *args, "-j", "1")
    assert serial[:2] == ["duo/rulebook-a4.pdf", "duo/rulebook-en-a4.pdf"]
    assert "duo/rulebook.md" in serial and "duo/rulebook-en.md" in serial
    assert typeset == serial[:2]
    typeset.clear()
    assert _rulebook(data, templates, tmp_path / "two", *args, "-j", "2") == serial
    assert typeset == []                                  # the workers typeset them
    want = file_hashes(tmp_path / "serial")
    assert file_hashes(tmp_path / "two") == want
    assert _rulebook(data, templates, tmp_path / "warm", *args, "-j", "1") == serial
    assert typeset == [] and file_hashes(tmp_path / "warm") == want   # from the cache


def test_without_worker_processes_the_books_are_typeset_in_turn(
        tmp_path: Path, cache: Path, typeset: list[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A machine that cannot start processes (OSError) still gets every book, here."""
    import multiprocessing.context

    def refuse(*args: object, **kwargs: object) -> None:
        raise OSError("no semaphores here")

    monkeypatch.setattr(multiprocessing.context.BaseContext, "Pool", refuse)
    data, templates = _game(tmp_path / "game")
    assert _build(data, templates, tmp_path / "out", 2) == _BOOKS
    assert typeset == _BOOKS

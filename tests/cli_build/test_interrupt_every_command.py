"""Ctrl-C in `pnp init`, `preview`, `watch`, `list`, `preflight`: one line, nothing half-made.

These printed a bare "interrupted" (and `init` could leave a half-copied
project). Each run here is stopped with a real SIGINT: at a chosen progress
step (``PNP_INTERRUPT_AFTER``: init counts the folders it copied and then
the move into place, preview and watch the files they wrote), as a chosen
function is entered (:data:`ON_CALL`), or once the run has printed a line.
`pnp watch` is the exception on purpose: stopping it while it waits is how
a watch ends (exit 0, "stopped watching …"); stopped during a rebuild it
is an interruption like any other.
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from PIL import Image

sys.path.insert(0, str(Path(__file__).resolve().parent))
from watch_child import CORPUS, watching  # noqa: E402  tests/cli_build/watch_child.py

#: The one line every stopped command ends with (pnp.sim.stopped's words).
LINE = re.compile(r"error: interrupted(: nothing was written|"
                  r" after writing (\d+) complete file\(s\) \(.*\); nothing else was written)$")

#: Runs pnp with a real SIGINT sent as ``sys.argv[1]`` (module.function) is
#: called, before it does anything.
ON_CALL = """
import importlib, os, signal, sys
from pnp.cli import main
module, name = sys.argv[1].rsplit(".", 1)
target = importlib.import_module(module)
real = getattr(target, name)
def stop(*args, **kwargs):
    os.kill(os.getpid(), signal.SIGINT)
    return real(*args, **kwargs)
setattr(target, name, stop)
main(sys.argv[2:], prog_name="pnp")
"""


def run(args: list[str], tmp: Path, *, after: int | None = None, on_call: str | None = None,
        cwd: Path | None = None) -> tuple[int, str, str]:
    """Run pnp in a subprocess (own cache), stopped by SIGINT; return (code, stdout, stderr)."""
    env = dict(os.environ, PNP_CACHE_DIR=str(tmp / "cache"))
    env.pop("PNP_INTERRUPT_AFTER", None)
    if after is not None:
        env["PNP_INTERRUPT_AFTER"] = str(after)
    command = ([sys.executable, "-c", ON_CALL, on_call] if on_call
               else [sys.executable, "-m", "pnp.cli"])
    done = subprocess.run(command + args, env=env, capture_output=True, text=True,
                          timeout=300, cwd=cwd)
    return done.returncode, done.stdout, done.stderr


def written(code: int, err: str) -> list[str]:
    """Exit 130, no traceback, the one line last; return the files it names (up to three)."""
    assert code == 130, err
    assert "Traceback" not in err
    last = err.strip().splitlines()[-1]
    match = LINE.match(last)
    assert match, err
    if match.group(2) is None:
        return []
    named = last[last.index("file(s) (") + 9:last.index("); nothing else")]
    return [p for p in re.split(r", | and \d+ more$", named) if p]


def listing(folder: Path) -> list[str]:
    """Every path under ``folder``, relative, sorted (hidden ones included)."""
    return sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*"))


# --------------------------------------------------------------------------
# pnp init
# --------------------------------------------------------------------------


@pytest.mark.parametrize("after", [1, 3])
def test_init_stopped_while_copying_leaves_nothing(tmp_path: Path, after: int) -> None:
    """After the first or the last folder is copied: no project, no hidden copy, no parent."""
    work = tmp_path / "work"
    work.mkdir()
    code, out, err = run(["init", "new/games"], tmp_path, after=after, cwd=work)
    assert written(code, err) == []
    assert "created" not in out
    assert listing(work) == []       # not new/, not .games.pnp-init.tmp


def test_init_stopped_into_an_empty_folder_leaves_it_empty(tmp_path: Path) -> None:
    """`pnp init .` in an empty folder, stopped half-way: the folder stays (empty)."""
    here = tmp_path / "mine"
    here.mkdir()
    code, _, err = run(["init", "."], tmp_path, after=2, cwd=here)
    assert written(code, err) == []
    assert here.is_dir() and listing(here) == []


def test_init_stopped_once_in_place_keeps_the_whole_project(tmp_path: Path) -> None:
    """Stopped right after the move into place: the project is whole and the line says so."""
    code, _, err = run(["init", "stopped"], tmp_path, after=4, cwd=tmp_path)
    count = int(LINE.match(err.strip().splitlines()[-1]).group(2))  # type: ignore[union-attr]
    assert written(code, err)[0].startswith("stopped/")
    code, _, err = run(["init", "whole"], tmp_path, cwd=tmp_path)
    assert code == 0, err
    assert listing(tmp_path / "stopped") == listing(tmp_path / "whole")
    assert count == sum(1 for p in (tmp_path / "whole").rglob("*") if p.is_file())


def test_init_into_the_current_empty_folder(tmp_path: Path) -> None:
    """`pnp init .` fills the empty folder it is run in (it said "Invalid argument")."""
    code, out, err = run(["init", "."], tmp_path, cwd=tmp_path)
    assert code == 0, err
    assert sorted(p.name for p in tmp_path.iterdir() if p.name != "cache") == \
        ["card_data", "output", "rulebooks", "templates"]
    assert out.strip().splitlines()[-1].endswith("next: pnp check && pnp build")


# --------------------------------------------------------------------------
# pnp preview
# --------------------------------------------------------------------------


def test_preview_stopped_after_two_pngs(tmp_path: Path) -> None:
    """Stopped after the second PNG: those two are named, whole, and alone in the folder."""
    out = tmp_path / "out" / "toy"
    code, _, err = run(["--project", str(CORPUS), "preview", "toy", "cards", "--no-server",
                        "--out", str(out)], tmp_path, after=2)
    names = written(code, err)
    assert sorted(names) == sorted(str(p) for p in out.iterdir())
    assert len(names) == 2
    for path in out.iterdir():
        with Image.open(path) as image:
            image.load()                 # a cut-short PNG fails here


def test_preview_stopped_before_any_png_leaves_no_folder(tmp_path: Path) -> None:
    """Stopped while the first card is drawn: nothing written, the folders it made removed."""
    code, out, err = run(["--project", str(CORPUS), "preview", "toy", "cards", "--no-server",
                          "--out", str(tmp_path / "out" / "toy" / "preview")], tmp_path,
                         on_call="pnp.builder.preview.rasterise")
    assert written(code, err) == []
    assert out == ""
    assert not (tmp_path / "out").exists()


# --------------------------------------------------------------------------
# pnp list, pnp preflight (they write nothing)
# --------------------------------------------------------------------------


@pytest.mark.parametrize("args, where", [
    (["list"], "pnp.data.report.load_many"),
    (["list"], "pnp.cli._reads_default_games"),      # before the command itself starts
    (["preflight", "card.png"], "pnp.printing.preflight.preflight_files"),
])
def test_reading_commands_say_nothing_was_written(tmp_path: Path, args: list[str],
                                                   where: str) -> None:
    """The bare "interrupted" is gone from the commands that only read."""
    Image.new("RGB", (8, 8), "white").save(tmp_path / "card.png")
    code, _, err = run(["--project", str(CORPUS)] + args, tmp_path, on_call=where,
                       cwd=tmp_path)
    assert written(code, err) == []


# --------------------------------------------------------------------------
# pnp watch
# --------------------------------------------------------------------------


def test_watch_stopped_while_waiting_is_its_normal_end(tmp_path: Path) -> None:
    """Ctrl-C between rebuilds: exit 0, "stopped watching toy after … 1 rebuild(s)", no socket."""
    project = tmp_path / "corpus"
    with watching(project, tmp_path / "cache") as child:
        child.wait_for("rebuilt", settle=0.3)      # the first build done: waiting
        table = project / "card_data" / "toy" / "cards.csv"
        table.write_text(table.read_text(encoding="utf-8").replace("流れ星", "流星"),
                         encoding="utf-8")
        child.wait_for("changed:")
        child.wait_for("rebuilt", settle=0.3)      # the rebuild after the change done
        code = child.stop(signal.SIGINT)
    assert code == 0, (child.lines, child.err)
    assert "Traceback" not in child.err and "interrupted" not in child.err
    assert child.lines[-1] == "stopped watching toy after the first build and 1 rebuild(s)"
    assert not (project / "output" / ".pnp-watch.sock").exists()


def test_watch_stopped_during_a_rebuild_is_an_interruption(tmp_path: Path) -> None:
    """Ctrl-C after the first build's second PNG: exit 130, those two files named, no more."""
    project = tmp_path / "corpus"
    shutil.copytree(CORPUS, project)
    code, out, err = run(["--project", str(project), "watch", "toy", "--no-pdf",
                          "--interval", "0.05"], tmp_path, after=2)
    names = written(code, err)
    preview = project / "output" / "toy" / "preview"
    assert sorted(names) == sorted(str(p) for p in preview.iterdir())
    assert len(names) == 2
    assert "stopped watching" not in out
    assert not (project / "output" / ".pnp-watch.sock").exists()


def test_init_stopped_between_its_moves_takes_them_back(tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """Into an empty folder the four folders move one by one: stopped after two, none stay.

    (No progress step falls between two renames, so Ctrl-C is raised by the
    second rename itself.)
    """
    from pnp.project import init_project

    target = tmp_path / "mine"
    target.mkdir()
    real, calls = Path.rename, []

    def rename(self: Path, to: Path) -> Path:
        calls.append(to)
        if len(calls) == 3:
            raise KeyboardInterrupt
        return real(self, to)

    monkeypatch.setattr(Path, "rename", rename)
    with pytest.raises(KeyboardInterrupt):
        init_project(target)
    assert [p.name for p in calls] == ["card_data", "templates", "rulebooks"]
    assert listing(target) == []


def test_watch_stopped_while_starting_leaves_no_folder(tmp_path: Path) -> None:
    """Ctrl-C before the first build (as its preview server starts): exit 130, no output/."""
    project = tmp_path / "corpus"
    shutil.copytree(CORPUS, project)
    code, out, err = run(["--project", str(project), "watch", "toy", "--no-pdf"], tmp_path,
                         on_call="pnp.builder.serve.PreviewServer")
    assert written(code, err) == []
    assert "stopped watching" not in out
    assert not (project / "output").exists()


def test_cache_entries_are_not_named_as_written(tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """Files written to the cache folder or the stores beside pnp's code are no output.

    (A fresh checkout's first preview writes parsed font tables into
    pnp/__pycache__/fonts: the line named them as written files.)
    """
    import pnp
    from pnp.cli import RunWrites

    monkeypatch.setenv("PNP_CACHE_DIR", str(tmp_path / "cache"))
    cached = tmp_path / "cache" / "fonts" / "face.pickle"
    cached.parent.mkdir(parents=True)
    beside = Path(pnp.__file__).resolve().parent / "__pycache__" / f"test-{os.getpid()}.pickle"
    output = tmp_path / "out" / "card.png"
    output.parent.mkdir()
    for path in (cached, beside, output):
        path.write_bytes(b"x")
    try:
        writes = RunWrites([], [], tidy=True)
        writes.journal += [cached, beside, output]
        assert writes.written() == [output]
    finally:
        beside.unlink()

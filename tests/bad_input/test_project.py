"""The project folder: one rule for where data, templates, rulebooks and output are."""

from __future__ import annotations

import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

import pnp.project as project_module
from pnp import PROJECT_ROOT
from pnp.cli import main
from pnp.data import game_slugs
from pnp.project import Project, current, init_project, shipped

CORPUS = Path(__file__).parent / "project"


def run(*args: str) -> tuple[int, str, str]:
    """Run the CLI in-process; return (exit code, stdout, stderr)."""
    result = CliRunner().invoke(main, list(args))
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    return result.exit_code, result.stdout, result.stderr


@pytest.fixture()
def corpus(tmp_path: Path) -> Path:
    """A copy of the corpus project (games toy and duo, with a rulebook for toy)."""
    target = tmp_path / "corpus"
    shutil.copytree(CORPUS, target)
    return target


def test_an_empty_folder_uses_the_shipped_games(tmp_path: Path) -> None:
    proj = Project.resolve(tmp_path)
    assert proj.data_dir == shipped("card_data")
    assert proj.templates_dir == shipped("templates")
    assert proj.rulebooks_dir == shipped("rulebooks")
    assert proj.out_dir == tmp_path / "output"


def test_the_project_folders_win_and_options_win_over_them(corpus: Path, tmp_path: Path) -> None:
    shutil.rmtree(corpus / "templates")
    proj = Project.resolve(corpus)
    assert proj.data_dir == corpus / "card_data"
    assert proj.rulebooks_dir == corpus / "rulebooks"
    assert proj.templates_dir == shipped("templates")  # the project has none
    other = Project.resolve(corpus, data_dir=tmp_path / "x", out_dir=tmp_path / "o")
    assert (other.data_dir, other.out_dir) == (tmp_path / "x", tmp_path / "o")


def test_without_project_option_paths_stay_relative(corpus: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """Messages show 'card_data/…' as the designer sees it, not an absolute path."""
    monkeypatch.chdir(corpus)
    proj = Project.resolve()
    assert proj.data_dir == Path("card_data") and proj.out_dir == Path("output")


def test_a_project_that_is_a_file_is_refused(tmp_path: Path) -> None:
    (tmp_path / "f").write_text("x")
    code, _out, err = run("--project", str(tmp_path / "f"), "list")
    assert code == 1
    assert err.strip().splitlines() == [
        f"error: Invalid value for '--project': project folder '{tmp_path / 'f'}' is a file, "
        "expected a folder (see 'main --help')"]


def test_shipped_prefers_the_packaged_copy(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert shipped("card_data") == PROJECT_ROOT / "card_data"  # a checkout
    (tmp_path / "card_data").mkdir()
    monkeypatch.setattr(project_module, "PACKAGE_COPY", tmp_path)
    assert shipped("card_data") == tmp_path / "card_data"  # an installed wheel


def test_project_option_from_another_folder(corpus: Path, tmp_path: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """Data, templates, rulebooks and output all follow --project, not the current folder."""
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    code, out, _ = run("--project", str(corpus), "list")
    assert code == 0 and out.startswith("duo  Duo") and "toy  Toy" in out
    code, out, err = run("--project", str(corpus), "build", "toy", "-q", "--no-rulebook")
    assert code == 0, err
    assert (corpus / "output" / "toy" / "cards-a4.pdf").is_file()
    code, out, err = run("--project", str(corpus), "rulebook", "toy", "--lang", "ja",
                         "--format", "md")
    assert code == 0, err
    assert "星のカードを2枚" in (corpus / "output" / "toy" / "rulebook.md").read_text("utf-8")
    code, out, err = run("--project", str(corpus), "preview", "toy", "cards", "star-1")
    assert code == 0, err
    assert (corpus / "output" / "toy" / "preview" / "star-1-face.png").is_file()
    assert not list(elsewhere.iterdir())  # nothing written where we stood


def test_the_project_is_active_only_while_the_command_runs(corpus: Path) -> None:
    run("--project", str(corpus), "list")
    assert current().root == Path(".")


def test_init_copies_the_shipped_games(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    code, out, err = run("init", "demo")
    assert code == 0, err
    for name in ("card_data", "templates", "rulebooks", "output"):
        assert (tmp_path / "demo" / name).is_dir()
    slugs = game_slugs(shipped("card_data"))
    assert len(slugs) >= 5 and f"{len(slugs)} games ({', '.join(slugs)})" in out
    # the copy is the designer's: an edit there is what pnp reads
    manifest = tmp_path / "demo" / "card_data" / "fortuna" / "manifest.toml"
    manifest.write_text(manifest.read_text("utf-8").replace('title = "Fortuna"',
                                                             'title = "Fortuna Mine"'), "utf-8")
    monkeypatch.chdir(tmp_path / "demo")
    code, out, _ = run("list")
    assert code == 0 and "Fortuna Mine" in out


def test_init_never_overwrites(tmp_path: Path) -> None:
    (tmp_path / "full").mkdir()
    (tmp_path / "full" / "notes.txt").write_text("mine")
    code, _out, err = run("init", str(tmp_path / "full"))
    assert code == 1 and "the folder is not empty" in err
    assert [p.name for p in (tmp_path / "full").iterdir()] == ["notes.txt"]
    (tmp_path / "file").write_text("x")
    code, _out, err = run("init", str(tmp_path / "file"))
    assert code == 1 and "it is a file" in err


def test_init_failing_part_way_leaves_nothing(tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """A copy that fails (disk full …) leaves neither the project nor its staging folder."""
    real = shutil.copytree

    def copytree(src: Path, dst: Path, *args: object, **kwargs: object) -> object:
        if Path(src) == shipped("templates"):  # the second folder copied
            raise OSError(28, "No space left on device")
        return real(src, dst, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(shutil, "copytree", copytree)
    with pytest.raises(Exception, match="No space left on device"):
        init_project(tmp_path / "demo")
    assert list(tmp_path.iterdir()) == []


def test_a_wheel_carries_the_shipped_games(tmp_path: Path) -> None:
    """setup.py's build_py step copies card_data/, templates/ and rulebooks/ into the package."""
    proc = subprocess.run([sys.executable, "setup.py", "-q", "build_py", "--build-lib",
                           str(tmp_path)], cwd=PROJECT_ROOT, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    copy = tmp_path / "pnp" / "_shipped"
    for name in ("card_data", "templates", "rulebooks"):
        assert sorted(p.name for p in (copy / name).iterdir()) == sorted(
            p.name for p in (PROJECT_ROOT / name).iterdir() if not p.name.startswith("."))
    assert (copy / "card_data" / "fortuna" / "manifest.toml").read_bytes() == (
        PROJECT_ROOT / "card_data" / "fortuna" / "manifest.toml").read_bytes()


def test_init_prints_a_next_step_that_pastes_into_a_shell(tmp_path: Path) -> None:
    """A folder name with a space (and Japanese) is quoted in the printed `cd` command."""
    target = tmp_path / "新しい ゲーム"
    code, out, _err = run("init", str(target))
    assert code == 0
    line = out.splitlines()[-1]
    command = line.split("next: ", 1)[1]
    assert shlex.split(command)[:2] == ["cd", str(target)]


def test_a_sub_folder_of_a_project_says_the_shipped_games_are_used(corpus: Path,
                                                                   monkeypatch: pytest.MonkeyPatch
                                                                   ) -> None:
    """Run from inside a project (its templates/), pnp names the project folder above."""
    monkeypatch.chdir(corpus / "templates" / "toy")
    code, out, err = run("list")
    assert code == 0
    assert err.splitlines() == [
        "note: this folder has no card_data/, templates/ or rulebooks/, so the shipped games "
        f"are used; the project folder {corpus.resolve()} is above it: run pnp there or pass "
        f"--project {corpus.resolve()}"]
    assert "fortuna" in out                       # the shipped games, as the note says
    # no note where no shipped game is read: the data folder is named, or none is read
    code, out, err = run("list", "--data-dir", str(corpus / "card_data"))
    assert code == 0 and err == "" and "toy" in out
    assert run("preflight", str(corpus / "templates" / "toy" / "face.xml.j2"))[2].find(
        "note: this folder") < 0
    monkeypatch.chdir(corpus)
    code, out, err = run("list")
    assert code == 0 and err == "" and "toy" in out
    monkeypatch.chdir(corpus.parent)                # no project above: no note
    assert run("list")[2] == ""

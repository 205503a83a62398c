"""The bad-input corpus: every way a designer's input can be wrong, and what pnp must say.

Each ``cases/*.toml`` is one case. It copies the small project in
``project/`` (two games, ``toy`` and ``duo``, with tables, templates and an
icon), breaks one thing with its ``[[setup]]`` steps, runs one ``pnp``
command in that project folder and asserts:

- the exit status (``exit``);
- ``error``: stderr holds exactly one line, ``error: …``, containing this
  text (no usage block, no traceback); or, for ``pnp check``,
  ``problems``: each text is on its own problem line of stdout and the
  count line agrees; without either, stderr holds no error line;
- ``stdout``: texts that must be printed;
- ``gone`` / ``kept``: glob patterns of files (set up by the case) that the
  run must have removed / must have left alone;
- no traceback anywhere, and no partial file: no temp file left behind, no
  empty file, and the files the run created or changed are exactly
  ``writes`` (glob patterns, relative to the project; none by default).

Setup steps (applied in order; paths are relative to the project):

- ``write`` + ``text`` (+ ``encoding``) or ``hex``: write a file;
- ``append`` + ``text`` (+ ``encoding``) or ``hex``: add to a file;
- ``replace`` + ``old`` + ``new``: edit a UTF-8 file (``old`` must occur);
- ``mkdir`` / ``remove`` / ``symlink`` + ``target``: shape the tree;
- ``stale_temp`` + ``pid`` (``dead``, ``live`` or ``none``, the name older
  pnp versions used) (+ ``age`` in seconds): the temp file a killed (or
  still running) pnp leaves beside the target it was writing;
- ``killed_write`` (+ ``keep_old``): a real process killed with SIGKILL
  while writing that file through pnp's atomic writer (the step asserts
  that the target is untouched and only a temp was left);
- ``deny_writes``: every write under that folder fails with "Permission
  denied", as an unwritable folder does (simulated, since tests may run as
  root);
- ``render_seconds``: the template time limit for this case (so an endless
  loop is stopped in a fraction of a second, not the default 10 s).
"""

from __future__ import annotations

import builtins
import hashlib
import os
import shutil
import signal
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

import pnp
import pnp.render.sandbox as sandbox
from pnp.cli import main

HERE = Path(__file__).parent
CASES = sorted((HERE / "cases").glob("*.toml"))
#: Keys a case file may have (a typo in a case must not silently test nothing).
CASE_KEYS = {"about", "args", "exit", "error", "problems", "stdout", "writes", "setup", "gone",
             "kept"}


def _bytes(step: dict[str, Any]) -> bytes:
    """The bytes a ``write``/``append`` step puts in the file."""
    if "hex" in step:
        return bytes.fromhex(step["hex"])
    return str(step["text"]).encode(step.get("encoding", "utf-8"))


def _dead_pid() -> int:
    """The pid of a process that has certainly ended (one we started and reaped)."""
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    return child.pid


def _temp_name(target: Path, pid: int) -> Path:
    """The temp file name pnp's atomic writer uses for ``target`` in process ``pid``."""
    return target.parent / f".{target.name}.pnp{pid}-0badc0de.tmp"


_KILLED_WRITER = """
import os, signal, sys
from pathlib import Path
from pnp.fileio import atomic_path
target = Path(sys.argv[1])
with atomic_path(target) as tmp:
    tmp.write_bytes(b"%PDF-1.4 half of a file")
    os.kill(os.getpid(), signal.SIGKILL)
"""


def _killed_write(project: Path, target: Path, keep_old: bool) -> None:
    """Run a writer that dies mid-write; check it left only a temp, never a truncated file."""
    old = b"%PDF-1.4 the complete file of an earlier run\n%%EOF\n"
    target.parent.mkdir(parents=True, exist_ok=True)
    if keep_old:
        target.write_bytes(old)
    env = dict(os.environ, PYTHONPATH=str(Path(pnp.__file__).resolve().parent.parent))
    proc = subprocess.run([sys.executable, "-c", _KILLED_WRITER, str(target)], env=env,
                          cwd=project, capture_output=True)
    assert proc.returncode == -signal.SIGKILL, proc.stderr
    temps = list(target.parent.glob(f".{target.name}.pnp*.tmp"))
    assert len(temps) == 1, "the killed writer should leave exactly its temp file"
    if keep_old:
        assert target.read_bytes() == old, "a killed write must not touch the finished file"
    else:
        assert not target.exists(), "a killed write must not leave a file under the final name"


def _deny_writes(monkeypatch: pytest.MonkeyPatch, folder: Path) -> None:
    """Make every write under ``folder`` fail as in a folder without write permission."""
    folder = folder.resolve()

    def inside(path: Any) -> bool:
        try:
            return Path(os.fsdecode(path)).resolve().is_relative_to(folder)
        except (TypeError, ValueError):
            return False

    def refuse(path: Any) -> None:
        raise PermissionError(13, "Permission denied", os.fsdecode(path))

    real_open, real_mkdir, real_builtin_open = os.open, os.mkdir, builtins.open

    def os_open(path: Any, flags: int, *args: Any, **kwargs: Any) -> int:
        if flags & (os.O_WRONLY | os.O_RDWR | os.O_CREAT) and inside(path):
            refuse(path)
        return real_open(path, flags, *args, **kwargs)

    def mkdir(path: Any, *args: Any, **kwargs: Any) -> None:
        if inside(path):
            refuse(path)
        real_mkdir(path, *args, **kwargs)

    def open_(file: Any, mode: str = "r", *args: Any, **kwargs: Any) -> Any:
        if isinstance(file, (str, bytes, os.PathLike)) and set(mode) & set("wax+") \
                and inside(file):
            refuse(file)
        return real_builtin_open(file, mode, *args, **kwargs)

    folder.mkdir(parents=True, exist_ok=True)
    monkeypatch.setattr(os, "open", os_open)
    monkeypatch.setattr(os, "mkdir", mkdir)
    monkeypatch.setattr(builtins, "open", open_)


def apply_step(step: dict[str, Any], project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Apply one ``[[setup]]`` step to the copied project."""
    if "write" in step:
        path = project / step["write"]
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(_bytes(step))
    elif "append" in step:
        path = project / step["append"]
        path.write_bytes(path.read_bytes() + _bytes(step))
    elif "replace" in step:
        path = project / step["replace"]
        text = path.read_text(encoding="utf-8")
        assert step["old"] in text, f"{step['old']!r} not in {path}"
        path.write_text(text.replace(step["old"], step["new"], 1), encoding="utf-8")
    elif "mkdir" in step:
        (project / step["mkdir"]).mkdir(parents=True, exist_ok=True)
    elif "remove" in step:
        path = project / step["remove"]
        shutil.rmtree(path) if path.is_dir() else path.unlink()
    elif "symlink" in step:
        link = project / step["symlink"]
        link.parent.mkdir(parents=True, exist_ok=True)
        target = Path(step["target"])
        link.symlink_to(target if target.is_absolute() else project / target)
    elif "stale_temp" in step:
        target = project / step["stale_temp"]
        target.parent.mkdir(parents=True, exist_ok=True)
        if step["pid"] == "none":
            temp = target.parent / f".{target.name}.k3_x9q2z.tmp"  # tempfile.mkstemp's form
        else:
            temp = _temp_name(target, _dead_pid() if step["pid"] == "dead" else os.getpid())
        temp.write_bytes(b"")
        if "age" in step:
            when = temp.stat().st_mtime - step["age"]
            os.utime(temp, (when, when))
    elif "killed_write" in step:
        _killed_write(project, project / step["killed_write"], step.get("keep_old", False))
    elif "deny_writes" in step:
        _deny_writes(monkeypatch, project / step["deny_writes"])
    elif "render_seconds" in step:
        monkeypatch.setattr(sandbox, "RENDER_SECONDS", step["render_seconds"])
    else:  # pragma: no cover - a malformed case
        raise AssertionError(f"unknown setup step {step}")


def snapshot(root: Path) -> dict[str, str]:
    """Every file under ``root`` (relative path -> content digest); symlinks not followed."""
    out = {}
    for path in root.rglob("*"):
        if path.is_file() and not path.is_symlink():
            out[path.relative_to(root).as_posix()] = hashlib.sha256(
                path.read_bytes()).hexdigest()
    return out


def load_case(path: Path) -> dict[str, Any]:
    """Read one case file and check its keys."""
    case = tomllib.loads(path.read_text(encoding="utf-8"))
    unknown = set(case) - CASE_KEYS
    assert not unknown, f"{path.name}: unknown keys {unknown}"
    assert case.get("about") and case.get("args") and "exit" in case, path.name
    return case


def test_the_corpus_is_large_enough() -> None:
    """The issue asks for at least 40 cases."""
    assert len(CASES) >= 40


@pytest.mark.parametrize("case_file", CASES, ids=lambda p: p.stem)
def test_case(case_file: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Run one case and check exit status, the one error line, and that nothing partial is left."""
    case = load_case(case_file)
    project = tmp_path / "project"
    shutil.copytree(HERE / "project", project)
    monkeypatch.chdir(project)
    for step in case.get("setup", []):
        apply_step(step, project, monkeypatch)
    prepared = snapshot(project)
    result = CliRunner().invoke(main, case["args"])
    monkeypatch.undo()  # restore os.open & co. before looking at the files
    out, err = result.stdout, result.stderr
    context = f"{case['about']}\n--- stdout\n{out}--- stderr\n{err}"

    # no traceback: the only exception allowed is the CLI's own exit
    assert result.exception is None or isinstance(result.exception, SystemExit), (
        f"{context}\n{result.exception!r}")
    assert "Traceback" not in out + err, context
    assert result.exit_code == case["exit"], context

    error_lines = [line for line in err.splitlines() if line.strip()]
    if "error" in case:
        assert len(error_lines) == 1, f"expected one error line\n{context}"
        assert error_lines[0].startswith("error: "), context
        assert case["error"] in error_lines[0], context
    else:
        assert not any(line.startswith("error") for line in error_lines), context
    if "problems" in case:
        lines = out.splitlines()
        for text in case["problems"]:
            assert sum(text in line for line in lines) == 1, f"{text!r}\n{context}"
        assert f"{len(case['problems'])} problem(s) found" in out, context
    for text in case.get("stdout", []):
        assert text in out, f"{text!r}\n{context}"

    # no partial file: nothing half-written, no temp left, only the expected outputs
    after = snapshot(project)
    os.chdir(tmp_path)
    temps = sorted(p for p in after if p.endswith(".tmp") and p not in prepared)
    assert not temps, f"temp files left: {temps}\n{context}"
    for pattern in case.get("gone", []):
        assert any(Path(p).match(pattern) for p in prepared), f"no {pattern} to remove"
        assert not any(Path(p).match(pattern) for p in after), f"{pattern} left\n{context}"
    for pattern in case.get("kept", []):
        assert any(Path(p).match(pattern) for p in after), f"{pattern} removed\n{context}"
    changed = sorted(p for p, digest in after.items() if prepared.get(p) != digest)
    for rel in changed:
        assert (project / rel).stat().st_size > 0, f"empty file {rel}\n{context}"
    expected = case.get("writes", [])
    unexpected = [p for p in changed if not any(Path(p).match(g) for g in expected)]
    assert not unexpected, f"unexpected files {unexpected}\n{context}"
    for pattern in expected:
        assert any(Path(p).match(pattern) for p in changed), f"missing {pattern}\n{context}"

"""The background preview server: started by the first `pnp preview`, asked by every later one.

Each test turns the server on (the suite runs with ``PNP_PREVIEW_SERVER=0``)
with a cache folder of its own, runs ``pnp preview`` as a user does (a new
process each time) and stops its server at the end, checking that the
process is gone. What the server draws is compared byte for byte with what
a cold run (``--no-server``) writes, after editing data, a template and an
icon under its feet. Timings are not asserted (benchmarks/edit_loop.py
measures them).
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Iterator

import pytest

from pnp import PROJECT_ROOT
from pnp.builder import serve
from pnp.builder.preview_server import PreviewAnswerer
from pnp.builder.watch import Watcher

PROJECT = Path(__file__).resolve().parent.parent / "bad_input" / "project"
#: No AF_UNIX (Windows): there is no server and every preview renders itself.
UNIX = hasattr(socket, "AF_UNIX") and os.name == "posix"


class Session:
    """A project copy, a private cache folder and the environment to run pnp in."""

    def __init__(self, root: Path, cache: Path, pythonpath: Path) -> None:
        self.project = root / "project"
        shutil.copytree(PROJECT, self.project)
        self.cache = cache
        self.package = (pythonpath / "pnp").resolve()
        self.env = dict(os.environ, PNP_CACHE_DIR=str(cache), PNP_PREVIEW_SERVER="1",
                        PYTHONPATH=str(pythonpath))
        # a safety net: a server a failing test could not stop leaves soon by itself
        self.env[serve.IDLE_ENV] = "120"
        self.env.pop("PYTHONDONTWRITEBYTECODE", None)   # compile the copy of pnp once

    def pnp(self, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
        """Run ``pnp ARGS`` in a new process in the project folder."""
        return subprocess.run([sys.executable, "-m", "pnp.cli", *args], cwd=self.project,
                              env=dict(self.env, **env), capture_output=True, text=True,
                              timeout=120)

    def files(self) -> serve.ServerFiles:
        """The server files of this project as the client computes them."""
        old = os.environ.get("PNP_CACHE_DIR"), serve.PACKAGE_DIR
        os.environ["PNP_CACHE_DIR"] = str(self.cache)
        serve.PACKAGE_DIR = self.package         # the pnp the client runs
        try:
            files = serve.server_files([str(self.project), None, None, None])
        finally:
            serve.PACKAGE_DIR = old[1]
            if old[0] is None:
                del os.environ["PNP_CACHE_DIR"]
            else:
                os.environ["PNP_CACHE_DIR"] = old[0]
        assert files is not None
        return files

    def ask(self, op: str) -> dict[str, Any] | None:
        """Send ``op`` (status, stop) to the project's server; None if none answers."""
        files = self.files()
        return serve.exchange({"op": op, "where": files.where}, files.socket)

    def wait_for_server(self, other_than: int | None = None) -> dict[str, Any]:
        """The status of the project's server once it answers (a new one, with ``other_than``)."""
        for _ in range(600):
            status = self.ask("status")
            if status is not None and "pid" in status and status["pid"] != other_than:
                return status
            time.sleep(0.05)
        log = self.files().log
        raise AssertionError("no preview server answered; log:\n"
                             + (log.read_text() if log.exists() else "(none)"))

    def stop(self) -> None:
        """Stop the project's server (if any) and check that its process is gone."""
        status = self.ask("status")
        if status is None:
            return
        result = self.pnp("preview", "--stop-server")
        assert result.returncode == 0 and f"process {status['pid']}" in result.stdout
        assert wait_gone(status["pid"])
        assert not self.files().socket.exists()


def wait_gone(pid: int, seconds: float = 30.0) -> bool:
    """True once process ``pid`` has ended (a zombie nobody reaped counts as ended)."""
    for _ in range(int(seconds / 0.05)):
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return True
        try:
            state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except (OSError, IndexError):
            state = ""
        if state == "Z":
            return True
        time.sleep(0.05)
    return False


def copy_of_pnp(folder: Path) -> Path:
    """A copy of the pnp package under ``folder`` (for PYTHONPATH); returns ``folder``.

    A server leaves when pnp's code changes; run from the checkout, an edit
    anywhere in it (another branch of work) would stop the server mid-test.
    """
    shutil.copytree(PROJECT_ROOT / "pnp", folder / "pnp",
                    ignore=shutil.ignore_patterns("__pycache__", "*.pyc", "_shipped"))
    return folder


@pytest.fixture(scope="module")
def pnp_copy(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One copy of pnp for the tests that do not change it."""
    return copy_of_pnp(tmp_path_factory.mktemp("pnp-copy"))


@pytest.fixture()
def session(tmp_path: Path, pnp_copy: Path) -> Iterator[Session]:
    """A project with the server on; its server is stopped (and checked gone) afterwards."""
    # AF_UNIX socket paths are short (~100 bytes): a short cache folder, not tmp_path
    cache = Path(tempfile.mkdtemp(prefix="pnps-"))
    s = Session(tmp_path, cache, pnp_copy)
    try:
        yield s
    finally:
        try:
            if UNIX:
                s.stop()
        finally:
            shutil.rmtree(cache, ignore_errors=True)


def read_pngs(folder: Path) -> dict[str, bytes]:
    """Every PNG in ``folder`` by name."""
    return {p.name: p.read_bytes() for p in sorted(folder.glob("*.png"))}


def served_equals_cold(s: Session, name: str, *args: str) -> dict[str, bytes]:
    """Preview ``args`` through the server and cold; assert the same files; return them."""
    before = s.ask("status")
    served = s.pnp("preview", *args, "--dpi", "40", "--out", f"out/{name}-served")
    assert served.returncode == 0, served.stderr
    after = s.ask("status")
    assert before is not None and after is not None
    assert after["pid"] == before["pid"] and after["served"] == before["served"] + 1
    cold = s.pnp("preview", *args, "--dpi", "40", "--out", f"out/{name}-cold", "--no-server")
    assert cold.returncode == 0, cold.stderr
    assert served.stdout.replace("-served", "") == cold.stdout.replace("-cold", "")
    pngs = read_pngs(s.project / "out" / f"{name}-served")
    assert pngs and pngs == read_pngs(s.project / "out" / f"{name}-cold")
    return pngs


def test_the_first_preview_starts_a_server_that_draws_every_later_one_exactly(
        session: Session) -> None:
    s = session
    first = s.pnp("preview", "toy", "cards", "star-1", "--dpi", "40")
    assert first.returncode == 0, first.stderr
    assert first.stdout.splitlines() == ["wrote output/toy/preview/star-1-face.png",
                                         "wrote output/toy/preview/star-1-back.png"]
    if not UNIX:
        assert not (s.cache / "preview-server").exists()
        return
    status = s.wait_for_server()
    assert status["served"] == 0
    folder = s.files().socket.parent
    assert folder.stat().st_mode & 0o777 == 0o700
    original = served_equals_cold(s, "a", "toy", "cards", "star-1")
    served_equals_cold(s, "sheet", "toy", "cards", "--sheet")
    # edits under the server's feet: data, a template, an icon (the icon is
    # cached by markup, so only the server's snapshot check can see it)
    table = s.project / "card_data" / "toy" / "cards.csv"
    table.write_text(table.read_text(encoding="utf-8").replace("星のカード", "星の札"),
                     encoding="utf-8")
    data = served_equals_cold(s, "data", "toy", "cards", "star-1")
    assert data["star-1-face.png"] != original["star-1-face.png"]
    face = s.project / "templates" / "toy" / "face.xml.j2"
    face.write_text(face.read_text(encoding="utf-8").replace('y="64"', 'y="60"'),
                    encoding="utf-8")
    template = served_equals_cold(s, "template", "toy", "cards", "star-1")
    assert template["star-1-face.png"] != data["star-1-face.png"]
    icon = s.project / "templates" / "toy" / "icons" / "dot.svg"
    icon.write_text(icon.read_text(encoding="utf-8").replace('r="10"', 'r="4"'),
                    encoding="utf-8")
    drawn = served_equals_cold(s, "icon", "toy", "cards", "star-1")
    assert drawn["star-1-face.png"] != template["star-1-face.png"]
    # a user error through the server: the cold run's line and exit code
    bad = s.pnp("preview", "toy", "cards", "star-9", "--out", "out/bad")
    assert s.ask("status")["served"] == 6                        # it was the server's answer
    cold = s.pnp("preview", "toy", "cards", "star-9", "--out", "out/bad", "--no-server")
    assert (bad.returncode, bad.stderr, bad.stdout) == (cold.returncode, cold.stderr, cold.stdout)
    assert bad.returncode == 1 and bad.stderr.startswith("error: toy/cards has no card 'star-9'")
    assert len(bad.stderr.splitlines()) == 1
    unknown = s.pnp("preview", "toys", "cards")
    assert unknown.returncode == 1 and "unknown game 'toys'" in unknown.stderr
    assert len(unknown.stderr.splitlines()) == 1


#: Run as ``python -c SCRIPT REPORT ARGS…``: pnp ARGS, then the modules it imported.
IMPORTS = """
import json, sys
from pnp.cli import main
try:
    main(sys.argv[2:])
except SystemExit as exc:
    code = exc.code
json.dump({"code": code, "modules": sorted(sys.modules)}, open(sys.argv[1], "w"))
"""
#: What a preview answered by the server need not load: it draws nothing itself.
NOT_IN_A_SERVED_CLIENT = ("jinja2", "reportlab", "PIL", "pypdfium2_raw", "pnp.render",
                          "pnp.builder.preview", "pnp.builder.preview_server", "pnp.data",
                          "socket", "subprocess", "hashlib")


def test_a_served_preview_imports_none_of_the_drawing_libraries(session: Session) -> None:
    s = session
    assert s.pnp("preview", "toy", "cards", "star-1", "--dpi", "36").returncode == 0
    if not UNIX:
        return
    s.wait_for_server()
    report = s.project / "modules.json"
    done = subprocess.run([sys.executable, "-c", IMPORTS, str(report), "preview", "toy", "cards",
                           "star-2", "--dpi", "36"], cwd=s.project, env=s.env,
                          capture_output=True, text=True, timeout=120)
    result = json.loads(report.read_text(encoding="utf-8"))
    assert result["code"] in (0, None), done.stderr
    assert s.ask("status")["served"] == 1                 # the server drew it
    assert (s.project / "output" / "toy" / "preview" / "star-2-face.png").exists()
    modules = set(result["modules"])
    assert {"click", "pnp.cli", "pnp.builder.serve"} <= modules
    loaded = sorted(m for m in modules if any(m == name or m.startswith(name + ".")
                                              for name in NOT_IN_A_SERVED_CLIENT))
    assert loaded == []


def test_a_killed_server_is_replaced_and_racing_servers_leave_one(session: Session) -> None:
    s = session
    assert s.pnp("preview", "toy", "cards", "star-1", "--dpi", "36").returncode == 0
    if not UNIX:
        return
    old = s.wait_for_server()["pid"]
    os.kill(old, 9)
    assert wait_gone(old)
    socket_file = s.files().socket
    assert socket_file.exists()                                  # stale: nobody listens
    again = s.pnp("preview", "toy", "cards", "star-2", "--dpi", "36")
    assert again.returncode == 0, again.stderr
    assert (s.project / "output" / "toy" / "preview" / "star-2-face.png").exists()
    new = s.wait_for_server(other_than=old)["pid"]
    # three servers started at once (clients racing): one serves, the others leave quietly
    s.stop()
    files = s.files()
    racers = [subprocess.Popen([sys.executable, "-P", "-m", "pnp.builder.preview_server",
                                str(files.socket), json.dumps(files.identity),
                                serve.code_stamp(serve.NOT_IN_PREVIEWS)],
                               cwd=s.project, env=s.env, stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT)
              for _ in range(3)]
    try:
        winner = s.wait_for_server(other_than=new)["pid"]
        losers = [p for p in racers if p.pid != winner]
        assert len(losers) == 2
        for p in losers:
            assert p.wait(60) == 0
    finally:
        s.stop()
        for p in racers:
            p.wait(60)
            assert p.stdout is not None
            p.stdout.close()


def test_changed_code_idle_time_and_opt_outs_stop_or_skip_the_server(tmp_path: Path) -> None:
    # a copy of pnp, so that its code can change under a running server
    source = copy_of_pnp(tmp_path / "src")
    cache = Path(tempfile.mkdtemp(prefix="pnps-"))
    s = Session(tmp_path, cache, source)
    try:
        for opt_out in (["--no-server"], ["--preset", "tgc"]):
            s.pnp("preview", "toy", "cards", "star-1", "--dpi", "36", *opt_out)
        off = s.pnp("preview", "toy", "cards", "star-1", "--dpi", "36",
                    PNP_PREVIEW_SERVER="0")
        assert off.returncode == 0, off.stderr
        assert not (cache / "preview-server").exists()           # nothing was started
        if not UNIX:
            return
        assert s.pnp("preview", "toy", "cards", "star-1", "--dpi", "36").returncode == 0
        old = s.wait_for_server()["pid"]
        # an edit to code no preview runs (a game's engine) keeps the server
        engine = next((source / "pnp" / "games").rglob("*.py"))
        engine.write_text(engine.read_text(encoding="utf-8") + "\n# edited\n", encoding="utf-8")
        kept = s.pnp("preview", "toy", "cards", "star-2", "--dpi", "36")
        assert kept.returncode == 0, kept.stderr
        status = s.ask("status")
        assert status is not None and (status["pid"], status["served"]) == (old, 1)
        # a `git pull`: the next preview is drawn cold by the new code, the old
        # server leaves and a new one starts
        module = source / "pnp" / "builder" / "context.py"
        module.write_text(module.read_text(encoding="utf-8") + "\n# pulled\n",
                          encoding="utf-8")
        after = s.pnp("preview", "toy", "cards", "star-1", "--dpi", "36")
        assert after.returncode == 0, after.stderr
        assert wait_gone(old)
        new = s.wait_for_server(other_than=old)
        assert new["served"] == 0 and new["stamp"] == serve_stamp(source)
        s.stop()
        assert "stopped: pnp's code changed" in s.files().log.read_text()
        # idle: the server leaves by itself and removes its socket
        assert s.pnp("preview", "toy", "cards", "star-1", "--dpi", "36",
                     PNP_PREVIEW_IDLE="1.5").returncode == 0
        idle = s.wait_for_server()["pid"]
        assert wait_gone(idle)
        assert not s.files().socket.exists()
        assert "stopped: idle for 1.5 s" in s.files().log.read_text()
    finally:
        if UNIX:
            s.stop()
        shutil.rmtree(cache, ignore_errors=True)


def serve_stamp(source: Path) -> str:
    """The code stamp of the pnp package copied to ``source``."""
    done = subprocess.run([sys.executable, "-P", "-c",
                           "from pnp.builder.serve import NOT_IN_PREVIEWS, code_stamp; "
                           "print(code_stamp(NOT_IN_PREVIEWS))"],
                          env=dict(os.environ, PYTHONPATH=str(source)), capture_output=True,
                          text=True, check=True)
    return done.stdout.strip()


def test_the_cache_folder_is_the_one_the_fonts_and_templates_use(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from pnp.render.diskcache import cache_dir

    for env in ({"PNP_CACHE_DIR": str(tmp_path / "a")},
                {"XDG_CACHE_HOME": str(tmp_path / "b")}, {"HOME": str(tmp_path / "c")}):
        for name in ("PNP_CACHE_DIR", "XDG_CACHE_HOME"):
            monkeypatch.delenv(name, raising=False)
        for name, value in env.items():
            monkeypatch.setenv(name, value)
        assert cache_dir("jinja") == serve.cache_root() / "jinja"


def test_the_answer_is_declined_when_it_could_differ_from_a_cold_run(tmp_path: Path) -> None:
    where = [os.getcwd(), None, None, None]
    answerer = PreviewAnswerer(where)
    request = {"cwd": os.getcwd(), "game": "fortuna", "deck": "reel", "card_ids": ["reel-1-bolt"],
               "dpi": 36, "show_bleed": True, "sheet": False, "preset": None,
               "out_dir": str(tmp_path / "out"), "where": where}
    assert answerer.answer(dict(request, preset="tgc"))["fallback"]
    assert answerer.answer(dict(request, where=[str(tmp_path), None, None, None]))["fallback"]
    assert answerer.answer(dict(request, umask=answerer.umask ^ 0o002))["fallback"]
    answerer.stamp = "older code"
    assert answerer.answer(request) == {"fallback": True, "restart": True,
                                        "why": "pnp's code changed"}
    assert not (tmp_path / "out").exists()


def test_a_server_that_loaded_code_its_stamp_leaves_out_exits_after_answering(
        tmp_path: Path) -> None:
    import pnp.games  # noqa: F401  (as if a preview had loaded it)
    from pnp.builder.preview_server import ServerHandler

    where = [os.getcwd(), None, None, None]
    answerer = PreviewAnswerer(where, skip=("games", "sim"))
    assert "pnp.games" in answerer.unstamped_modules()
    assert PreviewAnswerer(where, skip=("no_such_package",)).unstamped_modules() == []
    handler = ServerHandler(answerer, serve.ServerFiles(tmp_path / "s", tmp_path / "l",
                                                        tmp_path / "g", [where]))
    answer = handler({"cwd": os.getcwd(), "game": "fortuna", "deck": "reel",
                      "card_ids": ["reel-1-bolt"], "dpi": 36, "show_bleed": True,
                      "sheet": False, "preset": None, "out_dir": str(tmp_path / "out"),
                      "where": where})
    assert len(answer["paths"]) == 2                        # the answer itself stands
    assert "pnp.games" in answer["_exit"]                   # then the server leaves
    assert handler({"op": "stop", "where": where})["_exit"] == "asked to stop"
    assert handler({"op": "status", "where": [str(tmp_path)]})["fallback"]


def test_the_watcher_answers_with_the_servers_code_and_sees_a_changed_icon(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The watcher answers through PreviewAnswerer: an icon saved a moment ago shows at once."""
    project = tmp_path / "project"
    shutil.copytree(PROJECT, project)
    monkeypatch.chdir(project)
    w = Watcher("toy", out_dir=project / "output", dpi=36, pdf=False, echo=lambda line: None)
    assert isinstance(w.answerer, PreviewAnswerer) and w.answerer.envs[w.tdir] is w.env
    request = {"cwd": os.getcwd(), "game": "toy", "deck": "cards", "card_ids": ["star-1"],
               "dpi": 36, "show_bleed": True, "sheet": False, "preset": None,
               "out_dir": "served", "where": w.where()}
    assert w.answer_preview(request) == {"paths": ["served/star-1-face.png",
                                                   "served/star-1-back.png"],
                                         "warnings": []}
    before = (project / "served" / "star-1-face.png").read_bytes()
    icon = project / "templates" / "toy" / "icons" / "dot.svg"
    icon.write_text(icon.read_text(encoding="utf-8").replace('r="10"', 'r="3"'),
                    encoding="utf-8")
    # no rebuild in between (the watcher polls every 0.2 s): the answer must see it anyway
    assert "paths" in w.answer_preview(request)
    from click.testing import CliRunner

    from pnp.cli import main

    result = CliRunner().invoke(main, ["preview", "toy", "cards", "star-1", "--dpi", "36",
                                       "--out", "cold", "--no-server"])
    assert result.exit_code == 0, result.output
    served = (project / "served" / "star-1-face.png").read_bytes()
    assert served != before
    assert served == (project / "cold" / "star-1-face.png").read_bytes()
    assert w.answer_preview(dict(request, game="duo"))["fallback"]   # another game: declined


def test_help_says_how_previews_are_drawn_and_how_to_opt_out() -> None:
    from click.testing import CliRunner

    from pnp.cli import main

    result = CliRunner().invoke(main, ["preview", "--help"])
    assert result.exit_code == 0
    text = " ".join(result.output.split())
    assert "starts a background preview server for the project" in text
    assert "--no-server" in text and "PNP_PREVIEW_SERVER=0" in text and "--stop-server" in text
    missing = CliRunner().invoke(main, ["preview"])
    assert missing.exit_code == 2 and "Missing argument 'GAME'" in missing.output

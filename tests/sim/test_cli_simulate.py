"""`pnp simulate` and the simulation step of `pnp check`, through the CLI."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from pnp import PROJECT_ROOT
from pnp.cli import main

DATA = PROJECT_ROOT / "card_data"


def run(*args: str) -> tuple[int, str]:
    """Run the CLI in-process; return (exit code, output)."""
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.output


@pytest.mark.parametrize("slug, players", [("fortuna", 4), ("nine_peak", 5)])
def test_same_seed_same_report_for_any_jobs(tmp_path: Path, slug: str, players: int) -> None:
    """The JSON report is the same for --jobs 1 and 2 (timing aside)."""
    reports = []
    for jobs in ("1", "2"):
        out = tmp_path / f"{slug}-{jobs}.json"
        code, text = run("simulate", slug, "--players", str(players), "--games", "300",
                         "--seed", "7", "--jobs", jobs, "--bots", "random,greedy",
                         "--json", str(out), "-q")
        assert code == 0, text
        assert "Completion: 300/300" in text
        report = json.loads(out.read_text(encoding="utf-8"))
        report.pop("elapsed_s")
        report.pop("processes")
        reports.append(report)
    assert reports[0] == reports[1]


def test_rule_parameter_changes_the_game(tmp_path: Path) -> None:
    """--param changes the games played."""
    lengths = []
    for size in ("7", "20"):
        out = tmp_path / f"end{size}.json"
        code, text = run("simulate", "fortuna", "--games", "40", "--no-invariants",
                         "--param", f"end_deck_size={size}", "--json", str(out), "-q")
        assert code == 0, text
        lengths.append(json.loads(out.read_text(encoding="utf-8"))["length_turns"])
    assert lengths[0] != lengths[1]


def test_invariant_levels_from_the_cli(tmp_path: Path) -> None:
    """--invariants full|sample|off and --no-invariants are accepted and reported."""
    for flags, level in ((["--invariants", "full"], "full"), ([], "sample"),
                         (["--no-invariants"], "off")):
        out = tmp_path / f"{level}.json"
        code, text = run("simulate", "nine_peak", "--games", "30", *flags, "--json",
                         str(out), "-q")
        assert code == 0, text
        assert json.loads(out.read_text(encoding="utf-8"))["config"]["invariants"] == level


def test_sweep_from_the_cli(tmp_path: Path) -> None:
    """--sweep prints one row per value and writes the table as JSON."""
    out = tmp_path / "sweep.json"
    code, text = run("simulate", "fortuna", "--games", "40", "--sweep",
                     "end_deck_size=5:9:2", "--json", str(out), "-q")
    assert code == 0, text
    doc = json.loads(out.read_text(encoding="utf-8"))
    assert [r["values"]["end_deck_size"] for r in doc["rows"]] == [5, 7, 9]
    for v in (5, 7, 9):
        assert f"end_deck_size={v}" in text


def test_bots_list() -> None:
    """--bots list names the game's bots."""
    code, text = run("simulate", "nine_peak", "--bots", "list")
    assert code == 0 and "random" in text and "greedy" in text


@pytest.mark.parametrize("args, message", [
    (["simulate", "fortuna", "--players", "6"], "fortuna is for 3–4 players, not 6"),
    (["simulate", "episode2", "--players", "2"], "episode2 is for 1 player, not 2"),
    (["simulate", "fortuna", "--bots", "clever"], "fortuna has no bot 'clever'"),
    (["simulate", "fortuna", "--bots", ""], "--bots '': expected comma-separated bot names"),
    (["simulate", "fortuna", "--param", "hand_size"], "expected key=value"),
    (["simulate", "fortuna", "--param", "hand_size=7", "--param", "hand_size=8"],
     "--param hand_size: given twice ('7' and '8')"),
    (["simulate", "fortuna", "--param", "colour=red"], "unknown parameter 'colour'"),
    (["simulate", "fortuna", "--param", "hand_size=many"], "hand_size"),
    (["simulate", "fortuna", "--games", "0"], "--games 0"),
    (["simulate", "fortuna", "--jobs", "1000"], "--jobs 1000: expected a whole number from 1 to 256"),
    (["simulate", "fortuna", "--sweep", "hand_size=1:x:1"], "not a number"),
    (["simulate", "fortunaa"], "did you mean 'fortuna'"),
])
def test_bad_simulate_input(args: list[str], message: str) -> None:
    """Bad input: exit 1 and one line, never a traceback."""
    code, text = run(*args, "-q")
    assert code == 1
    assert message in text
    assert "Traceback" not in text


def test_game_without_engine(tmp_path: Path) -> None:
    """A game with data but no rules engine is a one-line error naming the engines."""
    folder = tmp_path / "solitaire"
    folder.mkdir()
    (folder / "manifest.toml").write_text(
        '[game]\nslug = "solitaire"\ntitle = "Solitaire"\nplayers = [1, 1]\n\n'
        '[components]\n', encoding="utf-8")
    code, text = run("simulate", "solitaire", "--data-dir", str(tmp_path), "-q")
    assert code == 1 and "no rules engine for game 'solitaire'" in text
    assert "fortuna" in text and "Traceback" not in text
    # what one is and where it would live (it said only that none was found)
    assert "needs a rules engine, a Python package pnp/games/solitaire/ (docs/engines.md)" in text
    assert len(text.strip().splitlines()) == 1


def test_check_simulates_every_player_count() -> None:
    """pnp check plays every supported player count of an engine."""
    code, out = run("check", "nine_peak", "--json", "--sim-games", "20", "--data-dir",
                    str(DATA))
    assert code == 0, out
    sims = json.loads(out)["games"]["nine_peak"]["simulation"]
    assert [s["players"] for s in sims] == [3, 4, 5]
    assert all(s["ok"] and s["completion"] == 1.0 for s in sims)


def _group_alive(pgid: int) -> list[str]:
    """Processes still in process group ``pgid``."""
    alive = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
        except OSError:
            continue
        fields = stat.rsplit(")", 1)[1].split()
        if int(fields[2]) == pgid and fields[0] != "Z":
            alive.append(entry)
    return alive


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_interrupt_stops_every_worker_without_traceback(tmp_path: Path, sig: int) -> None:
    """Ctrl-C or SIGTERM during --jobs 2: exit 130, no traceback, no worker left, no JSON."""
    out = tmp_path / "r.json"
    proc = subprocess.Popen(
        [sys.executable, "-m", "pnp.cli", "simulate", "fortuna", "--games", "2000000",
         "--jobs", "2", "--no-invariants", "--json", str(out), "-q"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True,
        cwd=PROJECT_ROOT)
    # Wait for the parent and its two workers rather than a fixed 3 s: on a
    # loaded machine the workers took longer to start and the test failed.
    deadline = time.monotonic() + 60
    while len(_group_alive(proc.pid)) < 3 and proc.poll() is None \
            and time.monotonic() < deadline:
        time.sleep(0.1)
    time.sleep(0.5)                          # the workers are into their games
    assert proc.poll() is None, proc.communicate()
    assert len(_group_alive(proc.pid)) >= 3  # parent and two workers are running
    if sig == signal.SIGINT:
        os.killpg(proc.pid, sig)  # Ctrl-C reaches the whole foreground group
    else:
        os.kill(proc.pid, sig)
    stdout, stderr = proc.communicate(timeout=30)
    assert proc.returncode == 130, (stdout, stderr)
    assert "Traceback" not in stderr and "Traceback" not in stdout
    assert "interrupted" in stderr
    gone_by = time.monotonic() + 30          # workers may take a moment to exit under load
    while _group_alive(proc.pid) and time.monotonic() < gone_by:
        time.sleep(0.1)
    assert _group_alive(proc.pid) == []
    assert not out.exists()


def test_json_dash_is_standard_output(tmp_path: Path) -> None:
    """--json - writes the JSON report to stdout (and no file named '-'); the text goes to stderr."""
    proc = subprocess.run(
        [sys.executable, "-m", "pnp.cli", "simulate", "nine_peak", "--games", "20", "-q",
         "--json", "-", "--data-dir", str(DATA)],
        capture_output=True, text=True, cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["completion"]["completed"] == 20
    assert "Completion: 20/20" in proc.stderr
    assert not (tmp_path / "-").exists()

"""`pnp simulate` balance-lab options through the CLI: modes, files, one-line errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from pnp import PROJECT_ROOT
from pnp.cli import main

DATA = str(PROJECT_ROOT / "card_data")


def run(*args: str) -> tuple[int, str]:
    """Run the CLI in-process; return (exit code, output with stderr)."""
    result = CliRunner().invoke(main, ["simulate", *args, "--data-dir", DATA, "-q"])
    return result.exit_code, result.output


@pytest.mark.parametrize("args, message", [
    (["fortuna", "--bots", "mcts:lots"], "expected mcts:ITERATIONS"),
    (["fortuna", "--bots", "mcts:50:nobody"], "no playout bot 'nobody'"),
    (["fortuna", "--bots", "greedy:3"], "bot 'greedy' takes no option"),
    (["fortuna", "--ladder", "--bots", "greedy,random"], "with --ladder, give one bot"),
    (["fortuna", "--budgets", "8,16"], "--budgets: only with --ladder"),
    (["fortuna", "--ladder", "--budgets", "16,8"], "two or more ascending"),
    (["fortuna", "--ladder", "--sweep", "hand_size=6,7"], "give one of --sweep"),
    (["fortuna", "--compare", "hand_size"], "expected KEY=VALUE"),
    (["fortuna", "--compare", "hand_size=99"], "hand_size=99"),
    (["fortuna", "--cluster", "my-scheduler", "--games", "5"], "scheduler address"),
    # Dask itself raised a ValueError traceback for these, or waited 20 s
    (["fortuna", "--cluster", "tcp://", "--games", "5"], "a host and a port 1–65535"),
    (["fortuna", "--cluster", "tcp://host:99999", "--games", "5"], "a port 1–65535"),
    (["fortuna", "--cluster", "tcp://host", "--games", "5"], "a port 1–65535"),
    # each value in range, but together more cards than the deck: one line, not N failures
    (["fortuna", "--param", "hand_size=20", "--param", "end_deck_size=60"],
     "parameters hand_size=20, end_deck_size=60 with 4 players: fortuna: 4 hands of 20 "
     "plus an end deck of 60 need more than the 78 reel cards"),
    (["fortuna", "--sweep", "end_deck_size=7,60", "--param", "hand_size=20"],
     "with 4 players: fortuna: 4 hands of 20 plus an end deck of 7 need more"),
    (["fortuna", "--param", "end_deck_size=abc"],
     "parameter end_deck_size='abc': expected a whole number from 0 to 60"),
    (["fortuna", "--param", "end_deck_size=10000"],
     "parameter end_deck_size=10000: expected a whole number from 0 to 60"),
    (["fortuna", "--param", "all_in=maybe"], "all_in='maybe': expected yes or no"),
    # it wrote a file called "-"
    (["fortuna", "--html", "-", "--games", "2"],
     "--html -: the chart page goes to a file, not standard output"),
    # it planned 4·10^11 chunks first: gigabytes within seconds, no game played
    (["fortuna", "--games", "99999999999999"],
     "--games 99999999999999: expected a whole number from 1 to 10000000"),
    (["fortuna", "--html", "/no/such/folder/r.html"], "does not exist"),
])
def test_bad_input_is_one_line(args: list[str], message: str) -> None:
    """Each mistake exits 1 with one line naming it, and no traceback."""
    code, text = run(*args)
    assert code == 1 and message in text, text
    assert "Traceback" not in text and len(text.strip().splitlines()) == 1


def test_compare_prints_paired_differences(tmp_path: Path) -> None:
    """--compare: one block per change, paired intervals, JSON and a chart page."""
    out, page = tmp_path / "c.json", tmp_path / "c.html"
    code, text = run("fortuna", "--players", "4", "--bots", "greedy", "--games", "300",
                     "--invariants", "off", "--compare", "end_deck_size=12",
                     "--json", str(out), "--html", str(page))
    assert code == 0, text
    assert "end_deck_size=12 (300 games paired" in text
    assert "two independent runs would give" in text
    doc = json.loads(out.read_text(encoding="utf-8"))
    diff = doc["rows"][1]["paired"]["differences"]["turns"]
    assert diff["low"] <= diff["mean"] <= diff["high"]
    # Pairing: the interval is narrower than two independent runs would give.
    assert diff["high"] - diff["low"] < 2 * diff["unpaired_half_width"]
    assert page.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")


def test_ladder_from_the_cli(tmp_path: Path) -> None:
    """--ladder with tiny budgets: one row per budget, JSON rungs with intervals."""
    out = tmp_path / "l.json"
    code, text = run("nine_peak", "--players", "3", "--ladder", "--budgets", "2,4",
                     "--games", "6", "--invariants", "off", "--json", str(out))
    assert code == 0, text
    assert "skill ladder" in text and "against greedy" in text
    doc = json.loads(out.read_text(encoding="utf-8"))
    assert [r["budget"] for r in doc["rungs"]] == [2, 4]
    assert all(r["ci_low"] <= r["win_share"] <= r["ci_high"] for r in doc["rungs"])


def test_report_leads_with_findings() -> None:
    """The text report puts the findings before the numbers and lists card groups."""
    code, text = run("fortuna", "--players", "4", "--bots", "greedy", "--games", "2000",
                     "--invariants", "off")
    assert code == 0, text
    assert text.index("Findings") < text.index("Completion:")
    assert "Cards and rules (per seat-game" in text and "played (average" in text
    assert "Drama:" in text


@pytest.mark.parametrize("mode", [[], ["--compare", "hand_size=6"], ["--sweep", "hand_size=6,7"],
                                  ["--ladder", "--budgets", "2,4"]])
def test_unusable_cluster_fails_before_any_game(mode: list[str]) -> None:
    """A bad --cluster is reported before the progress bar starts: one line, nothing else."""
    result = CliRunner().invoke(main, ["simulate", "fortuna", *mode, "--games", "4",
                                       "--cluster", "my-scheduler", "--data-dir", DATA])
    assert result.exit_code == 1, result.output
    assert result.output.strip().splitlines() == [
        "error: --cluster 'my-scheduler': expected 'local' or a scheduler address such as "
        "tcp://scheduler:8786 (tcp://, tls://, ws://, wss:// or ucx://, a host and a port "
        "1–65535)"], result.output


def test_missing_dask_is_named_before_any_game(monkeypatch: pytest.MonkeyPatch) -> None:
    """Without the cluster extra, --cluster says how to install it (and plays nothing)."""
    import importlib.util

    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec",
                        lambda name, *a: None if name == "distributed" else real(name, *a))
    result = CliRunner().invoke(main, ["simulate", "fortuna", "--games", "4", "--cluster",
                                       "local", "--data-dir", DATA])
    assert result.exit_code == 1
    assert result.output.strip().splitlines() == [
        "error: --cluster local: Dask is not installed; install the extra with "
        "pip install 'pnp[cluster]'"], result.output

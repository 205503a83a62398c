"""`pnp simulate` and the simulation step of `pnp check`, through the CLI."""

from __future__ import annotations

import json
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
    reports = []
    for jobs in ("1", "2"):
        out = tmp_path / f"{slug}-{jobs}.json"
        code, text = run("simulate", slug, "--players", str(players), "--games", "60",
                         "--seed", "7", "--jobs", jobs, "--bots", "random,greedy",
                         "--json", str(out), "-q")
        assert code == 0, text
        assert "Completion: 60/60" in text
        report = json.loads(out.read_text(encoding="utf-8"))
        report.pop("elapsed_s")
        reports.append(report)
    assert reports[0] == reports[1]


def test_rule_parameter_changes_the_game(tmp_path: Path) -> None:
    lengths = []
    for size in ("7", "20"):
        out = tmp_path / f"end{size}.json"
        code, text = run("simulate", "fortuna", "--games", "40", "--no-invariants",
                         "--param", f"end_deck_size={size}", "--json", str(out), "-q")
        assert code == 0, text
        lengths.append(json.loads(out.read_text(encoding="utf-8")))
    assert lengths[0] != lengths[1]


@pytest.mark.parametrize("args, message", [
    (["simulate", "fortuna", "--players", "6"], "fortuna is for 3–4 players, not 6"),
    (["simulate", "fortuna", "--bots", "clever"], "clever"),
    (["simulate", "fortuna", "--param", "hand_size"], "expected key=value"),
    (["simulate", "fortuna", "--param", "colour=red"], "unknown parameter 'colour'"),
    (["simulate", "fortuna", "--param", "hand_size=many"], "hand_size"),
    (["simulate", "fortuna", "--games", "0"], "--games 0"),
    (["simulate", "undecim"], "no rules engine for game 'undecim'"),
])
def test_bad_simulate_input(args: list[str], message: str) -> None:
    code, text = run(*args, "-q")
    assert code == 1
    assert message in text
    assert "Traceback" not in text


def test_check_simulates_every_player_count() -> None:
    code, out = run("check", "nine_peak", "--json", "--sim-games", "20", "--data-dir",
                    str(DATA))
    assert code == 0, out
    sims = json.loads(out)["games"]["nine_peak"]["simulation"]
    assert [s["players"] for s in sims] == [3, 4, 5]
    assert all(s["ok"] and s["completion"] == 1.0 for s in sims)

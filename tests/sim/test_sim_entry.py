"""run_simulation: input checks, exit codes, atomic JSON, progress bar."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import pnp.games
from pnp.errors import PnpError
from pnp.sim import run_simulation, write_json_atomic


@pytest.fixture(autouse=True)
def toy_registered(monkeypatch: pytest.MonkeyPatch) -> None:
    """Register the toy game under slug ``toy`` for these tests only."""
    monkeypatch.setitem(pnp.games._ENGINES, "toy", "toy_game:ToyGame")


def _run(**kw):
    """run_simulation with test defaults overridable by ``kw``."""
    args = dict(slug="toy", players=3, games=40, bots="random,greedy", seed=4, jobs=1,
                params={}, check_invariants=True, step_cap=500, json_path=None,
                progress=False)
    args.update(kw)
    return run_simulation(**args)


def test_ok_run_exit_zero_and_json_written(tmp_path: Path) -> None:
    """Ok run exit zero and json written."""
    out = tmp_path / "report.json"
    text, rep, code = _run(json_path=out)
    assert code == 0 and rep["ok"]
    assert json.loads(out.read_text(encoding="utf-8")) == rep
    assert isinstance(rep["elapsed_s"], float)
    assert "Elapsed" in text and "Seats" in text
    assert [p.name for p in tmp_path.iterdir()] == ["report.json"]  # no temp left


def test_report_identical_across_jobs_apart_from_timing() -> None:
    """Report identical across jobs apart from timing."""
    _, a, _ = _run(jobs=1)
    _, b, _ = _run(jobs=2)
    a.pop("elapsed_s"), b.pop("elapsed_s")
    assert a == b


@pytest.mark.parametrize("variant,kind", [("lose_card", "invariant"),
                                          ("never_end", "step_cap"),
                                          ("bad_apply", "invariant")])
def test_failures_give_nonzero_exit(variant: str, kind: str) -> None:
    """Failures give nonzero exit."""
    text, rep, code = _run(params={"variant": variant}, games=5, step_cap=60)
    assert code != 0 and not rep["ok"]
    assert rep["completion"]["failures"][kind] == 5
    assert rep["failures"][0]["actions"] is not None


@pytest.mark.parametrize("kw,needle", [
    (dict(bots="random,clever"), "unknown bot 'clever'"),
    (dict(bots="random,"), "comma-separated"),
    (dict(players=5), "2–4 players"),
    (dict(players=1), "2–4 players"),
    (dict(games=0), "--games"),
    (dict(jobs=0), "--jobs"),
    (dict(step_cap=0), "--step-cap"),
    (dict(params={"colour": "red"}), "unknown parameter 'colour'"),
    (dict(params={"cards": "many"}), "expected int"),
    (dict(params={"variant": "odd"}), "expected one of"),
    (dict(slug="toyy"), "did you mean 'toy'"),
])
def test_bad_input_raises_one_line_pnp_error(kw: dict, needle: str) -> None:
    """Bad input raises one line pnp error."""
    with pytest.raises(PnpError) as info:
        _run(**kw)
    assert needle in str(info.value) and "\n" not in str(info.value)


def test_json_folder_must_exist(tmp_path: Path) -> None:
    """Json folder must exist."""
    with pytest.raises(PnpError, match="does not exist"):
        _run(json_path=tmp_path / "nope" / "r.json")


def test_write_json_atomic_keeps_old_file_on_failure(tmp_path: Path) -> None:
    """Write json atomic keeps old file on failure."""
    out = tmp_path / "r.json"
    write_json_atomic(out, {"a": 1})
    with pytest.raises(TypeError):
        write_json_atomic(out, {"a": object()})
    assert json.loads(out.read_text(encoding="utf-8")) == {"a": 1}
    assert [p.name for p in tmp_path.iterdir()] == ["r.json"]


def test_progress_bar_goes_to_stderr(capsys: pytest.CaptureFixture[str]) -> None:
    """Progress bar goes to stderr."""
    text, rep, code = _run(progress=True, games=30)
    err = capsys.readouterr().err
    assert code == 0 and "Simulating toy" in err


def test_greedy_needs_engine_support(monkeypatch: pytest.MonkeyPatch) -> None:
    """Greedy needs engine support."""
    monkeypatch.setitem(pnp.games._ENGINES, "toy_plain", "toy_game:PlainToyGame")
    with pytest.raises(PnpError, match="has no greedy bot"):
        _run(slug="toy_plain", bots="greedy")
    text, rep, code = _run(slug="toy_plain", bots="random")
    assert code == 0

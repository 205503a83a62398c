"""run_simulation and run_sweep: input checks, exit codes, atomic JSON, progress bar."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from pnp.data import load_game_data
from pnp.errors import PnpError
from pnp.sim import run_simulation, run_sweep, write_json_atomic
from toy_game import DATA

TOY = load_game_data(DATA, "toy", strict=True)
PLAIN = load_game_data(DATA, "toy_plain", strict=True)


def _run(**kw: Any) -> Any:
    """run_simulation with test defaults overridable by ``kw``."""
    args: dict[str, Any] = dict(data=TOY, players=3, games=40, bots="random,greedy", seed=4,
                                jobs=1, params={}, invariants="sample", step_cap=500,
                                json_path=None, progress=False)
    args.update(kw)
    return run_simulation(**args)


def test_ok_run_exit_zero_and_json_written(tmp_path: Path) -> None:
    """A clean run exits 0 and writes exactly the report as JSON."""
    out = tmp_path / "report.json"
    text, rep, code = _run(json_path=out)
    assert code == 0 and rep["ok"]
    assert json.loads(out.read_text(encoding="utf-8")) == rep
    assert isinstance(rep["elapsed_s"], float) and rep["processes"] == 1
    assert "Elapsed" in text and "Seats" in text
    assert [p.name for p in tmp_path.iterdir()] == ["report.json"]  # no temp left


def test_report_identical_across_jobs_apart_from_timing() -> None:
    """Same report for 1 and 2 processes, apart from timing and process count."""
    _, a, _ = _run(jobs=1, games=600)
    _, b, _ = _run(jobs=2, games=600)
    for rep in (a, b):
        rep.pop("elapsed_s")
    assert (a.pop("processes"), b.pop("processes")) == (1, 2)
    assert a == b


def test_more_jobs_than_work_says_how_many_ran() -> None:
    """Asking for 8 processes for one chunk of games runs one, and says so."""
    text, rep, code = _run(jobs=8, games=30)
    assert code == 0 and rep["processes"] == 1
    assert "on 1 process (asked for 8" in text


@pytest.mark.parametrize("variant,kind", [("lose_card", "invariant"),
                                          ("never_end", "step_cap"),
                                          ("bad_apply", "invariant")])
def test_failures_give_nonzero_exit(variant: str, kind: str) -> None:
    """Any failed game makes the exit code non-zero and keeps a trace."""
    text, rep, code = _run(params={"variant": variant}, games=5, step_cap=60)
    assert code != 0 and not rep["ok"]
    assert rep["completion"]["failures"][kind] == 5
    assert rep["failures"][0]["actions"] is not None


@pytest.mark.parametrize("kw,needle", [
    (dict(bots="random,clever"), "has no bot 'clever'"),
    (dict(bots="random,greedyy"), "did you mean 'greedy'"),
    (dict(bots="random,"), "comma-separated"),
    (dict(players=5), "2–4 players"),
    (dict(players=1), "2–4 players"),
    (dict(games=0), "--games"),
    (dict(jobs=0), "--jobs"),
    (dict(step_cap=0), "--step-cap"),
    (dict(invariants="most"), "--invariants"),
    (dict(params={"colour": "red"}), "unknown parameter 'colour'"),
    (dict(params={"cards": "many"}), "cards='many': expected a whole number from 8 to 200"),
    (dict(params={"cards": "1_6"}), "cards='1_6': expected a whole number"),
    (dict(params={"cards": "16.0"}), "cards='16.0': expected a whole number"),
    (dict(params={"cards": "7"}), "cards=7: expected a whole number from 8 to 200"),
    (dict(params={"cards": "9" * 5000}), "expected a whole number from 8 to 200"),
    (dict(params={"variant": "odd"}), "expected one of"),
])
def test_bad_input_raises_one_line_pnp_error(kw: dict, needle: str) -> None:
    """Each bad input is one line naming what was expected."""
    with pytest.raises(PnpError) as info:
        _run(**kw)
    assert needle in str(info.value) and "\n" not in str(info.value)


def test_json_folder_must_exist(tmp_path: Path) -> None:
    """--json into a missing folder fails before playing."""
    with pytest.raises(PnpError, match="does not exist"):
        _run(json_path=tmp_path / "nope" / "r.json")


@pytest.mark.parametrize("option", ["json_path", "html_path"])
def test_report_under_a_file_is_named_a_file(tmp_path: Path, option: str) -> None:
    """A report path under a file says that file is not a folder (not "does not exist")."""
    (tmp_path / "afile").write_text("x")
    for target in (tmp_path / "afile" / "r.out", tmp_path / "afile" / "a" / "b" / "r.out"):
        with pytest.raises(PnpError) as info:
            _run(**{option: target})
        assert f"{tmp_path / 'afile'} is a file, not a folder" in str(info.value)
        assert "does not exist" not in str(info.value)
    assert (tmp_path / "afile").read_text() == "x"


def test_write_json_atomic_keeps_old_file_on_failure(tmp_path: Path) -> None:
    """A failed write leaves the old file and no temp file."""
    out = tmp_path / "r.json"
    write_json_atomic(out, {"a": 1})
    with pytest.raises(TypeError):
        write_json_atomic(out, {"a": object()})
    assert json.loads(out.read_text(encoding="utf-8")) == {"a": 1}
    assert [p.name for p in tmp_path.iterdir()] == ["r.json"]


def test_progress_bar_goes_to_stderr(capsys: pytest.CaptureFixture[str]) -> None:
    """The progress bar is on stderr, the report is returned."""
    text, rep, code = _run(progress=True, games=30)
    err = capsys.readouterr().err
    assert code == 0 and "Simulating toy" in err


def test_game_without_own_bot_offers_only_random() -> None:
    """A game registered without bots has only the random bot."""
    with pytest.raises(PnpError, match="has no bot 'greedy'"):
        _run(data=PLAIN, bots="greedy")
    text, rep, code = _run(data=PLAIN, bots="random")
    assert code == 0


def _sweep(**kw: Any) -> Any:
    args: dict[str, Any] = dict(data=TOY, sweeps=["cards=12:24:4"], players=3, games=60,
                                bots="random", seed=2, jobs=1, params={}, invariants="sample")
    args.update(kw)
    return run_sweep(**args)


def test_sweep_plays_one_row_per_value_on_the_same_deals(tmp_path: Path) -> None:
    """A range gives a row per value; each row equals a plain run of that value."""
    out = tmp_path / "sweep.json"
    text, doc, code = _sweep(json_path=out)
    assert code == 0 and json.loads(out.read_text(encoding="utf-8")) == doc
    assert [r["values"] for r in doc["rows"]] == [{"cards": c} for c in (12, 16, 20, 24)]
    for row in doc["rows"]:
        _t, rep, _c = _run(params={"cards": str(row["values"]["cards"])}, bots="random",
                           games=60, seed=2)
        fig = {f["name"]: f for f in row["figures"]}
        assert fig["mean_turns"]["value"] == rep["length_turns"]["mean"]
        assert fig["seat0_wins"]["value"] == pytest.approx(rep["seats"][0]["win_share"])
        assert fig["completion"]["value"] == 1.0
    # The toy game lasts exactly `cards` turns: the table shows it.
    assert [r["figures"][1]["value"] for r in doc["rows"]] == [12, 16, 20, 24]
    assert "cards=12" in text and "cards=24" in text


def test_sweep_list_and_grid() -> None:
    """A list of values and two sweeps (a grid) give every combination."""
    _t, doc, _c = _sweep(sweeps=["cards=12,20", "variant=normal,always_tie"])
    assert [r["values"] for r in doc["rows"]] == [
        {"cards": 12, "variant": "normal"}, {"cards": 12, "variant": "always_tie"},
        {"cards": 20, "variant": "normal"}, {"cards": 20, "variant": "always_tie"}]


@pytest.mark.parametrize("sweeps,needle", [
    (["cards"], "expected PARAM=LO:HI:STEP"),
    (["cards=1:2"], "LO:HI:STEP"),
    (["cards=20:10:2"], "LO ≤ HI"),
    (["cards=1:x:1"], "not a number"),
    (["cards=8:100000:1"], "at most"),
    # a range thousands of digits long: its count cannot be printed (4300-digit limit)
    (["cards=1:" + "9" * 5000 + ":1"], "over a billion values; at most 200"),
    (["cards=0:1:1e-999999999"], "numbers too large or too small"),
    (["cards=8," + "9" * 5000], "expected a whole number from 8 to 200"),
    (["cards=12,,16"], "empty value"),
    (["cards=4:8:4"], "expected a whole number from 8 to 200"),
    (["colour=1,2"], "unknown parameter 'colour'"),
    (["cards=12,16", "cards=20,24"], "swept once"),
    (["cards=20"], "one value; a sweep needs two or more"),
])
def test_bad_sweeps_are_one_line_errors(sweeps: list[str], needle: str) -> None:
    """Bad sweep specs fail before any game is played, in one line."""
    with pytest.raises(PnpError) as info:
        _sweep(sweeps=sweeps)
    assert needle in str(info.value) and "\n" not in str(info.value)


def test_sweep_and_param_of_the_same_name_clash() -> None:
    """A swept parameter may not also be fixed with --param."""
    with pytest.raises(PnpError, match="also given with --param"):
        _sweep(params={"cards": "16"})


@pytest.mark.parametrize("default,text,needle", [
    (0.5, "nan", "x='nan': expected a number from 0 to 1"),
    (0.5, "inf", "x='inf': expected a number from 0 to 1"),
    (0.5, "1_0", "x='1_0': expected a number from 0 to 1"),
    (0.5, "2", "x=2.0: expected a number from 0 to 1"),
    (True, "maybe", "x='maybe': expected yes or no (also true/false, on/off, 1/0)"),
    (3, "3.0", "x='3.0': expected a whole number from 0 to 1"),
    # 5000 digits: int() refuses past 4300 (a ValueError and a trace); the
    # message shows the first 20 characters only.
    (3, "9" * 5000, f"x='{'9' * 20}…': expected a whole number from 0 to 1"),
    (0.5, "9" * 5000, f"x='{'9' * 20}…': expected a number from 0 to 1"),
])
def test_param_messages_say_what_a_value_looks_like(default: object, text: str,
                                                    needle: str) -> None:
    """Parameters say "a whole number", "a number", "yes or no" as every message does."""
    from pnp.games.api import Param

    with pytest.raises(PnpError) as info:
        Param("x", default, "", minimum=0, maximum=1).parse(text)
    assert str(info.value) == f"parameter {needle}"


def test_param_reads_plain_values() -> None:
    """Plain values (spaces around them too) still read as before."""
    from pnp.games.api import Param

    assert Param("x", 0.5, "").parse(" 0.25 ") == 0.25
    assert Param("x", 3, "", minimum=0).parse("+7") == 7
    assert Param("x", False, "").parse("Yes") is True

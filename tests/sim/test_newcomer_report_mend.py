"""Simulation-report defects a new user met: lost runs, clashing outputs, unreadable keys,
overlapping ticks, impossible intervals, misplaced intervals, Python-style parameters."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

import pnp.sim as sim
from pnp.cli import main
from pnp.errors import PnpError
from pnp.intervals import clip_to_range
from pnp.sim.findings import card_table, clipped
from pnp.sim.html import CHAR_EM, LABEL_GAP, _fmt, axis_ticks
from pnp.sim.report import param_value, params_text
from pnp.sim.sweep import figure_cell


def run(*args: str) -> Any:
    """The CLI in-process; the click result (stdout and stderr apart)."""
    return CliRunner().invoke(main, list(args))


# -- 1. an output folder that exists but cannot be written ----------------------------


def test_unwritable_report_folder_refused_before_play(tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """A folder where no file can be made is refused in one line before a game is played."""
    real_open = os.open

    def refuse(path: Any, *args: Any, **kwargs: Any) -> int:
        if ".pnp-write-check-" in str(path):
            raise PermissionError(13, "Permission denied")
        return real_open(path, *args, **kwargs)

    def no_play(*args: Any, **kwargs: Any) -> None:
        raise AssertionError("played before refusing the report folder")

    monkeypatch.setattr(sim.os, "open", refuse)
    monkeypatch.setattr(sim, "simulate", no_play)
    for option in ("--json", "--html"):
        result = run("simulate", "fortuna", "-n", "3", "-j", "1", "-q", option,
                     str(tmp_path / "r.out"))
        assert result.exit_code == 1
        assert result.stderr.strip().splitlines() == [
            f"error: {option} {tmp_path / 'r.out'}: cannot write into folder {tmp_path} "
            "(Permission denied); expected a folder you may write to"]
        assert "Traceback" not in result.output
    assert list(tmp_path.iterdir()) == []          # the probe file is gone too


def test_writable_folder_check_leaves_nothing_behind(tmp_path: Path) -> None:
    """The write check creates and removes its probe: the folder is as it was."""
    sim._check_out("--json", tmp_path / "x.json")
    assert list(tmp_path.iterdir()) == []


def test_failed_write_at_the_end_keeps_the_text_report(tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """A write that fails after play prints the text report first, then the one error line."""
    def full(path: Path, text: str) -> None:
        raise PnpError(f"cannot write {path}: No space left on device")

    monkeypatch.setattr(sim, "write_text_atomic", full)
    out = tmp_path / "r.json"
    result = run("simulate", "fortuna", "-n", "3", "-j", "1", "-q", "--json", str(out))
    assert result.exit_code == 1
    assert "Completion: 3/3 games ended" in result.stdout
    assert result.stdout.rstrip().endswith("games/s on 1 process)")
    assert result.stderr.strip() == f"error: cannot write {out}: No space left on device"
    assert not out.exists()


# -- 2. one file for two outputs -------------------------------------------------------


@pytest.mark.parametrize("json_name, html_name", [("out", "out"), ("out", "./out"),
                                                  ("a/../out", "out")])
def test_same_file_for_json_and_html_is_a_usage_error(tmp_path: Path, json_name: str,
                                                       html_name: str,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """``--json out --html out`` is refused before play, in one line."""
    (tmp_path / "a").mkdir()
    monkeypatch.chdir(tmp_path)
    result = run("simulate", "fortuna", "-n", "3", "-j", "1", "-q", "--json", json_name,
                 "--html", html_name)
    assert result.exit_code == 1
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "the same file" in lines[0] and "--json" in lines[0] \
        and "--html" in lines[0]
    assert not (tmp_path / "out").exists()


def test_same_file_through_a_symlink(tmp_path: Path) -> None:
    """A link to the JSON file given as the chart page is the same file."""
    target = tmp_path / "r.json"
    target.write_text("{}", encoding="utf-8")
    link = tmp_path / "r.html"
    link.symlink_to(target)
    with pytest.raises(PnpError, match="the same file"):
        sim._check_distinct({"--json": target, "--html": link})
    sim._check_distinct({"--json": target, "--html": tmp_path / "other.html"})
    sim._check_distinct({"--json": Path("-"), "--html": None})


# -- 3. card keys with readable labels --------------------------------------------------


def test_fortuna_keys_read_as_icon_names(tmp_path: Path) -> None:
    """Fortuna's ``5W`` is "5 Wheat (5W)" in the text, the JSON (label beside the key)
    and the chart page; the wheel is R, never W."""
    out, page = tmp_path / "r.json", tmp_path / "r.html"
    result = run("simulate", "fortuna", "-n", "40", "-j", "1", "-q", "--json", str(out),
                 "--html", str(page))
    assert result.exit_code == 0, result.output
    rows = json.loads(out.read_text(encoding="utf-8"))["findings"]["cards"]
    played = {r["name"]: r["label"] for r in rows if r["group"] == "played"}
    assert played["5W"] == "5 Wheat (5W)"
    assert played["3R"] == "3 Wheel (3R)"
    assert played["1B"] == "1 Lightning (1B)"
    assert played["2G"] == "2 Goddess (2G)"
    assert all(r["key"] == f"{r['group']}:{r['name']}" for r in rows)
    text = result.stdout
    shown = [r for r in rows if r["group"] == "played" and f"    {r['label']} " in text]
    assert shown, text
    assert any(f">{r['label']}<" in page.read_text(encoding="utf-8") for r in shown)
    # keys without a label of their own keep their name
    assert {r["label"] for r in rows if r["group"] == "set value"} == \
        {r["name"] for r in rows if r["group"] == "set value"}


@pytest.mark.parametrize("slug, group, name, label", [
    ("nine_peak", "played", "5S", "5 silk hat (5S)"),
    ("nine_peak", "played", "3P", "3 persona (3P)"),
    ("undecim", "settled", "鉄", "iron (鉄)"),
    ("undecim", "main land", "沼地", "swamp (沼地)"),
    ("fortune_clover", "paid by", "Black Cat", "Black Cat (F08)"),
])
def test_every_game_labels_its_keys(slug: str, group: str, name: str, label: str) -> None:
    """Each game's stats name its card keys in English (the report's language)."""
    from pnp import PROJECT_ROOT
    from pnp.data import load_game_data
    from pnp.games.registry import game_entry, make_game

    entry = game_entry(slug)
    game = make_game(load_game_data(PROJECT_ROOT / "card_data", slug, strict=True))
    assert entry.stats is not None
    stats = entry.stats(game, type(game).max_players)
    assert stats.card_label(f"{group}:{name}") == label
    assert stats.card_label("rule:no such key") is None


def test_card_table_label_hook() -> None:
    """card_table asks the hook per key and falls back to the name."""
    cards = {"played:5W": [40, 10.0, 400.0, 4400.0], "played:X": [40, 10.0, 400.0, 4400.0]}
    rows = card_table(cards, 4, label={"played:5W": "5 Wheat (5W)"}.get)
    assert {r["name"]: r["label"] for r in rows} == {"5W": "5 Wheat (5W)", "X": "X"}


# -- 4. axis ticks and clipped intervals --------------------------------------------------


def _overlaps(ticks: list[float], lo: float, hi: float, width: float, fmt: Any) -> bool:
    """Whether two tick labels, at the estimated width, would touch."""
    boxes = sorted(((v - lo) / (hi - lo) * width, len(fmt(v)) * CHAR_EM * 13 / 2)
                   for v in ticks)
    return any(b[0] - a[0] < a[1] + b[1] + LABEL_GAP for a, b in zip(boxes, boxes[1:]))


def test_ticks_never_overlap() -> None:
    """-0.20 beside 0.00 on a 0–4 axis printed "-0.20.00": the near-zero end is dropped,
    0 and the far end are kept; wide axes keep all three."""
    fmt = lambda v: _fmt(v, False)  # noqa: E731
    assert axis_ticks(-0.2, 4.0, 460, fmt) == [0.0, 4.0]
    assert axis_ticks(-2.0, 4.0, 460, fmt) == [-2.0, 0.0, 4.0]
    assert axis_ticks(0.0, 1.0, 460, lambda v: _fmt(v, True)) == [0.0, 0.5, 1.0]
    for lo in (-0.05, -0.1, -0.2, -0.5, -1.0, -2.0, -5.0, 0.0):
        for hi in (0.1, 0.5, 1.0, 4.0, 25.0, 250.0):
            for width in (120, 300, 460):
                for pct in (False, True):
                    f = lambda v: _fmt(v, pct)  # noqa: E731
                    ticks = axis_ticks(lo, hi, width, f)
                    assert ticks and not _overlaps(ticks, lo, hi, width, f), (lo, hi, width)


def test_intervals_clipped_to_the_possible_range() -> None:
    """A count's interval stops at 0; a share's at 100 %; the mean never moves."""
    assert clip_to_range(-0.18, 2.18, 0.0) == (0.0, 2.18)
    assert clip_to_range(0.5, 1.07, 0.0, 1.0) == (0.5, 1.0)
    assert clip_to_range(-3.0, 5.0) == (-3.0, 5.0)
    assert clipped(None, None, (0.0, None)) == (None, None)
    # a card row's mean return (VP) from two games of 0 and 70 VP
    cards = {"played:A": [2, 1.0, 70.0, 4900.0]}
    row = card_table(cards, 4, score_range=(0.0, None))[0]
    assert row["score_ci_low"] == 0.0 and row["score_ci_high"] > 70
    open_row = card_table(cards, 4)[0]
    assert open_row["score_ci_low"] < 0


def test_report_clips_seat_and_card_intervals(tmp_path: Path) -> None:
    """fortuna -n 5: no seat's or card's VP interval, and no 第2話 spoils interval, below 0."""
    for slug in ("fortuna", "episode2"):
        out = tmp_path / f"{slug}.json"
        result = run("simulate", slug, "-n", "5", "-j", "1", "-q", "--json", str(out))
        assert result.exit_code == 0, result.output
        rep = json.loads(out.read_text(encoding="utf-8"))
        lows = [s["score_ci_low"] for s in rep["seats"]]
        lows += [r["score_ci_low"] for r in rep["findings"]["cards"]]
        lows += [r["group_score_ci_low"] for r in rep["findings"]["cards"]]
        assert all(v is None or v >= 0 for v in lows), slug
        assert "(-" not in result.stdout.split("Rules:")[0], slug
        if slug == "episode2":
            fig = rep["game_figures"]["figures"]
            assert fig["spoils"]["low"] >= 0 and fig["hp_end"]["low"] >= 0
            assert fig["spoils"]["high"] <= 12


# -- 5. an interval beside its figure ---------------------------------------------------------


def test_episode2_game_over_interval_sits_by_its_figure(tmp_path: Path) -> None:
    """"14.4 % (95 % 12.4–16.7 %) end in game over", not "… end in game over (95 % …)"."""
    result = run("simulate", "episode2", "-n", "50", "-j", "1", "-q")
    assert result.exit_code == 0, result.output
    line = next(x for x in result.stdout.splitlines() if "end in game over" in x)
    assert line.rstrip().endswith("% (95 % " + line.split("(95 % ")[1].split(")")[0]
                                  + ") end in game over.")


def test_undecim_campaign_sentence_interval_by_its_figure() -> None:
    """The campaign sentence puts the interval after the share, not after the luck share."""
    from pnp.games.undecim.stats import UndecimStats

    stats = UndecimStats.__new__(UndecimStats)
    stats.num_players = 4
    season = {"season": 1, "winner_wins_campaign": {"rate": 0.4, "low": 0.35, "high": 0.45},
              "vp": {"mean": 60.0, "low": 59.0, "high": 61.0},
              "vp_by_source": {"campaign_start": 0.0}}
    last = {**season, "season": 3}
    said = stats.finding_sentences({"seasons": [season, last]})
    assert said[0].startswith("The winner of season 1 goes on to win the campaign in 40.0 % "
                              "(95 % 35.0–45.0 %) of campaigns, where 25.0 % would be luck")


# -- 6. parameters as the command line takes them -----------------------------------------------


def test_parameters_printed_as_the_cli_takes_them() -> None:
    """yes/no, not True/False; an empty text parameter is named as the default."""
    assert param_value(True) == "yes" and param_value(False) == "no"
    assert param_value(7) == "7"
    assert params_text({"all_in": True, "end_deck_size": 7}) == "all_in=yes, end_deck_size=7"
    assert params_text({"campaign": False, "story": ""}) == \
        "campaign=no; story not set (the game's default)"
    assert params_text({}) == "defaults"


def test_undecim_report_parameters_line() -> None:
    """The report's Parameters line of Undecim reads as a command line would set it."""
    result = run("simulate", "undecim", "-n", "2", "-j", "1", "-q")
    assert result.exit_code == 0, result.output
    line = next(x for x in result.stdout.splitlines() if x.startswith("Parameters:"))
    assert line == "Parameters: campaign=no, mulligan=yes; story not set (the game's default)"


# -- 7. no zero-width intervals left in the sweep and comparison -------------------------------


def test_sweep_cells_without_interval() -> None:
    """A figure with null bounds reads "(all alike)", never "(6.00–6.00)"."""
    assert figure_cell({"name": "mean_red_moon_nights", "value": 2.0, "low": None,
                        "high": None}) == "  2.00 (all alike)"
    assert figure_cell({"name": "game_over", "value": 0.144, "low": 0.124,
                        "high": 0.167}) == " 14.4% (12.4–16.7)"


def test_sweep_and_compare_write_no_zero_width_interval(tmp_path: Path) -> None:
    """Undecim's Red Moon Nights are 2 in every one of a few games: the sweep's JSON
    has null bounds, its table and the comparison's own-figure line say so."""
    out = tmp_path / "s.json"
    result = run("simulate", "undecim", "-n", "3", "-j", "1", "-q", "--sweep",
                 "mulligan=yes,no", "--json", str(out))
    assert result.exit_code == 0, result.output
    doc = json.loads(out.read_text(encoding="utf-8"))
    for row in doc["rows"]:
        for f in row["figures"]:
            assert f["low"] is None or f["high"] - f["low"] > 1e-6, f
    nights = [f for r in doc["rows"] for f in r["figures"]
              if f["name"] == "mean_red_moon_nights"]
    assert any(f["low"] is None for f in nights)
    assert "(all alike)" in result.stdout
    result = run("simulate", "undecim", "-n", "3", "-j", "1", "-q", "--compare", "mulligan=no")
    assert result.exit_code == 0, result.output
    line = next(x for x in result.stdout.splitlines() if "mean Red Moon Nights per game" in x)
    assert "(every game alike: no interval)" in line
    assert "(2–2)" not in line


def test_wide_labels_keep_the_columns() -> None:
    """A kanji takes two terminal columns: "iron (鉄)" is padded as 9 wide, so the
    seat-game counts after it line up with those after English labels."""
    from pnp.sim.findings import pad, text_width

    assert text_width("iron (鉄)") == 9 and text_width("swamp (沼地)") == 12
    assert text_width(pad("iron (鉄)", 22)) == text_width(pad("grassland", 22)) == 22

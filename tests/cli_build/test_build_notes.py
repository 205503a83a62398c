"""`pnp build` says how much bleed the sheets got in one line per preset; -v per file.

A default build printed some thirty per-deck bleed lines before the
"wrote" lines, which read as noise.
"""

from __future__ import annotations

import re
from pathlib import Path

from click.testing import CliRunner

from pnp import PROJECT_ROOT
from pnp.builder.decks import BleedNote, bleed_summary
from pnp.cli import main

DATA = PROJECT_ROOT / "card_data"
#: A per-file detail line: "note: <game>/<stem> [<preset>]: ...".
DETAIL = re.compile(r"^note: [a-z0-9_]+/[a-z0-9_-]+ \[([a-z0-9-]+)\]: ")


def note(profile: str, short: int, edges: int, better: str | None = None) -> BleedNote:
    """A bleed note with just the figures the summary reads."""
    return BleedNote(profile, "detail", short, edges, 2.0, better)


def test_summary_is_one_line_per_profile_in_first_seen_order() -> None:
    lines = bleed_summary([note("home-a4", 4, 36, "home-a4-bleed"), note("tgc-like", 0, 8),
                           note("home-a4", 0, 8, "home-a4-bleed"),
                           note("home-a4", 2, 12, "home-a4-bleed")])
    assert lines == [
        "home-a4: 2 of 3 sheet file(s) have cut edges under 2 mm of bleed (6 of 56 edges); "
        "--preset home-a4-bleed gives every edge 2 mm (-v: each file's layout and bleed)",
        "tgc-like: every cut edge of the 1 sheet file(s) has at least 2 mm of bleed "
        "(-v: each file's layout)"]
    # no preset to suggest (a user's profile): the clause is left out, not "None"
    (line,) = bleed_summary([note("mine", 1, 4)])
    assert "--preset" not in line and "None" not in line
    assert bleed_summary([]) == []


def _build(tmp_path: Path, *extra: str) -> list[str]:
    """Build nine_peak for two home presets; return the output lines."""
    result = CliRunner().invoke(main, ["build", "nine_peak", "--no-rulebook", "-q",
                                       "--preset", "home-a4", "--preset", "home-a4-bleed",
                                       "--out", str(tmp_path), "--data-dir", str(DATA),
                                       *extra])
    assert result.exit_code == 0, result.output
    return result.output.splitlines()


def test_default_build_prints_one_bleed_note_per_preset(tmp_path: Path) -> None:
    lines = _build(tmp_path / "quiet")
    notes = [line for line in lines if line.startswith("note: ")]
    assert not any(DETAIL.match(line) for line in notes)
    assert len(notes) == 2
    short, fine = notes
    assert re.fullmatch(r"note: home-a4: \d+ of \d+ sheet file\(s\) have cut edges under 2 mm "
                        r"of bleed \(\d+ of \d+ edges\); --preset home-a4-bleed gives every "
                        r"edge 2 mm \(-v: each file's layout and bleed\)", short), short
    assert fine.startswith("note: home-a4-bleed: every cut edge of the ")


def test_verbose_prints_each_file_and_the_summary_adds_up(tmp_path: Path) -> None:
    quiet = [line for line in _build(tmp_path / "q") if line.startswith("note: home-a4: ")]
    loud = _build(tmp_path / "v", "-v")
    details = [line for line in loud if DETAIL.match(line)]
    a4 = [line for line in details if "[home-a4]" in line]
    # one line per sheet file of each preset: the files the build wrote, calibration aside
    written = {line.split("/")[-1] for line in loud
               if line.startswith("wrote ") and "calibration" not in line}
    assert len(a4) == len([n for n in written if n.endswith("-a4.pdf")])
    assert len(details) == len(written)
    assert not any(line.startswith("note: home-a4: ") for line in loud)
    # the summary's figures are the sums of the details'
    shorts = [re.search(r"(\d+) of (\d+) edges under", line) for line in a4]
    files = sum(1 for m in shorts if m)
    edges_short = sum(int(m.group(1)) for m in shorts if m)
    (summary,) = quiet
    assert f": {files} of {len(a4)} sheet file(s)" in summary
    assert f"({edges_short} of " in summary

"""Benchmark the edit loop and the build (issue 10): prints one figure per line.

Run:  .venv/bin/python benchmarks/edit_loop.py [--repeat 5] [--big 2500] [--baseline DIR]

- preview: `pnp preview fortuna reel reel-5-bolt` as a whole process: the
  first run (cold caches; it draws the card itself and starts the preview
  server), later runs (answered by that server; best, median and worst),
  ``--no-server`` with warm caches (compiled templates and font tables
  cached: the in-process figure), the same with pnp's own modules compiled
  from source on every run (no bytecode cache: what an editable install
  does under PYTHONDONTWRITEBYTECODE=1), and while `pnp watch fortuna` runs
  (the watcher draws the card);
- watch: time from a saved CSV change to the changed card's preview, and to
  its contact sheet and print sheet, in the watcher;
- build: whole-process `pnp build` of every game (home-a4, no rulebooks) in
  ms per printed face, against a bare ReportLab script drawing the same
  number of simple card faces (a rectangle, a circle, two lines of text),
  with cold caches (a fresh cache folder per run), with cold build caches
  but compiled templates and fonts kept (what writing the build caches
  costs), with the build caches off, with warm caches (every sheet file
  written from the sheet cache) and warm after a one-card edit (that deck's
  sheet drawn, the rest written from the sheet cache), all interleaved with
  the bare script; then the default `pnp build` (rulebooks too) warm and
  after the same edit, in wall and CPU milliseconds;
- memory: peak RSS of `pnp build` of a generated game with N (``--big``)
  distinct cards, and of one whose faces also draw eight distinct
  100-segment paths each.

Wall times on a shared machine swing with its load, so every figure is the
best of --repeat runs and CPU time (user + system) is printed beside it.
Targets: preview ≤ 150 ms, build ≤ 2x bare ReportLab per face (CPU), ≤ 150 MB
at 2,500 distinct cards. ``--parts preview`` (or watch, build, memory) runs only
those. ``--baseline DIR`` runs the build and memory lines of a second copy of pnp's code too
(``git archive OLD | tar -x -C DIR``), each run right after the same run of
this checkout's code: a before/after comparison under the same load.
Python's bytecode cache is on for the pnp child processes (as for any
installed package) except in the line that says otherwise.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
PY = sys.executable
PNP = [PY, "-m", "pnp.cli"]

BARE = r"""
import sys
from reportlab.pdfgen.canvas import Canvas
from reportlab.lib.units import mm
n, out = int(sys.argv[1]), sys.argv[2]
c = Canvas(out, pagesize=(595.27, 841.89), invariant=1)
for first in range(0, n, 18):
    for side in range(2):
        for k in range(min(9, (n - first + 1) // 2)):
            x, y = 10.5 * mm + (k % 3) * 63 * mm, 10 * mm + (k // 3) * 88 * mm
            c.setFillColorRGB(0.95, 0.9, 0.8) if side == 0 else c.setFillColorRGB(0.1, 0.2, 0.3)
            c.rect(x, y, 63 * mm, 88 * mm, stroke=0, fill=1)
            c.setFillColorRGB(0.4, 0.3, 0.1)
            c.circle(x + 31.5 * mm, y + 44 * mm, 6 * mm, stroke=1, fill=1)
            c.setFont("Helvetica", 9)
            c.drawString(x + 6 * mm, y + 70 * mm, f"Card {first + k}")
            c.drawString(x + 6 * mm, y + 20 * mm, "Draw two cards, gain a star.")
        c.showPage()
c.save()
"""


def timed(cmd: list[str], cwd: Path, env: dict[str, str] | None = None) -> tuple[float, float, str]:
    """Run ``cmd``; return (wall seconds, CPU seconds of the child, stdout)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    done = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(cmd)} failed:\n{done.stdout}{done.stderr}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, done.stdout


def best(runs: list[tuple[float, float, str]]) -> tuple[float, float]:
    """The fastest wall time of several runs, with its CPU time."""
    wall, cpu, _ = min(runs, key=lambda r: r[0])
    return wall, cpu


def env_with(cache: Path, code: Path = ROOT) -> dict[str, str]:
    """The environment of a child: pnp's code from ``code`` first, our own cache folder."""
    env = dict(os.environ, PNP_CACHE_DIR=str(cache), PYTHONPATH=str(code))
    env.pop("PYTHONDONTWRITEBYTECODE", None)     # measure as users run it
    return env


def _row(label: str, run: tuple[float, float], note: str) -> str:
    """One figure: label, wall and CPU milliseconds, a note."""
    return f"{label:<30}{run[0] * 1000:6.0f} ms wall  {run[1] * 1000:5.0f} ms CPU   ({note})"


def _server_files(work: Path, cache: Path) -> Any:
    """The preview server files `pnp preview` uses in ``work`` with the benchmark's options."""
    sys.path.insert(0, str(ROOT))
    from pnp.builder import serve

    old = os.environ.get("PNP_CACHE_DIR")
    os.environ["PNP_CACHE_DIR"] = str(cache)
    try:
        return serve.server_files([str(work), None, str(ROOT / "card_data"),
                                   str(ROOT / "templates")])
    finally:
        if old is None:
            del os.environ["PNP_CACHE_DIR"]
        else:
            os.environ["PNP_CACHE_DIR"] = old


def _status(files: Any) -> dict[str, Any] | None:
    """The preview server's status (pid, requests served), or None if none answers."""
    from pnp.builder import serve

    answer = serve.exchange({"op": "status", "where": files.where}, files.socket)
    return answer if answer is not None and "pid" in answer else None


def _wait_for_server(files: Any) -> bool:
    """Wait (up to 30 s) until the preview server answers; False if it never does."""
    for _ in range(600):
        if _status(files) is not None:
            return True
        time.sleep(0.05)
    return False


def preview(tmp: Path, repeat: int) -> None:
    """Whole-process preview of one card: first run, served runs, in-process, with a watcher."""
    cache = tmp / "cache"
    work = tmp / "work"
    work.mkdir()
    args = PNP + ["preview", "fortuna", "reel", "reel-5-bolt", "--data-dir",
                  str(ROOT / "card_data"), "--templates-dir", str(ROOT / "templates")]
    stop = PNP + ["preview", "--stop-server", "--data-dir", str(ROOT / "card_data"),
                  "--templates-dir", str(ROOT / "templates")]
    env = dict(env_with(cache), PNP_PREVIEW_SERVER="1")
    timed(args + ["--no-server"], work, env)    # writes pnp's bytecode cache if it was missing
    shutil.rmtree(cache, ignore_errors=True)
    unix = hasattr(socket, "AF_UNIX")
    files = _server_files(work, cache) if unix else None
    # the first run: cold caches, draws the card itself, then starts the server
    first = timed(args, work, env)
    if files is not None and not _wait_for_server(files):
        raise SystemExit("the preview server did not start; see its log in "
                         f"{cache / 'preview-server'}")
    # Served runs, in-process runs and the bare start-up are interleaved, one
    # of each per round, so that the machine's load swings hit all three alike.
    served_runs, warm_runs, floor_runs = [], [], []
    before = _status(files) if files is not None else None
    for _ in range(repeat):
        if files is not None:
            served_runs.append(timed(args, work, env))
        warm_runs.append(timed(args + ["--no-server"], work, env))
        # what any pnp command costs before it does anything: Python, click, pnp.cli
        floor_runs.append(timed(PNP + ["--version"], work, env))
    status = _status(files) if files is not None else None
    timed(stop, work, env)
    warm, floor = best(warm_runs), best(floor_runs)
    # pnp's modules with no bytecode cache: a copy of the package without
    # __pycache__ folders, first on the path, and none written
    source = tmp / "source"
    shutil.copytree(ROOT / "pnp", source / "pnp",
                    ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    no_pyc = dict(env, PYTHONPATH=str(source), PYTHONDONTWRITEBYTECODE="1")
    compiled = best([timed(args + ["--no-server"], work, no_pyc) for _ in range(repeat)])
    print(_row("preview, first run", first[:2],
               "cold caches; draws the card, then starts the preview server"))
    if served_runs:
        walls = sorted(r[0] for r in served_runs)
        drawn = status.get("served", 0) if status else 0
        print(_row("preview, later runs (server)", best(served_runs),
                   f"CPU in the client; target 150 ms; median "
                   f"{walls[len(walls) // 2] * 1000:.0f} ms, worst {walls[-1] * 1000:.0f} ms "
                   f"of {len(walls)}; {drawn} drawn by the last server, others cold after "
                   "a change to pnp's code"))
        if before and status and status["pid"] == before["pid"] and drawn:
            # CPU does not wait for other processes: client + server CPU is what
            # a served preview costs on an idle machine, whatever the load now
            server_cpu = (status["cpu"] - before["cpu"]) / drawn
            client_cpu = min(r[1] for r in served_runs)
            print(f"{'  CPU per served preview':<30}{(client_cpu + server_cpu) * 1000:6.0f} ms"
                  f"       (client {client_cpu * 1000:.0f} ms best + server "
                  f"{server_cpu * 1000:.0f} ms mean: the wall time on an idle machine)")
    print(_row("pnp --version (start-up)", floor,
               "the floor of any pnp process: Python, click, pnp.cli"))
    print(_row("preview, --no-server, warm", warm, "in-process: warm caches, no server"))
    print(_row("preview, --no-server, source", compiled,
               "no bytecode cache for pnp's own modules"))
    if not unix:
        return
    watch = subprocess.Popen(PNP + ["watch", "fortuna", "--no-pdf", "--data-dir",
                                    str(ROOT / "card_data"), "--templates-dir",
                                    str(ROOT / "templates")],
                             cwd=work, env=env, stdout=subprocess.PIPE, text=True)
    try:
        assert watch.stdout is not None
        for line in watch.stdout:            # wait for the first build to finish
            if "reel-sheet.png" in line or "aid-sheet.png" in line:
                break
        # (the watcher is asked before the server; none is started while it answers)
        by_watch = best([timed(args, work, env) for _ in range(repeat)])
    finally:
        watch.terminate()
        watch.wait()
    timed(stop, work, env)               # in case the watcher declined and one started
    print(_row("preview, `pnp watch` runs", by_watch, "CPU in the client; target 150 ms"))


def watch_latency(tmp: Path, repeat: int) -> None:
    """In the watcher: a saved CSV row to its preview, contact sheet and print sheet."""
    sys.path.insert(0, str(ROOT))
    from pnp.builder.watch import Watcher

    data = tmp / "data"
    shutil.copytree(ROOT / "card_data" / "fortune_clover", data / "fortune_clover")
    w = Watcher("fortune_clover", data_dir=data, templates_dir=ROOT / "templates",
                out_dir=tmp / "wout", dpi=150, pdf=True, echo=lambda line: None)
    w.rebuild()
    table = data / "fortune_clover" / "fortune.csv"
    text = table.read_text(encoding="utf-8")
    times: list[list[float]] = []
    for i in range(repeat):
        table.write_text(text.replace("4枚しかないので", f"4枚しかないので{'。' * (i % 2)}", 1),
                         encoding="utf-8")
        t0 = time.perf_counter()
        lines = w.rebuild({table})
        total = time.perf_counter() - t0
        marks = [float(line.rsplit("[", 1)[1].split()[0]) for line in lines if "ms]" in line]
        times.append(marks + [total * 1000])
    first = min(t[0] for t in times)
    last = min(t[-1] for t in times)
    print(f"watch, CSV row -> preview   {first:6.0f} ms   (contact sheet and print sheet "
          f"done at {last:.0f} ms)   (target 150 ms)")


#: Eight 100-segment paths that differ on every card (their points come from
#: the card's number): what the renderer's memos of shapes and paths keep.
DISTINCT_PATHS = """{% for k in range(8) %}
  <path d="M 1 1{% for j in range(100) %} L {{ 1 + (card.n * 8 + k + j) % 60 }}.{{ j % 10 }} \
{{ 1 + (j * 3) % 85 }}.{{ (card.n * 8 + k) % 997 }}{% endfor %} Z" fill="none" stroke="#6b4f1d" \
stroke-width="0.2"/>{% endfor %}
"""


def make_game(folder: Path, n: int, paths: bool = False) -> tuple[Path, Path]:
    """A generated game of ``n`` distinct cards: (data folder, templates folder).

    ``paths``: each face also draws :data:`DISTINCT_PATHS` (the memory case
    of long shapes that are never the same twice).
    """
    data = folder / "card_data" / "scale"
    data.mkdir(parents=True)
    (data / "manifest.toml").write_text(f"""[game]
slug = "scale"
title = "Scale"
players = [2, 4]
[components.cards]
name = "Cards"
kind = "card"
size = "poker"
count = {n}
table = "cards.csv"
face = "scale/face.xml.j2"
back = "scale/back.xml.j2"
[components.cards.columns]
id = {{ type = "id" }}
n = {{ type = "int", min = 1, max = 1000000 }}
name = {{ type = "str" }}
text = {{ type = "text" }}
qty = {{ type = "qty" }}
""", encoding="utf-8")
    rows = ["id,n,name,text,qty"] + [
        f"c{i},{i},カード{i},このカードを出したら{i % 7 + 1}枚引く。{{icon:star}}を{i % 5 + 1}つ得る。"
        f"Card {i} draws cards.,1" for i in range(1, n + 1)]
    (data / "cards.csv").write_text("\n".join(rows) + "\n", encoding="utf-8")
    templates = folder / "templates"
    shutil.copytree(ROOT / "templates" / "common", templates / "common")
    (templates / "scale").mkdir()
    (templates / "scale" / "face.xml.j2").write_text("""{% import "common/macros.xml.j2" as m %}
<card width="{{ width }}" height="{{ height }}" bleed="3mm">
  <background fill="linear-gradient(180deg, #f4ead5, #e0d0b0)"/>
  {{ m.frame("#6b4f1d") }}
  {{ m.title_bar(card.name, y=5) }}
  {{ m.badge(9, 20, 4.5, card.n % 100) }}
  <icon name="bolt" x="21.5" y="18" width="20" height="20" color="#6b4f1d"/>
  <circle cx="31.5" cy="48" r="6" fill="#c9a227" stroke="#6b4f1d" stroke-width="0.4"/>
  {{ m.rules(card.text, y=58, height=24, min_size=6.5) }}
""" + (DISTINCT_PATHS if paths else "") + """</card>
""", encoding="utf-8")
    (templates / "scale" / "back.xml.j2").write_text("""<card width="{{ width }}" height="{{ height }}" bleed="3mm">
  <background fill="#203040"/>
  <icon name="star" x="16.5" y="29" width="30" height="30" color="#c9a227"/>
</card>
""", encoding="utf-8")
    return folder / "card_data", templates


def peak_mb(cmd: list[str], cwd: Path, env: dict[str, str]) -> tuple[float, float]:
    """(peak RSS in MB, wall seconds) of a child process."""
    script = ("import resource, subprocess, sys, time; t = time.perf_counter(); "
              "subprocess.run(sys.argv[1:], check=True, stdout=subprocess.DEVNULL); "
              "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024, "
              "time.perf_counter() - t)")
    out = subprocess.run([PY, "-c", script, *cmd], cwd=cwd, env=env, capture_output=True,
                         text=True, check=True).stdout.split()
    return float(out[0]), float(out[1])


def in_turn(codes: list[tuple[str, Path]], round_no: int) -> list[tuple[int, tuple[str, Path]]]:
    """``enumerate(codes)``, reversed every other round.

    Running the baseline always second would always give it the page cache
    the same build just warmed, and the same phase of any load swing: a bias
    that best-of-N does not remove.
    """
    order = list(enumerate(codes))
    return order if round_no % 2 == 0 else order[::-1]


def build(tmp: Path, repeat: int, baseline: Path | None = None) -> None:
    """Build time per face against bare ReportLab (cold and warm caches).

    Four kinds of `pnp build` run interleaved with the bare script, one of
    each per round, so that the machine's load swings hit all of them alike:

    - cold: a fresh cache folder per run (fonts parsed, templates compiled,
      every card laid out and every font subset made);
    - build caches off (``PNP_BUILD_CACHE=0``) with warm font and template
      caches: what earlier sessions measured as "the" build;
    - warm: every cache filled by an earlier build of the same inputs (the
      edit loop's rebuild when nothing that shapes a card changed: every
      sheet file comes from the sheet cache);
    - warm with one card edited: a different text on one card each round (a
      copy of the data), the edit loop's usual rebuild (only that deck's
      sheet file is drawn).

    ``baseline``: another copy of pnp's code (e.g. ``git archive`` of an older
    commit, unpacked); its builds run in the same rounds, right after or
    right before the same build of this checkout's code (the order turns
    each round: :func:`in_turn`), with caches of its own, and are printed
    below them (the same data and templates, this checkout's).
    """
    # a copy of the data whose one card (a Fortune Clover fortune) changes every round
    edited = tmp / "card_data"
    shutil.copytree(ROOT / "card_data", edited)
    table = edited / "fortune_clover" / "fortune.csv"
    text = table.read_text(encoding="utf-8")
    codes = [("", ROOT)] + ([(" (baseline)", baseline.resolve())] if baseline else [])

    def run(code: Path, out: Path, cache: Path, data: Path = ROOT / "card_data",
            rulebooks: bool = False, **extra: str) -> tuple[float, float, str]:
        # run in the code's folder: `python -m` puts the working folder first on the path
        return timed(PNP + ["build", "--out", str(out), "--data-dir", str(data),
                            "--templates-dir", str(ROOT / "templates"), "-q"]
                     + ([] if rulebooks else ["--no-rulebook"]), code,
                     dict(env_with(cache, code), **extra))

    faces = _faces(tmp / "build-prime")
    for k, (_, code) in enumerate(codes):
        c = tmp / f"code{k}"
        run(code, c / "build-prime", c / "cache-warm")    # fills the warm cache (and bytecode)
        run(code, c / "build-prime", c / "cache-rest", PNP_BUILD_CACHE="0")
        run(code, c / "build-prime", c / "cache-edit", edited)
        # the default `pnp build` (rulebooks too), warm, and warm after the same card edit
        run(code, c / "build-prime", c / "cache-books", rulebooks=True)
        run(code, c / "build-prime", c / "cache-books-edit", edited, rulebooks=True)
    kinds = ("cold", "cold_build", "off", "warm", "edit", "books", "books_edit")
    runs: dict[tuple[int, str], list[tuple[float, float, str]]] = {
        (k, kind): [] for k in range(len(codes)) for kind in kinds}
    bare = []
    for i in range(repeat):
        for kind in ("cold", "cold_build", "off", "warm", "books"):
            for k, (_, code) in in_turn(codes, i):
                c = tmp / f"code{k}"
                if kind == "cold":
                    done = run(code, c / f"build-cold{i}", c / f"cache-cold{i}")
                elif kind == "cold_build":
                    # the build caches cold, compiled templates and fonts kept (as for "off")
                    shutil.copytree(c / "cache-rest", c / f"cache-cb{i}")
                    done = run(code, c / f"build-cb{i}", c / f"cache-cb{i}")
                elif kind == "off":
                    done = run(code, c / f"build-off{i}", c / "cache-rest", PNP_BUILD_CACHE="0")
                elif kind == "warm":
                    done = run(code, c / f"build-warm{i}", c / "cache-warm")
                else:
                    done = run(code, c / f"build-books{i}", c / "cache-books", rulebooks=True)
                runs[(k, kind)].append(done)
        table.write_text(text.replace("4枚しかないので", f"4枚しかないので{'。' * (i + 1)}", 1),
                         encoding="utf-8")
        for k, (_, code) in in_turn(codes, i):
            c = tmp / f"code{k}"
            runs[(k, "edit")].append(run(code, c / f"build-edit{i}", c / "cache-edit", edited))
        for k, (_, code) in in_turn(codes, i):
            c = tmp / f"code{k}"
            runs[(k, "books_edit")].append(run(code, c / f"build-books-edit{i}",
                                               c / "cache-books-edit", edited, rulebooks=True))
        bare.append(timed([PY, "-c", BARE, str(faces), str(tmp / "bare.pdf")], tmp,
                          env_with(tmp / "cache-bare")))
    bare_cpu = min(r[1] for r in bare)
    print(f"build, every game: {faces} printed faces; CPU per face, best of {repeat} "
          f"(wall of the same run)")
    print(f"  bare ReportLab, same faces  {bare_cpu * 1000 / faces:.3f} ms CPU   "
          f"({min(r[0] for r in bare) * 1000 / faces:.2f} ms wall)")
    for kind, label in (("cold", "pnp, cold caches"), ("cold_build", "pnp, cold build caches"),
                        ("off", "pnp, build caches off"), ("warm", "pnp, warm caches"),
                        ("edit", "pnp, warm, one card edited")):
        for k, (tag, _) in enumerate(codes):
            cpu = min(r[1] for r in runs[(k, kind)])
            wall = min(r[0] for r in runs[(k, kind)])
            print(f"  {label + tag:<38} {cpu * 1000 / faces:.3f} ms CPU   ({wall * 1000 / faces:.2f} "
                  f"ms wall)  -> pnp/bare {cpu / bare_cpu:.1f}x CPU (target <= 2x)")
    print("  (cold: a fresh cache folder per run; cold build caches: the same, but with the "
          "compiled templates and fonts of the caches-off line; caches off: PNP_BUILD_CACHE=0 "
          "with fonts and compiled templates cached; warm: every cache filled by an earlier "
          "build; one card edited: warm, after a new text on one Fortune Clover card)")
    for kind, label in (("books", "pnp build (rulebooks too), warm"),
                        ("books_edit", "the same, one card edited")):
        for k, (tag, _) in enumerate(codes):
            kept = runs[(k, kind)]
            print(f"  {label + tag:<44} {min(r[0] for r in kept) * 1000:6.0f} ms wall  "
                  f"{min(r[1] for r in kept) * 1000:6.0f} ms CPU")
    print("  (the default `pnp build`: every game's sheets and its two rulebooks; the edit "
          "typesets the edited game's rulebooks again)")


def memory(tmp: Path, big: list[int], baseline: Path | None = None) -> None:
    """Peak RSS of `pnp build` of generated games of ``big`` distinct cards.

    Two games per size: plain distinct cards, and cards whose every face also
    draws eight distinct 100-segment paths (what the renderer's memos of
    shapes and paths, and the drawn forms, hold). Each build starts with an
    empty cache folder of its own, so every layout is made and every sheet
    kept in the sheet cache. ``baseline``: the same builds with that copy
    of pnp's code, right after each of this checkout's (same data).
    """
    codes = [("", ROOT)] + ([(" (baseline)", baseline.resolve())] if baseline else [])
    for n, paths in [(n, paths) for n in big for paths in (False, True)]:
        folder = tmp / f"g{n}{'-paths' if paths else ''}"
        data, templates = make_game(folder, n, paths)
        what = "distinct cards" + (", 8 distinct 100-segment paths each" if paths else "")
        for k, (tag, code) in enumerate(codes):
            cache = tmp / f"cache-memory-{folder.name}-{k}"
            mb, wall = peak_mb(PNP + ["build", "scale", "--no-rulebook", "-q", "--out",
                                      str(folder / f"out{k}"), "--data-dir", str(data),
                                      "--templates-dir", str(templates)], folder,
                               env_with(cache, code))
            shutil.rmtree(cache, ignore_errors=True)
            print(f"memory, {n:5d} {what}{tag} {mb:6.1f} MB peak, {wall:.1f} s "
                  f"({2 * n} faces){'   (target 150 MB)' if n == 2500 else ''}")


def _faces(out: Path) -> int:
    """Printed faces of a default build: front and back of every physical piece."""
    sys.path.insert(0, str(ROOT))
    from pnp.builder.cards import component_rows
    from pnp.builder.decks import BuildOptions, load_for_build

    options = BuildOptions(data_dir=ROOT / "card_data", templates_dir=ROOT / "templates")
    return 2 * sum(r.qty for game in load_for_build([], options) for c in options.kit(game)
                   for r in component_rows(game, c))


def main() -> None:
    """Print every figure."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--big", type=int, nargs="*", default=[500, 2500])
    parser.add_argument("--parts", default="preview,watch,build,memory",
                        help="comma-separated: preview, watch, build, memory")
    parser.add_argument("--baseline", type=Path, default=None, metavar="DIR",
                        help="build and memory: also run the pnp code in DIR (e.g. `git "
                             "archive` of an older commit, unpacked), in the same rounds")
    args = parser.parse_args()
    parts = {p.strip() for p in args.parts.split(",")}
    print(f"edit loop and build, {os.cpu_count()} CPU(s), load {os.getloadavg()[0]:.1f}, "
          f"best of {args.repeat}")
    with tempfile.TemporaryDirectory() as tmp:
        if "preview" in parts:
            preview(Path(tmp), args.repeat)
        if "watch" in parts:
            watch_latency(Path(tmp), args.repeat)
        if "build" in parts:
            build(Path(tmp), args.repeat, args.baseline)
        if "memory" in parts:
            memory(Path(tmp), args.big, args.baseline)


if __name__ == "__main__":
    main()

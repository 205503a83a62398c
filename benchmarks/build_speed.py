"""Benchmark `pnp build`: wall time, time per card face, peak memory, PDF size.

Run:  .venv/bin/python benchmarks/build_speed.py [--paper a4] [--repeat 3] [--phases]
      [--cache user|cold|first|warm|off]

``--phases`` also prints where the build's CPU time goes, per phase, in the
best run: import, data load, sheet planning (imposition), template render
(Jinja), layout (markup parsing, text fitting), drawing (card forms and
sheet pages into ReportLab), PDF write (ReportLab's save and the file) and
the calibration sheet, and reading and writing the build caches (markup and
layouts kept across runs). Each phase counts its own time only (a card rendered
while a sheet is drawn counts as render and layout, not drawing).

Each run builds every game that has templates into a temporary folder in a
fresh subprocess (so peak memory is that of one build, fonts and templates
loaded from cold). Targets (issue 3, 2-core machine): ≤ 2 ms per card face,
≤ 150 MB peak, ≤ 40 KB of PDF per card face on average. A card face here is
one printed side: every physical card has a front and a back.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent

CHILD = r"""
import json, resource, sys, time
from pathlib import Path
c0 = time.process_time()
t0 = time.perf_counter()
from pnp.builder.decks import BuildOptions, build, load_for_build
t_import = time.perf_counter() - t0
if sys.argv[3:] == ["first"]:   # no compiled shipped templates either (a first run)
    try:
        import pnp.render.jinja_env as jinja_env
        jinja_env.SHIPPED_CODE_DIR = None
    except (ImportError, AttributeError):
        pass
import pnp.builder.decks as decks
import pnp.render.layout as layout
phases = {"import": time.process_time() - c0}
stack = []

def timed(owner, attr, phase):
    # replace owner.attr by a wrapper adding its own CPU time to phases[phase]
    real = getattr(owner, attr, None)
    if real is None:  # an older pnp without this step: its time stays in "other"
        return
    def wrapper(*args, **kwargs):
        now = time.process_time()
        if stack:  # pause the enclosing phase
            outer = stack[-1]
            phases[outer[0]] = phases.get(outer[0], 0.0) + now - outer[1]
        stack.append([phase, now])
        try:
            return real(*args, **kwargs)
        finally:
            end = time.process_time()
            name, start = stack.pop()
            phases[name] = phases.get(name, 0.0) + end - start
            if stack:
                stack[-1][1] = end
    setattr(owner, attr, wrapper)

timed(decks, "load_for_build", "data load")
timed(decks, "plan_build", "planning (imposition)")
timed(layout, "render_template", "template render (Jinja)")
timed(layout, "parse_card", "layout (markup, text fit)")
timed(decks, "draw_pages", "drawing (forms, pages)")
timed(decks, "write_pages", "drawing (forms, pages)")
timed(decks, "save_pending", "PDF write")
timed(decks, "write_calibration", "calibration sheet")
try:  # the build caches across runs (absent in older pnp: their time stays in "other")
    import pnp.builder.markup_cache as markup_cache
    timed(layout.LayoutStore, "load", "build caches (read)")
    timed(markup_cache.MarkupStore, "get", "build caches (read)")
    timed(layout.LayoutStore, "save", "build caches (write)")
    timed(markup_cache.MarkupStore, "put", "build caches (write)")
except (ImportError, AttributeError):
    pass
load_for_build = decks.load_for_build
out = Path(sys.argv[1]); paper = sys.argv[2]
options = BuildOptions(paper=paper, out_dir=out)
t1 = time.perf_counter()
games = load_for_build([], options)
result = build(games, options)
t_build = time.perf_counter() - t1
pdfs = [p for p in result.files if "calibration" not in p.name]
print(json.dumps({
    "import_s": t_import, "build_s": t_build, "cards": result.faces,
    "pdf_bytes": sum(p.stat().st_size for p in pdfs),
    "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
    "cpu_s": time.process_time() - c0, "phases": phases,
}))
"""


def run_once(paper: str, env: dict[str, str] | None = None,
             first: bool = False) -> dict[str, Any]:
    """Build everything once in a child process; return its figures.

    ``first``: without pnp's store of compiled shipped templates (every
    template compiled, as on the first run after installing pnp).
    """
    with tempfile.TemporaryDirectory() as tmp:
        done = subprocess.run([sys.executable, "-c", CHILD, tmp, paper]
                              + (["first"] if first else []), cwd=ROOT,
                              check=True, capture_output=True, text=True, env=env)
    return json.loads(done.stdout.strip().splitlines()[-1])


def cache_env(kind: str, folder: Path, run: int) -> dict[str, str] | None:
    """The child's environment for ``--cache KIND`` (None: this process's own)."""
    if kind == "user":
        return None
    env = dict(os.environ)
    if kind in ("cold", "first"):     # a fresh cache folder for every run
        env["PNP_CACHE_DIR"] = str(folder / f"cold{run}")
    else:                  # warm and off share a folder primed by a first build
        env["PNP_CACHE_DIR"] = str(folder / "primed")
        if kind == "off":
            env["PNP_BUILD_CACHE"] = "0"
    return env


def main() -> None:
    """Print the figures of the best of ``--repeat`` builds."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--paper", default="a4", choices=["a4", "letter"])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--phases", action="store_true",
                        help="also print the CPU time of each build phase (best run)")
    parser.add_argument("--cache", default="user",
                        choices=["user", "cold", "first", "warm", "off"],
                        help="pnp's cache: yours (default), a fresh folder per run (cold; "
                             "pnp's compiled shipped templates kept beside its code are "
                             "used), the same without those (first: every template "
                             "compiled), one filled by a first build (warm), or that with "
                             "the build caches off (PNP_BUILD_CACHE=0: fonts and templates "
                             "cached)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as caches:
        if args.cache in ("warm", "off"):
            run_once(args.paper, cache_env("warm", Path(caches), 0))
        runs = [run_once(args.paper, cache_env(args.cache, Path(caches), i),
                         first=args.cache == "first") for i in range(args.repeat)]
    best = min(runs, key=lambda r: r["build_s"])
    faces = 2 * best["cards"]  # front and back of every physical card
    per_face_ms = best["build_s"] / faces * 1000
    kb_per_face = best["pdf_bytes"] / faces / 1024
    peak = max(r["peak_rss_mb"] for r in runs)
    print(f"pnp build, every game with templates, paper {args.paper}, best of {args.repeat}, "
          f"cache: {args.cache}")
    print(f"  cards            {best['cards']} physical cards = {faces} printed faces")
    print(f"  wall time        {best['build_s']:.3f} s build + {best['import_s']:.3f} s import")
    print(f"  per card face    {per_face_ms:.3f} ms   (target ≤ 2 ms)   "
          f"{'OK' if per_face_ms <= 2 else 'MISSED'}")
    print(f"  peak memory      {peak:.1f} MB        (target ≤ 150 MB) "
          f"{'OK' if peak <= 150 else 'MISSED'}")
    print(f"  PDF size         {best['pdf_bytes'] / 1024:.0f} KB total, {kb_per_face:.1f} KB "
          f"per face (target ≤ 40 KB) {'OK' if kb_per_face <= 40 else 'MISSED'}")
    print("  for scale: a popular Ruby card tool needs ~40 ms and ~4 MB per card")
    if args.phases:
        phases = best["phases"]
        other = best["cpu_s"] - sum(phases.values())
        print(f"  CPU by phase     {best['cpu_s']:.3f} s in all "
              f"({best['cpu_s'] / faces * 1000:.3f} ms per face)")
        for name, cpu in sorted(phases.items(), key=lambda kv: -kv[1]) + [("other", other)]:
            print(f"    {name:28s} {cpu:7.3f} s  {cpu / best['cpu_s'] * 100:5.1f} %")


if __name__ == "__main__":
    main()

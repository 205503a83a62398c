"""A real headless browser for the tests of pnp's HTML pages (chart pages, HTML rulebook).

The browser is Debian's Chromium driven through its own command-line flags
(``--headless --screenshot``, ``--dump-dom`` and ``--enable-logging`` for the
console), so no browser download and no driver library are needed. The
``chromium`` fixture (tests/conftest.py) finds it with :func:`find_chromium`;
when there is none and the tests run as root with apt-get (CI's fresh
machines), it installs Debian's ``chromium`` package once; elsewhere it fails
with the command to run (never a silent skip). README "Tests" says why.

Shared like tests/golden_compare.py: a plain module on the tests folder's
path, imported by name.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

from PIL import Image

#: Flags for every Chromium run: headless, offline, nothing started in the background.
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--hide-scrollbars", "--mute-audio"]


def _which() -> str | None:
    """The first Chromium on PATH ($PNP_CHROMIUM first), or None."""
    for name in (os.environ.get("PNP_CHROMIUM"), "chromium", "chromium-browser"):
        if name and (path := shutil.which(name)):
            return path
    return None


def find_chromium() -> str | None:
    """Path of a Chromium binary, installing Debian's package as root if none is there."""
    path = _which()
    if path is None and os.geteuid() == 0 and shutil.which("apt-get"):
        env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
        install = ["apt-get", "install", "-y", "-q", "--no-install-recommends", "chromium"]
        if subprocess.run(install, env=env, capture_output=True).returncode:
            subprocess.run(["apt-get", "update", "-q"], env=env, capture_output=True)
            subprocess.run(install, env=env, capture_output=True)
        path = _which()
    return path


def browse(chromium: str, page: Path, tmp: Path) -> tuple[str, str, Image.Image]:
    """(DOM as the browser built it, console log, screenshot) of ``page``."""
    profile = tmp / "profile"
    shot = tmp / (page.stem + ".png")
    common = [chromium, *FLAGS, f"--user-data-dir={profile}", "--enable-logging=stderr",
              "--v=0"]
    dom = subprocess.run([*common, "--dump-dom", page.as_uri()], capture_output=True,
                         text=True, timeout=120)
    snap = subprocess.run([*common, "--window-size=800,1800", f"--screenshot={shot}",
                           page.as_uri()], capture_output=True, text=True, timeout=120)
    assert shot.is_file(), snap.stderr[-2000:]
    return dom.stdout, dom.stderr + snap.stderr, Image.open(shot).convert("RGB")

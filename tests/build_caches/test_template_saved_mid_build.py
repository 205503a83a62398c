"""A template (or icon) saved while ``pnp build`` runs never lands in the caches under its old key.

The build keys its markup and sheet caches by the templates folder's digest,
made when it begins; Jinja loads a template the first time it is used. The
build's loader therefore serves the bytes that digest was made of
(:meth:`pnp.render.sandbox.ConfinedLoader.pin`), and finds its icons there too.
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

import pytest

from pnp.builder import decks
from pnp.builder.decks import BuildOptions, build, load_for_build

_CARD = ('<card width="{{{{ width }}}}" height="{{{{ height }}}}">\n'
         '  <background fill="{fill}"/>\n'
         '  <text x="5" y="8" width="40" height="10" size="12">{label} {{{{ card.n }}}}</text>\n'
         '</card>\n')

_DOT = '<svg viewBox="0 0 10 10"><circle cx="5" cy="5" r="4" fill="#c9a227"/></svg>'


def _game(folder: Path) -> tuple[Path, Path]:
    """Two components, each with its own template: (data folder, templates folder)."""
    data = folder / "card_data" / "mini"
    data.mkdir(parents=True)
    parts = []
    for comp in ("cards", "tokens"):
        parts.append(f"""[components.{comp}]
name = "{comp.title()}"
kind = "card"
size = "poker"
count = 3
table = "{comp}.csv"
face = "mini/{comp}.xml.j2"
[components.{comp}.columns]
id = {{ type = "id" }}
n = {{ type = "int", min = 1, max = 9 }}
qty = {{ type = "qty" }}
""")
        rows = "".join(f"{comp[0]}{n},{n},1\n" for n in (1, 2, 3))
        (data / f"{comp}.csv").write_text("id,n,qty\n" + rows, encoding="utf-8")
    (data / "manifest.toml").write_text('[game]\nslug = "mini"\ntitle = "Mini"\n'
                                        'players = [2, 4]\n' + "".join(parts), encoding="utf-8")
    templates = folder / "templates" / "mini"
    templates.mkdir(parents=True)
    (templates / "cards.xml.j2").write_text(_CARD.format(fill="#f4ead5", label="Card"),
                                            encoding="utf-8")
    (templates / "tokens.xml.j2").write_text(
        _CARD.format(fill="#203040", label="Token").replace(
            "</card>", '  <icon name="dot" x="20" y="30" width="20" height="20"/>\n</card>'),
        encoding="utf-8")
    (templates / "icons").mkdir()
    (templates / "icons" / "dot.svg").write_text(_DOT, encoding="utf-8")
    return folder / "card_data", folder / "templates"


def _build(data: Path, templates: Path, out: Path) -> dict[str, str]:
    """Build the game into ``out``; sha256 of every file written, by relative path."""
    options = BuildOptions(out_dir=out, data_dir=data, templates_dir=templates)
    build(load_for_build([], options), options)
    return {p.relative_to(out).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(out.rglob("*")) if p.is_file()}


@pytest.mark.parametrize("saved", ["tokens.xml.j2", "icons/dot.svg"])
def test_a_file_saved_mid_build_is_not_kept_under_its_old_key(
        tmp_path: Path, cache: Path, monkeypatch: pytest.MonkeyPatch, saved: str) -> None:
    """Edit a not-yet-loaded template (or icon) at the first card side; undo it; warm == cold."""
    data, templates = _game(tmp_path / "game")
    token = templates / "mini" / saved
    original = token.read_text(encoding="utf-8")
    edited = (original.replace("#203040", "#ff00ff").replace("Token", "Edited")
              .replace('<circle cx="5" cy="5" r="4"', '<rect width="10" height="10"'))
    assert edited != original
    real = decks.render_side
    seen: list[bool] = []

    def hooked(env: Any, *args: Any) -> Any:
        """On the first card side, save an edit to a template no render has loaded yet."""
        if not seen:
            loaded = {key[1] for key in env.cache.keys()} if env.cache is not None else set()
            seen.append("mini/tokens.xml.j2" in loaded)
            token.write_text(edited, encoding="utf-8")
        return real(env, *args)

    monkeypatch.setattr(decks, "render_side", hooked)
    during = _build(data, templates, tmp_path / "during")
    monkeypatch.setattr(decks, "render_side", real)
    assert seen == [False]     # the edit came before the template was first loaded
    token.write_text(original, encoding="utf-8")    # the user undoes the edit
    warm = _build(data, templates, tmp_path / "warm")
    monkeypatch.setenv("PNP_CACHE_DIR", str(tmp_path / "cold-cache"))
    cold = _build(data, templates, tmp_path / "cold")
    assert any(name.endswith(".pdf") for name in cold)
    assert warm == cold
    # the build that saw the edit rendered the templates as they were when it began
    assert during == cold
    # and the edit itself shows in a build started after it (the cache is not stuck)
    token.write_text(edited, encoding="utf-8")
    after = _build(data, templates, tmp_path / "after")
    assert after != cold
    monkeypatch.setenv("PNP_CACHE_DIR", str(tmp_path / "cold-cache-2"))
    assert after == _build(data, templates, tmp_path / "after-cold")

"""Compiled templates kept across processes: never stale, wherever the project lives.

:class:`pnp.render.jinja_env.TemplateCodeCache` keeps compiled templates in
the cache folder and, for pnp's own shipped templates, in a store beside
pnp's code. Each test compiles in environments of its own (a new
environment starts with an empty in-memory template cache, as a new
process does) and counts the templates Jinja really compiled.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import pnp.project
import pnp.render.jinja_env as jinja_env
from pnp.errors import PnpError
from pnp.render.jinja_env import PnpEnvironment, make_environment, render_template

#: A shipped-looking template: a macro library imported by a face.
STYLE = '{% macro badge(v) %}<b>{{ v }}</b>{% endmacro %}\n'
FACE = ('{% import "g/style.xml.j2" as s %}\n'
        '<card width="{{ width }}">\n{{ s.badge(card.n) }}\n</card>\n')


@pytest.fixture()
def stores(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, Path]:
    """A shipped templates folder, a shipped store and a cache folder, all temporary."""
    shipped = tmp_path / "shipped" / "templates"
    (shipped / "g").mkdir(parents=True)
    (shipped / "g" / "style.xml.j2").write_text(STYLE, encoding="utf-8")
    (shipped / "g" / "face.xml.j2").write_text(FACE, encoding="utf-8")
    store = tmp_path / "store"
    monkeypatch.setattr(jinja_env, "SHIPPED_CODE_DIR", store)
    monkeypatch.setattr(pnp.project, "shipped", lambda name: tmp_path / "shipped" / name)
    monkeypatch.setenv("PNP_CACHE_DIR", str(tmp_path / "cache"))
    return {"shipped": shipped, "store": store, "cache": tmp_path / "cache"}


def copy_of_shipped(shipped: Path, where: Path) -> Path:
    """A project's templates folder holding copies of the shipped templates."""
    (where / "g").mkdir(parents=True)
    for name in ("style.xml.j2", "face.xml.j2"):
        (where / "g" / name).write_bytes((shipped / "g" / name).read_bytes())
    return where


def counting(templates: Path) -> tuple[PnpEnvironment, list[str]]:
    """A fresh environment on ``templates`` and the list of names it compiles."""
    env = make_environment(templates)
    compiled: list[str] = []
    real = env.compile

    def compile_(source: str, name: str | None = None, *args: Any, **kwargs: Any) -> Any:
        compiled.append(str(name))
        return real(source, name, *args, **kwargs)

    env.compile = compile_  # type: ignore[method-assign, assignment]
    return env, compiled


def render(env: PnpEnvironment, n: object = 7) -> str:
    """Render the face for card number ``n``."""
    return render_template(env, "g/face.xml.j2", {"card": {"n": n}, "width": "63mm"},
                           where="g/face c-1")


def test_a_second_process_loads_what_the_first_compiled(stores: dict[str, Path],
                                                        tmp_path: Path) -> None:
    project = copy_of_shipped(stores["shipped"], tmp_path / "p1" / "templates")
    env, compiled = counting(project)
    first = render(env)
    assert sorted(compiled) == ["g/face.xml.j2", "g/style.xml.j2"]
    env, compiled = counting(project)
    assert render(env) == first and compiled == []


def test_an_edited_template_is_compiled_again(stores: dict[str, Path], tmp_path: Path) -> None:
    """The cache folder serves no stale code: the edit shows in the next process."""
    project = copy_of_shipped(stores["shipped"], tmp_path / "p1" / "templates")
    env, _ = counting(project)
    assert ">7</b>" in render(env)
    (project / "g" / "style.xml.j2").write_text(STYLE.replace("<b>", "<b>#"), encoding="utf-8")
    env, compiled = counting(project)
    assert ">#7</b>" in render(env)
    assert compiled == ["g/style.xml.j2"]
    # the edited copy is not pnp's shipped template: the store keeps the shipped code
    env, compiled = counting(copy_of_shipped(stores["shipped"], tmp_path / "p2" / "templates"))
    assert ">7</b>" in render(env) and compiled == []


def test_a_copy_elsewhere_uses_the_shipped_store_and_names_its_own_file(
        stores: dict[str, Path], tmp_path: Path) -> None:
    """Another project (another cache folder too) with the same templates compiles nothing.

    Its errors name its own template file, not the copy the code was compiled from.
    """
    env, compiled = counting(copy_of_shipped(stores["shipped"], tmp_path / "p1" / "templates"))
    render(env)
    assert len(compiled) == 2 and len(list(stores["store"].iterdir())) == 2
    other = copy_of_shipped(stores["shipped"], tmp_path / "elsewhere" / "templates")
    (tmp_path / "cache").rename(tmp_path / "old-cache")      # a fresh cache folder
    env, compiled = counting(other)
    assert compiled == [] and ">7</b>" in render(env)
    with pytest.raises(PnpError) as err:
        render_template(env, "g/face.xml.j2", {"card": {}, "width": "63mm"}, where="w")
    # the macro's line prints the missing value (strict undefined fails where used)
    assert str(err.value).startswith("templates/g/style.xml.j2:1: undefined variable")


def test_a_template_that_is_not_shipped_stays_out_of_the_store(stores: dict[str, Path],
                                                               tmp_path: Path) -> None:
    project = copy_of_shipped(stores["shipped"], tmp_path / "p1" / "templates")
    (project / "g" / "face.xml.j2").write_text(FACE + "<!-- mine -->\n", encoding="utf-8")
    env, compiled = counting(project)
    render(env)
    assert sorted(compiled) == ["g/face.xml.j2", "g/style.xml.j2"]
    assert len(list(stores["store"].iterdir())) == 1               # the style only


def test_a_changed_code_generator_compiles_again(stores: dict[str, Path], tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """Code made by another version of the code generator is never run."""
    project = copy_of_shipped(stores["shipped"], tmp_path / "p1" / "templates")
    env, _ = counting(project)
    render(env)
    monkeypatch.setattr(jinja_env, "TEMPLATE_CACHE_VERSION", "another generator")
    jinja_env._codegen_digest.cache_clear()
    try:
        env, compiled = counting(project)
        render(env)
    finally:
        jinja_env._codegen_digest.cache_clear()
    assert sorted(compiled) == ["g/face.xml.j2", "g/style.xml.j2"]


def test_damaged_entries_are_compiled_again(stores: dict[str, Path], tmp_path: Path) -> None:
    project = copy_of_shipped(stores["shipped"], tmp_path / "p1" / "templates")
    env, _ = counting(project)
    expected = render(env)
    for folder in (stores["store"], stores["cache"] / "jinja"):
        for entry in folder.iterdir():
            entry.write_bytes(entry.read_bytes()[:40])
    env, compiled = counting(project)
    assert render(env) == expected
    assert sorted(compiled) == ["g/face.xml.j2", "g/style.xml.j2"]


def test_without_any_store_templates_still_render(stores: dict[str, Path], tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a folder", encoding="utf-8")
    monkeypatch.setattr(jinja_env, "SHIPPED_CODE_DIR", blocker / "store")
    monkeypatch.setenv("PNP_CACHE_DIR", str(blocker / "cache"))
    project = copy_of_shipped(stores["shipped"], tmp_path / "p1" / "templates")
    for _ in range(2):
        env, compiled = counting(project)
        assert ">7</b>" in render(env) and len(compiled) == 2

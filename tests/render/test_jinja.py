"""Jinja environment: strict undefined, syntax errors, sandbox, folder confinement."""

from __future__ import annotations

from pathlib import Path

import pytest

from pnp.errors import PnpError
from pnp.render.jinja_env import make_environment, render_template
from pnp.render.layout import render_layout


def write(templates: Path, name: str, text: str) -> str:
    """Write a template file and return its name."""
    (templates / name).parent.mkdir(parents=True, exist_ok=True)
    (templates / name).write_text(text, encoding="utf-8")
    return name


def test_undefined_field_names_file_line_and_expression(env, templates: Path) -> None:
    name = write(templates, "test/face.xml.j2",
                 '<card width="63mm" height="88mm">\n'
                 '{% if card.number > 0 %}\n'
                 '<text x="0" y="0" width="5" height="5">{{ card.nmber }}</text>\n'
                 '{% endif %}\n</card>\n')
    with pytest.raises(PnpError) as err:
        render_layout(env, name, {"card": {"number": 3}}, where="test/face f-1")
    msg = str(err.value)
    assert msg.startswith("templates/test/face.xml.j2:3: undefined variable 'card.nmber'")
    assert "test/face f-1" in msg


def test_undefined_top_level_variable(env, templates: Path) -> None:
    name = write(templates, "test/a.xml.j2", "line one\n{{ missing }}\n")
    with pytest.raises(PnpError, match=r"templates/test/a.xml.j2:2: undefined variable 'missing'"):
        render_template(env, name, {}, where="w")


def test_error_inside_included_template_names_that_file(env, templates: Path) -> None:
    write(templates, "test/part.xml.j2", "\n\n{{ card.zzz }}\n")
    name = write(templates, "test/main.xml.j2", '{% include "test/part.xml.j2" %}\n')
    with pytest.raises(PnpError, match=r"templates/test/part.xml.j2:3: undefined variable 'card.zzz'"):
        render_template(env, name, {"card": {}}, where="w")


def test_syntax_error_names_file_and_line(env, templates: Path) -> None:
    name = write(templates, "test/bad.xml.j2", "<card>\n\n{% if x %}\n{{ x }\n")
    with pytest.raises(PnpError) as err:
        render_template(env, name, {"x": 1}, where="w")
    assert str(err.value).startswith("templates/test/bad.xml.j2:4: template syntax error")


@pytest.mark.parametrize("expr", ["''.__class__", "''.__class__.__mro__[1].__subclasses__()",
                                  "card.__init__.__globals__", "range.__self__"])
def test_sandbox_blocks_dunder_access(env, templates: Path, expr: str) -> None:
    name = write(templates, "test/evil.xml.j2", f"{{{{ {expr} }}}}\n")
    with pytest.raises(PnpError) as err:
        render_template(env, name, {"card": {"a": 1}}, where="w")
    msg = str(err.value)
    assert msg.startswith("templates/test/evil.xml.j2:1:")
    assert "unsafe" in msg or "undefined" in msg


def test_includes_cannot_leave_the_templates_folder(env, templates: Path) -> None:
    (templates.parent / "secret.txt").write_text("TOP SECRET", encoding="utf-8")
    for target in ("../secret.txt", str(templates.parent / "secret.txt"), "test/../../secret.txt"):
        name = write(templates, "test/inc.xml.j2", f'{{% include "{target}" %}}\n')
        with pytest.raises(PnpError, match="not found") as err:
            render_template(env, name, {}, where="w")
        assert "TOP SECRET" not in str(err.value)


def test_missing_template_is_a_pnp_error(env) -> None:
    with pytest.raises(PnpError, match="not found"):
        render_template(env, "test/nope.xml.j2", {}, where="w")


def test_autoescape_and_colour_filters(env, templates: Path) -> None:
    name = write(templates, "test/f.xml.j2",
                 "{{ v }}|{{ '#808080'|lighten(0.5) }}|{{ '#808080'|darken(0.5) }}|"
                 "{{ '#000000'|mix('#ffffff', 0.25) }}|{{ lines|br }}")
    out = render_template(env, name, {"v": "a & <b>", "lines": "x<\ny"}, where="w")
    assert out == "a &amp; &lt;b&gt;|#c0c0c0|#404040|#404040|x&lt;<br/>y"


def test_bad_filter_argument_names_line(env, templates: Path) -> None:
    name = write(templates, "test/g.xml.j2", "\n{{ 'blue-ish'|lighten }}\n")
    with pytest.raises(PnpError, match=r"templates/test/g.xml.j2:2: .*lighten"):
        render_template(env, name, {}, where="w")


def test_base_template_and_macros(env) -> None:
    # the shipped common templates render and parse
    from pnp.render.demo import DEMO_CONTEXT, DEMO_TEMPLATE
    lay = render_layout(env, DEMO_TEMPLATE, DEMO_CONTEXT, where="demo")
    assert lay.width > 0 and len(lay.nodes) > 10
    env2 = make_environment(env.templates_dir)
    (env.templates_dir / "test" / "child.xml.j2").write_text(
        '{% extends "common/base.xml.j2" %}{% set width = "70mm" %}'
        '{% block content %}<rect width="10" height="10"/>{% endblock %}', encoding="utf-8")
    child = render_layout(env2, "test/child.xml.j2", {}, where="child")
    assert child.width == pytest.approx(70 * 72 / 25.4)

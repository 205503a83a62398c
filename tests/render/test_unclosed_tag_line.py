"""A tag or expression left open is reported at the line where it opens.

Jinja notices a missing ``%}`` where the next token does not fit — on line
11 for a tag opened on line 10 — and said "line 11"; the designer has to fix
line 10. The message now names line 10 and says where Jinja noticed.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from pnp.errors import PnpError
from pnp.render.jinja_env import PnpEnvironment, render_template
from pnp.render.srcmap import unclosed_opener

#: A card template whose line 10 lacks its ``%}`` (the fixture of the report).
FIXTURE = """<card width="63mm" height="88mm" bleed="3mm">
  <background fill="#ffffff"/>
{% set a = 1 %}
{% set b = 2 %}
{# a comment #}
{% if card.name %}
  <text x="5" y="5" width="40" height="8" size="9pt">{{ card.name }}</text>
{% endif %}
{% set c = 3 %}
{% set d = card.name | upper
{% set e = 5 %}
  <text x="5" y="20" width="40" height="8" size="9pt">{{ d }}</text>
</card>
"""


def _error(env: PnpEnvironment, templates: Path, text: str) -> PnpError:
    """The PnpError of rendering ``text`` as templates/test/face.xml.j2."""
    (templates / "test" / "face.xml.j2").write_text(text, encoding="utf-8")
    with pytest.raises(PnpError) as caught:
        render_template(env, "test/face.xml.j2", {"card": {"name": "x"}}, where="test/face c-1")
    return caught.value


def test_a_tag_missing_its_close_is_reported_where_it_opens(env: PnpEnvironment,
                                                            templates: Path) -> None:
    error = _error(env, templates, FIXTURE)
    assert error.line == 10
    assert str(error).startswith(
        "templates/test/face.xml.j2:10: template syntax error: the {% opened on this line is "
        "not closed with %} (Jinja noticed on line 11: ")


@pytest.mark.parametrize(("text", "line", "opener"), [
    ("a\n{{ card.name\nsome text\n{{ card.name }}\n", 2, "{{"),     # an expression
    ("a\nb\n{% if card.name\n<t/>\n{% endif %}\n", 3, "{%"),        # before markup
    ("a\n{% if card.name\nc\n", 2, "{%"),                            # at the end
    ("{% raw %}{{ {% {% endraw %}\n{% if x\nc\n{% endif %}\n", 2, "{%"),  # after raw text
])
def test_other_unclosed_openers(env: PnpEnvironment, templates: Path, text: str, line: int,
                                opener: str) -> None:
    error = _error(env, templates, text)
    assert error.line == line
    assert f"the {opener} opened on this line is not closed" in error.message


@pytest.mark.parametrize(("text", "line"), [
    ("a\n{% if card.name %}\n{{ card.name + }}\n{% endif %}\n", 3),  # closed, bad inside
    ("a\n{{ f(1, 2 }}\nb\n", 2),                                     # Jinja's line is right
    ("a\n{% if card.name %}\nb\n", 3),                               # a missing endif
])
def test_closed_tags_keep_jinjas_line_and_message(env: PnpEnvironment, templates: Path,
                                                  text: str, line: int) -> None:
    error = _error(env, templates, text)
    assert error.line == line
    assert "opened on this line" not in error.message


def test_unclosed_opener_reads_only_what_comes_before_the_error() -> None:
    assert unclosed_opener(FIXTURE, 11) == ("{%", 10)
    assert unclosed_opener(FIXTURE, 10) is None        # nothing open before line 10
    assert unclosed_opener("{# a\nb\n", 3) == ("{#", 1)
    assert unclosed_opener("{{ a }}\n{{ b }}\nc\n", 3) is None

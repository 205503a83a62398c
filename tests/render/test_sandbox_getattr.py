"""The sandbox's short way for common attribute lookups answers exactly as Jinja's.

:meth:`pnp.render.sandbox.BoundedSandbox.getattr` answers ``card.name`` (a
dict), ``s.badge`` (an imported template), ``ns.x`` and ``loop.index``
without Jinja's full lookup; every case here is also asked of Jinja's own
sandbox and must get the same value, or the same kind of undefined.
"""

from __future__ import annotations

from typing import Any

import jinja2
import pytest
from jinja2.sandbox import SandboxedEnvironment, SecurityError

from pnp.render.sandbox import BoundedSandbox

MODULE = ('{% set THEMES = {"a": 1} %}{% set fmt = "{0.__class__}".format %}{% set _hidden = 2 %}'
          '{% macro badge(v) %}<b>{{ v }}</b>{% endmacro %}')


def objects() -> dict[str, Any]:
    """One of each kind the short way takes, and their look-alikes it must not take."""
    env = jinja2.Environment()
    module = env.from_string(MODULE).module
    namespace = jinja2.utils.Namespace(x=1, _y=2)
    loop = jinja2.runtime.LoopContext(iter([1, 2, 3]), jinja2.Undefined)
    next(iter(loop))

    class Sub(dict):        # a dict subclass: attributes of its own
        colour = "red"

    return {"dict": {"name": "Ann", "items": "shadowed", "_x": 1, "__class__": 3},
            "module": module, "namespace": namespace, "loop": loop,
            "sub": Sub(name="Bo", colour="blue")}


ATTRIBUTES = ["name", "items", "_x", "__class__", "missing", "keys", "THEMES", "badge", "fmt",
              "_hidden", "_body_stream", "__dict__", "x", "_y", "index", "first", "cycle",
              "changed", "_iterator", "colour", "__init__", "format", "mro"]


def outcome(env: SandboxedEnvironment, obj: Any, attribute: str) -> Any:
    """What a template reading ``obj.attribute`` sees: the value or how it is undefined."""
    value = env.getattr(obj, attribute)
    if isinstance(value, jinja2.Undefined):
        unsafe = getattr(value, "_undefined_exception", None) is SecurityError
        return ("undefined", "unsafe" if unsafe else "missing")
    if attribute == "fmt":      # str.format: the sandbox's own formatter, or the raw method
        return ("format", getattr(value, "__self__", None))
    return ("value", value)


@pytest.mark.parametrize("kind", ["dict", "module", "namespace", "loop", "sub"])
def test_every_lookup_answers_as_jinja_does(kind: str) -> None:
    ours, jinjas = BoundedSandbox(), SandboxedEnvironment()
    obj = objects()[kind]
    for attribute in ATTRIBUTES:
        assert outcome(ours, obj, attribute) == outcome(jinjas, obj, attribute), attribute


def test_a_template_still_cannot_reach_a_private_attribute_of_an_import() -> None:
    env = BoundedSandbox(loader=jinja2.DictLoader({"s": MODULE}),
                         undefined=jinja2.StrictUndefined)
    assert env.from_string('{% import "s" as s %}{{ s.THEMES.a }}').render() == "1"
    with pytest.raises(SecurityError):
        env.from_string('{% import "s" as s %}{{ s._body_stream }}').render()
    with pytest.raises(SecurityError):
        env.from_string('{% import "s" as s %}{{ s.fmt(1) }}').render()

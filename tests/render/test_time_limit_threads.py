"""The template time limit holds in any thread, not only where a timer signal can reach.

``pnp watch`` answers ``pnp preview`` from a background thread; an endless
loop in a template rendered there must stop at the limit like one in the
main thread. The limit is set to a fraction of a second here; the thread
joins below only guard the suite against hanging if the limit is broken.
"""

from __future__ import annotations

import shutil
import socket
import threading
from pathlib import Path
from typing import Any

import jinja2
import pytest

import pnp.builder.serve as serve
import pnp.render.sandbox as sandbox
from pnp.builder.serve import PreviewServer, ask, where_key
from pnp.builder.watch import Watcher
from pnp.errors import PnpError
from pnp.render.jinja_env import make_environment, render_template

PROJECT = Path(__file__).resolve().parent.parent / "bad_input" / "project"
#: Nested loops over 100,000 items with nothing inside: 10^10 steps, no call, no output.
ENDLESS = ("{% set r = range(100000)|list %}"
           "{% for a in r %}{% for b in r %}{% endfor %}{% endfor %}")


def _in_thread(func: Any) -> dict[str, Any]:
    """Run ``func`` in a daemon thread; return what it returned or raised."""
    result: dict[str, Any] = {}

    def run() -> None:
        try:
            result["value"] = func()
        except Exception as exc:  # noqa: BLE001 - handed to the test to look at
            result["error"] = exc

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(60)            # a guard against a hang, not a speed check
    result["finished"] = not thread.is_alive()
    return result


def _stop(server: PreviewServer) -> None:
    """Stop the server once its thread has left ``accept()``.

    (``PreviewServer.stop`` drops its socket while the thread may be about to
    call ``accept`` on it again; waking the thread first avoids that race.)
    """
    assert server.sock is not None
    server.sock.shutdown(socket.SHUT_RDWR)     # accept() in the thread returns an error
    for thread in threading.enumerate():
        if "_serve" in thread.name:
            thread.join(10)
    server.stop()


def test_an_endless_loop_stops_in_a_background_thread(tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sandbox, "RENDER_SECONDS", 0.3)
    monkeypatch.setenv("PNP_CACHE_DIR", str(tmp_path / "cache"))
    (tmp_path / "loop.xml.j2").write_text("<card>\n" + ENDLESS + "\n</card>", encoding="utf-8")
    env = make_environment(tmp_path)
    result = _in_thread(lambda: render_template(env, "loop.xml.j2", {}, where="a card"))
    assert result["finished"], "the render in a background thread never stopped"
    error = result.get("error")
    assert isinstance(error, PnpError)
    assert str(error).startswith(f"{tmp_path.name}/loop.xml.j2:2: template took longer than "
                                 "0.3 s to render")


def test_watch_answers_a_preview_of_an_endless_template_with_the_error(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The watcher's preview server renders in its own thread: the limit must hold there."""
    monkeypatch.setattr(sandbox, "RENDER_SECONDS", 0.3)
    # A loaded machine may take the server past the client's 2 s wait for the
    # acknowledgement (the client then draws the card itself and this test
    # would see no answer): the acknowledgement's speed is not what is tested.
    monkeypatch.setattr(serve, "ACCEPT_TIMEOUT", 60.0)
    monkeypatch.setenv("PNP_CACHE_DIR", str(tmp_path / "cache"))
    project = tmp_path / "project"
    shutil.copytree(PROJECT, project)
    face = project / "templates" / "toy" / "face.xml.j2"
    face.write_text(face.read_text(encoding="utf-8").replace("{{ card.name }}", ENDLESS, 1),
                    encoding="utf-8")
    monkeypatch.chdir(project)
    data, templates, out = project / "card_data", project / "templates", project / "output"
    watcher = Watcher("toy", data_dir=data, templates_dir=templates, out_dir=out, dpi=36,
                      pdf=False, echo=lambda line: None)
    server = PreviewServer(out, watcher.answer_preview, watcher.lock)
    assert server.start()
    try:
        request = {"cwd": str(project), "game": "toy", "deck": "cards", "card_ids": ["star-1"],
                   "dpi": 36, "show_bleed": True, "sheet": False, "preset": None,
                   "out_dir": str(out / "toy" / "preview"),
                   "where": where_key(str(data), str(templates))}
        answer = _in_thread(lambda: ask(request, out))
    finally:
        _stop(server)
    assert answer["finished"] and answer.get("value") is not None, answer
    message = answer["value"].get("error", "")
    assert "toy/face.xml.j2:" in message and "template took longer than 0.3 s" in message
    assert not list((out / "toy" / "preview").glob("*.png"))


@pytest.mark.parametrize("source", [
    "{% for x in items %}{{ loop.index }}/{{ loop.length }}{{ ',' if not loop.last }}"
    "{% endfor %}",
    "{% for x in items if x is odd %}{{ x }}{% else %}none{% endfor %}",
    "{% for x in [] %}{{ x }}{% else %}empty{% endfor %}",
    "{% for k, v in pairs.items() %}{{ k }}={{ v }};{% endfor %}",
    "{% for x in items %}{{ loop.cycle('a', 'b') }}{{ loop.nextitem if not loop.last }}"
    "{{ loop.revindex }}{% endfor %}",
    "{% for n in tree recursive %}[{{ n.name }}{{ loop(n.kids) }}]{% endfor %}",
    "{% for a in items %}{% for b in items %}{{ a * b }} {% endfor %}{% endfor %}",
])
def test_loops_render_as_plain_jinja_renders_them(source: str, tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """The time check inside every loop changes nothing in what a loop produces."""
    monkeypatch.setenv("PNP_CACHE_DIR", str(tmp_path / "cache"))
    (tmp_path / "t.j2").write_text(source, encoding="utf-8")
    context = {"items": [1, 2, 3, 4, 5], "pairs": {"a": 1, "b": 2},
               "tree": [{"name": "r", "kids": [{"name": "c", "kids": []}]}]}
    plain = jinja2.Environment(autoescape=True, undefined=jinja2.StrictUndefined,
                               trim_blocks=True, lstrip_blocks=True
                               ).from_string(source).render(context)
    ours = render_template(make_environment(tmp_path), "t.j2", context, where="")
    assert ours == plain and plain

"""Render the demo card (templates/common/demo_card.xml.j2) to a PNG.

Run ``python -m pnp.render.demo OUT.png`` to look at every markup feature.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from pnp.project import default_folder
from pnp.render.jinja_env import make_environment
from pnp.render.layout import Layout, render_layout
from pnp.render.preview import layout_to_png

#: Template name of the demo card.
DEMO_TEMPLATE = "common/demo_card.xml.j2"

#: Context for the demo card: Japanese rules text with inline icon tokens,
#: kinsoku-sensitive punctuation, and a '&' that must be escaped.
DEMO_CONTEXT: dict[str, Any] = {
    "card": {
        "name": "Wheel of Fortune & Bolt",
        "number": 3,
        "icon": "bolt",
        "keyword": "WILD",
        "accent": "#b8860b",
        "text": ("このカードは{icon:bolt}または{icon:coin}として使える。"
                 "捨て札の山が「ちょうど10枚」になったとき、好きな山からカードを"
                 "1枚選んでもよい（任意）。セットを作ったら、手札を2枚引く。"),
        "flavor": "Fortune favours the bold — and the lucky.",
    }
}


def demo_layout(templates_dir: Path | None = None) -> Layout:
    """Return the demo card's layout."""
    env = make_environment(templates_dir or default_folder("templates"))
    return render_layout(env, DEMO_TEMPLATE, DEMO_CONTEXT, where="common/demo demo-1")


def main(argv: list[str] | None = None) -> int:
    """Write the demo card to the PNG path given on the command line."""
    args = sys.argv[1:] if argv is None else argv
    out = Path(args[0]) if args else Path("demo_card.png")
    layout_to_png(demo_layout(), out, dpi=int(args[1]) if len(args) > 1 else 200)
    print(out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

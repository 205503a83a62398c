"""Render core: Jinja card templates -> SVG-like markup -> ReportLab drawing.

Public API (the sheet builder codes against these names):

- :func:`pnp.render.jinja_env.make_environment`
- :func:`pnp.render.layout.render_layout` and :class:`pnp.render.layout.Layout`
- :class:`pnp.render.draw.FormCache` and :func:`pnp.render.draw.draw_layout`
- :func:`pnp.render.fonts.register_fonts` and :func:`pnp.render.fonts.canvas_kwargs`
- :func:`pnp.render.preview.layout_to_png`

The template language is documented in ``docs/templates.md``.
"""

from __future__ import annotations

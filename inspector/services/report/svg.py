"""Matplotlib's SVG files as inline ``<svg>`` elements of one HTML page.

The XML prolog and doctype go; every ``id`` gets a per-figure prefix (and so do the
references to it), so two figures never share an id; the figure's own ``<style>`` is scoped
to it. Matplotlib already escaped the text it drew (and the figures sanitise run and task
names), so the markup is kept as written.
"""

from __future__ import annotations

import re

_PROLOG = re.compile(r"\A\s*(<\?xml[^>]*\?>\s*)?(<!DOCTYPE[^>]*>\s*)?", re.S)
_ID = re.compile(r'\bid="([^"]+)"')
_REF = re.compile(r'(url\(#|xlink:href="#|href="#)([^)"]+)')
_STYLE = re.compile(r"<style[^>]*>.*?</style>", re.S)
_SCRIPT = re.compile(r"<\s*(script|foreignObject)\b", re.I)


def inline_svg(svg: str, prefix: str) -> str:
    """``svg`` (a whole SVG file) as an element to put inside HTML, its ids under
    ``prefix``."""
    body = _PROLOG.sub("", svg, count=1).strip()
    body = _STYLE.sub("", body)  # matplotlib's "*{stroke-linejoin...}" would style the page
    body = _ID.sub(lambda m: f'id="{prefix}-{m.group(1)}"', body)
    body = _REF.sub(lambda m: f"{m.group(1)}{prefix}-{m.group(2)}", body)
    if _SCRIPT.search(body):  # never from matplotlib; refuse rather than embed
        raise ValueError("figure holds a script or foreign object")
    return body.replace("<svg ", "<svg class=\"plot\" ",
                        1)

"""``{% box "left:%smm;top:%smm" x y %}``: a class name for a positioned box.

Print pages place their boxes in millimetres. Written as inline ``style`` attributes, every
box would get its own cascade in WeasyPrint; as classes collected in the document's
stylesheet, boxes at the same place on many pages share one computed style, which makes
layout several times cheaper. ``render.render_html`` puts the registry into the context as
``box_styles`` (style text to class name) and writes the rules.
"""

from __future__ import annotations

from typing import Any

from django import template

register = template.Library()


def _format(value: Any) -> str:
    if isinstance(value, float):
        return f"{value:.2f}".rstrip("0").rstrip(".")
    return str(value)


@register.simple_tag(takes_context=True)
def box(context: template.Context, style: str, *args: Any) -> str:
    registry: dict[str, str] = context["box_styles"]
    text = style % tuple(_format(a) for a in args)
    name = registry.get(text)
    if name is None:
        name = registry[text] = f"x{len(registry)}"
    return name

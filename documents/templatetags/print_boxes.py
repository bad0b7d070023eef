"""``{% box "left:%smm;top:%smm" x y %}``: a class name for a positioned box.

Print pages place their boxes in millimetres. Written as inline ``style`` attributes, every
box would get its own cascade in WeasyPrint; as classes collected in the document's
stylesheet, boxes at the same place on many pages share one computed style, which makes
layout several times cheaper. ``render.render_html`` puts the registry into the context as
``box_styles`` (style text to class name) and writes the rules.

``{% fit %}`` makes a text fit its box: broken into lines or set smaller, never cut.
"""

from __future__ import annotations

import html
from typing import Any

from django import template
from django.template.base import FilterExpression, token_kwargs

from documents import textfit
from documents.textfit import Fit

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


@register.simple_tag
def fit(
    text: Any,
    width: float,
    size: float,
    bold: bool = False,
    lines: int = 1,
    height: float | None = None,
    leading: float = 1.2,
    caps: bool = False,
    tracking: float = 0.0,
) -> Fit:
    """``{% fit text width_mm size_pt bold=True lines=2 height=6 as f %}``: ``text`` made to
    fit the box (see ``documents.textfit.fit``). Put ``f.style`` into the box's style and
    print ``f.text|linebreaksbr``. ``caps``: the box prints in capitals (measured, and
    returned, so); ``tracking``: its letter spacing in em."""
    value = str(text)
    return textfit.fit(
        value.upper() if caps else value, float(width), float(size), bold=bool(bold),
        max_lines=int(lines), height_mm=None if height is None else float(height),
        leading=float(leading), tracking=float(tracking),
    )  # fmt: skip


class FitTextNode(template.Node):
    def __init__(
        self,
        nodelist: template.NodeList,
        args: list[FilterExpression],
        kwargs: dict[str, FilterExpression],
        target: str,
    ) -> None:
        self.nodelist, self.args, self.kwargs, self.target = nodelist, args, kwargs, target

    def render(self, context: template.Context) -> str:
        text = html.unescape(self.nodelist.render(context))
        args = [arg.resolve(context) for arg in self.args]
        kwargs = {key: value.resolve(context) for key, value in self.kwargs.items()}
        context[self.target] = fit(text, *args, **kwargs)
        return ""


@register.tag
def fittext(parser: template.base.Parser, token: template.base.Token) -> FitTextNode:
    """``{% fittext width_mm size_pt lines=2 height=7 as f %}…{% endfittext %}``: like
    ``{% fit %}`` for the text the block renders (for texts put together from several
    parts); the block itself prints nothing."""
    bits = token.split_contents()
    if len(bits) < 5 or bits[-2] != "as":
        raise template.TemplateSyntaxError(
            "fittext needs a width, a size and 'as name': {% fittext 120 9 as f %}"
        )
    target = bits[-1]
    rest = bits[1:-2]
    args = [parser.compile_filter(bit) for bit in rest if "=" not in bit]
    kwargs = token_kwargs([bit for bit in rest if "=" in bit], parser)
    nodelist = parser.parse(("endfittext",))
    parser.delete_first_token()
    return FitTextNode(nodelist, args, kwargs, target)

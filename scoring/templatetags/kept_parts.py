"""``{% load kept_parts %}{% keep_part key %}…{% endkeep_part %}``: a part the phone may keep.

Wraps a part of the captain page marked ``data-keep`` (scoring/swap_parts.py). ``key`` says
what the part is drawn from, the same key always drawing the same part (the language is
added here); None: a part of its own (a form posted back, a correction), drawn each time.
When the context's ``shown_parts`` (the digests a phone names) holds the digest the key drew
before, the part is not drawn: its ``<template data-kept>`` stands in for it, as ``kept``
would have put it after drawing. Otherwise it is drawn and its digest noted.
"""

from __future__ import annotations

from typing import Any

from django import template
from django.template.base import FilterExpression, NodeList, Parser, Token
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language

from scoring.swap_parts import KEPT, KnownParts

register = template.Library()

#: The digests of the parts this process drew, by key.
KNOWN = KnownParts()


class KeepPartNode(template.Node):
    def __init__(self, key: FilterExpression, nodelist: NodeList) -> None:
        self.key = key
        self.nodelist = nodelist

    def render(self, context: template.Context) -> SafeString:
        key = self.key.resolve(context)
        if key is None:
            return self.nodelist.render(context)
        key = (get_language(), key)
        code = KNOWN.get(key)
        if code is not None and code in (context.get("shown_parts") or ()):
            return mark_safe(KEPT.format(code))
        html = self.nodelist.render(context)
        KNOWN.note(key, html)
        return html


@register.tag
def keep_part(parser: Parser, token: Token) -> KeepPartNode:
    bits = token.split_contents()
    if len(bits) != 2:
        raise template.TemplateSyntaxError("keep_part takes one argument: the part's key")
    nodelist = parser.parse(("endkeep_part",))
    parser.delete_first_token()
    return KeepPartNode(parser.compile_filter(bits[1]), nodelist)


def forget_parts(**_: Any) -> None:
    """A template changed (the development server): what a key draws may have changed too."""
    KNOWN.clear()

"""``{% contributed_links "place" subject… as links %}``: the links the apps above add to a
place of a lower app's page (``common.links``)."""

from __future__ import annotations

from typing import Any

from django import template

from common.links import Link, place

register = template.Library()


@register.simple_tag
def contributed_links(name: str, *subject: Any) -> list[Link]:
    return place(name).links(*subject)

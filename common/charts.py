"""Charts as self-contained SVG, drawn on the server (pygal): no script, no reference outside
the file, the same bytes for the same data.

A chart is shown as ``<img src="data:image/svg+xml;base64,...">``: the page's Content-Security
Policy allows images from data URIs, and the chart's own stylesheet lives inside the image,
where the page's policy against inline styles does not reach (an inline ``<svg>`` would need
``style-src 'unsafe-inline'``). WeasyPrint draws the same image in the PDFs.

pygal adds a script of its tooltips and a link to its script on a CDN to every chart:
``js=[]`` drops the link, ``svg_text`` removes the script and the comments (one of them
dates the chart), and each chart gets its id from its name instead of a random one. The
standard library's ElementTree builds the charts whether or not lxml is installed (pikepdf
brings it), so they do not depend on what else the machine has.

Import pygal through this module only: it undoes what importing pygal does to the import
system (see below).
"""

from __future__ import annotations

import base64
import copy
import math
import sys
import xml.etree.ElementTree as ElementTree
from dataclasses import dataclass
from typing import Any

import pygal
from pygal.etree import etree as pygal_etree
from pygal.style import Style

pygal_etree.to_etree()

# pygal puts a finder of its map plugins (``pygal.maps.*``, which we do not use) at the end
# of ``sys.meta_path``; it has only the interface Python 3.4 replaced, so every later import
# that no other finder resolves warns (ImportWarning, an error in the tests). Take it out.
sys.meta_path[:] = [
    finder for finder in sys.meta_path if type(finder).__module__.split(".")[0] != "pygal"
]

SVG_NS = "http://www.w3.org/2000/svg"

#: Sizes for a phone: the chart is drawn 480 units wide and scaled to the column, so a
#: 16-unit label reads as about 12 px on a 390 px phone; the pages cap the width on screens.
WIDTH, HEIGHT = 480, 320

#: Colours that stay apart in greyscale prints and for red-green blindness (Okabe-Ito).
BLUE, ORANGE, GREEN, VERMILION, GREY, PURPLE, SKY = (
    "#0072B2",
    "#E69F00",
    "#009E73",
    "#D55E00",
    "#999999",
    "#CC79A7",
    "#56B4E9",
)

STYLE = Style(
    font_family="system-ui, -apple-system, 'Segoe UI', Roboto, 'DejaVu Sans', sans-serif",
    background="#ffffff",
    plot_background="#ffffff",
    foreground="#1b1b1b",
    foreground_strong="#1b1b1b",
    foreground_subtle="#6b6b6b",
    opacity=".85",
    opacity_hover=".85",
    transition="0s",
    colors=(BLUE, ORANGE, GREEN, VERMILION, PURPLE, SKY, GREY),
    label_font_size=15,
    major_label_font_size=15,
    legend_font_size=15,
    value_font_size=14,
    value_label_font_size=14,
    title_font_size=17,
    no_data_font_size=18,
)

DEFAULTS: dict[str, Any] = {
    "js": [],  # no script from a CDN
    "style": STYLE,
    "width": WIDTH,
    "height": HEIGHT,
    "explicit_size": False,  # a viewBox only: the image scales to its column
    "legend_at_bottom": True,
    "legend_at_bottom_columns": 3,
    "legend_box_size": 14,
    "truncate_legend": 18,
    "truncate_label": 12,
    "margin": 8,
    "spacing": 10,
    "show_y_guides": True,
    "tooltip_fancy_mode": False,
    "disable_xml_declaration": True,
}


@dataclass(frozen=True)
class Chart:
    """A drawn chart: its SVG text and what it shows in words (the image's alt text)."""

    name: str
    title: str
    description: str
    svg: str

    @property
    def data_uri(self) -> str:
        return "data:image/svg+xml;base64," + base64.b64encode(self.svg.encode()).decode()


def palette(*colors: str) -> Style:
    """Our style with other colours, in the order of the chart's series."""
    style = copy.copy(STYLE)
    style.colors = colors
    return style


def new_chart(kind: type[Any], **options: Any) -> Any:
    """A pygal chart of ``kind`` (``pygal.Bar``, ``pygal.Line``, ...) with our settings."""
    return kind(**{**DEFAULTS, **options})


def integer_ticks(highest: int, most: int = 6) -> list[int]:
    """The y-axis labels of a chart of counts: whole numbers from 0 to at least ``highest``,
    at most ``most`` + 1 of them, a step of 1, 2 or 5 times a power of ten (pygal's own
    ticks fall between the numbers, and printed whole they repeat: 0, 0, 1, 1, 2)."""
    highest = max(highest, 1)
    power = 1
    while True:
        for factor in (1, 2, 5):
            step = factor * power
            if -(-highest // step) <= most:
                return list(range(0, -(-highest // step) * step + 1, step))
        power *= 10


def _room_for_the_legend(chart: Any) -> None:
    """pygal reserves ``series // columns`` lines for a legend below the chart, rounded
    down: none for fewer series than columns, one line short for a last line not full. Use
    no more columns than series, and add the missing lines to the bottom margin."""
    config = chart.config
    order = len(chart.raw_series)
    if not (config.show_legend and config.legend_at_bottom and order):
        return
    columns = min(config.legend_at_bottom_columns or order, order)
    config.legend_at_bottom_columns = columns
    missing = math.ceil(order / columns) - order // columns
    if missing:
        line = max(config.style.legend_font_size, config.legend_box_size) * 1.5
        config.margin_bottom = (config.margin_bottom or config.margin) + missing * line


def svg_text(chart: Any, name: str, title: str) -> str:
    """The chart as standalone SVG: its id from ``name``, ``title`` as its <title>, no
    script, no comment."""
    chart.uuid = name  # pygal's random id, used in the chart's CSS selectors
    _room_for_the_legend(chart)
    root = chart.render_tree()
    for parent in list(root.iter()):
        for child in list(parent):
            if child.tag in (f"{{{SVG_NS}}}script", "script") or child.tag is ElementTree.Comment:
                parent.remove(child)
        if parent.tag in (f"{{{SVG_NS}}}title", "title"):
            parent.text = title
    root.set("role", "img")
    return ElementTree.tostring(root, encoding="unicode")


def chart(name: str, title: str, description: str, drawn: Any) -> Chart:
    """A ``Chart`` of the pygal chart ``drawn``."""
    return Chart(name, title, description, svg_text(drawn, name, title))


__all__ = ["Chart", "chart", "integer_ticks", "new_chart", "palette", "pygal", "svg_text"]

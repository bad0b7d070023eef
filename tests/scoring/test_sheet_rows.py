"""``{% sheet_row %}`` draws what the sheet's row include drew, byte for byte (the include
kept here as it was), for every kind of row, in German and English."""

from __future__ import annotations

import itertools
from typing import Any

import pytest
from django.template import Context, Engine, Template
from django.template.loader import get_template
from django.utils.translation import override

from scoring.models import Game
from scoring.sheet_page import SheetRow
from scoring.templatetags.sheet_rows import sheet_row

#: ``templates/scoring/_sheet_row.html`` as it was.
WAS = Template(
    """{% load i18n %}{# One game of the sheet, shared by the captain page and the outbox's answer (row_html). #}
<tr data-number="{{ row.game.number }}" class="{% if row.game.record.compulsory %}compulsory{% endif %}{% if marked and row.game.number == marked %} editing{% endif %}{% if row.provisional %} provisional{% endif %}">
  <td class="num game-no">{% if can_correct %}<a href="{{ base }}spiel/{{ row.game.number }}/" aria-label="{% blocktranslate with n=row.game.number %}Correct game {{ n }}{% endblocktranslate %}"><span aria-hidden="true">✎</span>&thinsp;{{ row.game.number }}</a>{% else %}{{ row.game.number }}{% endif %}{% if row.provisional %} <small class="provisional-mark" title="{% translate 'provisional until the referee rules' %}">{% translate "provisional" %}</small>{% endif %}</td>
  {% for p in row.points %}<td class="num{% if p > 0 %} pos{% endif %}">{{ p }}</td>{% endfor %}
  <td class="num">{{ row.game.value }}{% if row.game.record.contract == "solo" %} <abbr title="{% if row.game.record.compulsory %}{% translate 'compulsory solo' %}{% else %}{% translate 'solo' %}{% endif %}">{% if row.game.record.compulsory %}P{% else %}S{% endif %}</abbr>{% endif %}</td>
</tr>
""",  # noqa: E501
    engine=Engine.get_default(),
)

RECORDS: list[dict[str, Any]] = [
    {"contract": "normal", "re": [1, 3], "re_points": 130},
    {"contract": "solo", "solo": "damen", "re": [2], "re_points": 121},
    {"contract": "solo", "solo": "buben", "re": [4], "re_points": 90, "compulsory": True},
    {"contract": "hochzeit", "re": [1], "re_points": 151},
    {},
]
POINTS = [(2, -2, 2, -2), (-9, 3, 3, 3), (0, 0, 0, 0, 0), (12, -4, -4, 0, -4)]


@pytest.mark.parametrize("language", ["de", "en"])
def test_every_row_as_the_include_drew_it(language: str) -> None:
    cases = itertools.product(
        RECORDS, POINTS, (False, True), (None, "", 7, 8), (False, True), ("/tisch/a&b/", "")
    )
    drawn = 0
    with override(language):
        for record, points, provisional, marked, can_correct, base in cases:
            game = Game(number=7, record=record, value=-3 if record else 0)
            row = SheetRow(game, points, (), provisional)
            context = {"row": row, "marked": marked, "can_correct": can_correct, "base": base}
            assert sheet_row(row, marked, can_correct, base) == WAS.render(Context(context))
            drawn += 1
    assert drawn == 5 * 4 * 2 * 4 * 2 * 2


def test_the_tag_in_a_template_and_the_include_gone() -> None:
    game = Game(number=3, record=RECORDS[2], value=12)
    row = SheetRow(game, (36, -12, -12, -12), ())
    template = Template(
        "{% load sheet_rows %}{% sheet_row row 3 True '/b/' %}", engine=Engine.get_default()
    )
    assert template.render(Context({"row": row})) == sheet_row(row, 3, True, "/b/")
    assert 'class="compulsory editing"' in sheet_row(row, 3, True, "/b/")
    with pytest.raises(Exception, match="_sheet_row"):
        get_template("scoring/_sheet_row.html")


@pytest.mark.parametrize("count", [0, 1, 3])
def test_the_rows_as_the_loop_over_the_rows_drew_them(count: int) -> None:
    """``{% sheet_rows %}`` in place of ``{% for %}`` and ``{% sheet_row %}``: the same text."""
    rows = [
        SheetRow(Game(number=n, record=RECORDS[n % 5], value=n), POINTS[n % 4], (), n == 2)
        for n in range(1, count + 1)
    ]
    loop = Template(
        "{% load sheet_rows %}<tbody>\n  {% for row in rows %}\n"
        "    {% sheet_row row 2 True '/b/' %}\n  {% endfor %}\n  </tbody>",
        engine=Engine.get_default(),
    )
    one = Template(
        "{% load sheet_rows %}<tbody>\n  {% sheet_rows rows 2 True '/b/' %}\n  </tbody>",
        engine=Engine.get_default(),
    )
    context = {"rows": rows}
    assert one.render(Context(context)) == loop.render(Context(context))
    assert one.render(Context(context)).count("<tr ") == count

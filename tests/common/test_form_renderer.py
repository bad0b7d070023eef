"""The Python widget renderer draws exactly what Django's widget templates draw."""

from __future__ import annotations

import datetime
from typing import Any

import pytest
from django import forms
from django.conf import settings
from django.forms.renderers import DjangoTemplates
from django.utils.safestring import mark_safe
from django.utils.translation import gettext_lazy, override
from hypothesis import given
from hypothesis import strategies as st

from common import form_renderer
from common.form_renderer import DRAWN, WidgetRenderer
from scoring.forms import GameForm, TranscriptionForm

DJANGO = DjangoTemplates()
OURS = WidgetRenderer()
TRICKY = "Ä & <b>\"x\"</b> 'y'"
CHOICES: list[Any] = [
    ("", "—"),
    ("a", TRICKY),
    (3, gettext_lazy("Game type")),
    ("Gruppe", [("g1", "eins"), ("g2", mark_safe("<i>zwei</i>"))]),
]
ATTRS: dict[str, Any] = {
    "class": "count",
    "data-flag": True,
    "hidden": False,
    "placeholder": TRICKY,
    "data-safe": mark_safe("<ok>"),
    "data-none": None,
    "data-tuple": (1, 2),
    "data-number": 1.5,
}

WIDGETS: list[tuple[forms.Widget, Any]] = [
    (forms.TextInput(attrs=ATTRS), TRICKY),
    (forms.TextInput(), None),
    (forms.TextInput(), mark_safe("<safe>")),
    (forms.NumberInput(attrs={"inputmode": "numeric", "pattern": "[0-9]*"}), 17),
    (forms.NumberInput(), 1.25),
    (forms.EmailInput(), "a@b.de"),
    (forms.URLInput(), "https://x.de/?a=1&b=2"),
    (forms.PasswordInput(render_value=True), "geheim"),
    (forms.PasswordInput(), "geheim"),
    (forms.HiddenInput(), "k<e>y"),
    (forms.DateInput(), datetime.date(2026, 11, 28)),
    (forms.DateTimeInput(), datetime.datetime(2026, 11, 28, 10, 30)),
    (forms.TimeInput(), datetime.time(9, 5)),
    (forms.CheckboxInput(), True),
    (forms.CheckboxInput(attrs={"class": "x"}), False),
    (forms.Textarea(attrs=ATTRS), "Zeile 1\nZeile <2>"),
    (forms.Textarea(), ""),
    (forms.Select(choices=CHOICES, attrs=ATTRS), "a"),
    (forms.Select(choices=CHOICES), "g2"),
    (forms.NullBooleanSelect(), None),
    (forms.SelectMultiple(choices=CHOICES), ["a", "g1"]),
    (forms.RadioSelect(choices=CHOICES, attrs={"id": "id_r", "class": "pick"}), "a"),
    (forms.RadioSelect(choices=CHOICES), 3),
    (forms.CheckboxSelectMultiple(choices=CHOICES, attrs={"id": "id_c"}), ["a", "g2"]),
    (forms.CheckboxSelectMultiple(choices=[]), []),
]


@pytest.mark.parametrize("language", ["de", "en"])
@pytest.mark.parametrize(("widget", "value"), WIDGETS, ids=lambda w: type(w).__name__)
def test_each_widget_as_djangos_templates_draw_it(widget: Any, value: Any, language: str) -> None:
    with override(language):
        expected = widget.render("feld", value, attrs={"id": "id_feld"}, renderer=DJANGO)
        assert widget.render("feld", value, attrs={"id": "id_feld"}, renderer=OURS) == expected
        bare = widget.render("f", value, renderer=DJANGO)
        assert widget.render("f", value, renderer=OURS) == bare


def test_every_template_drawn_is_one_django_ships() -> None:
    assert OURS.drawn == frozenset(DRAWN)
    for name in DRAWN:
        assert DJANGO.get_template(name) is not None


text = st.text(alphabet=st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=12)


@given(
    name=text,
    value=st.one_of(st.none(), text, st.integers()),
    attrs=st.dictionaries(
        st.text(alphabet="abcdefgh-", min_size=1, max_size=6),
        st.one_of(st.booleans(), st.none(), text, st.integers()),
        max_size=4,
    ),
    labels=st.lists(text, min_size=1, max_size=4),
)
def test_any_text_is_drawn_and_escaped_alike(
    name: str, value: Any, attrs: dict[str, Any], labels: list[str]
) -> None:
    choices = [(str(i), label) for i, label in enumerate(labels)]
    widgets: list[forms.Widget] = [
        forms.TextInput(attrs=attrs),
        forms.Textarea(attrs=attrs),
        forms.Select(choices=choices, attrs=attrs),
        forms.RadioSelect(choices=choices, attrs=attrs),
        forms.CheckboxSelectMultiple(choices=choices, attrs=attrs),
    ]
    for widget in widgets:
        assert widget.render(name, value, renderer=OURS) == widget.render(
            name, value, renderer=DJANGO
        )


SEATS = [(1, "Anna <A>"), (2, "Bernd & Co"), (3, 'Clara "C"'), (4, "Dörte")]


def fields_drawn(form_class: type[forms.Form], data: dict[str, Any] | None, **kwargs: Any) -> None:
    ours = form_class(data, renderer=OURS, **kwargs)
    django = form_class(data, renderer=DJANGO, **kwargs)
    if data is not None:
        ours.is_valid()
        django.is_valid()
    assert [str(field) for field in ours] == [str(field) for field in django]
    assert [str(field.errors) for field in ours] == [str(field.errors) for field in django]


@pytest.mark.parametrize("language", ["de", "en"])
def test_the_game_forms_fields_are_drawn_alike(language: str) -> None:
    """The captain's form as first shown, as typed, and with errors."""
    typed = {"contract": "normal", "re_players": ["1", "9"], "re_points": "300", "re_fuchs": "1"}
    with override(language):
        fields_drawn(GameForm, None, seats=SEATS)
        fields_drawn(GameForm, typed, seats=SEATS)
        fields_drawn(GameForm, {"contract": "solo", "solo": "x<y"}, seats=SEATS[:3])
        fields_drawn(TranscriptionForm, None, seats=SEATS, sitting_out=2)
        fields_drawn(TranscriptionForm, {"points_1": "12", "soloist": "7"}, seats=SEATS)


def test_an_option_of_another_kind_goes_to_the_template_engine() -> None:
    """A radio group whose options use a template not drawn here is drawn by its template."""

    class Listed(forms.RadioSelect):
        option_template_name = "django/forms/widgets/attrs.html"

    widget = Listed(choices=[("a", "A"), ("b", "B")])
    assert widget.render("f", "a", renderer=OURS) == widget.render("f", "a", renderer=DJANGO)


def test_an_overridden_template_turns_the_drawing_off(monkeypatch: pytest.MonkeyPatch) -> None:
    """Where an installed app has its own widget templates, none is drawn in Python."""
    monkeypatch.setattr(form_renderer, "SHIPPED", form_renderer.SHIPPED / "elsewhere")
    renderer = WidgetRenderer()
    assert renderer.drawn == frozenset()
    calls: list[str] = []
    monkeypatch.setattr(form_renderer, "input_tag", lambda widget: calls.append("drawn") or "")
    assert "<input" in forms.TextInput().render("f", "x", renderer=renderer)
    assert calls == []


def test_it_is_the_projects_form_renderer() -> None:
    assert settings.FORM_RENDERER == "common.form_renderer.WidgetRenderer"

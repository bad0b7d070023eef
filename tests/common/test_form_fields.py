"""``{% form_field %}`` and ``{% field_errors %}`` draw what the template includes they
replaced drew, byte for byte (the includes kept here as they were), for every kind of field
the product's forms hold, blank, filled and with errors, in German and English."""

from __future__ import annotations

from typing import Any

import pytest
from django import forms
from django.template import Context, Engine, Template
from django.template.loader import get_template
from django.utils.safestring import mark_safe
from django.utils.translation import gettext_lazy, override
from hypothesis import given, settings
from hypothesis import strategies as st

from common.form_fields import field_errors, form_field
from scoring.forms import GameForm, TranscriptionForm

#: ``templates/includes/field.html`` as it was.
FIELD_INCLUDE = """{% comment %}One form field with its label, help and errors right next to it.{% endcomment %}
{% if field.is_hidden %}{{ field }}{% else %}
{% if field.widget_type == "checkbox" %}
<label for="{{ field.id_for_label }}">{{ field }} {{ field.label }}</label>
{% elif field.widget_type == "checkboxselectmultiple" %}
<fieldset><legend>{{ field.label }}</legend>{% for box in field %}<label>{{ box.tag }} {{ box.choice_label }}</label>{% endfor %}</fieldset>
{% else %}
<label for="{{ field.id_for_label }}">{{ field.label }}{% if field.field.required %} <span aria-hidden="true">*</span>{% endif %}</label>
{% if field.errors %}{{ field.as_widget }}{% else %}{{ field }}{% endif %}
{% endif %}
{% if field.errors %}<ul class="field-error" id="{{ field.auto_id }}-errors">{% for e in field.errors %}<li>{{ e }}</li>{% endfor %}</ul>{% endif %}
{% if field.help_text %}<small>{{ field.help_text }}</small>{% endif %}
{% endif %}
"""  # noqa: E501
#: ``templates/scoring/_errors.html`` as it was.
ERRORS_INCLUDE = """{% if field.errors %}<ul class="field-error" role="alert">{% for e in field.errors %}<li>{{ e }}</li>{% endfor %}</ul>{% endif %}
"""  # noqa: E501

ENGINE = Engine.get_default()
WAS_FIELD = Template(FIELD_INCLUDE, engine=ENGINE)
WAS_ERRORS = Template(ERRORS_INCLUDE, engine=ENGINE)
TRICKY = "Ä & <b>\"x\"</b> 'y'"


def was(template: Template, field: Any) -> str:
    return template.render(Context({"field": field}))


class Everything(forms.Form):
    """A field of each kind the product's forms use."""

    name = forms.CharField(label=TRICKY, help_text=TRICKY, max_length=5)
    note = forms.CharField(required=False, widget=forms.Textarea, help_text=mark_safe("<i>ok</i>"))
    count = forms.IntegerField(label=gettext_lazy("Game type"), min_value=1, max_value=9)
    kind = forms.ChoiceField(choices=[("", "—"), ("a", TRICKY), ("b", "B")])
    side = forms.ChoiceField(choices=[("re", "Re"), ("ko", "Kontra")], widget=forms.RadioSelect)
    agree = forms.BooleanField(label=TRICKY, help_text="Hilfe")
    optional_box = forms.BooleanField(required=False)
    seats = forms.MultipleChoiceField(
        label=TRICKY,
        choices=[("1", "Anna <1>"), ("2", "Bernd & Co")],
        widget=forms.CheckboxSelectMultiple,
        help_text="zwei",
    )
    key = forms.CharField(widget=forms.HiddenInput, required=False)
    day = forms.DateField(required=False, show_hidden_initial=True)
    amount = forms.DecimalField(required=False, localize=True, decimal_places=2)

    def clean_name(self) -> str:
        raise forms.ValidationError([TRICKY, mark_safe("<b>sicher</b>")])


GOOD = {
    "name": "abc",
    "count": "3",
    "kind": "a",
    "side": "re",
    "agree": "on",
    "seats": ["1", "2"],
    "key": "k<e>y",
    "amount": "1,50",
}
BAD = {"name": "zu lang <>", "count": "99", "kind": "x", "seats": ["3"], "amount": "a"}


def forms_to_draw() -> list[forms.Form]:
    return [
        Everything(),
        Everything(GOOD),
        Everything(BAD),
        Everything(auto_id=False),
        Everything(BAD, prefix="p"),
        GameForm(seats=[(1, "Anna"), (2, "Bernd"), (3, "Carla"), (4, TRICKY)]),
        GameForm(
            {"contract": "normal", "re_points": "300", "re_players": ["1"]},
            seats=[(1, "Anna"), (2, "Bernd"), (3, "Carla"), (4, "Dieter")],
        ),
        TranscriptionForm(seats=[(1, "Anna"), (2, "Bernd"), (3, "Carla"), (4, "Dieter")]),
        TranscriptionForm(
            {"points_1": "x", "compulsory": "on"},
            seats=[(1, "Anna"), (2, "Bernd"), (3, "Carla"), (4, "Dieter")],
        ),
    ]


@pytest.mark.parametrize("language", ["de", "en"])
def test_every_field_as_the_includes_drew_it(language: str) -> None:
    drawn = 0
    with override(language):
        for form in forms_to_draw():
            form.is_valid()
            for field in form:
                assert form_field(field) == was(WAS_FIELD, field), field.name
                assert field_errors(field) == was(WAS_ERRORS, field)
                drawn += 1
    assert drawn > 40


def test_the_cases_reach_every_branch() -> None:
    """Hidden, check box, check box list and the rest; with errors and help; none empty."""
    form = Everything(BAD)
    form.is_valid()
    kinds = {field.widget_type for field in form}
    assert {"hidden", "checkbox", "checkboxselectmultiple", "radioselect", "select"} <= kinds
    assert form["name"].errors and form["name"].help_text and form["day"].field.show_hidden_initial
    assert '<ul class="field-error" role="alert">' in field_errors(form["name"])
    assert 'id="id_name-errors"' in form_field(form["name"])


def test_the_tags_in_a_template() -> None:
    form = Everything(BAD)
    form.is_valid()
    template = Template(
        "{% load form_fields %}{% form_field form.name %}|{% field_errors form.count %}",
        engine=ENGINE,
    )
    html = template.render(Context({"form": form}))
    assert html == f"{form_field(form['name'])}|{field_errors(form['count'])}"


def test_no_template_includes_the_old_files() -> None:
    for name in ("includes/field.html", "scoring/_errors.html"):
        with pytest.raises(Exception, match=name.replace(".", r"\.")):
            get_template(name)


text = st.text(st.characters(exclude_categories=["Cs"]), max_size=20)


@settings(max_examples=60, deadline=None)
@given(label=text, help_text=text, message=text, value=text, required=st.booleans())
def test_any_text_as_the_includes_drew_it(
    label: str, help_text: str, message: str, value: str, required: bool
) -> None:
    class Any_(forms.Form):
        f = forms.CharField(label=label, help_text=help_text, required=required)

    form = Any_({"f": value})
    form.is_valid()
    form.add_error("f", message or "x")
    assert form_field(form["f"]) == was(WAS_FIELD, form["f"])
    assert field_errors(form["f"]) == was(WAS_ERRORS, form["f"])

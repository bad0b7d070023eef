"""``{% load form_fields %}``: one form field with its label, errors and help, drawn in Python.

``{% form_field field %}`` is a field as every form of the product shows it: its label (a
star when required), the widget, the errors right under it (``<ul class="field-error"
id="<id>-errors">``, the id the widget's ``aria-describedby`` names) and the help text; a
check box inside its label; a list of check boxes in a fieldset with a legend; a hidden field
alone. ``{% field_errors field %}`` is the errors of a field whose widget the template draws
itself (a segmented choice, a table cell), announced (``role="alert"``).

They were template includes; a captain's save renders a form of some thirty fields in its
answer, and an include costs a template context and a node walk per field. The markup is
the includes' byte for byte (``tests/common/test_form_fields.py`` holds them to it).
"""

from __future__ import annotations

from django import template
from django.forms import BoundField
from django.utils.html import conditional_escape, format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe

register = template.Library()
REQUIRED = mark_safe(' <span aria-hidden="true">*</span>')


def _items(field: BoundField) -> SafeString:
    return format_html_join("", "<li>{}</li>", ((e,) for e in field.errors))


@register.simple_tag
def field_errors(field: BoundField) -> SafeString:
    # The line break the include's file ended with, kept: the pages stay as they were.
    if not field.errors:
        return mark_safe("\n")
    return format_html('<ul class="field-error" role="alert">{}</ul>\n', _items(field))


@register.simple_tag
def form_field(field: BoundField) -> SafeString:
    if field.is_hidden:
        return mark_safe(f"\n{field}\n")
    label = conditional_escape(field.label)
    kind = field.widget_type
    if kind == "checkbox":
        control = format_html('\n<label for="{}">{} {}</label>\n', field.id_for_label, field, label)
    elif kind == "checkboxselectmultiple":
        boxes = format_html_join(
            "", "<label>{} {}</label>", ((box.tag(), box.choice_label) for box in field)
        )
        control = format_html("\n<fieldset><legend>{}</legend>{}</fieldset>\n", label, boxes)
    else:
        control = format_html(
            '\n<label for="{}">{}{}</label>\n{}\n',
            field.id_for_label,
            label,
            REQUIRED if field.field.required else "",
            field.as_widget() if field.errors else str(field),
        )
    errors = ""
    if field.errors:
        errors = format_html(
            '<ul class="field-error" id="{}-errors">{}</ul>', field.auto_id, _items(field)
        )
    help_text = format_html("<small>{}</small>", field.help_text) if field.help_text else ""
    return format_html("\n\n{}\n{}\n{}\n\n", control, errors, help_text)

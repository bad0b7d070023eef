"""Django's own widget templates drawn in Python, byte for byte.

Every form field on a page is drawn through Django's template engine: an ``<input>`` is
``input.html`` including ``attrs.html``; a radio group is ``multiple_input.html`` including
``radio_option.html``, ``input_option.html`` and ``input.html`` for each choice. The captain's
game form has some 35 widgets, and drawing them was a third of a save's answer. This renderer
draws the templates Django ships for inputs, option lists, selects and textareas with the same
escaping and the same whitespace; any other template, one an installed app overrides, or a
widget whose context it does not know goes to Django's engine as before.
``tests/common/test_form_renderer.py`` holds the two renderers to equal output.
"""

from __future__ import annotations

import html
from collections.abc import Callable, Mapping
from functools import cached_property
from pathlib import Path
from typing import Any

import django.forms
from django.forms.renderers import DjangoTemplates
from django.template import Context
from django.template.base import render_value_in_context
from django.utils.html import escape
from django.utils.safestring import SafeData

WIDGETS = "django/forms/widgets/"
#: Where Django keeps the templates drawn here; a template found elsewhere is an override.
SHIPPED = Path(django.forms.__file__).parent / "templates"
#: ``{{ value }}`` as the form renderer's engine prints it: localized, autoescaped.
PRINTED = Context(autoescape=True)


class Unknown(Exception):
    """A widget (or one of its options) this module does not draw."""


def printed(value: Any) -> str:
    """``{{ value }}``."""
    if type(value) is str:  # most are: what Django's escape does with them, without its wrappers
        return html.escape(value)
    return str(render_value_in_context(value, PRINTED))


def formatted(value: Any) -> str:
    """``{{ value|stringformat:'s' }}``: safe input stays unescaped, as the filter says."""
    if type(value) is str:
        return html.escape(value)
    try:
        text = "%s" % (str(value) if isinstance(value, tuple) else value)
    except (TypeError, ValueError):
        text = ""
    return text if isinstance(value, SafeData) else str(escape(text))


def attrs(widget: Mapping[str, Any]) -> str:
    """attrs.html (no newline of its own)."""
    out = []
    for name, value in widget["attrs"].items():
        if value is not False:
            out.append(" " + printed(name))
            if value is not True:
                out.append('="' + formatted(value) + '"')
    return "".join(out)


def input_tag(widget: Mapping[str, Any]) -> str:
    """input.html."""
    value = widget.get("value")
    # The template's own test (``!= None``): a value whose ``__ne__`` says otherwise is shown.
    shown = f' value="{formatted(value)}"' if value != None else ""  # noqa: E711
    kind, name = printed(widget["type"]), printed(widget["name"])
    return f'<input type="{kind}" name="{name}"{shown}{attrs(widget)}>\n'


def input_option(widget: Mapping[str, Any]) -> str:
    """input_option.html: an option's input, wrapped in its label."""
    if not widget.get("wrap_label"):
        return input_tag(widget) + "\n"
    target = widget["attrs"].get("id")
    for_ = f' for="{printed(target)}"' if target else ""
    return f"<label{for_}>{input_tag(widget)} {printed(widget['label'])}</label>\n"


def multiple_input(widget: Mapping[str, Any]) -> str:
    """multiple_input.html: radio buttons or check boxes, one ``<div>`` each."""
    own = widget["attrs"]
    out = ["<div"]
    if own.get("id"):
        out.append(f' id="{printed(own["id"])}"')
    if own.get("class"):
        out.append(f' class="{printed(own["class"])}"')
    out.append(">")
    for group, options, _index in widget["optgroups"]:
        if group:
            out.append(f"\n  <div><label>{printed(group)}</label>")
        out += ["<div>\n    " + included(option) + "</div>" for option in options]
        if group:
            out.append("\n  </div>")
    out.append("\n</div>\n")
    return "".join(out)


def select(widget: Mapping[str, Any]) -> str:
    """select.html."""
    out = [f'<select name="{printed(widget["name"])}"{attrs(widget)}>']
    for group, options, _index in widget["optgroups"]:
        if group:
            out.append(f'\n  <optgroup label="{printed(group)}">')
        out += ["\n  " + included(option) for option in options]
        if group:
            out.append("\n  </optgroup>")
    out.append("\n</select>\n")
    return "".join(out)


def select_option(widget: Mapping[str, Any]) -> str:
    """select_option.html."""
    return (
        f'<option value="{formatted(widget["value"])}"{attrs(widget)}>'
        f"{printed(widget['label'])}</option>\n"
    )


def textarea(widget: Mapping[str, Any]) -> str:
    """textarea.html."""
    value = printed(widget["value"]) if widget["value"] else ""
    return f'<textarea name="{printed(widget["name"])}"{attrs(widget)}>\n{value}</textarea>\n'


def _then_newline(draw: Callable[[Mapping[str, Any]], str]) -> Callable[[Mapping[str, Any]], str]:
    """A template that is only ``{% include … %}`` and its file's last newline."""
    return lambda widget: draw(widget) + "\n"


#: The input types whose template is only ``{% include "…/input.html" %}``.
INPUTS = (
    "checkbox", "color", "date", "datetime", "email", "file", "hidden", "number", "password",
    "search", "tel", "text", "time", "url",
)  # fmt: skip
DRAWN: dict[str, Callable[[Mapping[str, Any]], str]] = {
    **{f"{WIDGETS}{name}.html": _then_newline(input_tag) for name in INPUTS},
    f"{WIDGETS}input.html": input_tag,
    f"{WIDGETS}input_option.html": input_option,
    f"{WIDGETS}radio_option.html": _then_newline(input_option),
    f"{WIDGETS}checkbox_option.html": _then_newline(input_option),
    f"{WIDGETS}multiple_input.html": multiple_input,
    f"{WIDGETS}radio.html": _then_newline(multiple_input),
    f"{WIDGETS}checkbox_select.html": _then_newline(multiple_input),
    f"{WIDGETS}select.html": select,
    f"{WIDGETS}select_option.html": select_option,
    f"{WIDGETS}textarea.html": textarea,
}


def included(option: Mapping[str, Any]) -> str:
    """``{% include option.template_name with widget=option %}``."""
    draw = DRAWN.get(option.get("template_name", ""))
    if draw is None:
        raise Unknown(option.get("template_name"))
    return draw(option)


class WidgetRenderer(DjangoTemplates):
    """``FORM_RENDERER``: Django's template renderer, with its own widget templates in Python."""

    @cached_property
    def drawn(self) -> frozenset[str]:
        """The templates drawn here that no installed app overrides (the form renderer's
        engine looks into every app's ``templates``)."""
        found = set()
        for name in DRAWN:
            origin = Path(self.get_template(name).origin.name)
            if origin.is_relative_to(SHIPPED):
                found.add(name)
        # A drawn template includes the others: one override and none is drawn.
        return frozenset(found) if len(found) == len(DRAWN) else frozenset()

    def render(self, template_name: str, context: dict[str, Any], request: Any = None) -> str:
        if template_name in self.drawn:
            try:
                return DRAWN[template_name](context["widget"]).strip()
            except (KeyError, Unknown):
                pass  # not a widget of Django's own kind: its template draws it
        return super().render(template_name, context, request)

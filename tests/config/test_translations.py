"""Every German string is translated, and the committed .mo matches the .po."""

import ast
import gettext
from pathlib import Path

LOCALE = Path(__file__).resolve().parents[2] / "locale" / "de" / "LC_MESSAGES"


def _entries() -> list[tuple[str, list[str]]]:
    """(msgid, msgstr forms) of the German catalogue, header excluded."""
    entries: list[tuple[str, list[str]]] = []
    msgid: list[str] = []
    forms: list[list[str]] = []
    target: list[str] | None = None
    fuzzy = False

    def flush() -> None:
        nonlocal fuzzy
        if msgid and "".join(msgid) and not fuzzy:
            entries.append(("".join(msgid), ["".join(f) for f in forms]))
        msgid.clear()
        forms.clear()
        fuzzy = False

    for line in [*(LOCALE / "django.po").read_text().splitlines(), ""]:
        if not line.strip():
            flush()
            target = None
        elif line.startswith("#,") and "fuzzy" in line:
            fuzzy = True
        elif line.startswith("msgid "):
            target = msgid
            target.append(ast.literal_eval(line[6:]))
        elif line.startswith("msgid_plural "):
            target = None
        elif line.startswith("msgstr"):
            forms.append([ast.literal_eval(line.split(" ", 1)[1])])
            target = forms[-1]
        elif line.startswith('"') and target is not None:
            target.append(ast.literal_eval(line))
    return entries


def test_every_german_string_is_translated() -> None:
    missing = [msgid for msgid, forms in _entries() if not all(forms)]
    assert not missing, missing


def test_compiled_catalogue_matches_po() -> None:
    with (LOCALE / "django.mo").open("rb") as handle:
        catalogue = gettext.GNUTranslations(handle)
    stale = [
        msgid
        for msgid, forms in _entries()
        if len(forms) == 1 and catalogue.gettext(msgid) != forms[0]
    ]
    assert not stale, f"run `make messages`; stale: {stale[:5]}"

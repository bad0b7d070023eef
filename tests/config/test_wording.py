"""How the interface speaks (docs/wording.md): German says "Sie" and is neutral where the
person's gender is unknown; a count next to a noun takes the noun's singular or plural from
``ngettext`` / ``{% blocktranslate count %}``, never a fixed form."""

from __future__ import annotations

import re

import pytest
from django.template import Context, Template
from django.utils import translation

from tests.config.test_translations import ROOT, Entry, catalogue, entries
from tournaments.services.draw import repeated_encounters, what_to_do

GERMAN = entries(catalogue("de"))

# "du" and its forms, and the familiar imperatives the catalogue once had ("Finde", "Warte").
FAMILIAR = re.compile(
    r"\b(du|dein|deine|deinen|deinem|deiner|deines|dir|dich|euch|euer|eure|euren|eurem)\b"
    r"|^(Finde|Warte|Erzeuge|Wähle|Gib|Trage|Tippe|Scanne|Öffne|Prüfe|Lies|Nimm|Sieh|Melde)\b",
    re.IGNORECASE | re.MULTILINE,
)
# His/her for a person whose gender is unknown ("alle seine Turniere"): a team, a table or a
# tournament may have "seine"; a player may not.
GENDERED = re.compile(r"\b(he|his|him|himself|she|her|herself)\b", re.IGNORECASE)


def test_the_german_interface_says_sie_throughout() -> None:
    familiar = [(e.msgid, form) for e in GERMAN for form in e.forms if FAMILIAR.search(form)]
    assert not familiar, familiar


def test_the_catalogue_is_neutral_where_gender_is_unknown() -> None:
    # The English msgids are the source of every language: no he/his/him for a person.
    gendered = [e.msgid for e in GERMAN if GENDERED.search(e.msgid)]
    assert not gendered, gendered
    assert not [e for e in GERMAN if "alle seine" in " ".join(e.forms)]


# German nouns whose singular and plural differ, as they follow a number.
COUNTED = (
    "Serie|Serien|Tisch|Tische|Tischen|Spiel|Spiele|Turnier|Turniere|Turnieren|Minute|"
    "Minuten|Sekunde|Sekunden|Stunde|Stunden|Mannschaft|Mannschaften|Eintrag|Einträge|"
    "Seite|Seiten|Punkt|Punkte|Punkten|Wertungspunkt|Wertungspunkte|Siegpunkt|Siegpunkte|"
    "Spielpunkt|Spielpunkte|Spielpunkten|Wiederbegegnung|Wiederbegegnungen|Begegnung|"
    "Begegnungen|Paar|Paare|Spielern|Zeile|Zeilen|Gruppe|Gruppen|Spieltag|Spieltage|Datei|"
    "Dateien|Solo|Soli|Problem|Probleme|Änderung|Änderungen|Platz|Plätze|Tag|Tage"
)
# A placeholder that counts (not "Serie %(number)s", "Tisch %(table)s"), then a noun,
# possibly after an adjective ("%(n)d wiederholte Begegnungen", "%(n)d anwesende Spieler").
COUNT_THEN_NOUN = re.compile(
    r"%\((?!number|series|table|seat|place|game|page|day|group|year|seed|version)\w+\)[ds]"
    r"\s+(?:[a-zäöüß]+e[nrs]?\s+)?(" + COUNTED + r")\b"
)
# Entries whose count never is 1 or whose noun is the one governed by another count.
FIXED_COUNTS = {
    "%(actual)s of %(expected)s games entered.",  # "von 24 Spielen": expected is 24 or 30
    "Expected a list of at most %(limit)d entries.",  # limits are constants above 1
    "Nachspielzeit is 1 to %(max)d minutes at a time.",  # "1 bis 15 Minuten"
    "Nachspielzeit is 0 to %(max)d minutes.",  # a referee's ruling: "0 bis 60 Minuten"
    "Give the points for place 1, 2, 3, … as whole numbers of at least 0 (at most %(n)d places).",
}


def counted_without_plural(entry: Entry) -> list[str]:
    if entry.plural or entry.msgid in FIXED_COUNTS:
        return []
    return [m.group(0) for form in entry.forms for m in COUNT_THEN_NOUN.finditer(form)]


def test_no_count_stands_next_to_a_fixed_noun_form_in_the_catalogue() -> None:
    fixed = {e.msgid: found for e in GERMAN if (found := counted_without_plural(e))}
    assert not fixed, fixed


def test_the_scan_finds_a_fixed_form() -> None:
    assert counted_without_plural(Entry("x", forms=["Zeit an %(n)d Tischen abgepfiffen"]))
    assert counted_without_plural(Entry("x", forms=["%(repeats)d wiederholte Begegnungen"]))
    assert not counted_without_plural(Entry("x", forms=["Serie %(number)d, Tisch %(table)d"]))
    assert not counted_without_plural(
        Entry("x", plural="xs", forms=["%(n)d Tisch", "%(n)d Tische"])
    )


# In templates: a number printed before a translated noun, outside any blocktranslate
# ("{{ tournament.series_count }}</h3><p>{% translate "series" %}").
TEMPLATE_COUNT = re.compile(
    r"\{\{\s*[\w.]+(\|length)?\s*\}\}(\s|<[^>]+>)*\{%\s*translate\s+\"(series|tables?|games?|"
    r"players?|points?|tournaments?|minutes?|teams?|match days?|pages?|solos?)\"",
)


def test_no_template_prints_a_number_before_a_fixed_noun() -> None:
    found = [
        f"{path.relative_to(ROOT)}: {m.group(0)}"
        for path in (ROOT / "templates").rglob("*.html")
        for m in TEMPLATE_COUNT.finditer(path.read_text())
    ]
    assert not found, found


@pytest.mark.parametrize(
    ("count", "german"), [(1, "1 Wiederbegegnung"), (2, "2 Wiederbegegnungen")]
)
def test_counts_one_and_two_take_their_own_forms(count: int, german: str) -> None:
    with translation.override("de"):
        assert repeated_encounters(count) == german
        assert what_to_do(count, None) == f"Checken Sie {count} Spieler mehr ein."
        html = Template(
            '{% load i18n %}{% blocktranslate context "how many" count n=n %}series'
            "{% plural %}series{% endblocktranslate %}"
        ).render(Context({"n": count}))
        assert html == ("Serie" if count == 1 else "Serien")
    with translation.override("en"):
        assert repeated_encounters(count).endswith("encounter" if count == 1 else "encounters")

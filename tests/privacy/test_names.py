"""The published name (design decision 13): the pure function and the one place that
applies it, with the database's rule for minors."""

from __future__ import annotations

import datetime

import pytest
from django.db import IntegrityError, transaction
from django.utils import translation
from hypothesis import given
from hypothesis import strategies as st

from scoring.standings import overall_standings
from tests.factories import RE_WINS, build_world, make_tournament, make_user, play
from tournaments.models import NameForm, Player
from tournaments.names import ANONYMOUS, FULL, INITIAL, public_name
from tournaments.publication import (
    AnonymousLabels,
    anonymous_label,
    retention_ends,
    retention_expired,
    shown_name,
    shown_names,
)

name = st.text(st.characters(categories=("L",)), min_size=1, max_size=20)
LABEL = "Spieler 17"


@given(first=name, last=name)
def test_full_name_is_first_and_last(first: str, last: str) -> None:
    assert public_name(first, last, FULL, anonymous_label=LABEL) == f"{first} {last}"


@given(first=name, last=name)
def test_initial_keeps_only_the_first_letter_of_the_last_name(first: str, last: str) -> None:
    shown = public_name(first, last, INITIAL, anonymous_label=LABEL)
    assert shown == f"{first} {last[0]}."
    if len(last) > 1 and last not in first:
        assert last not in shown


@given(first=name, last=name, form=st.sampled_from([ANONYMOUS, "", "unknown"]))
def test_anonymous_and_unknown_forms_show_nothing_of_the_name(
    first: str, last: str, form: str
) -> None:
    assert public_name(first, last, form, anonymous_label=LABEL) == LABEL


@given(
    first=st.sampled_from(["", " ", "Anna"]),
    last=st.sampled_from(["", " ", "Schmidt"]),
    form=st.sampled_from([FULL, INITIAL, ANONYMOUS, "unknown"]),
    number=st.none() | st.integers(0, 500),
    keeper=st.booleans(),
    expired=st.booleans(),
    language=st.sampled_from(["de", "en"]),
)
def test_a_tables_labels_give_every_name_as_the_definition(
    first: str,
    last: str,
    form: str,
    number: int | None,
    keeper: bool,
    expired: bool,
    language: str,
) -> None:
    """Standings translate the anonymous label once per table and ask for it only where
    the name is not shown: the same names as the label made for each player."""
    with translation.override(language):
        if keeper and (first or last):
            expected = f"{first} {last}".strip()
        else:
            shown_form = ANONYMOUS if expired else form
            expected = public_name(first, last, shown_form, anonymous_label=anonymous_label(number))
        labels = AnonymousLabels()
        assert shown_name(first, last, form, number, keeper=keeper, expired=expired) == expected
        assert shown_name(
            first, last, form, number, keeper=keeper, expired=expired, labels=labels
        ) == expected  # fmt: skip


@given(
    people=st.lists(
        st.tuples(
            st.sampled_from(["", " ", "Anna", " Anna ", "Jürgen\t"]),
            st.sampled_from(["", " ", "Schmidt", "Schmidt ", " de Vries"]),
            st.sampled_from([FULL, INITIAL, ANONYMOUS, "unknown"]),
            st.none() | st.integers(0, 500),
        ),
        max_size=12,
    ),
    keeper=st.booleans(),
    expired=st.booleans(),
)
def test_a_tables_names_at_once_are_each_players_shown_name(
    people: list[tuple[str, str, str, int | None]], keeper: bool, expired: bool
) -> None:
    """The standings name thousands of players in one call: the same names, in the same
    order, as asking for each."""
    with translation.override("de"):
        expected = [shown_name(*person, keeper=keeper, expired=expired) for person in people]
        firsts, lasts, forms, numbers = ([person[i] for person in people] for i in range(4))
        names = shown_names(
            firsts, lasts, forms, numbers, keeper=keeper, expired=expired, labels=AnonymousLabels()
        )
    assert names == expected


def test_the_model_choices_are_the_pure_cores_forms() -> None:
    assert {c.value for c in NameForm} == {FULL, INITIAL, ANONYMOUS}


@pytest.mark.django_db
def test_a_minor_is_published_only_with_his_guardians_consent() -> None:
    with pytest.raises(IntegrityError), transaction.atomic():
        Player.objects.create(first_name="Tim", last_name="Jung", minor=True)
    with pytest.raises(IntegrityError), transaction.atomic():
        Player.objects.create(
            first_name="Tim", last_name="Jung", minor=True, name_form=NameForm.INITIAL
        )
    Player.objects.create(first_name="Tim", last_name="Jung", minor=True, name_form="anonymous")
    Player.objects.create(first_name="Tom", last_name="Jung", minor=True, guardian_consent=True)


@pytest.mark.django_db
def test_standings_follow_consent_except_for_the_keeper() -> None:
    tournament = make_tournament("cup", organizers=[make_user("orga")])
    names = [("Anna", "Schmidt"), ("Bernd", "Meier"), ("Carla", "Weber"), ("Dieter", "Roth")]
    world = build_world(tournament, (4,), names=names)
    play(world.tables[0], [{**RE_WINS, "dealer": 1}])
    forms = {"Schmidt": "initial", "Meier": "anonymous"}
    for last, form in forms.items():
        Player.objects.filter(last_name=last).update(name_form=form)
    public = {line["start_number"]: line["name"] for line in overall_standings(tournament)}
    keeper = {
        line["start_number"]: line["name"] for line in overall_standings(tournament, keeper=True)
    }
    assert public == {1: "Anna S.", 2: "Spieler 2", 3: "Carla Weber", 4: "Dieter Roth"}
    assert keeper == {1: "Anna Schmidt", 2: "Bernd Meier", 3: "Carla Weber", 4: "Dieter Roth"}


@pytest.mark.django_db
def test_after_the_clubs_period_everyone_is_anonymous() -> None:
    tournament = make_tournament("old", organizers=[make_user("orga")])
    tournament.starts_on = datetime.date(2020, 2, 29)
    tournament.save()
    build_world(tournament, (4,))
    club = tournament.club
    assert retention_ends(tournament) == datetime.date(2022, 2, 28)
    assert retention_expired(tournament, datetime.date(2022, 2, 28))
    assert not retention_expired(tournament, datetime.date(2022, 2, 27))
    names = {line["name"] for line in overall_standings(tournament)}
    assert names == {"Spieler 1", "Spieler 2", "Spieler 3", "Spieler 4"}
    club.publication_years = 0
    club.save()
    tournament.refresh_from_db()
    assert retention_ends(tournament) is None
    assert "Vorname1 Nachname1" in {line["name"] for line in overall_standings(tournament)}


@pytest.mark.django_db
def test_the_command_lists_and_clears_what_the_period_hides() -> None:
    from io import StringIO

    from django.core.files.base import ContentFile
    from django.core.management import call_command

    from documents.models import GeneratedDocument

    old = make_tournament("alt", organizers=[make_user("orga")], name="Altpokal")
    old.starts_on = datetime.date(2021, 5, 1)
    old.save()
    make_tournament("neu", organizers=[make_user("orgb")])  # this year's: not listed
    stored = GeneratedDocument.objects.create(
        tournament=old, kind="results", language="de", fingerprint="y" * 64
    )
    stored.file.save("old.pdf", ContentFile(b"%PDF"), save=True)
    made = datetime.datetime(2022, 6, 1, tzinfo=datetime.UTC)  # before the period ended
    GeneratedDocument.objects.filter(pk=stored.pk).update(created_at=made)
    out = StringIO()
    call_command("publication_period", "--dry-run", stdout=out)
    assert "alt: Altpokal, anonymized since 2023-05-01" in out.getvalue()
    assert "neu" not in out.getvalue() and GeneratedDocument.objects.filter(pk=stored.pk).exists()
    out = StringIO()
    call_command("publication_period", stdout=out)
    assert "1 stored documents deleted" in out.getvalue()
    assert not GeneratedDocument.objects.filter(pk=stored.pk).exists()

"""The knockout's pages: the owner's (settings and start, a tie's decision with its message
next to the field and the choice kept, the next round) and the public bracket (symbol and
word for who advances, "Entscheidung nötig", byes, the champion; 404 for a private league
to anyone but its owner)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User

from teams import bracket as bracket_module
from teams.models import League, Team
from tests.documents.pdftools import pdf_text
from tests.factories import page_client
from tests.teams.knockouts import give_result, group_stage_done, round_groups, start

pytestmark = pytest.mark.django_db

OWNER = "/verwaltung/ligen/liga/ko/"
PUBLIC = "/ligen/liga/ko/"


def test_the_owner_starts_the_knockout_from_the_page(alice: User, bob: User) -> None:
    league, _teams, _squads = group_stage_done(alice, 8, slug="liga")
    client = page_client(alice)
    page = client.get(OWNER)
    assert page.status_code == 200 and 'value="start"' in page.content.decode()
    assert page_client(bob).get(OWNER).status_code == 403
    wrong = client.post(
        OWNER, {"action": "start", "match_size": 2, "advance": 2, "seeding": "draw", "seed": 5}
    )
    body = wrong.content.decode()
    assert wrong.status_code == 400
    assert 'id="id_advance-errors"' in body and "Von 2 Mannschaften kommt 1 weiter" in body
    assert 'value="5"' in body  # what was typed stays
    done = client.post(
        OWNER, {"action": "start", "match_size": 4, "advance": 2, "seeding": "table"}
    )
    assert done.status_code == 302
    assert len(round_groups(league, 1)) == 2
    page = client.get(OWNER).content.decode()
    assert "Runde 1" not in page or "Finale" in page
    assert "Spiel 1" in page and "Spiel 2" in page and "/verwaltung/ligen/liga/gruppen/" in page
    group_page = client.get(f"/verwaltung/ligen/liga/gruppen/{round_groups(league, 1)[0].pk}/")
    assert "K.-o.-Runde 1, Spiel 1" in group_page.content.decode()


def test_the_start_waits_for_the_group_stage(alice: User) -> None:
    league, _teams, squads = group_stage_done(alice, 8, slug="liga")
    group = league.match_days.get().groups.first()
    assert group is not None
    give_result(
        group, {t.name: 0 for t in Team.objects.filter(league=league)}, squads, alice, final=False
    )
    client = page_client(alice)
    assert "wenn jeder Spieltag der Gruppenphase" in client.get(OWNER).content.decode()
    refused = client.post(
        OWNER, {"action": "start", "match_size": 4, "advance": 2, "seeding": "table"}
    )
    assert refused.status_code == 400
    assert "wenn jeder Spieltag der Gruppenphase endgültig ist" in refused.content.decode()


def test_a_tie_is_decided_on_the_page_then_the_next_round(alice: User) -> None:
    league, teams, squads = group_stage_done(alice, 8, slug="liga")
    start(alice, league)
    first = round_groups(league, 1)
    give_result(first[0], {"T0": 50, "T5": 30, "T3": 30, "T7": 0}, squads, alice)
    give_result(first[1], {"T6": 90, "T1": 70, "T2": 60, "T4": 0}, squads, alice)
    named = {t.name: t for t in teams}
    client = page_client(alice)
    page = client.get(OWNER).content.decode()
    assert 'value="decide"' in page and "Entscheidung nötig" in page
    assert 'value="advance"' not in page  # nothing to advance while the tie waits
    prefix = f"tie{first[0].pk}"
    twice = client.post(
        OWNER,
        {
            "action": "decide",
            "group": first[0].pk,
            f"{prefix}-place1": named["T3"].pk,
            f"{prefix}-place2": named["T3"].pk,
        },
    )
    body = twice.content.decode()
    assert twice.status_code == 400
    assert f'id="id_{prefix}-place1-errors"' in body and "jede der gleichauf" in body
    assert f'<option value="{named["T3"].pk}" selected>' in body
    decided = client.post(
        OWNER,
        {
            "action": "decide",
            "group": first[0].pk,
            f"{prefix}-place1": named["T3"].pk,
            f"{prefix}-place2": named["T5"].pk,
        },
    )
    assert decided.status_code == 302
    assert 'value="advance"' in client.get(OWNER).content.decode()
    assert client.post(OWNER, {"action": "advance"}).status_code == 302
    assert len(round_groups(league, 2)) == 1
    english = page_client(alice, language="en").get(OWNER).content.decode()
    assert "Final" in english and "advances" in english


def test_a_decision_builds_the_bracket_once(alice: User, monkeypatch: pytest.MonkeyPatch) -> None:
    """The decide view passes its bracket on to the page it answers with (a refused
    decision changes nothing), so a request reads every match's result once."""
    league, teams, squads = group_stage_done(alice, 8, slug="liga")
    start(alice, league)
    first = round_groups(league, 1)
    give_result(first[0], {"T0": 50, "T5": 30, "T3": 30, "T7": 0}, squads, alice)
    give_result(first[1], {"T6": 90, "T1": 70, "T2": 60, "T4": 0}, squads, alice)
    named = {t.name: t for t in teams}
    built: list[Any] = []

    def spy(*args: Any, **kwargs: Any) -> Any:
        built.append(args)
        return bracket_module.knockout_bracket(*args, **kwargs)

    monkeypatch.setattr("teams.views.knockout.knockout_bracket", spy)
    client = page_client(alice)
    prefix = f"tie{first[0].pk}"
    same = named["T3"].pk
    twice = {"action": "decide", "group": first[0].pk, f"{prefix}-place1": same}
    refused = client.post(OWNER, {**twice, f"{prefix}-place2": same})
    assert refused.status_code == 400 and "Entscheidung nötig" in refused.content.decode()
    assert len(built) == 1
    no_tie = client.post(OWNER, {"action": "decide", "group": first[1].pk})
    assert no_tie.status_code == 302 and len(built) == 2
    client.get(OWNER)
    assert len(built) == 3


def test_the_public_bracket(alice: User, bob: User) -> None:
    league, _teams, squads = group_stage_done(alice, 12, slug="liga")
    assert "ko/" not in page_client().get("/ligen/liga/").content.decode()
    assert page_client().get(PUBLIC).status_code == 200  # no knockout yet: said so
    start(alice, league)
    first = round_groups(league, 1)
    give_result(first[0], {"T4": 10, "T7": 40, "T9": 40, "T11": 0}, squads, alice)
    give_result(first[1], {"T6": 10, "T5": 40, "T8": 30, "T10": 0}, squads, alice)
    public = page_client()
    assert PUBLIC in public.get("/ligen/liga/").content.decode()
    page = public.get(PUBLIC).content.decode()
    assert "Freilos" in page and "T0" in page  # the best four have a bye
    assert "▶</span> weiter" in page and "✕</span> ausgeschieden" in page
    assert 'aria-hidden="true">?</span> Entscheidung nötig' not in page  # tie inside the cut
    assert "Finale" in page and "Setzplatz 1" in page
    League.objects.filter(pk=league.pk).update(is_public=False)
    assert page_client().get(PUBLIC).status_code == 404
    assert page_client(bob).get(PUBLIC).status_code == 404
    assert page_client(alice).get(PUBLIC).status_code == 200


def test_the_champion_on_the_bracket(alice: User) -> None:
    league, _teams, squads = group_stage_done(alice, 4, slug="liga")
    start(alice, league)
    (final,) = round_groups(league, 1)
    give_result(final, {"T0": 40, "T1": 40, "T2": 0, "T3": -80}, squads, alice)
    page = page_client().get(PUBLIC).content.decode()
    assert "Entscheidung nötig" in page
    give_result(final, {"T0": 40, "T1": 50, "T2": 0, "T3": -80}, squads, alice)
    page = page_client().get(PUBLIC).content.decode()
    assert "Meister: T1" in page and "★</span> Meister" in page


PDF = "/ligen/liga/ko/pdf/"


def test_the_bracket_as_a_pdf(alice: User, bob: User, tmp_path: Path) -> None:
    league, _teams, squads = group_stage_done(alice, 12, slug="liga", name="Liga Nord")
    waiting = page_client().get(PDF)  # no knockout yet: the bracket page says so
    assert waiting.status_code == 200 and "noch nicht begonnen" in waiting.content.decode()
    start(alice, league)
    first = round_groups(league, 1)
    give_result(first[0], {"T4": 10, "T7": 40, "T9": 40, "T11": 0}, squads, alice)
    give_result(first[1], {"T6": 10, "T5": 40, "T8": 30, "T10": 0}, squads, alice)
    assert PDF in page_client().get(PUBLIC).content.decode()
    assert PDF in page_client(alice).get(OWNER).content.decode()
    answer = page_client().get(PDF)
    assert answer["Content-Type"] == "application/pdf"
    assert answer["Content-Disposition"] == 'attachment; filename="liga-ko.pdf"'
    text = pdf_text(answer.content, tmp_path, raw=True)
    assert "K.-o.-Runde: Liga Nord" in text and "Gedruckt am" in text
    assert "Freilos" in text and "T0" in text and "Finale" in text
    assert "▶ weiter" in text and "✕ ausgeschieden" in text and "Setzplatz 1" in text
    assert "T7" in text and "40" in text
    english = pdf_text(page_client(language="en").get(PDF).content, tmp_path, raw=True)
    assert "Knockout: Liga Nord" in english and "▶ advances" in english
    League.objects.filter(pk=league.pk).update(is_public=False)
    assert page_client().get(PDF).status_code == 404
    assert page_client(bob).get(PDF).status_code == 404
    assert page_client(alice).get(PDF).status_code == 200


def test_the_champion_in_the_pdf(alice: User, tmp_path: Path) -> None:
    league, _teams, squads = group_stage_done(alice, 4, slug="liga")
    start(alice, league)
    (final,) = round_groups(league, 1)
    give_result(final, {"T0": 40, "T1": 40, "T2": 0, "T3": -80}, squads, alice)
    text = pdf_text(page_client().get(PDF).content, tmp_path, raw=True)
    assert "? Entscheidung nötig" in text and "Meister:" not in text
    give_result(final, {"T0": 40, "T1": 50, "T2": 0, "T3": -80}, squads, alice)
    text = pdf_text(page_client().get(PDF).content, tmp_path, raw=True)
    assert "Meister: T1" in text and "★ Meister" in text and "-80" in text

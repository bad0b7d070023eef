"""Parts the phone shows are not drawn again (``{% keep_part %}``, scoring/swap_parts.py).

The answer must be the one the page gave when it drew every part and left out the shown ones
afterwards, and a key must never stand for two different parts."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterator
from typing import Any

import pytest
from django.http import HttpRequest
from django.template.loader import render_to_string
from django.test import Client, RequestFactory
from django.utils import translation

from scoring import sheet_page
from scoring.referee_box import latest_call, referee_box
from scoring.services.referee import call_referee
from scoring.sheet_page import SheetPage
from scoring.swap_parts import KnownParts, kept
from scoring.templatetags.kept_parts import KNOWN
from tests.factories import CAPTAIN, make_tournament, play, running_table
from tests.factories import RE_WINS as NORMAL
from tests.scoring.test_sheet_page import page_of
from tournaments.models import Table

CODE = re.compile(r'data-keep="([0-9a-f]{12})"')
CSRF = re.compile(r'(name="csrfmiddlewaretoken" value=")[^"]*"')


@pytest.fixture(autouse=True)
def nothing_known() -> Iterator[None]:
    KNOWN.clear()
    yield
    KNOWN.clear()


@pytest.fixture
def built(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """One entry per blank form the page builds."""
    calls: list[int] = []
    real = sheet_page.new_form

    def counted(*args: Any, **kwargs: Any) -> Any:
        calls.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(sheet_page, "new_form", counted)
    return calls


def games(table: Table, count: int) -> None:
    """``count`` normal games, Re the two seats after the dealer (a fifth seat sits out)."""
    size = table.seats.count()
    done = len(page_of(table).rows)
    play(
        table,
        [{**NORMAL, "re": [n % size + 1, (n + 1) % size + 1]} for n in range(done + 1, count + 1)],
    )


def request() -> HttpRequest:
    return RequestFactory().get("/sheet/")


def with_referee(table: Table) -> SheetPage:
    """The captain's page, with the referee's box as the captain's link shows it."""
    page = page_of(table)
    games = [row.game for row in page.rows]
    box = referee_box(page.table, games, "/sheet/", latest_call(page.table))
    return dataclasses.replace(page, referee=box)


def answer(table: Table, shown: set[str]) -> str:
    """The page's main part as a save answers it to a phone that shows ``shown``."""
    context = {"page": with_referee(table), "flashes": [], "shown_parts": shown}
    html = render_to_string("scoring/sheet_swap.html", context, request=request())
    return CSRF.sub(r'\1"', kept(html, shown))


def form_part(table: Table) -> tuple[Any, str]:
    """The key of the page's blank form and the form as drawn (its volatile values out)."""
    page = page_of(table)
    assert page.entry is not None
    context = {"page": page, "flashes": [], "shown_parts": set()}
    html = kept(render_to_string("scoring/sheet_swap.html", context, request=request()))
    form = re.search(r'<form method="post" action="[^"]*spiel/".*?</form>', html, re.S)
    assert form is not None
    key = (translation.get_language(), page.entry.keep)
    return key, re.sub(
        r'(name="(?:csrfmiddlewaretoken|idempotency_key|version)" value=")[^"]*"',
        r'\1"',
        form.group(0),
    )


def test_known_parts_remember_the_newest_keys() -> None:
    known = KnownParts(size=2)
    part = '<form class="x" data-keep>a</form>'
    code = known.note("a", f"<p>before</p>{part}")
    assert code is not None and len(code) == 12 and known.get("a") == code
    assert CODE.search(kept(part)).group(1) == code  # type: ignore[union-attr]
    assert known.note("none", "<p>no part</p>") is None and known.get("none") is None
    known.note("b", part)
    known.note("a", part)  # noted again: the newest
    known.note("c", part)
    assert known.get("b") is None and known.get("a") == code and known.get("c") == code
    known.clear()
    assert known.get("a") is None


@pytest.mark.parametrize("language", ["de", "en"])
@pytest.mark.parametrize(("size", "played"), [(4, 0), (4, 3), (5, 2), (4, 20)])
def test_an_answer_is_the_same_whether_the_parts_are_drawn_or_known(
    db: None, built: list[int], language: str, size: int, played: int
) -> None:
    """Game 21 of 24 at a four-player table: a forced solo, another form."""
    table = running_table(make_tournament(), size=size)
    games(table, played)
    with translation.override(language):
        codes = set(CODE.findall(answer(table, set())))
        assert len(codes) == 3  # the blank form, the referee's box, the outbox's section
        KNOWN.clear()
        drawn = answer(table, codes)  # drawn, then left out
        built.clear()
        known = answer(table, codes)  # never drawn
    assert known == drawn
    assert set(re.findall(r'<template data-kept="([0-9a-f]{12})">', known)) == codes
    assert built == []  # the blank form was not even built


def test_a_key_stands_for_one_form(db: None) -> None:
    """Every situation of the next game's form: where two keys are equal, so are the forms
    (the key holds all the form is drawn from); where the forms differ, so do the keys."""
    four = running_table(make_tournament(slug="four"))
    five = running_table(make_tournament(slug="five"), size=5)
    paper = running_table(make_tournament(slug="paper", entry_mode="transcription"))
    seen: dict[Any, str] = {}
    steps = [(four, 0), (four, 1), (four, 2), (four, 20), (five, 0), (five, 1), (five, 5)]
    for table, played in [*steps, (paper, 0)]:
        games(table, played)
        for language in ("de", "en"):
            with translation.override(language):
                key, form = form_part(table)
            assert seen.setdefault(key, form) == form
    forms = list(seen.values())
    assert len(set(forms)) == len(forms)  # no two keys for one form here either
    # four: games 1 to 3 alike, the forced solo; five: seat 1 out (games 1 and 6), seat 2 out;
    # paper: in two languages
    assert len(forms) == 10


def test_a_renamed_player_brings_the_whole_form(client: Client, db: None) -> None:
    """An organizer corrects a name during the series: the phone's kept form has the old one."""
    table = running_table(make_tournament())
    url = f"/tisch/{table.captain_token}/"
    codes = CODE.findall(client.get(url).content.decode())
    player = table.seats.get(position=2).registration.player
    player.first_name = "Wilhelmine"
    player.save()
    answered = client.post(
        f"{url}ausgang/",
        {"contract": "normal", "re_players": ["1", "3"], "re_points": "130",
         "idempotency_key": "key-00000001", "number": "1", "version": "0"},
        HTTP_X_OUTBOX_PAGE="main", HTTP_X_SHEET_PARTS=",".join(codes),
    )  # fmt: skip
    html = answered.json()["page_html"]
    assert answered.status_code == 201
    assert 'class="game-form"' in html and "Wilhelmine" in html
    assert 'id="outbox"' not in html  # the outbox's section is the same


def test_a_form_posted_back_is_always_drawn(db: None) -> None:
    """A form with errors, a correction, the organizer's page: none has a key."""
    table = running_table(make_tournament())
    play(table, [NORMAL])
    assert page_of(table, editing=1).entry.keep is None  # type: ignore[union-attr]
    assert page_of(table, organizer=True).entry.keep is None  # type: ignore[union-attr]
    assert page_of(table).entry.keep is not None  # type: ignore[union-attr]


def test_the_referee_box_is_drawn_once_it_shows_a_call(db: None) -> None:
    table = running_table(make_tournament())
    blank = with_referee(table).referee
    assert blank is not None and blank.keep == ("referee", "/sheet/schiri/")
    call_referee(table, reason="Streit", actor=CAPTAIN, link=table.captain_token)
    called = with_referee(table)
    assert called.referee is not None and called.referee.keep is None
    codes = set(CODE.findall(answer(table, set())))
    drawn = answer(table, codes)
    assert 'id="schiri"' not in drawn  # left out by its digest: the same call, the same box
    assert set(re.findall(r'<template data-kept="([0-9a-f]{12})">', drawn)) == codes

"""The change log in words: every action code has a label, the actor and the details are
described for people (names, old → new), never as codes, developer text or Python reprs;
filters and pages that never fail."""

from __future__ import annotations

import ast
import pathlib
import re

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.utils import translation

from common.actors import API, ORGANIZER, Actor, Door
from common.changelog import ACTIONS
from scoring import doors
from scoring.audit_text import describe_actor, describe_details
from scoring.models import AuditEntry
from scoring.services.closing import close_series
from scoring.services.deductions import add_deduction
from scoring.services.entry import delete_last_game, record_audit, save_game
from scoring.services.sheet import set_timeout
from scoring.views.organizer import AUDIT_PAGE_SIZE
from teams.doors import TEAM_CAPTAIN
from tests.factories import RE_ANNOUNCES_AND_WINS as GAME
from tests.factories import make_tournament, page_client, running_table

ROOT = pathlib.Path(__file__).resolve().parents[2]
CODE = re.compile(r"^[a-z_]+\.[a-z_]+\.[a-z_]+$")
CAPTAIN = Actor(doors.CAPTAIN, seat=4, device="captain-phone")
# Developer text that must never reach the page.
RAW = ("scoring.", "captain link", "{'", "': ", "None", "[1, ")


def written_action_codes() -> dict[str, set[str]]:
    """Dotted codes in every module that writes audit entries (calls ``record_audit`` or
    creates an ``AuditEntry``), found in the source so a new code cannot be missed."""
    found: dict[str, set[str]] = {}
    for path in ROOT.rglob("*.py"):
        rel = path.relative_to(ROOT)
        if rel.parts[0] in (".venv", "tests") or "migrations" in rel.parts:
            continue
        if rel.as_posix() == "scoring/audit_text.py":
            continue
        text = path.read_text(encoding="utf-8")
        if "record_audit" not in text and "AuditEntry" not in text:
            continue
        for node in ast.walk(ast.parse(text)):
            value = node.value if isinstance(node, ast.Constant) else None
            if isinstance(value, str) and CODE.match(value):
                found.setdefault(value, set()).add(rel.as_posix())
    return found


def test_every_action_code_written_anywhere_has_a_label() -> None:
    codes = written_action_codes()
    assert {"scoring.game.created", "scoring.penalty.created"} <= set(codes)  # the scan works
    missing = {code: files for code, files in codes.items() if code not in ACTIONS}
    assert not missing, (
        f"action codes without a label (register them in the app's ready): {missing}"
    )


def test_kind_keys_are_unique_and_labels_translated() -> None:
    keys = [kind.key for kind in ACTIONS.values()]
    assert len(keys) == len(set(keys))
    with translation.override("en"):
        assert str(ACTIONS["scoring.sheet.confirmed"].label) == "Sheet confirmed"


@pytest.mark.parametrize("door", [doors.CAPTAIN, ORGANIZER, API, TEAM_CAPTAIN])
def test_every_door_is_described_in_words(door: Door, alice: User) -> None:
    actor = Actor(door, user=None if door in (doors.CAPTAIN, TEAM_CAPTAIN) else alice, seat=2)
    with translation.override("en"):
        text = describe_actor(actor.describe(5), "alice" if actor.user else None, {2: "Anna S"})
    assert (
        text
        == {
            doors.CAPTAIN: "Captain table 5 (seat 2: Anna S)",
            ORGANIZER: "Organizer alice",
            API: "API (alice)",
            TEAM_CAPTAIN: "Team captain",
        }[door]
    )


def test_actor_without_seat_or_name() -> None:
    with translation.override("en"):
        assert describe_actor("captain link table 5", None) == "Captain table 5"
        assert describe_actor("captain link table 5, seat 2", None) == "Captain table 5 (seat 2)"
        assert describe_actor("api ?", None) == "API"


NAMES = {1: "Anna", 2: "Bert", 3: "Cora", 4: "Dirk", 5: "Eva"}
ENTERED = {
    "number": 7,
    "dealer": 2,
    "record": {"contract": "normal", "re": [1, 3], "re_points": 130, "seats": [1, 2, 3, 4]},
    "winner": "re",
    "value": 3,
    "scores": {"1": 3, "2": -3, "3": 3, "4": -3},
}


def details(action: str, before: object, after: object) -> dict[str, str]:
    with translation.override("en"):
        lines = describe_details(action, before, after, NAMES, {42: "Gustav Gans"})
    return {d.label: d.value for d in lines}


def test_game_entered_details_use_names() -> None:
    assert details("scoring.game.created", None, ENTERED) == {
        "game type": "Normal game",
        "Re party": "Anna, Cora",
        "card points of Re": "130",
        "winner": "Re",
        "value": "3",
        "points": "Anna +3, Bert -3, Cora +3, Dirk -3",
    }


def test_five_player_table_leaves_out_the_dealer_who_sat_out() -> None:
    game = {
        **ENTERED,
        "record": {"contract": "solo", "solo": "damen", "re": [4], "sitting_out": 2,
                   "compulsory": True},
        "winner": "kontra",
        "value": -4,
        "scores": {"1": 4, "2": 0, "3": 4, "4": -12, "5": 4},
    }  # fmt: skip
    shown = details("scoring.game.created", None, game)
    assert shown["game type"] == "Queens solo, compulsory solo"
    assert shown["soloist"] == "Dirk" and shown["winner"] == "Kontra" and shown["value"] == "-4"
    assert shown["points"] == "Anna +4, Cora +4, Dirk -12, Eva +4"


def test_correction_shows_old_and_new_values() -> None:
    after = {
        **ENTERED,
        "record": {**ENTERED["record"], "re_points": 110},
        "winner": "kontra",
        "value": -2,
        "scores": {"1": -2, "2": 2, "3": -2, "4": 2},
    }
    assert details("scoring.game.corrected", ENTERED, after) == {
        "card points of Re": "130 → 110",
        "winner": "Re → Kontra",
        "value": "3 → -2",  # as the sheet, the CSV and the PDF show it
        "points": "Anna +3 → -2, Bert -3 → +2, Cora +3 → -2, Dirk -3 → +2",
    }


def test_sheet_and_penalty_details() -> None:
    assert details("scoring.sheet.submitted", None, {"seat": 4}) == {"by": "Dirk (seat 4)"}
    assert details("scoring.sheet.confirmed", None, {"seat": None}) == {}
    assert details("scoring.sheet.reopened", {"status": "submitted"}, {"status": "open"}) == {
        "sheet": "submitted → open"
    }
    assert details("scoring.sheet.timeout", None, {"timeout": True}) == {"time-out": "called"}
    assert details(
        "scoring.penalty.created", None, {"registration": 42, "series": 1, "points": -2}
    ) == {"player": "Gustav Gans", "points": "-2"}


def test_unknown_data_is_text_not_a_repr() -> None:
    shown = details("scoring.other.thing", {"a": [1, 2]}, {"a": {"b": None}, "c": True})
    assert shown == {"a": "1, 2 → b: –", "c": "yes"}


# --- the page --------------------------------------------------------------------------


@pytest.fixture
def world(alice: User):
    """Alice's tournament ``log``: series 1 running at one table."""
    tournament = make_tournament(slug="log", organizers=[alice])
    return tournament, running_table(tournament), alice


@pytest.fixture
def english(world) -> Client:
    return page_client(world[2], language="en")


def every_kind_of_change(world) -> None:
    tournament, table, organizer = world
    by_organizer = Actor(ORGANIZER, user=organizer)
    save_game(table, GAME, actor=CAPTAIN)
    save_game(table, GAME, actor=CAPTAIN)
    save_game(table, {**GAME, "re_points": 100}, number=1, actor=by_organizer, reason="Zählfehler")
    delete_last_game(table, expected_version=None, actor=CAPTAIN)
    record_audit(table, None, "scoring.sheet.submitted", CAPTAIN, None, {"seat": 4})
    set_timeout(table, timeout=True, actor=by_organizer)
    registration = tournament.registrations.get(start_number=2)
    add_deduction(table.series, registration, -2, "Handy am Tisch", by_organizer)
    close_series(table.series, actor=by_organizer, past_unfinished=True)


def test_change_log_speaks_words(english: Client, world) -> None:
    every_kind_of_change(world)
    assert set(AuditEntry.objects.values_list("action", flat=True)) >= {
        "scoring.game.created", "scoring.game.corrected", "scoring.game.deleted",
        "scoring.sheet.timeout", "scoring.penalty.created", "scoring.sheet.closed_unconfirmed",
    }  # fmt: skip
    response = english.get("/verwaltung/log/protokoll/")
    html = response.content.decode()
    assert response.status_code == 200
    for raw in RAW:
        assert raw not in html, raw
    for words in (
        "Game entered",
        "Game corrected",
        "Game deleted",
        "Sheet submitted",
        "Time-out",
        "Sheet closed without confirmation",
        "Deduction (TSR 9.7)",
        "Captain table 1 (seat 4: Vorname4 Nachname4)",
        "Organizer alice",
        "Vorname2 Nachname2",  # the penalised player, by name
        "Zählfehler",
        "Handy am Tisch",
        "130 → 100",
    ):
        assert words in html, words


def test_change_log_in_german_has_no_codes(world) -> None:
    every_kind_of_change(world)
    html = page_client(world[2]).get("/verwaltung/log/protokoll/").content.decode()
    assert "Änderungsprotokoll" in html
    for raw in RAW:
        assert raw not in html, raw


def test_change_log_filters(english: Client, world) -> None:
    tournament, table, _organizer = world
    other = running_table(tournament, number=2)
    save_game(table, GAME, actor=CAPTAIN)
    save_game(other, GAME, actor=CAPTAIN)
    save_game(other, GAME, actor=CAPTAIN)
    set_timeout(other, timeout=True, actor=Actor(ORGANIZER, user=world[2]))
    url = "/verwaltung/log/protokoll/"
    assert "4 changes" in english.get(url).content.decode()
    by_table = english.get(url, {"table": "2"}).content.decode()
    assert "3 changes" in by_table and "Captain table 1" not in by_table
    by_kind = english.get(url, {"kind": "time-out"}).content.decode()
    assert "1 change" in by_kind and "<strong>Game entered" not in by_kind
    assert "4 changes" in english.get(url, {"series": "1"}).content.decode()
    assert "0 changes" in english.get(url, {"series": "2"}).content.decode()
    # The filter is a plain GET form with the choices of this tournament.
    assert '<select name="kind"' in by_kind and '<option value="time-out" selected>' in by_kind


@pytest.mark.parametrize(
    "query",
    [
        {"table": "x"},
        {"table": "99999999999999999999"},
        {"series": "-1"},
        {"kind": "scoring.game.created"},
        {"kind": ["a", "b"]},
        {"page": "abc"},
        {"page": "999"},
        {"page": "-1"},
        {"table": "1\x00"},
    ],
)
def test_change_log_never_fails_on_bad_parameters(english: Client, world, query) -> None:
    save_game(world[1], GAME, actor=CAPTAIN)
    response = english.get("/verwaltung/log/protokoll/", query)
    assert response.status_code == 200
    html = response.content.decode()
    assert "<strong>Game entered" in html
    assert "field-error" not in html  # a hand-edited value is dropped quietly


def test_an_invalid_filter_value_keeps_the_valid_ones(english: Client, world) -> None:
    save_game(world[1], GAME, actor=CAPTAIN)
    set_timeout(world[1], timeout=True, actor=Actor(ORGANIZER, user=world[2]))
    html = english.get("/verwaltung/log/protokoll/", {"table": "zz", "kind": "time-out"})
    page = html.content.decode()
    assert "1 change" in page and '<option value="time-out" selected>' in page
    assert '<option value="" selected>all</option>' in page  # the table filter: all


def test_change_log_pages(english: Client, world) -> None:
    tournament, table, _organizer = world
    AuditEntry.objects.bulk_create(
        AuditEntry(
            tournament=tournament, table=table, action="scoring.sheet.timeout",
            after={"timeout": i % 2 == 0}, via="organizer alice",
        )
        for i in range(AUDIT_PAGE_SIZE + 5)
    )  # fmt: skip
    url = "/verwaltung/log/protokoll/"
    first = english.get(url, {"kind": "time-out"}).content.decode()
    assert "page 1 of 2" in first and 'rel="next"' in first
    assert "?kind=time-out&amp;page=2" in first  # the filter stays on the next page
    second = english.get(url, {"kind": "time-out", "page": "2"}).content.decode()
    assert second.count("<tr>") == 1 + 5 and 'rel="prev"' in second


def test_change_log_query_count_does_not_grow_with_entries(
    english: Client, world, django_assert_max_num_queries
) -> None:
    every_kind_of_change(world)
    with django_assert_max_num_queries(14):
        english.get("/verwaltung/log/protokoll/")

"""The per-series totals the standings read stay equal to the score rows: after every save,
correction, deletion and deduction, whatever the order; ``check_totals`` finds and repairs a
total that was changed behind the services' back; the migration fills them for old data."""

from __future__ import annotations

import importlib
from itertools import combinations
from typing import Any

import pytest
from django.apps import apps
from django.core.management import CommandError, call_command
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext
from hypothesis import given, settings
from hypothesis import strategies as st

from common.actors import ORGANIZER, Actor
from common.services import ServiceError
from rules.stored import StoredGame
from scoring import doors
from scoring.models import Game, PlayerScore, SeriesTotal, TournamentTotal
from scoring.services.deductions import add_deduction
from scoring.services.entry import current_sheet, delete_last_game, save_game, sheet_state
from scoring.services.series_totals import FIELDS, SUMMED, check_totals, differences
from scoring.standings import overall_standings, series_standings
from tests.factories import (
    RE_WINS,
    add_players,
    make_tournament,
    make_user,
    running_table,
    seat_table,
    set_status,
)
from tournaments.models import Registration, Series, Table, Tournament

CAPTAIN = Actor(doors.CAPTAIN, seat=4, device="captain-phone")
SOLO = {"contract": "solo", "solo": "buben", "re": [2], "re_points": 150}


def total(registration: Registration, series_number: int = 1) -> dict[str, int]:
    row = SeriesTotal.objects.get(registration=registration, series_number=series_number)
    return {f: getattr(row, f) for f in FIELDS}


def fresh(table: Table) -> Table:
    return Table.objects.select_related("series__tournament").get(pk=table.pk)


def organizer() -> Actor:
    return Actor(ORGANIZER, user=make_user("orga"), device="orga-phone")


def test_a_game_a_correction_and_a_deduction_each_update_the_totals(tournament) -> None:
    table = running_table(tournament)
    seat = {s.position: s.registration for s in table.seats.all()}
    save_game(table, RE_WINS, actor=CAPTAIN)
    assert total(seat[1]) == {
        "entries": 1, "points": 1, "games": 1, "solos": 0, "solos_won": 0, "compulsory": 0,
        "voluntary_won": 0, "deductions": 0,
    }  # fmt: skip
    save_game(table, SOLO, actor=CAPTAIN)
    assert total(seat[2])["points"] == 2 and total(seat[2])["solos_won"] == 1
    assert total(seat[2])["compulsory"] == 1 and total(seat[2])["voluntary_won"] == 0
    save_game(fresh(table), {**SOLO, "re_points": 90}, number=2, actor=CAPTAIN)  # lost now
    assert total(seat[2])["points"] == -1 - 3 and total(seat[2])["solos_won"] == 0
    add_deduction(table.series, seat[4], -2, "Handy am Tisch", organizer())
    assert total(seat[4]) | {"games": 0} == {
        "entries": 3, "points": -1 + 1 - 2, "games": 0, "solos": 0, "solos_won": 0,
        "compulsory": 0, "voluntary_won": 0, "deductions": -2,
    }  # fmt: skip
    assert differences(tournament) == []


def test_deleting_the_only_game_leaves_no_result_for_the_series(tournament) -> None:
    table = running_table(tournament)
    save_game(table, RE_WINS, actor=CAPTAIN)
    delete_last_game(fresh(table), expected_version=1, actor=CAPTAIN)
    assert set(SeriesTotal.objects.values_list("entries", "points")) == {(0, 0)}
    rows = overall_standings(tournament)
    assert {(r["total"], tuple(r["series"]), r["games"]) for r in rows} == {(0, (None,), 0)}
    assert series_standings(table.series) == []
    assert differences(tournament) == []


def test_a_refused_entry_leaves_the_totals_alone(tournament) -> None:
    table = running_table(tournament)
    save_game(table, RE_WINS, actor=CAPTAIN)
    before = list(SeriesTotal.objects.order_by("pk").values())
    with pytest.raises(ServiceError):
        save_game(fresh(table), {**RE_WINS, "re": [1, 9]}, actor=CAPTAIN)
    assert list(SeriesTotal.objects.order_by("pk").values()) == before


def statements(func: Any) -> list[str]:
    with CaptureQueriesContext(connection) as ctx:
        func()
    return [
        q["sql"] for q in ctx.captured_queries if not q["sql"].startswith(("SAVEPOINT", "RELEASE"))
    ]


def totals_in(sqls: list[str]) -> list[str]:
    return [sql for sql in sqls if "seriestotal" in sql or "tournamenttotal" in sql]


@pytest.mark.skipif(connection.vendor != "postgresql", reason="the statements of PostgreSQL")
def test_a_phone_entry_keeps_its_two_statements_on_postgresql(tournament) -> None:
    table = running_table(tournament)
    save_game(table, RE_WINS, expected_version=0, actor=CAPTAIN)
    table = fresh(table)
    sqls = statements(lambda: save_game(table, RE_WINS, expected_version=1, actor=CAPTAIN))
    # the claim of the sheet locks the totals, the insert of the score rows recomputes them
    assert len(sqls) == 2, sqls  # claim; game, score rows, totals and audit entry
    assert [sqls.index(sql) for sql in totals_in(sqls)] == [0, 1]


def test_other_changes_refresh_the_totals_in_their_own_statements(tournament) -> None:
    table = running_table(tournament)
    save_game(table, RE_WINS, actor=CAPTAIN)
    table = fresh(table)
    touching = totals_in(statements(lambda: save_game(table, RE_WINS, actor=CAPTAIN)))
    if connection.vendor == "postgresql":
        # create and lock the rows; sum the score rows and write both totals
        assert len(touching) == 2, touching
        assert "WHERE false" in touching[0] and "UPDATE" in touching[1]
    else:
        # per series, then over the tournament: create the missing rows, lock them (no-op
        # on SQLite, which writes one at a time), sum what they come from, write the sums
        assert len(touching) == 7, touching  # the sum over the score rows names neither


def test_a_series_set_back_to_planned_leaves_the_columns_and_the_totals(tournament) -> None:
    table = running_table(tournament)
    save_game(table, RE_WINS, actor=CAPTAIN)
    players = [s.registration for s in table.seats.order_by("position")]
    series2 = tournament.series.get(number=2)
    set_status(series2, Series.Status.RUNNING)
    save_game(fresh(seat_table(series2, players)), SOLO, actor=CAPTAIN)
    set_status(series2, Series.Status.PLANNED)  # not reachable through the pages
    rows = overall_standings(tournament)
    assert {tuple(r["series"]) for r in rows} == {(1,), (-1,)}  # series 1 only
    assert [r["total"] for r in rows] == [1, 1, -1, -1]
    assert rows == overall_standings(tournament, up_to=99)


# --- check_totals -----------------------------------------------------------------------


def tampered(tournament: Tournament) -> tuple[Table, Registration]:
    table = running_table(tournament)
    save_game(table, RE_WINS, actor=CAPTAIN)
    save_game(fresh(table), SOLO, actor=CAPTAIN)
    seat1 = table.seats.get(position=1).registration
    SeriesTotal.objects.filter(registration=seat1).update(points=99, solos=4)
    return table, seat1


def test_check_totals_reports_a_tampered_total_and_repairs_it(tournament, capsys) -> None:
    _table, seat1 = tampered(tournament)
    other = make_tournament(slug="andere")
    save_game(running_table(other), RE_WINS, actor=CAPTAIN)

    with pytest.raises(CommandError, match="1 total"):
        call_command("check_totals")
    out = capsys.readouterr().out
    assert f"herbst: series 1, registration {seat1.pk}: points 99 → 0, solos 4 → 0" in out
    assert "andere" not in out

    call_command("check_totals", "--fix", "--tournament", tournament.slug)
    assert "Repaired 1 total(s)." in capsys.readouterr().out
    assert total(seat1)["points"] == 0 and total(seat1)["solos"] == 0
    call_command("check_totals")
    assert "All totals match" in capsys.readouterr().out


def test_check_totals_repairs_a_tampered_tournament_total(tournament, capsys) -> None:
    table = running_table(tournament)
    save_game(table, RE_WINS, actor=CAPTAIN)
    seat1 = table.seats.get(position=1).registration
    TournamentTotal.objects.filter(registration=seat1).update(points=7, series_points=[7])
    assert [r["total"] for r in overall_standings(tournament) if r["registration"] == seat1.pk] == [
        7
    ]  # what the standings read, until repaired
    with pytest.raises(CommandError, match="1 total"):
        call_command("check_totals", "--tournament", tournament.slug)
    out = capsys.readouterr().out
    line = f"herbst: tournament total, registration {seat1.pk}: points 7 → 1"
    assert f"{line}, series_points [7] → [1]" in out
    call_command("check_totals", "--fix")
    assert [r["total"] for r in overall_standings(tournament) if r["registration"] == seat1.pk] == [
        1
    ]
    assert differences() == []


def test_check_totals_finds_a_missing_and_a_stray_total(tournament) -> None:
    table = running_table(tournament)
    save_game(table, RE_WINS, actor=CAPTAIN)
    seat1, seat2 = (table.seats.get(position=p).registration for p in (1, 2))
    SeriesTotal.objects.filter(registration=seat1).delete()
    stray = tournament.series.get(number=2)
    SeriesTotal.objects.create(
        tournament=tournament, series=stray, series_number=2, registration=seat2,
        entries=1, points=5,
    )  # fmt: skip
    found = {(d.series_number, d.registration_id): d for d in differences(tournament)}
    assert found.keys() == {(1, seat1.pk), (2, seat2.pk)}
    assert found[1, seat1.pk].stored is None and found[1, seat1.pk].fresh["points"] == 1
    assert "missing" in found[1, seat1.pk].describe()
    assert found[2, seat2.pk].fresh == dict.fromkeys(FIELDS, 0)
    assert len(check_totals(tournament, fix=True)) == 2
    assert differences(tournament) == []
    set_status(stray, Series.Status.RUNNING)  # a column for series 2, without a result
    by_number = {r["start_number"]: r for r in overall_standings(tournament)}
    assert by_number[2]["series"] == [-1, None] and by_number[2]["total"] == -1


def test_check_totals_of_an_unknown_tournament_is_refused(db: None) -> None:
    with pytest.raises(CommandError, match="No tournament with the short name 'nix'"):
        call_command("check_totals", "--tournament", "nix")


def test_the_migrations_fill_the_totals_from_the_score_rows(tournament) -> None:
    table = running_table(tournament)
    save_game(table, RE_WINS, actor=CAPTAIN)
    save_game(fresh(table), SOLO, actor=CAPTAIN)
    add_deduction(
        table.series, table.seats.get(position=3).registration, -3, "Zu spät", organizer()
    )
    # four more players, without a game in series 1, play one in series 2
    idle = [s.registration for s in running_table(tournament, number=2).seats.order_by("position")]
    series2 = tournament.series.get(number=2)
    set_status(series2, Series.Status.RUNNING)
    save_game(fresh(seat_table(series2, idle)), RE_WINS, actor=CAPTAIN)
    kept = sorted(SeriesTotal.objects.values_list("registration", *FIELDS))
    kept_overall = sorted(
        TournamentTotal.objects.values_list("registration", *SUMMED, "series_points")
    )
    assert any(p == [None, 1] for *_, p in kept_overall)
    SeriesTotal.objects.all().delete()
    TournamentTotal.objects.all().delete()
    for name in ("0004_series_totals", "0005_tournament_totals"):
        importlib.import_module(f"scoring.migrations.{name}").fill_totals(apps, None)
    assert sorted(SeriesTotal.objects.values_list("registration", *FIELDS)) == kept
    assert (
        sorted(TournamentTotal.objects.values_list("registration", *SUMMED, "series_points"))
        == kept_overall
    )


# --- Any sequence of changes ------------------------------------------------------------

KINDS = ("re", "kontra", "solo", "deduction")


def facts(kind: str, active: list[int], pick: int) -> dict[str, Any]:
    """A game of ``kind`` among the ``active`` seats; ``pick`` chooses who."""
    if kind == "solo":
        return {"contract": "solo", "solo": "buben", "re": [active[pick % len(active)]],
                "re_points": 150 if pick % 2 else 90}  # fmt: skip
    pairs = list(combinations(active, 2))
    game = {"contract": "normal", "re": list(pairs[pick % len(pairs)]),
            "re_points": 130 if kind != "kontra" else 100}  # fmt: skip
    if kind == "deduction":
        game["deductions"] = [{"seat": active[pick % len(active)], "points": -(pick % 12 + 1)}]
    return game


def active_seats(table: Table, number: int | None) -> list[int]:
    """The seats playing the next game (``number`` None) or stored game ``number``."""
    size = table.seats.count()
    if number is None:
        out = sheet_state(table, current_sheet(table))["next"]["sitting_out"]
    else:
        stored = Game.objects.get(table=table, number=number).record
        out = StoredGame.from_record(stored).sitting_out
    return [s for s in range(1, size + 1) if s != out]


def two_running_series() -> tuple[Tournament, list[Table], list[Registration]]:
    """Nine players; series 1 and 2 running, each at a table of four and one of five."""
    tournament = make_tournament(slug="folge")
    regs = add_players(tournament, 9)
    s1, s2 = tournament.series.get(number=1), tournament.series.get(number=2)
    groups = ((s1, regs[:4]), (s1, regs[4:]), (s2, [regs[i] for i in (0, 4, 5, 6)]),
              (s2, [regs[i] for i in (1, 2, 3, 7, 8)]))  # fmt: skip
    tables = [seat_table(series, group, n % 2 + 1) for n, (series, group) in enumerate(groups)]
    for series in (s1, s2):
        set_status(series, Series.Status.RUNNING)
    return tournament, tables, regs


STEP = st.one_of(
    st.tuples(st.just("enter"), st.integers(0, 3), st.sampled_from(KINDS), st.integers(0, 99)),
    st.tuples(st.just("correct"), st.integers(0, 3), st.sampled_from(KINDS), st.integers(0, 99)),
    st.tuples(st.just("delete"), st.integers(0, 3)),
    st.tuples(st.just("deduct"), st.integers(1, 2), st.integers(0, 8), st.integers(1, 12)),
)


def apply(step: tuple[Any, ...], tournament: Tournament, tables: list[Table],
          regs: list[Registration], actor: Actor) -> None:  # fmt: skip
    action, *args = step
    if action == "deduct":
        series_number, reg, points = args
        series = tournament.series.get(number=series_number)
        add_deduction(series, regs[reg], -points, "Unsportlich", actor)
        return
    table = fresh(tables[args[0]])
    games = Game.objects.filter(table=table).count()
    if action == "delete":
        delete_last_game(table, expected_version=None, actor=actor)
        return
    kind, pick = args[1:]
    # with the version the phone saw, or without (each takes its own path on PostgreSQL)
    version = current_sheet(table).version if pick % 2 else None
    if action == "enter":
        game = facts(kind, active_seats(table, None), pick)
        save_game(table, game, expected_version=version, actor=actor)
    else:
        number = pick % games + 1 if games else 1
        game = facts(kind, active_seats(table, number if games else None), pick)
        save_game(table, game, number=number, expected_version=version, actor=actor)


def run(steps: list[Any]) -> int:
    """Apply the steps to a fresh world, checking the totals after each; rolled back after.
    Returns how many steps were accepted."""
    with transaction.atomic():
        tournament, tables, regs = two_running_series()
        actor = organizer()
        accepted = 0
        for step in steps:
            try:
                apply(step, tournament, tables, regs, actor)
                accepted += 1
            except ServiceError:
                pass  # refused as a whole: nothing may have changed
            assert differences(tournament) == [], step
        expected = {
            (row.series_number, row.registration_id)
            for row in PlayerScore.objects.filter(tournament=tournament)
        }
        shown = {
            (n, r["registration"])
            for r in overall_standings(tournament)
            for n, points in enumerate(r["series"], start=1)
            if points is not None
        }
        assert shown == expected
        # the tournament totals give what the series totals give
        assert overall_standings(tournament) == overall_standings(tournament, up_to=99)
        transaction.set_rollback(True)
    return accepted


EVERY_KIND = [
    ("enter", 0, "re", 0), ("enter", 1, "solo", 3), ("deduct", 1, 0, 4),
    ("correct", 0, "deduction", 5), ("enter", 2, "kontra", 1), ("enter", 1, "re", 2),
    ("correct", 1, "kontra", 4), ("delete", 0), ("delete", 1), ("deduct", 2, 8, 12),
    ("enter", 3, "deduction", 7), ("enter", 3, "solo", 1),
]  # fmt: skip


@pytest.mark.django_db
def test_a_sequence_of_every_kind_of_change_is_accepted_and_keeps_the_totals() -> None:
    assert run(EVERY_KIND) == len(EVERY_KIND)


@pytest.mark.django_db
@settings(max_examples=40)
@given(steps=st.lists(STEP, min_size=1, max_size=20))
def test_after_any_sequence_the_totals_are_the_sums_of_the_rows(steps: list[Any]) -> None:
    run(steps)

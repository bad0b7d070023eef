"""Generation through the Celery tasks (eager in tests): files, reuse, invalidation, failure."""

from __future__ import annotations

import pytest

from documents import pieces, pipeline, results, services
from documents.data import GameRow, SeriesStandings, StandingRow, TableGames
from documents.layout import print_pack_pages
from documents.models import GeneratedDocument
from tests.documents.pdftools import pdf_pages, pdf_text, stored_pdf
from tournaments.models import Seat, absolute_url

pytestmark = pytest.mark.django_db

Kind = GeneratedDocument.Kind


def _generate(capture, kind, tournament, series=None, language="de"):
    with capture(execute=True):
        document = services.request_document(kind, tournament, series, language=language)
    document.refresh_from_db()
    return document


def test_print_pack_has_every_page_name_table_and_link(
    world, django_capture_on_commit_callbacks, tmp_path
) -> None:
    document = _generate(django_capture_on_commit_callbacks, Kind.PRINT_PACK, world.tournament,
                         world.series)  # fmt: skip
    assert document.status == "done", document.error
    pdf = stored_pdf(document)
    assert pdf.startswith(b"%PDF")
    expected = len(print_pack_pages(pipeline.load_series(world.series)))
    assert expected == 2 + 2 * 3  # seating list: alphabetical + by table; card + sheet per table
    assert pdf_pages(pdf, tmp_path) == expected == document.pages_total == document.pages_done
    text = pdf_text(pdf, tmp_path)
    flat = "".join(text.split())
    for player in world.players:
        assert player.last_name in text
        assert f"{player.last_name}, {player.first_name}" in text  # alphabetical list
    for table in world.tables:
        assert absolute_url(table.get_captain_url()) in flat
    for number in ("1", "2", "3"):
        assert f"Table{number}" in flat or f"Tisch{number}" in flat
    # 20 normal rows at four-player tables, 25 at the five-player table, solo rubric P1..P5.
    assert "25" in text and "P5" in text


def test_a_document_is_reused_until_a_seat_changes(
    world, django_capture_on_commit_callbacks
) -> None:
    first = _generate(django_capture_on_commit_callbacks, Kind.PRINT_PACK, world.tournament,
                      world.series)  # fmt: skip
    again = _generate(django_capture_on_commit_callbacks, Kind.PRINT_PACK, world.tournament,
                      world.series)  # fmt: skip
    assert again.pk == first.pk and pipeline.is_current(first)

    # Two players swap tables: the stored pack no longer shows the seating.
    a = Seat.objects.get(table=world.tables[0], position=1)
    b = Seat.objects.get(table=world.tables[1], position=1)
    a_reg, b_reg = a.registration, b.registration
    a.registration = b_reg
    b.registration = world.tournament.registrations.get(start_number=13)
    Seat.objects.filter(pk=b.pk).delete()  # free b_reg's seat first (one seat per series)
    a.save()
    Seat.objects.create(table=world.tables[1], series=world.series, position=1, registration=a_reg)
    Seat.objects.filter(table=world.tables[2], position=5).delete()
    first.refresh_from_db()
    assert not pipeline.is_current(first)

    fresh = _generate(django_capture_on_commit_callbacks, Kind.PRINT_PACK, world.tournament,
                      world.series)  # fmt: skip
    assert fresh.pk != first.pk and fresh.status == "done"
    # The superseded row and its file are gone.
    assert not GeneratedDocument.objects.filter(pk=first.pk).exists()


def test_languages_are_separate_documents(world, django_capture_on_commit_callbacks) -> None:
    with django_capture_on_commit_callbacks(execute=False):
        de = services.request_document(Kind.PRINT_PACK, world.tournament, world.series,
                                       language="de")  # fmt: skip
        en = services.request_document(Kind.PRINT_PACK, world.tournament, world.series,
                                       language="en")  # fmt: skip
    assert de.pk != en.pk and de.fingerprint != en.fingerprint


def test_a_failure_is_recorded_not_swallowed(
    world, django_capture_on_commit_callbacks, monkeypatch, caplog
) -> None:
    def broken(pages, language):
        raise RuntimeError("printer on fire")

    monkeypatch.setattr(pieces, "render_pdf", broken)
    document = _generate(django_capture_on_commit_callbacks, Kind.PRINT_PACK, world.tournament,
                         world.series)  # fmt: skip
    assert document.status == "failed"
    assert "RuntimeError: printer on fire" in document.error
    assert not document.file
    assert "printer on fire" in caplog.text  # logged as well
    # A failed document is not reused: asking again starts a new one.
    monkeypatch.undo()
    retry = _generate(django_capture_on_commit_callbacks, Kind.PRINT_PACK, world.tournament,
                      world.series)  # fmt: skip
    assert retry.pk != document.pk and retry.status == "done"


def _provider(points: int):
    def provider(tournament):
        players = list(tournament.registrations.select_related("player")[:4])
        names = tuple(str(r.player) for r in players)
        rows = tuple(
            StandingRow(place=i + 1, name=name, start_number=i + 1, club="DK Köln",
                        total=points - 2 * i * points, series_points=(points - 2 * i * points,))
            for i, name in enumerate(names)
        )  # fmt: skip
        games = (
            GameRow(1, False, 2, (2, 2, -2, -2), (2, 2, -2, -2), "Re"),
            GameRow(2, True, 3, (9, -3, -3, -3), (11, -1, -5, -5), "Solo"),
        )
        return results.ResultsRows(
            series=(SeriesStandings(1, rows),),
            final=rows,
            tables=(TableGames(1, 1, names, games),),
        )

    return provider


def test_result_report_and_its_invalidation(
    world, django_capture_on_commit_callbacks, monkeypatch, tmp_path
) -> None:
    monkeypatch.setattr(results, "PROVIDER", _provider(7))
    document = _generate(django_capture_on_commit_callbacks, Kind.RESULTS, world.tournament)
    assert document.status == "done", document.error
    pdf = stored_pdf(document)
    assert pdf.startswith(b"%PDF")
    # final standings + series 1 standings + one page of digital score sheets
    assert pdf_pages(pdf, tmp_path) == 3 == document.pages_total
    text = pdf_text(pdf, tmp_path)
    assert "Anna Albers" in text and "Dieter Dörfler" in text
    assert "-21" in text and "11" in text  # a total and a running total
    assert pipeline.is_current(document)

    monkeypatch.setattr(results, "PROVIDER", _provider(8))  # a result changed
    assert not pipeline.is_current(document)
    fresh = _generate(django_capture_on_commit_callbacks, Kind.RESULTS, world.tournament)
    assert fresh.pk != document.pk and fresh.status == "done"


def test_results_without_scoring_list_the_players(
    world, django_capture_on_commit_callbacks, tmp_path
) -> None:
    document = _generate(django_capture_on_commit_callbacks, Kind.RESULTS, world.tournament)
    assert document.status == "done", document.error
    text = pdf_text(stored_pdf(document), tmp_path)
    assert all(p.last_name in text for p in world.players)


def test_series_data_loads_in_three_queries(world, django_assert_num_queries) -> None:
    with django_assert_num_queries(3):
        info = pipeline.load_series(world.series)
    assert [t.size for t in info.tables] == [4, 4, 5]
    assert [t.normal_games for t in info.tables] == [20, 20, 25]

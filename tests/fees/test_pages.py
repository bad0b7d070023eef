"""The fee pages: who opens them, one tap at the desk with and without htmx, a retried tap,
the forms' errors next to their fields in German and English, the payout list's files."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from common.actors import ORGANIZER, Actor
from fees.models import Booking, Prize
from fees.services import PrizeLine, book_fee, save_prizes
from tests.documents.pdftools import pdf_text
from tests.factories import add_players, build_world, make_tournament, page_client, play, set_status
from tournaments.models import Registration, Series, Tournament

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}


def url(name: str, tournament: Tournament, *args: object) -> str:
    return reverse(f"fees:{name}", args=[tournament.slug, *args])


def test_who_opens_the_desk(
    registrations: list[Registration], alice: User, carla: User, ken: User, bob: User
) -> None:
    tournament = registrations[0].tournament
    for name in ("desk", "report", "fees", "prizes", "payouts"):
        assert page_client(alice).get(url(name, tournament)).status_code == 200
        assert page_client(carla).get(url(name, tournament)).status_code == 200
        assert page_client(ken).get(url(name, tournament)).status_code == 403
        assert page_client(bob).get(url(name, tournament)).status_code == 403
        anonymous = page_client().get(url(name, tournament))
        assert anonymous.status_code == 302 and anonymous["Location"].startswith("/login/")
    mine = page_client(carla).get(reverse("fees:mine"))
    assert tournament.name in mine.content.decode()
    assert tournament.name not in page_client(ken).get(reverse("fees:mine")).content.decode()


def test_a_cashier_sees_no_organizer_menu(registrations: list[Registration], carla: User) -> None:
    tournament = registrations[0].tournament
    page = page_client(carla, language="de").get(url("desk", tournament)).content.decode()
    assert reverse("tournaments:registrations", args=[tournament.slug]) not in page
    assert "bezahlt" in page and "erlassen" in page


def test_the_desk_finds_a_player(registrations: list[Registration], carla: User) -> None:
    tournament = registrations[0].tournament
    client = page_client(carla)
    page = client.get(url("desk", tournament), {"q": "Nachname3"}).content.decode()
    assert f'id="fee-{registrations[2].pk}"' in page
    assert f'id="fee-{registrations[3].pk}"' not in page
    rows = client.get(url("desk", tournament), {"q": "7"}, **HTMX).content.decode()
    assert "<html" not in rows and f'id="fee-{registrations[6].pk}"' in rows


def test_a_tap_without_javascript(registrations: list[Registration], carla: User) -> None:
    tournament, first = registrations[0].tournament, registrations[0]
    data = {"kind": "paid", "version": "0", "fee": "", "method": "transfer", "key": "a" * 32}
    response = page_client(carla).post(url("tap", tournament, first.pk), data)
    assert response.status_code == 302
    assert response["Location"].endswith(f"?method=transfer&q=#fee-{first.pk}")
    booking = Booking.objects.get()
    assert (booking.kind, booking.method, booking.amount_cents) == ("paid", "transfer", 1000)


def test_a_tap_with_htmx_and_its_retry(registrations: list[Registration], carla: User) -> None:
    tournament, first = registrations[0].tournament, registrations[0]
    data = {"kind": "paid", "version": "0", "fee": "Jugend", "method": "cash", "key": "b" * 32}
    client = page_client(carla, language="de")
    response = client.post(url("tap", tournament, first.pk), data, **HTMX)
    page = response.content.decode()
    assert response.status_code == 200 and f'id="fee-{first.pk}"' in page
    assert "5,00 €" in page and 'name="version" value="1"' in page
    assert 'id="fee-counter"' in page and "1 bezahlt" in page
    # The answer was lost and the phone sends the same tap again: nothing booked twice.
    again = client.post(url("tap", tournament, first.pk), data, **HTMX)
    assert again.status_code == 200 and Booking.objects.count() == 1
    # Another button of the same stale row is no retry: it meets the version check.
    other = client.post(url("tap", tournament, first.pk), {**data, "kind": "waived"}, **HTMX)
    assert "inzwischen" in other.content.decode() and Booking.objects.count() == 1


def test_a_tap_on_a_stale_row_says_what_happened(
    registrations: list[Registration], carla: User, alice: User
) -> None:
    tournament, first = registrations[0].tournament, registrations[0]
    tap = {"kind": "paid", "version": "0", "fee": "", "method": "cash", "key": "c" * 32}
    page_client(alice).post(url("tap", tournament, first.pk), tap)
    stale = {**tap, "kind": "waived", "key": "d" * 32}
    for language, words in (("de", "inzwischen"), ("en", "in the meantime")):
        page = page_client(carla, language=language).post(
            url("tap", tournament, first.pk), stale, **HTMX
        )
        assert words in page.content.decode()
    assert list(Booking.objects.values_list("kind", flat=True)) == ["paid"]
    report = page_client(carla, language="de").get(url("report", tournament)).content.decode()
    assert "Letzte Buchungen" in report and "Nachname1, Vorname1" in report and "alice" in report


@pytest.mark.parametrize(
    ("language", "message"),
    [("de", "Geben Sie einen Betrag in Euro ein"), ("en", "Enter an amount in euros")],
)
def test_the_fee_form_shows_errors_next_to_fields_and_keeps_the_input(
    registrations: list[Registration], alice: User, language: str, message: str
) -> None:
    tournament = registrations[0].tournament
    data = {"standard": "zehn", "pot": "", "reduced_label_0": "Jugend", "reduced_amount_0": "",
            "reduced_label_1": "", "reduced_amount_1": "4,5", "reduced_label_2": "",
            "reduced_amount_2": ""}  # fmt: skip
    response = page_client(alice, language=language).post(url("fees", tournament), data)
    page = response.content.decode()
    assert response.status_code == 200
    assert message in page and 'id="id_standard-errors"' in page
    assert 'id="id_reduced_amount_0-errors"' in page and 'id="id_reduced_label_1-errors"' in page
    assert 'value="zehn"' in page and 'value="4,5"' in page and 'value="Jugend"' in page


def test_the_fee_form_saves(registrations: list[Registration], carla: User) -> None:
    tournament = registrations[0].tournament
    data = {"standard": "12,50", "pot": "300", "reduced_label_0": "Mitglied",
            "reduced_amount_0": "10"}  # fmt: skip
    response = page_client(carla).post(url("fees", tournament), data)
    assert response.status_code == 302
    tournament.fee_settings.refresh_from_db()
    assert (tournament.fee_settings.standard_cents, tournament.fee_settings.pot_cents) == (
        1250, 30000,
    )  # fmt: skip
    assert list(tournament.reduced_fees.values_list("label", "cents")) == [("Mitglied", 1000)]


@pytest.mark.parametrize(
    ("language", "both", "shares"),
    [
        ("de", "einen Anteil an, nicht beides", "mehr als das ganze Preisgeld"),
        ("en", "an amount or a share, not both", "more than the whole pot"),
    ],
)
def test_the_prize_form_shows_errors_and_keeps_the_input(
    registrations: list[Registration], alice: User, language: str, both: str, shares: str
) -> None:
    tournament = registrations[0].tournament
    client = page_client(alice, language=language)
    data = {"rows": "5", "place_0": "1", "amount_0": "50", "share_0": "30", "place_1": "2",
            "share_1": "abc"}  # fmt: skip
    page = client.post(url("prizes", tournament), data).content.decode()
    assert both in page and 'id="id_share_0-errors"' in page and 'id="id_share_1-errors"' in page
    assert 'value="abc"' in page and 'value="50"' in page
    data = {"rows": "5", "place_0": "1", "share_0": "60", "place_1": "2", "share_1": "50"}
    page = client.post(url("prizes", tournament), data).content.decode()
    assert shares in page and 'value="60"' in page
    assert not Prize.objects.exists()
    data = {"rows": "5", "place_0": "1", "share_0": "60", "place_1": "2", "amount_1": "20",
            "solos_won_amount": "5"}  # fmt: skip
    assert client.post(url("prizes", tournament), data).status_code == 302
    assert list(Prize.objects.values_list("place", "special", "cents", "share")) == [
        (1, "", None, 6000), (2, "", 2000, None), (None, "solos_won", 500, None),
    ]  # fmt: skip
    page = client.get(url("prizes", tournament)).content.decode()
    assert 'value="60"' in page and 'value="20,00"' in page


SOLO_WON = {"contract": "solo", "solo": "damen", "re": [1], "re_points": 121}


def test_the_payout_list_and_its_files(alice: User, tmp_path: Path) -> None:
    tournament = make_tournament("final", 1, organizers=[alice], name="Schlussturnier")
    names = [("Anna", "Albers"), ("Bernd", "Bäcker"), ("Carla", "Czerwinski"),
             ("Dieter", "Dörfler")]  # fmt: skip
    world = build_world(tournament, (4,), names=names)
    play(world.tables[0], [SOLO_WON])
    lines = [PrizeLine(place=1, cents=4000), PrizeLine(place=2, cents=2000),
             PrizeLine(place=3, cents=1000), PrizeLine(place=4, cents=502)]  # fmt: skip
    save_prizes(tournament, lines, actor=Actor(ORGANIZER, user=alice))
    client = page_client(alice, language="de")
    page = client.get(url("payouts", tournament)).content.decode()
    assert "Vorschau" in page and "11,68 €" in page
    assert url("payouts-pdf", tournament) not in page
    early = client.get(url("payouts-csv", tournament))
    assert early.status_code == 302 and early["Location"] == url("payouts", tournament)

    set_status(world.series, Series.Status.CLOSED)
    page = client.get(url("payouts", tournament)).content.decode()
    assert "Vorschau" not in page and url("payouts-pdf", tournament) in page
    csv = client.get(url("payouts-csv", tournament))
    assert csv["Content-Type"].startswith("text/csv")
    rows = csv.content.decode("utf-8-sig").splitlines()
    assert rows[1:] == [
        "1;1;Anna Albers;;40,00;;40,00",
        "2;2;Bernd Bäcker;;11,68;;11,68",
        "2;3;Carla Czerwinski;;11,67;;11,67",
        "2;4;Dieter Dörfler;;11,67;;11,67",
        ";;Gesamt;;;;75,02",
    ]
    pdf = client.get(url("payouts-pdf", tournament))
    assert pdf["Content-Type"] == "application/pdf"
    text = pdf_text(pdf.content, tmp_path)
    assert "Auszahlungsliste" in text and "Schlussturnier" in text
    assert "Bernd Bäcker" in text and "11,68 €" in text and "75,02 €" in text


def test_the_desk_and_the_report_read_a_fixed_number_of_statements(
    registrations: list[Registration], carla: User
) -> None:
    """Eight players or sixteen, with bookings or without: the same statements."""
    tournament = registrations[0].tournament
    client = page_client(carla)
    desk = Actor(ORGANIZER, user=carla)

    def counted(name: str) -> int:
        with CaptureQueriesContext(connection) as queries:
            assert client.get(url(name, tournament)).status_code == 200
        return len(queries)

    before = {name: counted(name) for name in ("desk", "report")}
    for registration in [*registrations, *add_players(tournament, 8)]:
        book_fee(registration, "paid", expected_version=0, actor=desk)
    assert {name: counted(name) for name in ("desk", "report")} == before

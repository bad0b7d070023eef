"""CSV and XLSX import: preview first, per-row errors, nothing saved while any row is wrong."""

import io

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from openpyxl import Workbook

from tournaments import importing
from tournaments.models import Player, Tournament

GOOD_CSV = (
    "Vorname;Nachname;Verein;DDV-Nr;E-Mail\n"
    "Karla;Kreuz;Dulle e.V.;123;k@example.org\n"
    "Peter;Pik;;;\n"
)


def xlsx(rows: list[list[object]]) -> bytes:
    workbook = Workbook()
    sheet = workbook.active
    for row in rows:
        sheet.append(row)
    buffer = io.BytesIO()
    workbook.save(buffer)
    return buffer.getvalue()


def test_parse_csv_semicolon_and_cp1252() -> None:
    content = "Vorname;Nachname;Verein\nJürgen;Müller;Kreuzbube\n".encode("cp1252")
    (row,) = importing.parse_players("liste.csv", content)
    assert row.values["first_name"] == "Jürgen" and row.values["club"] == "Kreuzbube"
    assert row.errors == {}


def test_parse_xlsx_numbers_as_text() -> None:
    content = xlsx([["Vorname", "Nachname", "DDV-Nr"], ["Karla", "Kreuz", 1234]])
    (row,) = importing.parse_players("liste.xlsx", content)
    assert row.values["ddv_number"] == "1234" and row.errors == {}


def test_parse_reports_errors_per_row_and_field() -> None:
    content = (
        b"Vorname,Nachname,DDV-Nr,E-Mail\nKarla,,12x,kein-mail\nKarla,Kreuz,,\nKarla,Kreuz,,\n"
    )
    rows = importing.parse_players("liste.csv", content)
    assert set(rows[0].errors) == {"last_name", "ddv_number", "email"}
    assert rows[1].errors == {}
    assert "line 3" in rows[2].errors["last_name"] or "Zeile 3" in rows[2].errors["last_name"]


@pytest.mark.parametrize(
    ("name", "content"),
    [
        ("liste.pdf", b"%PDF"),
        ("liste.xlsx", b"not a zip"),
        ("liste.csv", b""),
        ("liste.csv", b"Name;Ort\nA;B\n"),
    ],
)
def test_unreadable_files_are_refused_whole(name: str, content: bytes) -> None:
    with pytest.raises(importing.ImportFileError):
        importing.parse_players(name, content)


def upload(client: Client, name: str, content: bytes):
    return client.post("/verwaltung/herbst/import/", {"file": SimpleUploadedFile(name, content)})


def test_import_preview_then_confirm(alice_client: Client, tournament: Tournament) -> None:
    response = upload(alice_client, "liste.csv", GOOD_CSV.encode())
    assert response.status_code == 200
    assert "Karla" in response.content.decode()
    assert not tournament.registrations.exists()  # the preview saves nothing
    response = alice_client.post("/verwaltung/herbst/import/", {"confirm": "1"})
    assert response.status_code == 302
    assert sorted(tournament.registrations.values_list("start_number", flat=True)) == [1, 2]


def test_import_with_errors_saves_nothing(alice_client: Client, tournament: Tournament) -> None:
    content = xlsx([["Vorname", "Nachname", "E-Mail"], ["Karla", "Kreuz", ""], ["", "Pik", "x"]])
    response = upload(alice_client, "liste.xlsx", content)
    html = response.content.decode()
    assert 'name="confirm"' not in html
    alice_client.post("/verwaltung/herbst/import/", {"confirm": "1"})
    assert not tournament.registrations.exists()
    assert not Player.objects.exists()


def test_import_offers_merge_with_known_player(
    alice_client: Client, tournament: Tournament, alice
) -> None:
    known = Player.objects.create(
        first_name="Karla", last_name="Kreuz", club="Dulle e.V.", owner=alice
    )
    response = upload(alice_client, "liste.csv", GOOD_CSV.encode())
    assert f'<option value="{known.pk}">' in response.content.decode()
    alice_client.post("/verwaltung/herbst/import/", {"confirm": "1", "merge-2": str(known.pk)})
    assert tournament.registrations.filter(player=known).exists()
    assert Player.objects.count() == 2


def test_import_of_already_registered_player_is_an_error(
    alice_client: Client, tournament: Tournament
) -> None:
    alice_client.post(
        "/verwaltung/herbst/spieler/",
        {"first_name": "Karla", "last_name": "Kreuz", "create_new": "1"},
    )
    response = upload(alice_client, "liste.csv", GOOD_CSV.encode())
    assert 'name="confirm"' not in response.content.decode()


def test_broken_upload_shows_error_next_to_field(
    alice_client: Client, tournament: Tournament
) -> None:
    response = upload(alice_client, "liste.xlsx", b"garbage")
    assert response.status_code == 200
    assert 'class="field-error"' in response.content.decode()

"""CSV and XLSX import: preview first with per-row errors (their count on top); the valid
rows are registered, the rows with errors listed and left out."""

import io

import pytest
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from openpyxl import Workbook

from clubs.services import personal_club
from tests.factories import page_client
from tournaments import importing
from tournaments.models import Player, Tournament
from tournaments.services.registrations import ImportRow, PlayerData, SkippedRow, import_players

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


def test_import_registers_the_valid_rows_and_lists_the_rest(
    alice: User, tournament: Tournament
) -> None:
    alice_client = page_client(alice, language="en")
    content = xlsx([
        ["Vorname", "Nachname", "E-Mail"], ["Karla", "Kreuz", ""], ["", "Pik", "x"],
        ["Karla", "Kreuz", ""], ["Peter", "Pik", ""],
    ])  # fmt: skip
    html = " ".join(upload(alice_client, "liste.xlsx", content).content.decode().split())
    # The error count on top, before the rows; the valid ones can be registered.
    assert html.index("2 rows have errors") < html.index('class="import-preview"')
    assert "Register 2 players" in html
    response = alice_client.post("/verwaltung/herbst/import/", {"confirm": "1"}, follow=True)
    names = sorted(tournament.registrations.values_list("player__first_name", flat=True))
    assert names == ["Karla", "Peter"]
    text = " ".join(response.content.decode().split())
    assert "2 players registered." in text
    assert "2 rows with errors were not imported: line 3: The first name is missing." in text
    assert "line 4: Same name and club as in line 2." in text


def test_import_with_errors_only_registers_nobody(alice: User, tournament: Tournament) -> None:
    alice_client = page_client(alice, language="en")
    content = xlsx([["Vorname", "Nachname", "E-Mail"], ["", "Pik", "x"]])
    html = upload(alice_client, "liste.xlsx", content).content.decode()
    assert 'name="confirm"' not in html and "Fix the file and upload it again." in html
    alice_client.post("/verwaltung/herbst/import/", {"confirm": "1"})
    assert not tournament.registrations.exists()
    assert not Player.objects.exists()


def test_import_offers_merge_with_known_player(
    alice_client: Client, tournament: Tournament, alice
) -> None:
    known = Player.objects.create(
        first_name="Karla",
        last_name="Kreuz",
        club="Dulle e.V.",
        owner=alice,
        registry_club=personal_club(alice),
    )
    response = upload(alice_client, "liste.csv", GOOD_CSV.encode())
    assert f'<option value="{known.pk}">' in response.content.decode()
    alice_client.post("/verwaltung/herbst/import/", {"confirm": "1", "merge-2": str(known.pk)})
    assert tournament.registrations.filter(player=known).exists()
    assert Player.objects.count() == 2


def register_by_form(client: Client, first_name: str, last_name: str, **extra: str) -> None:
    response = client.post(
        "/verwaltung/herbst/spieler/",
        {
            "first_name": first_name,
            "last_name": last_name,
            "name_form": "full",
            "create_new": "1",
            **extra,
        },
    )
    assert response.status_code == 302


UPDATED_CSV = (
    "Vorname;Nachname;Verein;DDV-Nr;E-Mail\n"
    "Karla;Kreuz;Dulle e.V.;123;k@example.org\n"
    "Peter;Pik;;;\n"
    "Hanna;Herz;Dulle e.V.;;\n"
)


def test_reimport_skips_the_rows_already_registered_and_registers_the_new_ones(
    alice_client: Client, tournament: Tournament
) -> None:
    register_by_form(alice_client, "Karla", "Kreuz", club="Dulle e.V.")
    register_by_form(alice_client, "Peter", "Pik")
    response = alice_client.post(
        "/verwaltung/herbst/import/",
        {"file": SimpleUploadedFile("liste.csv", UPDATED_CSV.encode())},
        headers={"accept-language": "en"},
    )
    html = response.content.decode()
    # The preview reports the skipped rows and offers to register the new one only.
    assert html.count('class="row-skipped"') == 2
    assert "already registered as #1 Kreuz, Karla: skipped" in html
    assert "2 rows are already registered and will be skipped." in html
    assert "Register 1 player</button>" in html
    assert "row-error" not in html
    response = alice_client.post(
        "/verwaltung/herbst/import/",
        {"confirm": "1"},
        headers={"accept-language": "en"},
        follow=True,
    )
    html = response.content.decode()
    assert "1 player registered." in html
    assert "2 rows skipped, already registered: Kreuz, Karla (#1), Pik, Peter (#2)" in html
    assert list(
        tournament.registrations.order_by("start_number").values_list(
            "player__last_name", flat=True
        )
    ) == ["Kreuz", "Pik", "Herz"]
    assert Player.objects.count() == 3


def test_import_service_skips_a_registered_player_matched_by_ddv_number(
    tournament: Tournament, alice
) -> None:
    known = Player.objects.create(
        first_name="Karla",
        last_name="Kreuz",
        ddv_number="123",
        owner=alice,
        registry_club=personal_club(alice),
    )
    (registration,) = import_players(
        tournament, [ImportRow(PlayerData("Karla", "Kreuz"), merge_with=known.pk, line=2)]
    ).created
    # The updated list spells her name differently; her DDV number is the same.
    result = import_players(
        tournament,
        [
            ImportRow(PlayerData("Carla", "Kreutz", ddv_number="123"), merge_with=None, line=2),
            ImportRow(PlayerData("Peter", "Pik"), merge_with=None, line=3),
        ],
    )
    assert result.skipped == [SkippedRow(line=2, registration=registration)]
    assert [r.player.last_name for r in result.created] == ["Pik"]


def test_a_row_conflicting_otherwise_still_refuses_the_file_with_its_line(
    alice_client: Client, tournament: Tournament, alice
) -> None:
    register_by_form(alice_client, "Peter", "Pik")
    # Another player of the registry (not registered here) has Hanna's DDV number.
    Player.objects.create(
        first_name="Otto",
        last_name="Other",
        ddv_number="777",
        owner=alice,
        registry_club=personal_club(alice),
    )
    content = "Vorname;Nachname;DDV-Nr\nPeter;Pik;\nNeu;Mensch;\nHanna;Herz;777\n"
    upload(alice_client, "liste.csv", content.encode())
    response = alice_client.post(
        "/verwaltung/herbst/import/",
        {"confirm": "1", "merge-4": ""},  # "new player" for line 4
        headers={"accept-language": "en"},
        follow=True,
    )
    html = response.content.decode()
    assert (
        "Nothing was saved. Line 4: Another player already has the DDV member number 777." in html
    )
    assert tournament.registrations.count() == 1  # Peter only, from the form
    assert not Player.objects.filter(last_name="Mensch").exists()


def test_a_file_of_registered_players_only_offers_nothing_to_register(
    alice_client: Client, tournament: Tournament
) -> None:
    register_by_form(alice_client, "Karla", "Kreuz")
    response = alice_client.post(
        "/verwaltung/herbst/import/",
        {"file": SimpleUploadedFile("liste.csv", b"Vorname;Nachname\nKarla;Kreuz\n")},
        headers={"accept-language": "en"},
    )
    html = response.content.decode()
    assert 'name="confirm"' not in html
    assert "Every player of this file is already registered." in html


def test_confirm_leaves_out_a_row_the_preview_refused(
    alice_client: Client, tournament: Tournament
) -> None:
    # The same person twice in the file: an error of the preview, not of single values.
    upload(alice_client, "liste.csv", b"Vorname;Nachname\nKarla;Kreuz\nKarla;Kreuz\n")
    alice_client.post("/verwaltung/herbst/import/", {"confirm": "1"})
    assert tournament.registrations.count() == 1


def test_preview_errors_name_their_field(alice_client: Client, tournament: Tournament) -> None:
    content = f"Vorname;Nachname;Verein;DDV-Nr\n{'K' * 81};Kreuz;{'V' * 121};12x\n"
    response = alice_client.post(
        "/verwaltung/herbst/import/",
        {"file": SimpleUploadedFile("liste.csv", content.encode())},
        headers={"accept-language": "en"},
    )
    html = response.content.decode()
    assert '<div class="field-error">The first name is longer than 80 characters.</div>' in html
    assert '<div class="field-error">The club is longer than 120 characters.</div>' in html
    assert '<div class="field-error">A DDV member number has only digits.</div>' in html


def test_broken_upload_shows_error_next_to_field(
    alice_client: Client, tournament: Tournament
) -> None:
    response = upload(alice_client, "liste.xlsx", b"garbage")
    assert response.status_code == 200
    assert 'class="field-error"' in response.content.decode()

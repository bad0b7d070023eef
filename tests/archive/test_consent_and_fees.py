"""The archive carries each player's consent and the tournament's fees (version 2): the
round trip is byte for byte, the import honours the consent (an anonymous player stays
anonymous, a registry's player never gets a looser consent), an archive of version 1
(no consent) imports its new players anonymous, and broken parts are refused by row."""

from __future__ import annotations

import copy
import datetime
import json
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.utils import translation
from freezegun import freeze_time

from archive.export import build_archive
from archive.reading import ArchiveRefused
from archive.services import import_archive, import_file
from clubs.services import personal_club
from common.actors import ORGANIZER, Actor
from fees.models import Booking, FeeSettings, Prize, ReducedFee
from fees.services import FeeData, PrizeLine, book_fee, save_fees, save_prizes
from scoring.standings import overall_standings
from tests.factories import RE_WINS, build_world, make_tournament, make_user, page_client, play
from tournaments.models import NameForm, Player, RegistryChange, Tournament
from tournaments.services.privacy import CONSENT_CHANGED, anonymize_player

pytestmark = pytest.mark.django_db
Capture = Callable[..., Any]

NAMES = [("Anna", "Schmidt"), ("Bernd", "Meier"), ("Carla", "Weber"), ("Dieter", "Roth"),
         ("Emil", "Jung"), ("Frieda", "Klein"), ("Gustav", "Lang"), ("Hanna", "Berg")]  # fmt: skip
GAMES = [{**RE_WINS, "dealer": 1}, {"contract": "normal", "re": [2, 4], "re_points": 90}]
BOOKED = datetime.datetime(2026, 11, 28, 9, 15, tzinfo=datetime.UTC)
#: What an archive of the copy differs in: when and where it was made, its change log.
ELSEWHERE = ("exported_at", "source", "audit")


def played(orga: User) -> Tournament:
    """Eight players at two tables with every consent there is, fees and a ledger."""
    tournament = make_tournament("herbst", organizers=[orga], is_public=True)
    world = build_world(tournament, (4, 4), names=NAMES)
    for table in world.tables:
        play(table, GAMES)
    consent = {
        "Schmidt": {"name_form": "initial"},
        "Meier": {"name_form": "anonymous"},
        "Jung": {"minor": True, "guardian_consent": True, "name_form": "full"},
        "Klein": {"minor": True, "name_form": "anonymous"},
    }
    for last, fields in consent.items():
        Player.objects.filter(last_name=last).update(consent_at=BOOKED, **fields)
    anonymize_player(orga, Player.objects.get(last_name="Roth"))
    actor = Actor(ORGANIZER, user=orga)
    save_fees(tournament, FeeData(1000, (("Jugend", 500),), pot_cents=None), actor=actor)
    save_prizes(
        tournament,
        [PrizeLine(place=1, share=5000), PrizeLine(place=2, cents=1500),
         PrizeLine(special="solos_won", cents=1000)],
        actor=actor,
    )  # fmt: skip
    first, second, third = world.registrations[:3]
    with freeze_time(BOOKED):
        book_fee(first, "paid", expected_version=0, actor=actor)
        book_fee(first, "waived", expected_version=1, actor=actor)  # paid back: a reversal
        book_fee(first, "paid", expected_version=2, actor=actor, fee_label="Jugend",
                 method="transfer")  # fmt: skip
        book_fee(second, "waived", expected_version=0, actor=actor)
        book_fee(third, "paid", expected_version=0, actor=actor, key="k-1")
    return tournament


def as_json(tournament: Tournament) -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads(json.dumps(build_archive(tournament)))
    return loaded


def content(archive: dict[str, Any]) -> str:
    """The archive's text but for what the copy differs in (and ``is_public``: a copy is
    private until its organizer publishes it; ``slug``: the original's is taken here)."""
    kept = {k: v for k, v in archive.items() if k not in ELSEWHERE}
    kept["tournament"] = {**kept["tournament"], "is_public": None, "slug": None}
    return json.dumps(kept, ensure_ascii=False, indent=1)


def importer() -> tuple[User, Actor]:
    user = User.objects.filter(username="importer").first() or make_user("importer")
    return user, Actor(ORGANIZER, user=user)


def public_names(tournament: Tournament) -> dict[int, str]:
    with translation.override("de"):
        lines = overall_standings(tournament)
    return {line["start_number"]: line["name"] for line in lines}


def test_the_round_trip_with_consent_and_fees_is_byte_for_byte() -> None:
    original = played(make_user("orga"))
    archive = as_json(original)
    assert archive["version"] == 2
    players = {p["last_name"] or "(anonymized)": p for p in archive["players"]}
    assert players["Schmidt"]["name_form"] == "initial"
    assert players["Jung"] == {**players["Jung"], "minor": True, "guardian_consent": True,
                               "consent_at": BOOKED.isoformat()}  # fmt: skip
    assert players["(anonymized)"]["first_name"] == "" and "Roth" not in json.dumps(archive)
    fees = archive["fees"]
    assert (fees["standard_cents"], fees["reduced"]) == (1000, [{"label": "Jugend", "cents": 500}])
    assert [b["kind"] for b in fees["bookings"]] == ["paid", "waived", "paid", "waived", "paid"]
    assert fees["bookings"][1]["reverses"] == 1 and fees["bookings"][1]["amount_cents"] == -1000
    assert all(b["at"] == BOOKED.isoformat() for b in fees["bookings"])

    user, actor = importer()
    copied = import_archive(copy.deepcopy(archive), user, actor).tournament

    assert content(as_json(copied)) == content(archive)
    assert copied.fee_settings.standard_cents == 1000
    assert Prize.objects.filter(tournament=copied).count() == 3
    assert ReducedFee.objects.get(tournament=copied).label == "Jugend"
    reversal = Booking.objects.get(tournament=copied, registration__start_number=1, number=2)
    assert reversal.reverses is not None and reversal.reverses.number == 1
    assert reversal.created_at == BOOKED and reversal.user is None
    assert public_names(copied) == public_names(original)
    names = public_names(copied)
    assert (names[1], names[2], names[4], names[5], names[6]) == (
        "Anna S.", "Spieler 2", "Spieler 4", "Emil Jung", "Spieler 6",
    )  # fmt: skip


def test_an_archive_of_version_1_imports_its_new_players_anonymous() -> None:
    """No consent in the file: nothing is presumed. Players found in the registry keep the
    consent the registry holds."""
    old = version_1(as_json(played(make_user("orga"))))
    old["players"] = [p for p in old["players"] if p["first_name"]]  # v1 held no anonymized
    old["registrations"] = [r for r in old["registrations"] if r["start_number"] != 4]
    for s in old["series"]:
        s["tables"] = [t for t in s["tables"] if t["number"] != 1]
    user, actor = importer()
    Player.objects.create(
        owner=user, registry_club=personal_club(user), first_name="Carla", last_name="Weber",
        name_form="initial",
    )  # fmt: skip

    copied = import_archive(old, user, actor).tournament

    forms = dict(
        Player.objects.filter(registrations__tournament=copied).values_list(
            "last_name", "name_form"
        )
    )
    assert forms.pop("Weber") == "initial"  # found in the registry: its consent
    assert set(forms.values()) == {NameForm.ANONYMOUS}
    assert not Booking.objects.filter(tournament=copied).exists()
    assert not FeeSettings.objects.filter(tournament=copied).exists()
    assert set(public_names(copied).values()) <= {"Carla W.", *(f"Spieler {n}" for n in range(9))}


def test_a_registry_player_gets_the_stricter_consent_never_a_looser_one() -> None:
    archive = as_json(played(make_user("orga")))
    user, actor = importer()
    club = personal_club(user)  # the importer's: the imported tournament's registry
    schmidt = Player.objects.create(
        owner=user, registry_club=club, first_name="Anna", last_name="Schmidt"
    )
    weber = Player.objects.create(
        owner=user, registry_club=club, first_name="Carla", last_name="Weber",
        name_form="anonymous",
    )  # fmt: skip
    copied = import_archive(copy.deepcopy(archive), user, actor).tournament
    schmidt.refresh_from_db()
    weber.refresh_from_db()
    assert schmidt.name_form == "initial"  # the archive's, stricter than "full"
    assert weber.name_form == "anonymous"  # the archive says full: never looser
    log = RegistryChange.objects.get(action=CONSENT_CHANGED)
    assert log.player == schmidt and log.user == user
    assert (log.before["name_form"], log.after["name_form"]) == ("full", "initial")
    assert public_names(copied)[3] == "Spieler 3"
    # An anonymized player is never taken for another nameless one.
    assert Player.objects.filter(owner=user, first_name="", last_name="").count() == 1
    import_archive(copy.deepcopy(archive), user, actor)
    assert Player.objects.filter(owner=user, first_name="", last_name="").count() == 2


def refused(archive: dict[str, Any]) -> list[str]:
    user, actor = importer()
    count = Tournament.objects.count(), Booking.objects.count()
    with pytest.raises(ArchiveRefused) as caught:
        import_archive(archive, user, actor)
    assert (Tournament.objects.count(), Booking.objects.count()) == count
    return [str(p) for p in caught.value.problems]


def test_broken_consent_and_fees_are_named() -> None:
    archive = as_json(played(make_user("orga")))
    broken = copy.deepcopy(archive)
    jung = next(p for p in broken["players"] if p["last_name"] == "Jung")
    jung["guardian_consent"] = False
    del broken["players"][0]["name_form"]
    broken["players"][1]["first_name"] = ""  # Meier: anonymous, a name is not needed
    broken["players"][2]["first_name"] = ""  # Weber: published in full, he needs one
    fees = broken["fees"]
    fees["bookings"][0]["start_number"] = 99
    fees["bookings"][2]["number"] = 7
    fees["bookings"][3]["amount_cents"] = 500
    fees["prizes"][1]["share"] = 6000
    fees["reduced"].append({"label": "Jugend", "cents": 300})
    problems = refused(broken)
    assert "player 1, name_form: This field is missing." in problems
    assert any(p.startswith("player 3, first_name: Expected a text") for p in problems)
    assert not any(p.startswith("player 2") for p in problems)
    assert (
        "player 5, name_form: A player under 18 is published by name only with a parent's or "
        "guardian's consent." in problems
    )
    assert "fees, booking 1: Start number 99 is not registered." in problems
    assert "fees, start number 1: The bookings are not numbered 1 to 2." in problems
    assert "fees, booking 4: Only a payment brings money in." in problems
    assert "fees, prize 2: Give either an amount or a share of the pot." in problems
    assert "fees, reduced fee 2: Two reduced fees have the same name." in problems
    shares = copy.deepcopy(archive)
    shares["fees"]["prizes"][1] = {"place": 2, "special": "", "cents": None, "share": 6000}
    assert refused(shares) == [
        "fees, shares: The shares together are more than the whole pot (100 %)."
    ]
    reversal = copy.deepcopy(archive)
    reversal["fees"]["bookings"][2]["reverses"] = 2
    assert refused(reversal) == ["fees, start number 1: Booking 3 reverses no earlier payment."]
    junk = copy.deepcopy(archive)
    junk["fees"] = [1]
    assert refused(junk) == ["fees: Expected an object."]
    raw = json.dumps(archive).replace('"kind": "waived"', '"kind": "paid", "kind": "waived"', 1)
    user, actor = importer()
    with pytest.raises(ArchiveRefused) as caught:
        import_file(raw.encode(), user, actor)
    assert [str(p) for p in caught.value.problems] == [
        "fees, booking 2: The key kind appears twice."
    ]


def version_1(archive: dict[str, Any]) -> dict[str, Any]:
    """``archive`` as this server wrote it before consent and fees travelled."""
    old = copy.deepcopy(archive)
    old["version"] = 1
    del old["fees"]
    for p in old["players"]:
        for key in ("name_form", "minor", "guardian_consent", "consent_at"):
            del p[key]
    return old


@pytest.mark.parametrize(
    ("language", "note"),
    [
        ("de", "Dieses Archiv (Version 1) enthält keine Einwilligung"),
        ("en", "This archive (version 1) holds no consent to publication"),
    ],
)
def test_the_summary_says_a_version_1_archive_comes_in_anonymous(
    language: str, note: str, django_capture_on_commit_callbacks: Capture
) -> None:
    orga = make_user("orga")
    tournament = make_tournament("herbst", organizers=[orga])
    world = build_world(tournament, (4,), names=NAMES[:4])
    play(world.tables[0], GAMES)
    archive = as_json(tournament)
    client = page_client(make_user("bob"), language=language)
    for content, shown in ((version_1(archive), True), (archive, False)):
        raw = json.dumps(content).encode()
        upload = {"file": SimpleUploadedFile("a.json", raw, content_type="application/json")}
        with django_capture_on_commit_callbacks(execute=True):
            response = client.post("/verwaltung/import/", upload)
        page = " ".join(client.get(response["Location"]).content.decode().split())
        assert (note in page) is shown
        with django_capture_on_commit_callbacks(execute=True):
            client.post(response["Location"])  # import: the next upload may run

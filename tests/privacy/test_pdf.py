"""The result report (the PDF the public gets) names each player as he consented, in both
languages, and is made again without a player who objected (pdftotext)."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.core.management import call_command

from tests.documents.pdftools import pdf_text
from tests.factories import RE_WINS, build_world, make_tournament, make_user, play
from tournaments.models import Player
from tournaments.services.privacy import anonymize_player

NAMES = [("Anna", "Quellenberg"), ("Bernd", "Wolkenstein"), ("Carla", "Sturmfeld"),
         ("Dieter", "Kranichsee")]  # fmt: skip


def _report(tmp_path: Path, language: str) -> str:
    out = tmp_path / f"results-{language}.pdf"
    call_command("print_results", "herbst", "-o", str(out), "--language", language)
    return " ".join(pdf_text(out.read_bytes(), tmp_path).split())


@pytest.mark.django_db
@pytest.mark.parametrize(("language", "label"), [("de", "Spieler"), ("en", "Player")])
def test_the_result_report_follows_consent(tmp_path: Path, language: str, label: str) -> None:
    orga = make_user("orga")
    tournament = make_tournament("herbst", organizers=[orga])
    world = build_world(tournament, (4,), names=NAMES)
    play(world.tables[0], [{**RE_WINS, "dealer": 1}])
    Player.objects.filter(last_name="Quellenberg").update(name_form="initial")
    Player.objects.filter(last_name="Wolkenstein").update(name_form="anonymous")
    text = _report(tmp_path, language)
    assert "Anna Q." in text and "Quellenberg" not in text
    assert "Bernd" not in text and "Wolkenstein" not in text and f"{label} 2" in text
    assert "Carla Sturmfeld" in text and "Dieter Kranichsee" in text
    anonymize_player(orga, Player.objects.get(last_name="Sturmfeld"))
    text = _report(tmp_path, language)
    assert "Sturmfeld" not in text and "Carla" not in text and f"{label} 3" in text
    assert "Dieter Kranichsee" in text

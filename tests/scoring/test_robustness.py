"""Whatever a phone sends, the captain's pages answer without a server error."""

import pytest
from django.test import Client
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.factories import make_tournament, running_table

FIELDS = [
    "contract", "solo", "soloist", "re_players", "hochzeit_partner_trick", "re_announcement",
    "kontra_announcement", "re_points", "re_tricks", "re_fuchs", "kontra_doppelkopf",
    "penalty_1", "penalty_4", "version", "idempotency_key", "seat", "number", "reason",
    "points_1", "points_2", "compulsory", "forced",
]  # fmt: skip
VALUES = st.one_of(
    st.sampled_from(["normal", "solo", "hochzeit", "stille_hochzeit", "damen", "90", "schwarz"]),
    st.integers(-(2**40), 2**40).map(str),
    st.text(max_size=12),
    st.sampled_from(["", "1", "3", "0", "-1", "240", "1e9", "NaN", "on"]),
)
FORM = st.dictionaries(st.sampled_from(FIELDS), st.one_of(VALUES, st.lists(VALUES, max_size=3)))
PATHS = ["spiel/", "spiel/1/", "vorschau/", "abgeben/", "bestaetigen/", "loeschen/"]


@pytest.mark.django_db
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(path=st.sampled_from(PATHS), data=FORM, paper=st.booleans())
def test_captain_pages_never_fail(path: str, data: dict, paper: bool) -> None:
    mode = "transcription" if paper else "entry"
    slug = f"fuzz-{mode}"
    from tournaments.models import Tournament

    tournament = Tournament.objects.filter(slug=slug).first() or make_tournament(
        slug=slug, entry_mode=mode
    )
    table = tournament.series.get(number=1).tables.first() or running_table(tournament)
    response = Client().post(f"/tisch/{table.captain_token}/{path}", data)
    assert response.status_code < 500

"""Numbers from requests: only ASCII digits, only as many as an id can have. A superscript
two or an Arabic-Indic digit passes ``str.isdigit`` but not ``int()``; before, such a value
in a query string or a form was a 500."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse
from hypothesis import given
from hypothesis import strategies as st

from common.parsing import whole_number
from tests.factories import page_client

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("raw", "expected"),
    [("7", 7), ("007", 7), ("", None), (None, None), ("²", None), ("١٢", None), ("-1", None),
     ("1.0", None), ("9" * 10, None), (" 7", None)],
)  # fmt: skip
def test_whole_number(raw: str | None, expected: int | None) -> None:
    assert whole_number(raw) == expected


@given(st.text(max_size=12))
def test_never_raises(raw: str) -> None:
    value = whole_number(raw)
    assert value is None or int(raw) == value < 10**9  # only what int() reads the same


@pytest.mark.parametrize("junk", ["²", "١٢", "9" * 5000])
def test_pages_answer_junk_numbers_without_a_500(
    junk: str, world: object, alice_client: Client, alice: User
) -> None:
    tournament = world.tournament  # type: ignore[attr-defined]
    table = world.tables[0]  # type: ignore[attr-defined]
    public = page_client()
    assert (
        public.get(
            reverse("scoring:series-clock", args=[tournament.slug, 1]), {"tisch": junk}
        ).status_code
        == 200
    )
    assert public.get(reverse("tournaments:registrations", args=[tournament.slug])).status_code in (
        302,
        403,
    )
    assert (
        alice_client.get(
            reverse("tournaments:registrations", args=[tournament.slug]), {"q": junk}
        ).status_code
        == 200
    )
    captain = reverse("scoring:captain-delete", args=[table.captain_token])
    assert page_client().post(captain, {"number": junk, "version": junk}).status_code < 500
    game = reverse("scoring:captain-game", args=[table.captain_token])
    answer = page_client().post(game, {"sitting_out": junk, "seat": junk, "version": junk})
    assert answer.status_code < 500

"""Reading a hand-over code (pure, no database): a table's signature, its shape, limits."""

from __future__ import annotations

import contextlib
import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring.handover import (
    MAX_CODE,
    HandoverRefused,
    b64decode,
    b64encode,
    make_code,
    read_code,
    sign,
)

TOKENS = {7: "token-of-table-seven", 8: "token-of-table-eight"}
GAME = {
    "key": "key-00000001",
    "number": 1,
    "fields": {"contract": "normal", "re_players": ["1", "3"], "re_points": "130"},
}


def token_of(table: int) -> str | None:
    return TOKENS.get(table)


def refused(code: str) -> str:
    with pytest.raises(HandoverRefused) as caught:
        read_code(code, token_of)
    return caught.value.code


def test_a_valid_code_is_read() -> None:
    handed = read_code(make_code(7, [GAME], TOKENS[7]), token_of)
    assert handed.table == 7
    (game,) = handed.games
    assert game.key == "key-00000001" and game.number == 1
    assert dict(game.fields) == {"contract": "normal", "re_players": ("1", "3"), "re_points": "130"}


def test_the_mac_is_hmac_sha256_of_the_b64_under_the_token() -> None:
    """The format the phone implements, pinned to a value computed by openssl."""
    assert sign("e30", "abc") == "MG2v66Iq4uv029_GzdnbAtXH9JjuGuomIz0vJbfeOAc"


def test_a_forged_mac_is_refused() -> None:
    code = make_code(7, [GAME], TOKENS[7])
    prefix, body, mac = code.split(".")
    flipped = ("A" if mac[0] != "A" else "B") + mac[1:]
    assert refused(f"{prefix}.{body}.{flipped}") == "forged"
    assert refused(make_code(7, [GAME], "a-guessed-token")) == "forged"


def test_an_altered_payload_is_refused() -> None:
    code = make_code(7, [GAME], TOKENS[7])
    prefix, body, mac = code.split(".")
    payload = json.loads(b64decode(body))
    payload["games"][0]["fields"]["re_points"] = "100"
    altered = b64encode(json.dumps(payload, separators=(",", ":")).encode())
    assert refused(f"{prefix}.{altered}.{mac}") == "forged"


def test_another_tables_code_with_this_tables_id_is_refused() -> None:
    """Table 8's phone signs with its own token; it cannot pass as table 7's."""
    assert refused(make_code(7, [GAME], TOKENS[8])) == "forged"
    assert refused(make_code(9, [GAME], "whatever")) == "unknown_table"


def test_a_too_long_code_is_refused_before_anything_else() -> None:
    games = [{**GAME, "key": f"key-{n:08d}", "number": n} for n in range(1, 30)]
    code = make_code(7, games, TOKENS[7])
    assert len(code) > MAX_CODE
    assert refused(code) == "too_long"


@pytest.mark.parametrize(
    ("games", "why"),
    [
        ([], "bad_payload"),
        ([{**GAME, "key": "short"}], "bad_payload"),
        ([{**GAME, "number": 0}], "bad_payload"),
        ([{**GAME, "number": True}], "bad_payload"),
        ([{**GAME, "fields": {"re_points": 130}}], "bad_payload"),
        ([{**GAME, "fields": {"": "x"}}], "bad_payload"),
        ([{**GAME, "extra": 1}], "bad_payload"),
        (["not a game"], "bad_payload"),
    ],
)
def test_a_signed_code_of_the_wrong_shape_is_refused(games: list[object], why: str) -> None:
    assert refused(make_code(7, games, TOKENS[7])) == why  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "junk",
    ["", "DOKO1", "DOKO1..", "DOKO2.e30." + "A" * 43, "DOKO1.e30.short", "DOKO1.e+0." + "A" * 43,
     "DOKO1.!!!." + "A" * 43, "DOKO1.AAAA." + "A" * 43, "DOKO1.W10." + "A" * 43,
     "DOKO1." + b64encode(b"\xff\xfe") + "." + "A" * 43, "DOKO1.e30." + "A" * 43],
)  # fmt: skip
def test_junk_is_refused_with_a_code(junk: str) -> None:
    assert refused(junk) in {"not_a_code", "bad_payload", "too_long"}


@given(st.text(max_size=300))
def test_any_text_is_refused_with_a_code_never_an_error(text: str) -> None:
    with pytest.raises(HandoverRefused):
        read_code(text, token_of)


@given(st.binary(max_size=200))
def test_any_signed_bytes_are_read_or_refused_never_an_error(raw: bytes) -> None:
    body = b64encode(raw)
    with contextlib.suppress(HandoverRefused):
        read_code(f"DOKO1.{body}.{sign(body, TOKENS[7])}", token_of)

"""The parts a save's answer may leave out (scoring/swap_parts.py): pure, no database."""

from __future__ import annotations

import re

from scoring.swap_parts import digest, kept, shown_parts

FORM = (
    '<form method="post" action="/s/" class="game-form" data-keep novalidate>\n'
    '  <input type="hidden" name="csrfmiddlewaretoken" value="{csrf}">\n'
    '  <input type="hidden" name="version" value="{version}">\n'
    '  <input type="hidden" name="idempotency_key" value="{key}">\n'
    '  <input type="hidden" name="sitting_out" value="{out}">\n'
    "</form>"
)
OUTBOX = '<section id="outbox" hidden data-keep\n  data-t-x="Spiel {x}"><p></p></section>'


def page(csrf: str = "a", version: str = "1", key: str = "k1", out: str = "") -> str:
    form = FORM.format(csrf=csrf, version=version, key=key, out=out)
    return f'<section class="next-box">Spiel 2</section>{form}<p>rows</p>{OUTBOX}'


def codes(html: str) -> list[str]:
    return re.findall(r'data-keep="([0-9a-f]{12})"', html)


def test_each_part_gets_the_digest_of_its_markup() -> None:
    html = kept(page())
    form, outbox = codes(html)
    assert form != outbox
    assert (
        html.replace(f' data-keep="{form}"', " data-keep").replace(
            f' data-keep="{outbox}"', " data-keep"
        )
        == page()
    )
    assert '<section class="next-box">' in html  # no data-keep: not a part


def test_a_form_differs_by_what_it_asks_not_by_its_token_key_or_version() -> None:
    first = codes(kept(page("a", "1", "k1")))
    assert codes(kept(page("b", "2", "k2"))) == first
    assert codes(kept(page(out="3")))[0] != first[0]  # another seat sits out


def test_a_part_the_phone_shows_is_left_out_and_no_other() -> None:
    form, outbox = codes(kept(page()))
    answer = kept(page(version="2"), {outbox})
    assert f'<template data-kept="{outbox}"></template>' in answer
    assert "data-t-x" not in answer and f'data-keep="{form}"' in answer
    answer = kept(page(out="3"), {form, outbox})  # the form changed: it comes whole
    assert 'name="sitting_out" value="3"' in answer and "data-t-x" not in answer
    assert digest("<p>x</p>") == digest("<p>x</p>") != digest("<p>y</p>")


def test_a_header_names_digests_only() -> None:
    assert shown_parts("0123456789ab, ffffffffffff") == {"0123456789ab", "ffffffffffff"}
    assert shown_parts("") == set()
    assert shown_parts("<script>,0123456789AB,123,0123456789abc") == set()
    assert len(shown_parts(",".join(f"{n:012x}" for n in range(50)))) == 8

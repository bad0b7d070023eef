"""The captain page without a connection: games wait in the phone's outbox and are sent, in
order and each once, when the network is back (static/js/outbox.js, docs/offline.md)."""

from __future__ import annotations

import base64
import hashlib
import hmac
import io
import json
import os
import random
import re
import shutil
import subprocess
import time
from collections.abc import Iterator
from typing import Any

import pytest
from django.conf import settings
from PIL import Image
from playwright.sync_api import expect

from scoring.captain_js import QR_SOURCE
from scoring.handover import HandoverRefused, b64decode, b64encode, read_code
from scoring.models import Game
from tests.browser.contexts import close_context
from tests.factories import make_tournament, make_user, page_client, play, running_table
from tournaments.models import Table

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PATIENCE_MS = 60_000
# A loaded two-core machine: each step waits for what it expects, never for a fixed time.
expect.set_options(timeout=PATIENCE_MS)


@pytest.fixture
def context(browser: Any) -> Iterator[Any]:
    """A German phone whose pages (and service worker) share storage, as tabs of one phone."""
    context = browser.new_context(
        viewport={"width": 390, "height": 844}, locale="de-DE", is_mobile=True, has_touch=True
    )
    context.set_default_timeout(PATIENCE_MS)
    yield context
    close_context(context)


def link(live_server: Any, table: Table) -> str:
    return f"{live_server.url}/tisch/{table.captain_token}/"


NO_WORKER = """
if (navigator.serviceWorker) {
  navigator.serviceWorker.register = () => Promise.reject(new Error("no worker in this test"));
}
"""


def open_ready(context: Any, url: str, *, worker: bool = True, no_worker: bool = False) -> Any:
    """The captain page with its outbox running (and its service worker, when asked; with
    ``no_worker`` the page never registers one)."""
    page = context.new_page()
    page.on("pageerror", lambda e: print("PAGEERROR", e))
    if no_worker:
        # Once the worker controls a page (it claims its clients when it activates), the
        # page's requests pass Playwright's page routing by: a test that drops an answer saw
        # its save answered normally, once in a loaded CI run.
        page.add_init_script(NO_WORKER)
    page.goto(url)
    page.wait_for_selector("body[data-outbox-ready='1']", state="attached")
    if worker:
        page.wait_for_selector("body[data-offline-ready='1']", state="attached")
    return page


def sitting_out(size: int, number: int) -> int | None:
    """At a five-player table the dealer sits out; normal games only, so the dealer moves on
    by one seat a game."""
    return (number - 1) % 5 + 1 if size == 5 else None


def re_pair(size: int, number: int) -> list[int]:
    seats = [s for s in range(1, size + 1) if s != sitting_out(size, number)]
    return [seats[number % len(seats)], seats[(number + 1) % len(seats)]]


def type_game(page: Any, re_seats: list[int], points: int) -> None:
    players = page.locator("fieldset.when-normal")
    for seat in re_seats:
        players.locator(f"label:has(input[value='{seat}'])").click()
    page.fill("#id_re_points", str(points))
    page.locator("form.game-form button.save").click()


def type_solo(page: Any, soloist: int, points: int) -> None:
    page.locator("#contract").get_by_text("Solo", exact=True).click()
    page.select_option("#id_solo", "damen")
    page.locator(f"fieldset.when-solo label:has(input[value='{soloist}'])").click()
    page.fill("#id_re_points", str(points))
    page.locator("form.game-form button.save").click()


def pending(page: Any) -> Any:
    return page.locator("tr.outbox-row")


def wait_empty(page: Any) -> None:
    page.wait_for_selector("body[data-outbox-pending='0']", state="attached")


def stored(table: Table) -> list[tuple[int, list[int], int]]:
    return [
        (g.number, g.record["re"], g.record["re_points"])
        for g in Game.objects.filter(table=table).order_by("number")
    ]


def test_games_typed_offline_survive_a_reload_and_are_sent_in_order(
    live_server: Any, context: Any
) -> None:
    tournament = make_tournament(slug="offline")
    four = running_table(tournament, size=4, number=1)
    five = running_table(tournament, size=5, number=2)
    pages = {four.pk: open_ready(context, link(live_server, four))}
    pages[five.pk] = open_ready(context, link(live_server, five))
    typed: dict[int, list[tuple[int, list[int], int]]] = {four.pk: [], five.pk: []}

    context.set_offline(True)
    for table, size in ((four, 4), (five, 5)):
        page = pages[table.pk]
        expect(page.locator("[data-outbox-offline]")).to_be_visible()
        for n in range(1, 7):
            seats, points = re_pair(size, n), 120 + n
            type_game(page, seats, points)
            expect(pending(page)).to_have_count(n)
            typed[table.pk].append((n, sorted(seats), points))
        expect(pending(page).first).to_contain_text("noch nicht gesendet")
        expect(page.locator(".next-box .next-line")).to_contain_text("Spiel 7")
        expect(page.locator(".next-box .next-line")).to_contain_text("Geber wird beim Senden")
    assert Game.objects.count() == 0

    for page in pages.values():  # offline, from the service worker's cache
        page.reload()
        page.wait_for_selector("body[data-outbox-ready='1']", state="attached")
        expect(pending(page)).to_have_count(6)
    assert Game.objects.count() == 0

    context.set_offline(False)
    for table in (four, five):
        wait_empty(pages[table.pk])
        assert stored(table) == typed[table.pk]
    assert Game.objects.count() == 12


def test_a_save_whose_answer_is_lost_is_stored_once(live_server: Any, context: Any) -> None:
    table = running_table(make_tournament(slug="lost"))
    page = open_ready(context, link(live_server, table), worker=False, no_worker=True)
    reached: list[int] = []

    def lose_answer(route: Any) -> None:
        route.fetch()  # the server takes the game ...
        reached.append(1)
        route.abort()  # ... and the phone never hears of it

    page.route("**/ausgang/", lose_answer)
    type_game(page, [1, 3], 130)
    expect(pending(page)).to_have_count(1)
    assert reached == [1] and Game.objects.filter(table=table).count() == 1
    page.unroute("**/ausgang/")
    page.evaluate("window.dispatchEvent(new Event('online'))")
    wait_empty(page)
    assert stored(table) == [(1, [1, 3], 130)]


PAGE = re.compile(r"/tisch/[^/]+/$")


def test_a_busy_server_after_the_handover_leaves_the_page_as_it_is(
    live_server: Any, context: Any
) -> None:
    """Once the outbox has handed its games over the page shows the sheet as the server has
    it. Without a service worker it used to load itself again, and a server answering 503
    then (busy, an outage) replaced the sheet with the error page: now the page asks first
    and stays as it is until an answer comes; then the server's sheet is swapped in."""
    table = running_table(make_tournament(slug="busy"))
    page = open_ready(context, link(live_server, table), worker=False, no_worker=True)
    busy: list[str] = []
    navigated: list[str] = []
    page.on("framenavigated", lambda frame: navigated.append(frame.url))

    def busy_twice(route: Any) -> None:
        if len(busy) < 2:
            busy.append(route.request.url)
            route.fulfill(status=503, content_type="text/plain", body="Service Unavailable")
        else:
            route.continue_()

    context.set_offline(True)
    type_game(page, [1, 3], 130)
    expect(pending(page)).to_have_count(1)
    expect(page.locator(".next-box .next-line")).to_contain_text("Geber wird beim Senden")
    page.route(PAGE, busy_twice)
    context.set_offline(False)
    wait_empty(page)
    # The server's page: the next game's dealer by name, the game saved in the sheet.
    line = page.locator(".next-box .next-line")
    expect(line).not_to_contain_text("Geber wird beim Senden")
    expect(line).to_contain_text("Spiel 2")
    expect(line).to_contain_text("Geber:")
    assert len(busy) == 2
    assert navigated == []  # never left the page, never showed the 503
    expect(page.locator("#sheet-rows tr[data-number='1']")).to_have_count(1)
    expect(page.locator("body")).not_to_contain_text("Service Unavailable")
    expect(page.locator("body[data-outbox-ready='1']")).to_have_count(1)
    assert stored(table) == [(1, [1, 3], 130)]


def test_what_is_typed_while_the_server_is_busy_stays(live_server: Any, context: Any) -> None:
    """The page is not swapped once the captain has typed into the form: the answer that
    comes after the busy one finds the next game half typed and leaves it so."""
    table = running_table(make_tournament(slug="typing"))
    page = open_ready(context, link(live_server, table), worker=False, no_worker=True)
    held: list[Any] = []

    def hold(route: Any) -> None:  # the answer waits for the test
        held.append(route)

    page.route(PAGE, hold)
    context.set_offline(True)
    type_game(page, [1, 3], 130)
    expect(pending(page)).to_have_count(1)
    with page.expect_request(PAGE):
        context.set_offline(False)
    wait_empty(page)
    page.locator("fieldset.when-normal label:has(input[value='2'])").click()
    page.fill("#id_re_points", "140")
    held[0].fulfill(response=held[0].fetch())  # the server's sheet, after the typing
    page.unroute(PAGE)
    page.locator("fieldset.when-normal label:has(input[value='4'])").click()
    expect(page.locator("#id_re_points")).to_have_value("140")
    page.locator("form.game-form button.save").click()
    expect(page.locator("#sheet-rows tr[data-number='2']")).to_have_count(1)
    assert stored(table) == [(1, [1, 3], 130), (2, [2, 4], 140)]


def test_two_tabs_send_each_game_once(live_server: Any, context: Any) -> None:
    table = running_table(make_tournament(slug="tabs"))
    first = open_ready(context, link(live_server, table), worker=False)
    second = open_ready(context, link(live_server, table), worker=False)
    context.set_offline(True)
    for n in range(1, 6):
        type_game(first, [1, 2 + n % 3], 100 + n)
        expect(pending(first)).to_have_count(n)
    context.set_offline(False)  # both tabs find the same five games and start sending
    for page in (first, second):
        wait_empty(page)
    assert [n for n, _re, _p in stored(table)] == [1, 2, 3, 4, 5]
    assert [p for _n, _re, p in stored(table)] == [101, 102, 103, 104, 105]
    for page in (first, second):
        expect(page.locator("tr.outbox-conflict, tr.outbox-refused")).to_have_count(0)


def test_a_refused_game_holds_back_later_ones_until_corrected(
    live_server: Any, context: Any
) -> None:
    table = running_table(make_tournament(slug="refused"))
    page = open_ready(context, link(live_server, table), worker=False)
    context.set_offline(True)
    type_game(page, [1, 3], 130)
    type_game(page, [1], 140)  # one Re player: in range, but the server refuses it
    type_game(page, [2, 4], 150)
    expect(pending(page)).to_have_count(3)
    context.set_offline(False)

    refused = page.locator("tr.outbox-refused")
    expect(refused).to_have_count(1)
    expect(refused).to_have_attribute("data-number", "2")
    expect(refused.locator(".outbox-message")).not_to_be_empty()
    expect(page.locator("tr.outbox-pending")).to_have_count(1)  # game 3 waits
    assert stored(table) == [(1, [1, 3], 130)]

    refused.click()
    expect(page.locator("form.game-form button.save")).to_contain_text("2")
    expect(page.locator("#id_re_points")).to_have_value("140")
    page.locator("fieldset.when-normal label:has(input[value='2'])").click()
    page.locator("form.game-form button.save").click()
    wait_empty(page)
    assert stored(table) == [(1, [1, 3], 130), (2, [1, 2], 140), (3, [2, 4], 150)]


SLOW_STORAGE = """
// Every write to IndexedDB completes 1.5 s late, as on a slow phone.
const completion = Object.getOwnPropertyDescriptor(IDBTransaction.prototype, "oncomplete");
Object.defineProperty(IDBTransaction.prototype, "oncomplete", {
  configurable: true,
  get() { return completion.get.call(this); },
  set(handler) {
    const late = handler && ((event) => setTimeout(() => handler.call(this, event), 1500));
    completion.set.call(this, late);
  },
});
"""


def test_the_next_game_typed_while_the_last_is_stored_is_kept(
    live_server: Any, context: Any
) -> None:
    """A tap on the next game before the phone has stored the last one lands on the blank
    form and stays: the form is not reset under it when the storing ends."""
    table = running_table(make_tournament(slug="slowstore"))
    context.add_init_script(SLOW_STORAGE)
    page = open_ready(context, link(live_server, table), worker=False)
    context.set_offline(True)
    type_game(page, [1, 3], 130)
    players = page.locator("fieldset.when-normal")
    for seat in (2, 4):  # at once, while game 1 is still being stored
        players.locator(f"label:has(input[value='{seat}'])").click()
    page.fill("#id_re_points", "150")
    expect(pending(page)).to_have_count(1)  # game 1 stored
    for seat, checked in ((1, False), (2, True), (3, False), (4, True)):
        box = players.locator(f"input[value='{seat}']")
        (expect(box).to_be_checked if checked else expect(box).not_to_be_checked)()
    expect(page.locator("#id_re_points")).to_have_value("150")
    page.locator("form.game-form button.save").click()
    expect(pending(page)).to_have_count(2)
    context.set_offline(False)
    wait_empty(page)
    assert stored(table) == [(1, [1, 3], 130), (2, [2, 4], 150)]


def test_a_number_another_device_took_is_a_conflict_and_nothing_is_overwritten(
    live_server: Any, context: Any
) -> None:
    table = running_table(make_tournament(slug="clash"))
    page = open_ready(context, link(live_server, table), worker=False)
    context.set_offline(True)
    type_game(page, [1, 3], 130)
    expect(pending(page)).to_have_count(1)
    play(table, [{"contract": "normal", "re": [2, 4], "re_points": 160}])  # another phone
    context.set_offline(False)
    conflict = page.locator("tr.outbox-conflict")
    expect(conflict).to_have_count(1)
    expect(conflict.locator(".outbox-message")).not_to_be_empty()
    assert stored(table) == [(1, [2, 4], 160)]
    page.reload()
    expect(page.locator("tr.outbox-conflict")).to_have_count(1)  # kept, not dropped
    assert stored(table) == [(1, [2, 4], 160)]


# Fills the captain page's own form and submits it, as a captain's taps would (the same
# submit handler, the same outbox), without Playwright's round trip per tap.
FILL_OUTBOX = """async (games) => {
  const form = document.querySelector("form.game-form");
  const points = form.querySelector("#id_re_points");
  // page.evaluate has no timeout of its own: the poll gives up after 30 s.
  const waitFor = (test) => new Promise((done, fail) => {
    const until = Date.now() + 30000;
    const poll = () => {
      if (test()) done();
      else if (Date.now() > until) fail(new Error(`not queued: ${document.title}`));
      else setTimeout(poll, 5);
    };
    poll();
  });
  for (const [index, game] of games.entries()) {
    form.querySelector("input[name=contract][value=normal]").checked = true;
    form.querySelectorAll("input[name=re_players]").forEach((box) => {
      box.checked = game.re.includes(Number(box.value));
    });
    points.value = String(game.points);
    form.requestSubmit(form.querySelector("button.save"));
    // Queued once the form is empty again (the count alone may show before the reset).
    await waitFor(
      () => document.body.dataset.outboxPending === String(index + 1) && points.value === "",
    );
  }
}"""

# A phone retries on its own every 15 s; here it retries as if the network came back every
# 200 ms (a sync already running is not started twice).
RETRY_OFTEN = "() => setInterval(() => window.dispatchEvent(new Event('online')), 200)"


@pytest.mark.slow
@pytest.mark.parametrize("service_workers", ["allow", "block"])
def test_flaky_network_loses_and_doubles_nothing(
    live_server: Any, browser: Any, service_workers: str
) -> None:
    """200 games at 10 tables through a network that drops 30 % of the sync requests or
    their answers (seeded): every sheet ends equal to what was typed, each game once."""
    started = time.monotonic()
    tournament = make_tournament(slug="flaky")
    tables = [running_table(tournament, size=4, number=n) for n in range(1, 11)]
    chance = random.Random(20261127)
    context = browser.new_context(
        viewport={"width": 390, "height": 844}, locale="de-DE", service_workers=service_workers
    )
    context.set_default_timeout(PATIENCE_MS)
    dropped = {"request": 0, "answer": 0, "busy": 0, "through": 0, "page busy": 0}

    def flaky(route: Any) -> None:
        roll = chance.random()
        if roll < 0.15:
            dropped["request"] += 1
            route.abort()  # lost on the way: the server never sees it
        elif roll < 0.30:
            answer = route.fetch()  # the server stores the game ...
            dropped["busy" if answer.status >= 500 else "answer"] += 1
            route.abort()  # ... and its answer is lost
        else:
            answer = route.fetch()
            # The test server's in-memory SQLite refuses a write while another one runs
            # ("table is locked"): a 5xx the phone retries like a lost answer.
            dropped["busy" if answer.status >= 500 else "through"] += 1
            route.fulfill(response=answer)

    def busy_page(route: Any) -> None:
        """The page reloaded once its outbox is empty: asked again while the test server
        answers "table is locked" (its in-memory SQLite, a write running at another table),
        as the phone's service worker answers it from its cache then. Without a worker
        (``service_workers="block"``) the page showed the server's 500 and never became
        ready: the wait below ran out."""
        for _attempt in range(50):
            answer = route.fetch()
            if answer.status < 500:
                break
            dropped["page busy"] += 1
        route.fulfill(response=answer)

    typed = {
        table.pk: [(n, sorted(re_pair(4, n)), 100 + n) for n in range(1, 21)] for table in tables
    }
    try:
        pages = [open_ready(context, link(live_server, table), worker=False) for table in tables]
        context.set_offline(True)
        for table, page in zip(tables, pages, strict=True):
            page.evaluate(
                FILL_OUTBOX, [{"re": re, "points": points} for _n, re, points in typed[table.pk]]
            )
            expect(pending(page)).to_have_count(20)
        assert Game.objects.count() == 0
        context.route("**/ausgang/", flaky)
        context.route(re.compile(r"/tisch/[^/]+/$"), busy_page)
        reconnected = time.monotonic()
        context.set_offline(False)
        for page in pages:  # all ten send at once
            page.evaluate(RETRY_OFTEN)
        for page in pages:
            page.wait_for_selector(
                "body[data-outbox-pending='0']", state="attached", timeout=3 * PATIENCE_MS
            )
        synced = time.monotonic() - reconnected
        games = {table.pk: stored(table) for table in tables}
        lost = sum(1 for pk in typed for game in typed[pk] if game not in games[pk])
        # Each typed game has its own points at its table: a game stored twice repeats them.
        doubled = sum(len(rows) - len({p for _n, _re, p in rows}) for rows in games.values())
        print(
            f"\nflaky network, 200 games at 10 tables: {lost} lost, {doubled} doubled;"
            f" requests lost {dropped['request']}, answers lost {dropped['answer']},"
            f" server busy (5xx) {dropped['busy']}, answered {dropped['through']},"
            f" page reloads answered busy {dropped['page busy']};"
            f" sync {synced:.1f} s,"
            f" whole test {time.monotonic() - started:.1f} s"
        )
        for table in tables:
            assert games[table.pk] == typed[table.pk]
        assert Game.objects.count() == 200
        assert dropped["request"] > 0 and dropped["answer"] > 0
    finally:
        close_context(context)


def test_time_from_reconnect_to_an_empty_outbox(live_server: Any, context: Any) -> None:
    """24 queued games: reported in the run's output (-s) with the bytes the worker caches."""
    table = running_table(make_tournament(slug="timing"), size=4)
    page = open_ready(context, link(live_server, table))
    context.set_offline(True)
    for n in range(1, 25):  # a full sheet: each player's compulsory solo first
        if n <= 4:
            type_solo(page, n, 100 + n)
        else:
            type_game(page, re_pair(4, n), 100 + n)
        expect(pending(page)).to_have_count(n)
    started = time.monotonic()
    context.set_offline(False)
    wait_empty(page)
    elapsed = time.monotonic() - started
    cached = page.evaluate(
        """async () => {
          let total = 0;
          for (const name of await caches.keys()) {
            const cache = await caches.open(name);
            for (const request of await cache.keys()) {
              total += (await (await cache.match(request)).arrayBuffer()).byteLength;
            }
          }
          return total;
        }"""
    )
    print(f"\nreconnect to empty outbox, 24 games: {elapsed:.2f} s; cached bytes: {cached}")
    assert Game.objects.filter(table=table).count() == 24
    assert re.fullmatch(r"\d+", str(cached)) and cached > 0


def verify_code(text: str, token: str) -> dict[str, Any]:
    """The hand-over code's format (OFFLINE.md section 4), checked independently of the
    phone: ``DOKO1.<base64url JSON>.<base64url HMAC-SHA256 keyed with the captain token>``."""
    prefix, body, mac = text.split(".")
    assert prefix == "DOKO1" and "=" not in body + mac
    expected = hmac.new(token.encode(), body.encode("ascii"), hashlib.sha256).digest()
    assert base64.urlsafe_b64decode(mac + "=" * (-len(mac) % 4)) == expected
    return json.loads(base64.urlsafe_b64decode(body + "=" * (-len(body) % 4)))


@pytest.mark.parametrize("webcrypto", [True, False], ids=["webcrypto", "js-sha256"])
def test_pending_games_as_signed_qr_codes(live_server: Any, context: Any, webcrypto: bool) -> None:
    table = running_table(make_tournament(slug="qr"), size=4)
    if not webcrypto:  # as over plain HTTP on a LAN
        context.add_init_script(
            "Object.defineProperty(window.crypto, 'subtle', {value: undefined})"
        )
    page = open_ready(context, link(live_server, table), worker=False)
    context.set_offline(True)
    for n in range(1, 13):
        type_game(page, re_pair(4, n), 100 + n)
        expect(pending(page)).to_have_count(n)
    page.get_by_role("button", name="Ausstehende Spiele als QR-Code").click()
    codes = page.locator("figure.outbox-code")
    expect(codes.first.locator("img")).to_be_visible()
    texts = [codes.nth(i).get_attribute("data-payload") for i in range(codes.count())]
    assert len(texts) > 1 and all(t and len(t) <= 1000 for t in texts)
    games = [g for t in texts for g in verify_code(str(t), table.captain_token)["games"]]
    assert [g["number"] for g in games] == list(range(1, 13))
    assert [g["fields"]["re_points"] for g in games] == [str(100 + n) for n in range(1, 13)]
    assert games[0]["fields"]["re_players"] == [str(s) for s in sorted(re_pair(4, 1))]
    assert len({g["key"] for g in games}) == 12
    assert verify_code(str(texts[0]), table.captain_token)["table"] == table.pk
    forged = str(texts[0]).replace("DOKO1.", "DOKO1.x", 1)
    with pytest.raises((AssertionError, ValueError)):
        verify_code(forged, table.captain_token)


def modules(png: bytes, cell: int = 4, quiet: int = 4) -> list[list[bool]]:
    """The dark modules of a code drawn as the outbox draws it (``cell`` pixels a module,
    ``quiet`` modules of white around it), read at each module's centre."""
    image = Image.open(io.BytesIO(png)).convert("L")
    count = image.width // cell - 2 * quiet
    assert image.width == image.height == (count + 2 * quiet) * cell
    at = lambda i: (quiet + i) * cell + cell // 2  # noqa: E731
    return [
        [image.getpixel((at(col), at(row))) < 128 for col in range(count)] for row in range(count)
    ]


def test_the_drawn_code_holds_its_payload(live_server: Any, context: Any, tmp_path: Any) -> None:
    """The outbox's picture of a code is, module for module, what the whole QR library (not
    the captain page's cut-down copy, scoring/captain_js.py) makes of the payload, and a
    scanner (zbarimg, Debian's zbar-tools, where installed) reads the payload from it."""
    table = running_table(make_tournament(slug="qr-picture"), size=4)
    page = open_ready(context, link(live_server, table), worker=False)
    context.set_offline(True)
    for n in range(1, 4):
        type_game(page, re_pair(4, n), 120 + n)
        expect(pending(page)).to_have_count(n)
    page.get_by_role("button", name="Ausstehende Spiele als QR-Code").click()
    figure = page.locator("figure.outbox-code").first
    expect(figure.locator("img")).to_be_visible()
    text = str(figure.get_attribute("data-payload"))
    source = str(figure.locator("img").get_attribute("src"))
    assert source.startswith("data:image/png;base64,")
    png = base64.b64decode(source.split(",", 1)[1])
    whole = (settings.BASE_DIR / QR_SOURCE).read_text()
    expected = page.evaluate(
        "(text) => {" + whole + "; const qr = qrcode(0, 'M'); qr.addData(text); qr.make();"
        " const n = qr.getModuleCount(), rows = [];"
        " for (let r = 0; r < n; r++) { const row = [];"
        " for (let c = 0; c < n; c++) row.push(qr.isDark(r, c)); rows.push(row); }"
        " return rows; }",
        text,
    )
    assert modules(png) == expected
    if shutil.which("zbarimg"):
        (tmp_path / "code.png").write_bytes(png)
        read = subprocess.run(
            ["zbarimg", "--quiet", "--raw", str(tmp_path / "code.png")],
            capture_output=True, text=True, check=True, timeout=60,
        )  # fmt: skip
        assert read.stdout.strip() == text


def altered(code: str) -> str:
    """``code`` with one character of its content changed (a Re score 1xx made 9xx), its
    signature kept: what someone editing a code would make."""
    prefix, body, mac = code.split(".")
    text = b64decode(body).decode()
    at = text.index('"re_points":"1') + len('"re_points":"')
    return f"{prefix}.{b64encode((text[:at] + '9' + text[at + 1 :]).encode())}.{mac}"


def test_a_scanned_hand_over_code_is_taken_once(live_server: Any, context: Any) -> None:
    """The captain's phone never gets a connection: its QR code, typed into the organizers'
    hand-over page by a USB scanner, stores the games once; an altered code is refused."""
    organizer = make_user("orga")
    tournament = make_tournament(slug="handover", organizers=[organizer])
    table = running_table(tournament, size=4)
    page = open_ready(context, link(live_server, table), worker=False)
    context.set_offline(True)
    typed = [(n, sorted(re_pair(4, n)), 120 + n) for n in range(1, 4)]
    for n, seats, points in typed:
        type_game(page, seats, points)
        expect(pending(page)).to_have_count(n)
    page.get_by_role("button", name="Ausstehende Spiele als QR-Code").click()
    figure = page.locator("figure.outbox-code")
    expect(figure).to_have_count(1)
    expect(figure.locator("img")).to_be_visible()
    code = str(figure.get_attribute("data-payload"))
    assert figure.locator("code.outbox-code-text").text_content() == code  # the readable text

    # (a) The server's own reader takes it with the table's secret, and only with it.
    handed = read_code(code, lambda pk: table.captain_token if pk == table.pk else None)
    assert handed.table == table.pk
    assert [(g.number, dict(g.fields)["re_points"]) for g in handed.games] == [
        (n, str(points)) for n, _seats, points in typed
    ]
    with pytest.raises(HandoverRefused, match="forged"):
        read_code(code, lambda pk: "another-secret")

    # (b) The organizer's page, on another device, with the scanner typing into the field.
    desk = context.browser.new_context(locale="de-DE")
    desk.set_default_timeout(PATIENCE_MS)
    session = page_client(organizer).cookies[settings.SESSION_COOKIE_NAME].value
    desk.add_cookies(
        [
            {"name": settings.SESSION_COOKIE_NAME, "value": session, "url": live_server.url},
            {"name": settings.LANGUAGE_COOKIE_NAME, "value": "de", "url": live_server.url},
        ]
    )
    try:
        scanner = desk.new_page()
        scanner.goto(f"{live_server.url}/verwaltung/{tournament.slug}/serie/1/uebergabe/")

        def scan(text: str) -> None:
            field = scanner.locator("#id_codes")
            field.fill("")
            field.press_sequentially(text + "\n")
            scanner.get_by_role("button", name="Spiele eintragen").click()
            expect(scanner.locator(".handover-results")).to_be_visible()

        scan(code)
        expect(scanner.locator("tr.handover-accepted")).to_have_count(3)
        assert stored(table) == typed
        scan(code)
        replayed = scanner.locator("tr.handover-replayed")
        expect(replayed).to_have_count(3)
        expect(replayed.first).to_contain_text("bereits angenommen")
        expect(scanner.locator("tr.handover-accepted")).to_have_count(0)
        assert stored(table) == typed

        scan(altered(code))
        error = scanner.locator("#id_codes + #id_codes-errors")  # right below the field
        expect(error).to_contain_text("Code 1: Dieser Code wurde geändert")
        expect(scanner.locator("#id_codes")).to_have_attribute("aria-invalid", "true")
        expect(scanner.locator("tr.handover-invalid")).to_have_count(1)
        assert stored(table) == typed and Game.objects.count() == 3
    finally:
        close_context(desk)


def test_the_qr_library_comes_after_the_page_and_works_offline(
    live_server: Any, context: Any
) -> None:
    """Without the QR library among the page's own scripts (what the phone needs first),
    the outbox fetches it once the page has loaded; offline its codes still appear."""
    table = running_table(make_tournament(slug="qr-later"), size=4)
    url = link(live_server, table)

    def without_qr_script(route: Any) -> None:
        response = route.fetch()
        body = re.sub(r'<script src="[^"]*qrcode[^"]*" defer></script>', "", response.text())
        route.fulfill(response=response, body=body)

    context.route(url, without_qr_script)
    page = open_ready(context, url, worker=False)
    page.wait_for_function("() => Boolean(window.qrcode)")
    timing = page.evaluate(
        "() => [performance.getEntriesByType('navigation')[0].domContentLoadedEventEnd,"
        " performance.getEntriesByType('resource').filter(e => e.name.includes('qrcode'))"
        ".map(e => e.startTime)]"
    )
    assert len(timing[1]) == 1 and timing[1][0] >= timing[0], timing
    context.set_offline(True)
    type_game(page, re_pair(4, 1), 101)
    expect(pending(page)).to_have_count(1)
    page.get_by_role("button", name="Ausstehende Spiele als QR-Code").click()
    expect(page.locator("figure.outbox-code").first.locator("img")).to_be_visible()


def test_screenshots(live_server: Any, context: Any) -> None:
    """``OUTBOX_SCREENSHOTS=<dir>``: the captain page at 390 px online, offline with waiting
    games, with a refused game, and the QR codes."""
    folder = os.environ.get("OUTBOX_SCREENSHOTS")
    if not folder:
        pytest.skip("set OUTBOX_SCREENSHOTS=<dir> to take the screenshots")
    table = running_table(make_tournament(slug="shots"), size=4)
    play(table, [{"contract": "normal", "re": [1, 3], "re_points": 130}])
    page = open_ready(context, link(live_server, table), worker=False)
    shot = lambda name: page.screenshot(path=f"{folder}/{name}.png", full_page=True)  # noqa: E731
    shot("captain-online")
    context.set_offline(True)
    type_game(page, [2, 4], 140)
    type_game(page, [1], 150)  # refused once sent: one Re player
    type_game(page, [1, 4], 160)
    expect(pending(page)).to_have_count(3)
    shot("captain-offline-pending")
    context.set_offline(False)
    expect(page.locator("tr.outbox-refused")).to_have_count(1)
    shot("captain-refused")
    page.get_by_role("button", name="Ausstehende Spiele als QR-Code").click()
    expect(page.locator("figure.outbox-code img").first).to_be_visible()
    shot("captain-qr")

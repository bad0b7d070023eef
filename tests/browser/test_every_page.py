"""Every HTML page of every role, on a phone, in German and in English.

The page list is not written by hand: it is the URL configuration (the walk of
``tests/test_route_matrix.py``) filled with the demo tournament's objects. A new route is
visited without editing this test; a route that cannot be visited (a file, a fragment) must
be listed in ``EXCLUDED`` with its reason, or the test fails. Routes with a series or a table
are visited twice: for the running series and for a closed one.

Who visits what follows the URLs by audience: ``/verwaltung/`` the demo organizer (logged
in), ``/tisch/`` the captain of table 1 (his link, no account), everything else an anonymous
visitor. Every page is opened at 390 x 844 in German and in English and checked for

* the answer: 200, or the one redirect listed in ``REDIRECTS`` (on a closed series' captain
  link, in ``CLOSED_CAPTAIN_REDIRECTS``);
* no horizontal overflow: the document is not wider than the layout viewport (``scrollWidth``
  against ``clientWidth``; on a phone ``window.innerWidth`` is no measure, it grows with an
  overflowing page as the browser zooms out to show it);
* tables: every row has as many cells as the header (colspan and rowspan counted), in the
  HTML and among the cells the phone's CSS shows;
* no developer text: dotted action codes, Python reprs, template syntax, unformatted
  placeholders; on German pages no English tell-tale words, on English pages no German ones;
* no script error and no Content-Security-Policy violation in the console;
* no id used twice (a label would focus another form's field);
* accessibility: axe-core (vendored in ``tests/browser/vendor/axe-core/``, served to the page
  from its own origin so the Content-Security-Policy stays as it is) finds no critical,
  serious or moderate violation of its rules.

All failures are collected and reported in one assertion, one line per problem.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from archive import jobs
from archive.export import build_archive
from cashbox.models import Booking
from documents.models import GeneratedDocument
from documents.pipeline import generate_inline
from documents.services import request_document
from evenings.demo import DEMO_GROUP
from evenings.models import Evening
from scoring.demo import build_demo
from scoring.models import RefereeCall
from teams.demo import DEMO_LEAGUE
from teams.models import Group, Team
from tests.browser.contexts import close_context
from tests.test_route_matrix import Route, routes
from tournaments.demo import DEMO_USER
from tournaments.models import Series, Tournament

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

Kind = GeneratedDocument.Kind
WIDTH, HEIGHT = 390, 844
LANGUAGES = ("de", "en")
PUBLIC, ORGANIZER, CAPTAIN = "public", "organizer", "captain"
GAME = 2  # the game number of the correction pages; every table of the demo has it

# Named GET routes outside /api/ that are not opened as pages, and why. A name here that is
# no longer a route fails the test, so the list stays honest.
EXCLUDED = {
    "healthz": "JSON for the monitoring, not a page",
    "documents:status": "htmx fragment polled by the print pages, which are visited",
    "documents:download": "the PDF file itself (its page one is in docs/screenshots/)",
    "hall:fragment": "fragment polled by the hall display, which is visited",
    "scoring:series-clock": "htmx fragment loaded by the tournament, seating and player pages",
    "scoring:captain-clock": "fragment polled by the captain's sheet, which is visited",
    "scoring:sheet-clock": "fragment polled by the organizer's sheet, which is visited",
    "scoring:captain-referee": "fragment polled by the captain's sheet, which is visited",
    "archive:standings": "a CSV or XLSX file (tests/archive/ opens it)",
    "archive:series-standings": "a CSV or XLSX file (tests/archive/ opens it)",
    "archive:games": "a CSV or XLSX file (tests/archive/ opens it)",
    "archive:download": "the JSON archive file (tests/archive/ reads it)",
    "archive:player-data": "a player's data export, a JSON file (tests/privacy/ reads it)",
    "teams:individual-export": "a CSV or XLSX file (tests/teams/ opens it)",
    "teams:bracket-pdf": "a PDF file (tests/teams/test_knockout_pages.py reads it)",
    "cashbox:export": "a CSV or XLSX file (tests/cashbox/test_pages.py opens it)",
    "scoring:captain-sw": "the service worker script itself (tests/scoring/test_captain_worker.py)",
    "fees:payouts-csv": "a CSV file (tests/fees/test_pages.py reads it)",
    "fees:payouts-pdf": "a PDF file (tests/fees/test_pages.py reads it with pdftotext)",
    "seasons:ddv-csv": "a CSV file (tests/seasons/test_ddv_report.py reads it)",
    "seasons:ddv-xlsx": "an XLSX file (tests/seasons/test_ddv_report.py opens it)",
    "seasons:ddv-pdf": "a PDF file (tests/seasons/test_ddv_report.py reads it with pdftotext)",
    "seasons:ddv-json": "the JSON report (tests/seasons/test_ddv_report.py imports it)",
}

# GET routes that answer with a redirect by design: route -> the route they lead to.
REDIRECTS = {
    "scoring:captain-game": "scoring:captain",  # the entry form lives on the sheet's page
    "scoring:sheet-game": "scoring:sheet",
}
# A closed series' captain link: the sheet is read-only, so the entry and delete steps lead
# back to it (with a note).
CLOSED_CAPTAIN_REDIRECTS = {
    "scoring:captain-game": "scoring:captain",
    "scoring:captain-delete": "scoring:captain",
}

# Developer text that must never reach a page, in any language.
APPS = r"scoring|tournaments|documents|rules"
RAW_TEXT = {
    "action code": re.compile(rf"\b(?:{APPS})\.[a-z_]+(?:\.[a-z_]+)*"),
    "Python repr": re.compile(r"\{'|\[\{|\[\]|<built-in|object at 0x|\b(?:None|True|False)\b"),
    "template syntax": re.compile(r"\{\{|\}\}|\{%|%\}"),
    "unformatted placeholder": re.compile(r"%\(\w+\)[sdif]|%[sd]\b"),
}
# Words that give away an untranslated string (case-sensitive, whole words).
TELL_TALE = {
    "de": re.compile(
        r"\b(?:the|and|of|with|is|are|to|from|by|for|not|no|all|each|this|that|what|which|"
        r"Seat|seat|Table|Tables|table|tables|Game|Games|game|games|Series|series|Player|"
        r"Players|player|players|captain|Captain|link|Save|Submit|Delete|Show|points|won|lost|"
        r"wins|entered|saved|confirmed|submitted|corrected|deleted|reopened|running|closed|"
        r"finished|Standings|standings|Print|Back|My|Rank|Party|party|Seating|Penalty|Soloist|"
        r"tournament|tournaments|sheet|Sheet|Order|Leave|House|Correct|correction|change|"
        r"changes|below|behind|first|last|second|wrong|empty|minutes)\b"
    ),
    "en": re.compile(
        r"\b(?:und|der|das|nicht|oder|ist|mit|noch|keine|bitte|Spiel|Spiele|Tisch|Tische|"
        r"Platz|Serie|Punkte|gewonnen|verloren|Tabelle|Speichern|Abgeben|Spieler|eingetragen|"
        r"Listenführer|Strafpunkte|Augen|Stiche|Geber|Solist|Liste|Turniere)\b"
    ),
}

# axe-core, pinned (see its LICENSE beside it), read from this file (never a CDN: no network
# in the hall either).
AXE_SOURCE = (Path(__file__).parent / "vendor" / "axe-core" / "axe.min.js").read_text()
AXE_IMPACTS = ("critical", "serious", "moderate")
AXE_JS = """async (impacts) => {
  const result = await axe.run(document, {resultTypes: ['violations']});
  return result.violations
    .filter((v) => impacts.includes(v.impact))
    .map((v) => v.impact + ' ' + v.id + ' (' + v.nodes.length + '): '
      + v.nodes.slice(0, 2).map((n) => n.target.join(' ')).join(', '));
}"""

CHECKS_JS = """() => {
  // What a phone user can open must fit too.
  document.querySelectorAll('details').forEach((d) => { d.open = true; });
  const root = document.documentElement;
  const width = root.clientWidth;
  const describe = (el) => el.tagName.toLowerCase() + (el.id ? '#' + el.id : '')
      + [...el.classList].map((c) => '.' + c).join('');
  const wide = [];
  if (root.scrollWidth > width) {
    const right = (e) => e.getBoundingClientRect().right;
    for (const el of document.body.querySelectorAll('*')) {
      if (right(el) > width + 1 && ![...el.children].some((c) => right(c) > width + 1)) {
        wide.push(describe(el) + ' ' + Math.round(right(el)));
        if (wide.length === 3) break;
      }
    }
  }
  const shown = (el) => el.getClientRects().length > 0;
  // Widths of consecutive rows of one section, rowspans of earlier rows counted.
  const widths = (rows, visibleOnly) => {
    let carried = [];
    return rows.map((row) => {
      let w = carried.reduce((sum, c) => sum + c.span, 0);
      carried = carried.map((c) => ({span: c.span, rows: c.rows - 1})).filter((c) => c.rows > 0);
      for (const cell of row.cells) {
        if (visibleOnly && !shown(cell)) continue;
        w += cell.colSpan;
        const rows = cell.rowSpan === 0 ? 1000 : cell.rowSpan;
        if (rows > 1) carried.push({span: cell.colSpan, rows: rows - 1});
      }
      return w;
    });
  };
  const tables = [];
  document.querySelectorAll('table').forEach((table, index) => {
    let head = table.tHead ? [...table.tHead.rows] : [];
    const bodies = [...table.tBodies].map((b) => [...b.rows]);
    if (!head.length && bodies.length && bodies[0].length > 1
        && [...bodies[0][0].cells].every((c) => c.tagName === 'TH')) {
      head = [bodies[0].shift()];
    }
    if (!head.length) return;
    if (table.tFoot) bodies.push([...table.tFoot.rows]);
    for (const visibleOnly of [false, true]) {
      if (visibleOnly && !shown(table)) continue;
      const header = Math.max(...widths(head, visibleOnly));
      const wrong = new Map();  // width -> [count, first cell of the first such row]
      for (const rows of bodies) {
        const counted = visibleOnly ? rows.filter(shown) : rows;
        widths(counted, visibleOnly).forEach((w, i) => {
          if (w === header) return;
          const first = (counted[i].cells[0]?.innerText || '').trim().slice(0, 30);
          const seen = wrong.get(w) || [0, first];
          wrong.set(w, [seen[0] + 1, seen[1]]);
        });
      }
      for (const [w, [count, first]] of wrong) {
        tables.push(describe(table) + ' (table ' + (index + 1) + '): header '
            + header + (visibleOnly ? ' cells shown' : ' cells') + ', ' + count
            + (count === 1 ? ' row has ' : ' rows have ') + w + ' (first: "' + first + '")');
      }
    }
  });
  // Text a visitor sees besides the body text: the title, placeholders, labels, buttons.
  const attributes = [...document.querySelectorAll(
      '[placeholder], [aria-label], [title], input[type=submit], input[type=button]')]
    .map((el) => ['placeholder', 'aria-label', 'title', 'value']
      .map((a) => (a !== 'value' || el.tagName === 'INPUT') && el.getAttribute(a) || '')
      .join('\\n'));
  // A passage marked as another language (lang="en" on a German page) is not the page's.
  const ownText = () => [...document.body.querySelectorAll('[lang]')]
    .filter((el) => el.lang !== root.lang)
    .reduce((text, el) => text.replace(el.innerText, ''), document.body.innerText);
  const ids = new Map();
  document.querySelectorAll('[id]').forEach((el) => ids.set(el.id, (ids.get(el.id) || 0) + 1));
  const twice = [...ids].filter(([, n]) => n > 1).map(([id, n]) => id + ' (' + n + ')');
  return {width, scroll: root.scrollWidth, wide, tables, lang: root.lang, twice,
          text: [document.title, ownText(), ...attributes].join('\\n')};
}"""


@dataclass(frozen=True)
class Visit:
    route: str
    role: str
    state: str  # "running" or "closed" for routes with a series or a table, else ""
    path: str
    redirect: str | None  # the path a redirect must lead to

    @property
    def status(self) -> int:
        # The captain's link shows the sheet read-only once the series is closed.
        return 200


@dataclass
class Demo:
    tournament: Tournament
    running: Series
    closed: Series
    archive_import: int  # the demo organizer's check of the demo's own archive
    seconds: float  # to build it
    #: Names stored in the language the demo was built in: the demo league's groups and
    #: knockout matches are tournaments named when made ("Demo-Liga, K.-o.-Runde 1,
    #: Spiel 1"); the tournament lists show them as they are on an English page too.
    stored_names: tuple[str, ...] = ()


def role_of(path: str) -> str:
    """URLs by audience (style.md): the organizers' pages, the captain's link, the public."""
    if path.startswith("/verwaltung/"):
        return ORGANIZER
    if path.startswith("/tisch/"):
        return CAPTAIN
    return PUBLIC


STATEFUL = {"number", "table", "table_id", "token"}


def values(demo: Demo, state: str) -> dict[str, Any]:
    series = demo.closed if state == "closed" else demo.running
    table = series.tables.order_by("number").first()
    assert table is not None
    registration = demo.tournament.registrations.order_by("start_number").first()
    assert registration is not None
    return {
        "slug": demo.tournament.slug,
        "season": "demo-rangliste",  # the demo's season (seasons/demo.py)
        "club": demo.tournament.club.slug if demo.tournament.club else "",  # the demo's club
        "league": DEMO_LEAGUE,  # the demo's league (teams/demo.py), knockout started
        "team": Team.objects.filter(league__slug=DEMO_LEAGUE).order_by("position")[0].pk,
        "team_token": Team.objects.filter(league__slug=DEMO_LEAGUE)
        .order_by("position")[0]
        .captain_token,
        "group": Group.objects.filter(match_day__league__slug=DEMO_LEAGUE)
        .order_by("match_day__number", "number")[0]
        .pk,
        "number": series.number,
        "table": table.number,
        "table_id": table.pk,
        "token": table.captain_token,
        "start_number": registration.start_number,
        "pk": registration.pk,
        "player": registration.player_id,
        "game": GAME,
    }


def route_values(route: Route, demo: Demo, state: str) -> dict[str, Any]:
    known = values(demo, state)
    if route.name.endswith("-correct"):
        known["number"] = GAME  # the game to correct, not the series
    if route.name == "tournaments:self-register":
        known["token"] = demo.tournament.registration_token
    if route.name in ("tournaments:registry-player", "seasons:player"):
        known["pk"] = known["player"]  # a player of the registry, not a registration
    if route.name == "archive:import-status":
        known["pk"] = demo.archive_import
    if route.name == "cashbox:reverse":  # the demo club's first booking (cashbox/demo.py)
        known["pk"] = Booking.objects.filter(club=demo.tournament.club).order_by("pk")[0].pk
    if route.name == "scoring:referee-correct":  # the demo's open call names its game
        open_call = RefereeCall.objects.get(series=demo.running, status="called")
        known["pk"] = open_call.pk
    if "call" in route.params:  # the demo's open call (the API's referee routes)
        known["call"] = RefereeCall.objects.get(series=demo.running, status="called").pk
    if route.name.startswith("evenings:"):  # the demo's latest evening (evenings/demo.py)
        evening = Evening.objects.filter(
            group__club=demo.tournament.club, group__slug=DEMO_GROUP
        ).latest("date")
        known.update(runde=DEMO_GROUP, evening=evening.pk, token=evening.tables.get().token)
    return known


def plan(demo: Demo, problems: list[str]) -> list[Visit]:
    """The visits: every named GET route outside /api/ and EXCLUDED, in each of its states."""
    visits: list[Visit] = []
    names = set()
    for route in routes():
        names.add(route.name)
        if "get" not in route.methods or route.name in EXCLUDED:
            continue
        stateful = (set(route.params) & STATEFUL) and route.name != "tournaments:self-register"
        for state in ("running", "closed") if stateful else ("",):
            known = route_values(route, demo, state)
            unknown = [p for p in route.params if p not in known]
            if unknown:
                problems.append(
                    f"{route.name}: no value for {unknown}; fill it in values() or add the "
                    "route to EXCLUDED with the reason"
                )
                break
            path = reverse(route.name, kwargs={p: known[p] for p in route.params})
            if path.startswith("/api/"):
                break  # the API has its own tests (tests/api/, the schema check)
            closed_captain = role_of(path) == CAPTAIN and state == "closed"
            target = (CLOSED_CAPTAIN_REDIRECTS if closed_captain else REDIRECTS).get(route.name)
            redirect = None
            if target is not None:
                redirect = reverse(target, kwargs={p: known[p] for p in route.params})
            visits.append(Visit(route.name, role_of(path), state, path, redirect))
    stale = sorted((set(EXCLUDED) | set(REDIRECTS)) - names)
    if stale:
        problems.append(f"EXCLUDED or REDIRECTS name routes that no longer exist: {stale}")
    return visits


@pytest.fixture
def demo(settings: Any, tmp_path: Any) -> Demo:
    """22 players (three tables of four, two of five), three series: two closed, the last
    running with some games entered at every table. The running series' print pack exists
    in German, not in English: the print page is seen with a finished PDF and without."""
    started = time.perf_counter()
    settings.MEDIA_ROOT = tmp_path
    tournament = build_demo(players=22, series=3, seed=2026)
    series = tournament.series.order_by("number")
    pack = request_document(Kind.PRINT_PACK, tournament, series.last(), language="de", queue=False)
    generate_inline(pack)
    # The organizer's import page shows a checked archive waiting for the confirmation (the
    # task runs in-process at the commit).
    raw = json.dumps(build_archive(tournament)).encode()
    job = jobs.start(raw, User.objects.get(username=DEMO_USER), confirmed=False, language="de")
    seconds = time.perf_counter() - started
    groups = Tournament.objects.filter(team_group__match_day__league__slug=DEMO_LEAGUE)
    return Demo(
        tournament,
        running=series.last(),
        closed=series.first(),
        archive_import=job.pk,
        seconds=seconds,
        stored_names=tuple(groups.values_list("name", flat=True)),
    )


def text_problems(text: str, language: str, stored: Sequence[str] = ()) -> list[str]:
    """Raw template text and the other language's words in ``text``; ``stored``: names
    that are data (kept in the language they were made in), not the page's words."""
    for name in stored:
        text = text.replace(name, "")
    other = {"de": "English on a German page", "en": "German on an English page"}[language]
    patterns = {**RAW_TEXT, other: TELL_TALE[language]}
    return [
        f"{kind} {snippet!r}"
        for kind, pattern in patterns.items()
        for snippet in _snippets(pattern, text)
    ]


def _snippets(pattern: re.Pattern[str], text: str) -> list[str]:
    """Distinct matches with a little context (one snippet for neighbouring matches), at
    most three."""
    seen: dict[str, str] = {}
    shown_until = -1
    for match in pattern.finditer(text):
        if match.start() < shown_until or match.group() in seen:
            continue
        shown_until = match.end() + 30
        seen[match.group()] = " ".join(text[max(0, match.start() - 30) : shown_until].split())
        if len(seen) == 3:
            break
    return list(seen.values())


def check_page(
    page: Any,
    console: list[str],
    visit: Visit,
    language: str,
    base: str,
    stored: Sequence[str] = (),
) -> list[str]:
    """The problems of one page; ``console`` collects the page's console errors;
    ``stored``: names that are data (``text_problems``)."""
    console.clear()
    response = page.goto(base + visit.path)
    problems = []
    final = page.url.removeprefix(base)
    if visit.redirect is not None:
        if final != visit.redirect:
            problems.append(f"leads to {final}, expected {visit.redirect}")
    elif final != visit.path:
        problems.append(f"redirected to {final}")
    status = response.status if response is not None else None
    if status != visit.status:
        problems.append(f"status {status}, expected {visit.status}")
    # The browser reports a page's own error status as a console error.
    expected = f"Failed to load resource: the server responded with a status of {status} "
    console[:] = [line for line in console if status == 200 or not line.startswith(expected)]
    if not problems:
        found = page.evaluate(CHECKS_JS)
        if found["scroll"] > min(found["width"], WIDTH):
            problems.append(
                f"{found['scroll']} px wide (viewport {WIDTH}); sticking out: {found['wide']}"
            )
        problems += found["tables"]
        problems += [f"id used more than once: {found['twice']}"] if found["twice"] else []
        if found["lang"] != language:
            problems.append(f'<html lang="{found["lang"]}">')
        problems += text_problems(found["text"], language, stored)
        problems += [f"axe: {line}" for line in axe_problems(page)]
    problems += [f"console: {line[:150]}" for line in console]
    return problems


def axe_problems(page: Any) -> list[str]:
    """axe-core's violations of the impacts in ``AXE_IMPACTS`` on the page shown."""
    # Evaluated, not loaded by a script tag: a request from the page could be answered by the
    # captain pages' service worker, which the test's routing does not see, and a script from
    # outside the page's own code would be refused by its Content-Security-Policy.
    if not page.evaluate("() => typeof axe !== 'undefined'"):
        page.evaluate(AXE_SOURCE)
    violations: list[str] = page.evaluate(AXE_JS, list(AXE_IMPACTS))
    return violations


@pytest.fixture
def session_cookie(demo: Demo) -> str:
    client = Client()
    client.force_login(User.objects.get(username=DEMO_USER))
    return client.cookies[settings.SESSION_COOKIE_NAME].value


def contexts(browser: Any, base: str, session: str) -> Iterator[tuple[str, str, Any]]:
    """One context per language and role, with the language cookie and, for the organizer,
    his session."""
    for language in LANGUAGES:
        for role in (PUBLIC, ORGANIZER, CAPTAIN):
            context = browser.new_context(
                viewport={"width": WIDTH, "height": HEIGHT},
                locale=language,
                is_mobile=True,
                has_touch=True,
                # The crawl opens every <details> and measures at once: without this, a
                # button just shown is mid-way through Pico's colour transition (0.2 s),
                # and axe read its contrast there (3.23 on the referee call's button).
                reduced_motion="reduce",
            )
            cookies = [{"name": settings.LANGUAGE_COOKIE_NAME, "value": language, "url": base}]
            if role == ORGANIZER:
                cookies.append(
                    {"name": settings.SESSION_COOKIE_NAME, "value": session, "url": base}
                )
            context.add_cookies(cookies)
            try:
                yield language, role, context
            finally:
                close_context(context)


@pytest.mark.slow
def test_every_page_fits_a_phone_in_both_languages(
    live_server: Any, browser: Any, demo: Demo, session_cookie: str
) -> None:
    started = time.perf_counter()
    problems: list[str] = []
    visits = plan(demo, problems)
    assert {v.role for v in visits} == {PUBLIC, ORGANIZER, CAPTAIN}, visits
    opened = 0
    for language, role, context in contexts(browser, live_server.url, session_cookie):
        page = context.new_page()
        page.set_default_timeout(15_000)
        console: list[str] = []
        page.on("console", lambda m, c=console: c.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda exc, c=console: c.append(str(exc)))
        for visit in (v for v in visits if v.role == role):
            found = check_page(page, console, visit, language, live_server.url, demo.stored_names)
            opened += 1
            state = f" ({visit.state})" if visit.state else ""
            label = f"[{language} {role}] {visit.path} {visit.route}{state}"
            problems += [f"{label}: {p}" for p in found]
    duration = time.perf_counter() - started
    for visit in visits:
        print(f"  {visit.role:9} {visit.route:28} {visit.state:7} {visit.path}")
    print(
        f"demo built in {demo.seconds:.1f} s; {opened} visits ({len(visits)} pages, "
        f"{len(LANGUAGES)} languages) in {duration:.1f} s; {len(problems)} problems"
    )
    assert not problems, f"{len(problems)} problems:\n" + "\n".join(problems)


SAMPLE = """<!doctype html><html lang="de"><head>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>body { margin: 0; } .wide-only { display: none; } .wide { width: 600px; }</style>
</head><body>
<div class="wide">breit</div>
<table id="extra"><thead><tr><th>Rang</th><th>Name</th></tr></thead>
  <tbody><tr><td>1.</td><td>Anna</td><td>9</td></tr><tr><td>2.</td><td>Bernd</td></tr></tbody>
</table>
<table id="spans"><thead><tr><th rowspan="2">Tisch</th><th colspan="2">Punkte</th></tr>
  <tr><th>Re</th><th>Kontra</th></tr></thead>
  <tbody><tr><td rowspan="2">1</td><td>2</td><td>-2</td></tr><tr><td>3</td><td>-3</td></tr>
  <tr><td colspan="3">Summe</td></tr></tbody>
</table>
<table id="hidden"><thead><tr><th>Name</th><th class="wide-only">Verein</th></tr></thead>
  <tbody><tr><td>Anna</td><td>Dulle</td></tr></tbody>
</table>
<details><summary>Mehr</summary><p>scoring.sheet.confirmed {'seat': 2} Seat 2</p></details>
<label for="reason">Grund</label><input id="reason"><input id="reason">
<p style="color: #999; background: #fff">blass</p>
</body></html>"""


def test_the_checks_find_what_they_look_for(browser: Any) -> None:
    """The checks themselves, on a page with one defect of each kind (and a table with
    rowspans and colspans that is right)."""
    context = browser.new_context(viewport={"width": WIDTH, "height": HEIGHT}, is_mobile=True)
    page = context.new_page()
    base = "http://checks.invalid"
    page.route(base + "/", lambda route: route.fulfill(body=SAMPLE, content_type="text/html"))
    page.goto(base + "/")
    found = page.evaluate(CHECKS_JS)
    axe = axe_problems(page)
    close_context(context)
    assert found["twice"] == ["reason (2)"]
    assert "serious color-contrast (1): body > p" in axe, axe
    assert (found["width"], found["scroll"]) == (WIDTH, 600)
    assert found["wide"] == ["div.wide 600"]
    assert found["tables"] == [
        'table#extra (table 1): header 2 cells, 1 row has 3 (first: "1.")',
        'table#extra (table 1): header 2 cells shown, 1 row has 3 (first: "1.")',
        'table#hidden (table 3): header 1 cells shown, 1 row has 2 (first: "Anna")',
    ]
    problems = text_problems(found["text"], "de")
    kinds = ("action code ", "Python repr ", "English on a German page ")
    assert len(problems) == 3, problems
    assert all(p.startswith(k) for p, k in zip(problems, kinds, strict=True)), problems

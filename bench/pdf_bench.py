"""PDF benchmark: the print pack of a 250-table series through the real pipeline (Celery
worker; static layers and parts rendered in parallel, joined with the static layers under
their pages), against a naive single-document WeasyPrint render of the same score sheets
built as HTML tables, in the same run. Wall time, CPU seconds and the load average are
printed: the machine may be shared, so compare rates measured in the same run.

    .venv/bin/python bench/pdf_bench.py [--tables 250] [--workers 2] [--inline] [--naive 40]

``--small`` measures what an organizer waits for instead: the print pack of 11 tables from
the click (the form's POST) to the download link, through the real views, polling the
status fragment as the browser would (each poll after the delay its ``hx-trigger`` names):
on a worker started just before, in the other language, and warm, each after a swap of two
players that rendered the pack ahead (the time that took is printed too); 1 s after such a
swap, in its language and in the other (the click joins the render ahead); after a swap
that rendered nothing ahead (DOCUMENT_PRERENDER off); and with no stored document or piece
at all, the pack rendered at the click from nothing. The floor is the best of two warm
renders of the whole pack in this process, from nothing.

Uses a throw-away SQLite database and media folder, and Redis database 13 as the broker
(``--broker`` to change; ``--inline`` renders in this process without a worker).
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import urlparse

if TYPE_CHECKING:
    from django.test import Client

    from documents.models import GeneratedDocument
    from tournaments.models import Series, Tournament

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

NAIVE_SHEET = """{% load i18n %}
<section class="sheet">
  <h1>{{ info.tournament_name }}</h1>
  <p>{% translate "Series" %} {{ info.series_number }} · {% translate "Table" %} {{ table.number }}
     · {{ info.date|date:"DATE_FORMAT" }}</p>
  <img class="qr" src="{{ qr }}" alt="">
  <p class="link">{{ table.entry_url }}</p>
  <table class="seats">{% for s in table.seats %}
    <tr><td>{{ s.position }}</td><td>{{ s.name }}</td></tr>{% endfor %}</table>
  <table class="grid">
    <thead><tr><th>Nr</th>{% for s in table.seats %}<th>{{ s.name }}</th>{% endfor %}
      <th>{% translate "Game value" %}</th><th>{% translate "Plus (seats)" %}</th></tr></thead>
    <tbody>{% for n in rows %}<tr><td>{{ n }}</td>{% for s in table.seats %}<td></td>{% endfor %}
      <td></td><td></td></tr>{% endfor %}
      <tr><th colspan="7">{% translate "Compulsory solos – one row per player" %}</th></tr>
      {% for s in table.seats %}<tr><td>P{{ s.position }}</td>{% for t in table.seats %}<td></td>
      {% endfor %}<td></td><td></td></tr>{% endfor %}</tbody>
  </table>
  <table class="sign"><tr>{% for s in table.seats %}<td>{{ s.name }}</td>{% endfor %}</tr></table>
</section>"""

NAIVE_CSS = """@page { size: A4; margin: 10mm; }
body { font-family: "DejaVu Sans"; font-size: 9pt; }
.sheet { break-after: page; } h1 { font-size: 14pt; margin: 0; }
.qr { float: right; width: 28mm; height: 28mm; }
table { border-collapse: collapse; width: 100%; margin-top: 2mm; }
.grid td, .grid th { border: 0.3mm solid #000; height: 6.4mm; padding: 0 1mm; }
.sign td { border-top: 0.3mm solid #000; padding-top: 8mm; }"""


def _redis_up(url: str) -> bool:
    parsed = urlparse(url)
    try:
        with socket.create_connection((parsed.hostname or "127.0.0.1", parsed.port or 6379), 1):
            return True
    except OSError:
        return False


def _configure(work: Path, broker: str | None) -> None:
    os.environ["DJANGO_SETTINGS_MODULE"] = "config.settings"
    os.environ["DATABASE_URL"] = f"sqlite:///{work / 'bench.sqlite3'}"
    os.environ["MEDIA_ROOT"] = str(work / "media")
    os.environ["LOG_LEVEL"] = "ERROR"
    for key in ("CELERY_BROKER_URL", "CELERY_RESULT_BACKEND"):
        os.environ.pop(key, None)
        if broker:
            os.environ[key] = broker


def _build(
    tables: int, series_number: int, tournament: Tournament | None = None
) -> tuple[Tournament, Series]:
    from tournaments.models import Player, Registration, Seat, Series, Table, Tournament

    if tournament is None:
        tournament = Tournament.objects.create(
            name="Bench-Cup des Doppelkopf-Landesverbands 2026", slug="bench",
            starts_on="2026-10-03", venue="Stadthalle",
        )  # fmt: skip
    players = Player.objects.bulk_create(
        Player(first_name=f"Vorname{i}", last_name=f"Nachname{i:04d}") for i in range(tables * 4)
    )
    start = Registration.objects.filter(tournament=tournament).count()
    registrations = Registration.objects.bulk_create(
        Registration(tournament=tournament, player=p, start_number=start + i + 1)
        for i, p in enumerate(players)
    )
    series = Series.objects.create(tournament=tournament, number=series_number, status="drawn")
    table_rows = Table.objects.bulk_create(
        Table(series=series, number=n + 1) for n in range(tables)
    )
    Seat.objects.bulk_create(
        Seat(table=t, series=series, position=p + 1, registration=registrations[i * 4 + p])
        for i, t in enumerate(table_rows)
        for p in range(4)
    )
    return tournament, series


def _cpu_seconds(pid: int) -> float:
    """CPU time (user + system) of a process and its children, from /proc."""
    total = 0.0
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
        for task in Path(f"/proc/{pid}/task").iterdir():
            for child in (task / "children").read_text().split():
                total += _cpu_seconds(int(child))
    except (OSError, ValueError, IndexError):
        pass
    return total


def _generate(
    series: Series, inline: bool, timeout: float = 600
) -> tuple[GeneratedDocument, float]:
    from django.db import transaction

    from documents import pipeline, services
    from documents.models import GeneratedDocument

    start = time.perf_counter()
    with transaction.atomic():
        document = services.request_document(
            GeneratedDocument.Kind.PRINT_PACK, series.tournament, series, language="de",
            queue=not inline,
        )  # fmt: skip
    if inline:
        pipeline.generate_inline(document)
    while True:
        document.refresh_from_db()
        if document.is_finished or time.perf_counter() - start > timeout:
            break
        time.sleep(0.05)
    elapsed = time.perf_counter() - start
    if document.status != "done":
        raise SystemExit(f"document {document.status}: {document.error}")
    return document, elapsed


def _naive(series: Series, count: int) -> tuple[int, float]:
    from django.template import Context, Template
    from django.utils import translation
    from weasyprint import HTML

    from documents.builders import load_series
    from documents.render import qr_data_uri

    info = load_series(series)
    template = Template(NAIVE_SHEET)
    start = time.perf_counter()
    with translation.override("de"):
        body = "".join(
            template.render(
                Context({"info": info, "table": t, "rows": range(1, t.normal_games + 1),
                         "qr": qr_data_uri(t.entry_url)})
            )
            for t in info.tables[:count]
        )  # fmt: skip
    html = f"<html><head><style>{NAIVE_CSS}</style></head><body>{body}</body></html>"
    document = HTML(string=html).render()
    document.write_pdf()
    return len(document.pages), time.perf_counter() - start


DELAY = re.compile(r'hx-trigger="load delay:(\d+)(ms|s)"')


def _click_to_link(client: Client, url: str, language: str) -> tuple[float, int]:
    """Seconds from the POST of the print page's form to the status fragment that holds
    the download link, and the number of polls; each poll waits the fragment's delay."""
    headers = {"Accept-Language": language}
    start = time.perf_counter()
    page = client.post(url, follow=True, headers=headers).content.decode()
    polls = 0
    while "/pdf/" not in page:
        match = DELAY.search(page)
        status = re.search(r'hx-get="([^"]+/status/[^"]*)"', page)
        if match is None or status is None:
            raise SystemExit(f"no download link and no poll:\n{page[-2000:]}")
        time.sleep(int(match[1]) / (1000 if match[2] == "ms" else 1))
        page = client.get(status[1], headers=headers).content.decode()
        polls += 1
        if time.perf_counter() - start > 120:
            raise SystemExit("no download link after 120 s")
    return time.perf_counter() - start, polls


def _change(series: Series, turn: int, language: str, worker_pid: int) -> tuple[float, float]:
    """What an organizer does before printing: swap two players (in ``language``), which
    renders the pack ahead on the worker. Seconds until every language's pack of the swap
    is done, and the worker's CPU seconds for them."""
    from django.db.models import Max
    from django.utils import translation

    from documents.models import GeneratedDocument
    from tournaments.models import Seat
    from tournaments.services.draw import swap_players

    seats = list(Seat.objects.filter(series=series, position=1).order_by("table__number"))
    first, second = seats[turn % len(seats)], seats[(turn + 1) % len(seats)]
    before = GeneratedDocument.objects.aggregate(last=Max("pk"))["last"] or 0
    cpu = _cpu_seconds(worker_pid)
    start = time.perf_counter()
    with translation.override(language):
        swap_players(series, first.registration, second.registration)
    while time.perf_counter() - start < 120:
        made = GeneratedDocument.objects.filter(pk__gt=before)
        if made.count() == 2 and not made.exclude(status="done").exists():
            return time.perf_counter() - start, _cpu_seconds(worker_pid) - cpu
        if made.filter(status="failed").exists():
            raise SystemExit(f"a pack rendered ahead failed: {made.filter(status='failed')[0]}")
        time.sleep(0.02)
    raise SystemExit("the packs rendered ahead were not done after 120 s")


def _swap(series: Series, turn: int, language: str, ahead: bool = True) -> int:
    """Swap two players at neighbouring tables (in ``language``); with ``ahead`` False as if
    nothing rendered ahead (DOCUMENT_PRERENDER off). The last document's id before."""
    from django.db.models import Max
    from django.test import override_settings
    from django.utils import translation

    from documents.models import GeneratedDocument
    from tournaments.models import Seat
    from tournaments.services.draw import swap_players

    seats = list(Seat.objects.filter(series=series, position=1).order_by("table__number"))
    first, second = seats[turn % len(seats)], seats[(turn + 1) % len(seats)]
    before = GeneratedDocument.objects.aggregate(last=Max("pk"))["last"] or 0
    with translation.override(language), override_settings(DOCUMENT_PRERENDER=ahead):
        swap_players(series, first.registration, second.registration)
    return before


def _settle(before: int) -> None:
    """Wait until every document made since ``before`` is finished (the next case starts
    from a worker with nothing to do)."""
    from documents.models import GeneratedDocument

    start = time.perf_counter()
    while time.perf_counter() - start < 120:
        if not GeneratedDocument.objects.filter(
            pk__gt=before, status__in=["queued", "running"]
        ).exists():
            return
        time.sleep(0.05)
    raise SystemExit("documents still unfinished after 120 s")


def _forget_pieces(work: Path) -> None:
    """Stored pieces of earlier renders (``documents.pieces``, where the code has them):
    removed, so the next render starts from nothing, as the very first one does."""
    shutil.rmtree(work / "media" / "documents" / "pieces", ignore_errors=True)


def _pack_size(language: str) -> int:
    """Bytes of the last print pack made in ``language`` (the one the click linked to)."""
    from documents.models import GeneratedDocument

    document = GeneratedDocument.objects.filter(status="done", language=language).latest("pk")
    size: int = document.file.size
    return size


def small(args: argparse.Namespace) -> None:
    """Click to link for the small print pack: new worker, other language, warm; each after
    a swap that rendered it ahead, and on a warm worker without one (rendered at the click,
    what every click cost before the packs were rendered ahead)."""
    work = Path(tempfile.mkdtemp(prefix="pdf-bench-"))
    _configure(work, args.broker)
    import django

    django.setup()
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.test import Client

    from documents.models import GeneratedDocument

    if not settings.DOCUMENT_PRERENDER:
        raise SystemExit("DOCUMENT_PRERENDER is off: nothing is rendered ahead")
    call_command("migrate", verbosity=0)
    tournament, series = _build(args.tables, 1)
    get_user_model().objects.create_superuser("bench", "bench@example.org", "bench-password")
    client = Client()
    client.login(username="bench", password="bench-password")
    url = f"/verwaltung/{tournament.slug}/serie/{series.number}/druck/"
    from config.celery import app
    from config.tasks import ping

    # The floor: the same document rendered in this (warm) process, no queue, no polling.
    floors = []
    for _ in range(3):  # the first warms this process; the best of the others
        GeneratedDocument.objects.all().delete()
        _forget_pieces(work)
        floors.append(_generate(series, inline=True)[1])
    floor = min(floors[1:])
    app.control.purge()
    rows = []
    sizes: list[int] = []
    turn = 0
    log = (work / "worker.log").open("w")
    try:
        for run in range(args.runs):
            start = time.perf_counter()
            worker = subprocess.Popen(
                [sys.executable, "-m", "celery", "-A", "config", "worker", "--pool", "prefork",
                 "--concurrency", str(args.workers), "--without-heartbeat", "--without-gossip",
                 "--without-mingle", "--loglevel", "WARNING"],
                cwd=ROOT, env=dict(os.environ), stdout=log, stderr=subprocess.STDOUT,
            )  # fmt: skip
            try:
                for _ in range(args.workers):  # every process has started (and warmed)
                    ping.delay("bench").get(timeout=120)
                ready = time.perf_counter() - start
                # (name, how, language of the change, language of the click). How: "done",
                # the click once the swap's packs are rendered ahead; "1s", the click 1 s
                # after the swap (joining the render ahead); "not ahead", a swap that
                # rendered nothing ahead (DOCUMENT_PRERENDER off, or Redis down); "cold",
                # no swap and nothing stored: documents and pieces removed, the pack
                # rendered at the click from nothing.
                cases: list[tuple[str, str, str, str]] = [
                    ("new worker, de", "done", "de", "de"),
                    ("other language, en", "done", "de", "en"),
                    ("warm, de", "done", "de", "de"), ("warm, en", "done", "en", "en"),
                    ("1 s after a swap, de", "1s", "de", "de"),
                    ("1 s after a swap, en", "1s", "de", "en"),
                    ("not ahead, de", "not ahead", "de", "de"),
                    ("at the click, de", "cold", "de", "de"),
                    ("at the click, en", "cold", "en", "en"),
                ]  # fmt: skip
                for name, how, changed_in, language in cases:
                    load = os.getloadavg()[0]
                    ahead = cpu = None
                    if how == "cold":
                        GeneratedDocument.objects.all().delete()  # a new one, not the last
                        _forget_pieces(work)
                    elif how == "done":
                        ahead, cpu = _change(series, turn, changed_in, worker.pid)
                        turn += 1
                    elif how == "not ahead":
                        _swap(series, turn, changed_in, ahead=False)
                        turn += 1
                    else:
                        swapped = time.perf_counter()
                        before = _swap(series, turn, changed_in)
                        turn += 1
                        time.sleep(max(0.0, swapped + 1.0 - time.perf_counter()))
                    elapsed, polls = _click_to_link(client, url, language)
                    if how == "1s":
                        _settle(before)
                    sizes.append(_pack_size(language))
                    rows.append((run, name, elapsed, polls, ready, load, ahead, cpu))
            finally:
                worker.terminate()
                worker.wait(timeout=60)
    except BaseException:
        print((work / "worker.log").read_text()[-3000:])
        raise
    finally:
        log.close()
        shutil.rmtree(work, ignore_errors=True)
    print(f"machine: {os.cpu_count()} cores; {args.tables} tables, worker of {args.workers} "
          f"processes started anew for each run")  # fmt: skip
    for run, name, elapsed, polls, ready, load, ahead, cpu in rows:
        made = "not waited for" if ahead is None else (
            f"rendered ahead in {ahead:.2f} s, {cpu:.2f} worker CPU s (de + en)")  # fmt: skip
        print(f"run {run + 1}: {name:<20} click to link {elapsed:5.2f} s ({polls} polls); "
              f"{made}; worker ready after {ready:.1f} s; load {load:.2f}")  # fmt: skip
    print(f"floor (the same document rendered in-process, warm): {floor:.2f} s")
    for _, name, *_rest in rows[: len(rows) // max(args.runs, 1)]:
        times = sorted(r[2] for r in rows if r[1] == name)
        median = times[len(times) // 2]
        print(f"{name:<20} median {median:.2f} s = {median / floor:.2f}x the floor, "
              f"range {times[0]:.2f}-{times[-1]:.2f} s (target <= 1.5 s)")  # fmt: skip
    sizes.sort()
    print(f"pack size: median {sizes[len(sizes) // 2] / 1024:.0f} KB, range "
          f"{sizes[0] / 1024:.0f}-{sizes[-1] / 1024:.0f} KB")  # fmt: skip
    aheads = sorted(r[6] for r in rows if r[6] is not None)
    cpus = sorted(r[7] for r in rows if r[7] is not None)
    if aheads:
        print(f"rendered ahead (swap to both packs done): median {aheads[len(aheads) // 2]:.2f} s"
              f", range {aheads[0]:.2f}-{aheads[-1]:.2f} s; worker CPU median "
              f"{cpus[len(cpus) // 2]:.2f} s")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=250)
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 2)
    parser.add_argument("--naive", type=int, default=40, help="sheets in the naive document")
    parser.add_argument("--inline", action="store_true", help="no worker: render in-process")
    parser.add_argument("--broker", default="redis://127.0.0.1:6379/13")
    parser.add_argument("--small", action="store_true", help="click to link, 11 tables")
    parser.add_argument("--runs", type=int, default=3, help="with --small: fresh workers")
    args = parser.parse_args()
    if args.small:
        if not _redis_up(args.broker):
            raise SystemExit(f"--small needs the broker at {args.broker}")
        if "--tables" not in sys.argv:
            args.tables = 11
        small(args)
        return

    inline = args.inline or not _redis_up(args.broker)
    work = Path(tempfile.mkdtemp(prefix="pdf-bench-"))
    _configure(work, None if inline else args.broker)
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    tournament, warm_series = _build(4, 1)
    _, series = _build(args.tables, 2, tournament)

    worker = None
    try:
        if not inline:
            from config.celery import app
            from config.tasks import ping

            app.control.purge()
            worker = subprocess.Popen(
                [sys.executable, "-m", "celery", "-A", "config", "worker", "--pool", "prefork",
                 "--concurrency", str(args.workers), "--without-heartbeat", "--without-gossip",
                 "--without-mingle", "--loglevel", "WARNING"],
                cwd=ROOT, env=dict(os.environ),
            )  # fmt: skip
            ping.delay("bench").get(timeout=60)
        _generate(warm_series, inline)  # warm-up: imports and fonts in every process

        load_before = os.getloadavg()
        cpu_before = _cpu_seconds(worker.pid) if worker else time.process_time()
        document, elapsed = _generate(series, inline)
        cpu = (_cpu_seconds(worker.pid) if worker else time.process_time()) - cpu_before
        pages = document.pages_total
        size = document.file.size
        naive_cpu = time.process_time()
        naive_pages, naive_elapsed = _naive(series, args.naive)
        naive_cpu = time.process_time() - naive_cpu
    finally:
        if worker is not None:
            worker.terminate()
            worker.wait(timeout=30)
        shutil.rmtree(work, ignore_errors=True)

    mode = "inline, 1 process" if inline else f"Celery worker, {args.workers} processes"
    rate, naive_rate = pages / elapsed, naive_pages / naive_elapsed
    loads = " / ".join(f"{a:.2f}" for a in load_before)
    print(f"machine: {os.cpu_count()} cores; load average (1/5/15 min) {loads} before the "
          f"pipeline, {os.getloadavg()[0]:.2f} at the end (other processes count too)")  # fmt: skip
    print(f"pipeline ({mode}): {args.tables} tables, {pages} pages in {elapsed:.2f} s "
          f"= {rate:.1f} pages/s; {cpu:.1f} CPU s = {pages / cpu:.1f} pages per CPU s; "
          f"{size / 1024:.0f} KiB")  # fmt: skip
    print(f"naive (one document, HTML-table sheets): {naive_pages} pages in "
          f"{naive_elapsed:.2f} s = {naive_rate:.1f} pages/s; {naive_cpu:.1f} CPU s = "
          f"{naive_pages / naive_cpu:.1f} pages per CPU s")  # fmt: skip
    print(f"speed-up per CPU second: {(pages / cpu) / (naive_pages / naive_cpu):.1f}x")
    print(f"speed-up: {rate / naive_rate:.1f}x; total time {elapsed:.2f} s "
          f"(target: < 6 s and >= 8x)")  # fmt: skip


if __name__ == "__main__":
    main()

"""``make screenshots``: the five main screens at phone size, for the README.

Builds the demo tournament (the one ``make run`` loads) in a throwaway SQLite database,
serves it with ``manage.py runserver`` on a free port and photographs with headless Chromium
at 390 x 844: the captain's entry form with a game being typed (its value shown live), the
standings, the organizer's progress board and the public seating of the running series.
Page one of that series' print pack is rendered by the project's own document code and
converted with ``pdftoppm``. The server and the database are gone afterwards.

Needs the dev requirements (``make install-dev``: Playwright), Chromium (Debian's
``chromium``, else Playwright's own after ``playwright install chromium``) and
``pdftoppm`` (Debian's poppler-utils). Runs ``optipng`` on the images when it is installed.

    .venv/bin/python docs/screenshots/make_screenshots.py [--language en] [--output DIR]
"""

from __future__ import annotations

import argparse
import contextlib
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
WIDTH, HEIGHT = 390, 844
NAMES = (
    "captain-entry.png",
    "standings.png",
    "progress-board.png",
    "seating.png",
    "print-pack.png",
    "season.png",
    "player.png",
    "statistics.png",
    "league.png",
)
PDF_WIDTH = 600  # px, page one of the print pack (A4: 849 px high)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--language", choices=["de", "en"], default="de")
    parser.add_argument("--output", type=Path, default=ROOT / "docs" / "screenshots")
    args = parser.parse_args()
    if shutil.which("pdftoppm") is None:
        sys.exit("pdftoppm is missing: apt-get install poppler-utils")
    args.output.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="doko-screenshots-") as scratch:
        work = Path(scratch)
        environment(work)
        demo = prepare(work, args.language)
        pdf_page(work / "pack.pdf", args.output / "print-pack.png")
        with server(work) as base:
            photograph(base, demo, args.language, args.output)
    written = [args.output / name for name in NAMES]
    if shutil.which("optipng"):
        subprocess.run(["optipng", "-quiet", "-o2", *map(str, written)], check=True)
    for path in written:
        print(f"{path}: {path.stat().st_size // 1024} KB")


def environment(work: Path) -> None:
    """This process and the server it starts use the throwaway database, eager tasks and
    the development settings."""
    for name in ("CELERY_BROKER_URL", "CELERY_RESULT_BACKEND"):
        os.environ.pop(name, None)
    os.environ.update(
        DATABASE_URL=f"sqlite:///{work / 'db.sqlite3'}",
        MEDIA_ROOT=str(work / "media"),
        DEBUG="1",
        DJANGO_SETTINGS_MODULE="config.settings",
    )
    sys.path.insert(0, str(ROOT))


def prepare(work: Path, language: str) -> dict[str, str]:
    """Migrate, build the demo, write the print pack; return the pages' paths and the
    organizer's session."""
    import django

    django.setup()
    from django.conf import settings
    from django.contrib.auth.models import User
    from django.core.management import call_command
    from django.test import Client
    from django.urls import reverse

    from documents.models import GeneratedDocument
    from documents.pipeline import generate_inline
    from documents.services import request_document
    from scoring.demo import build_demo
    from tournaments.demo import DEMO_USER

    call_command("migrate", verbosity=0)
    tournament = build_demo()
    series = tournament.series.order_by("-number").first()
    assert series is not None
    table = series.tables.order_by("number").first()
    assert table is not None
    pack = request_document(
        GeneratedDocument.Kind.PRINT_PACK, tournament, series, language=language, queue=False
    )
    pack = generate_inline(pack)
    with pack.file.open("rb") as handle:
        (work / "pack.pdf").write_bytes(handle.read())
    organizer = Client()
    organizer.force_login(User.objects.get(username=DEMO_USER))
    in_series = {"slug": tournament.slug, "number": series.number}
    first = tournament.registrations.order_by("start_number").first()
    assert first is not None
    return {
        "season": reverse("seasons:detail", kwargs={"season": "demo-rangliste"}),
        "player": reverse("seasons:player", kwargs={"pk": first.player_id}),
        "statistics": reverse("scoring:statistics", kwargs={"slug": tournament.slug}),
        "league": reverse("teams:detail", kwargs={"league": "demo-liga"}),
        "captain": reverse("scoring:captain", kwargs={"token": table.captain_token}),
        "standings": reverse("scoring:standings", kwargs={"slug": tournament.slug}),
        "seating": reverse("tournaments:series-public", kwargs=in_series),
        "progress": reverse("scoring:progress", kwargs=in_series),
        "session_cookie": settings.SESSION_COOKIE_NAME,
        "session": organizer.cookies[settings.SESSION_COOKIE_NAME].value,
        "language_cookie": settings.LANGUAGE_COOKIE_NAME,
    }


def pdf_page(pdf: Path, png: Path) -> None:
    stem = png.with_suffix("")
    command = ["pdftoppm", "-png", "-f", "1", "-l", "1", "-singlefile"]
    size = ["-scale-to-x", str(PDF_WIDTH), "-scale-to-y", "-1"]
    subprocess.run([*command, *size, str(pdf), str(stem)], check=True)


@contextlib.contextmanager
def server(work: Path) -> Iterator[str]:
    """``manage.py runserver`` on a free port; stopped on leaving."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    log_path = work / "server.log"
    command = [sys.executable, "manage.py", "runserver", "--noreload", f"127.0.0.1:{port}"]
    with log_path.open("w") as log:
        process = subprocess.Popen(command, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT)
    try:
        base = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 60
        while True:
            try:
                urllib.request.urlopen(base + "/", timeout=5).close()
                break
            except (urllib.error.URLError, ConnectionError):
                if process.poll() is not None or time.monotonic() > deadline:
                    sys.exit(f"The server did not start:\n{log_path.read_text()}")
                time.sleep(0.2)
        yield base
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def photograph(base: str, demo: dict[str, str], language: str, output: Path) -> None:
    from playwright.sync_api import sync_playwright

    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    with sync_playwright() as playwright:
        try:
            browser = playwright.chromium.launch(
                executable_path=chromium, args=["--no-sandbox", "--disable-gpu"]
            )
        except Exception as exc:  # Playwright names its own browser's path
            sys.exit(f"{exc}\nInstall Chromium: apt-get install chromium")
        visitor = phone(browser, base, demo, language)
        captain_entry(visitor, base + demo["captain"], output / "captain-entry.png")
        shoot(visitor, base + demo["standings"], output / "standings.png")
        shoot(visitor, base + demo["seating"], output / "seating.png")
        shoot(visitor, base + demo["season"], output / "season.png")
        shoot(visitor, base + demo["player"], output / "player.png")
        shoot(visitor, base + demo["statistics"], output / "statistics.png")
        shoot(visitor, base + demo["league"], output / "league.png")
        organizer = phone(browser, base, demo, language, logged_in=True)
        shoot(organizer, base + demo["progress"], output / "progress-board.png")
        browser.close()


def phone(browser: Any, base: str, demo: dict[str, str], language: str, logged_in=False) -> Any:
    context = browser.new_context(
        viewport={"width": WIDTH, "height": HEIGHT},
        is_mobile=True,
        has_touch=True,
        locale=language,
    )
    cookies = [{"name": demo["language_cookie"], "value": language, "url": base}]
    if logged_in:
        cookies.append({"name": demo["session_cookie"], "value": demo["session"], "url": base})
    context.add_cookies(cookies)
    page = context.new_page()
    page.set_default_timeout(30_000)
    return page


def shoot(page: Any, url: str, path: Path) -> None:
    response = page.goto(url)
    if response is None or response.status != 200:
        sys.exit(f"{url}: {response.status if response else 'no answer'}")
    page.screenshot(path=str(path))


def captain_entry(page: Any, url: str, path: Path) -> None:
    """The next game being typed: two Re players and Re's card points; the value appears
    before saving. The view starts at the first part of the form that leaves the save button
    in sight."""
    page.goto(url)
    seats = page.locator("fieldset.when-normal label")
    seats.nth(0).click()
    seats.nth(2).click()
    page.fill("#id_re_points", "151")
    page.locator("#preview strong").first.wait_for()
    top = page.evaluate(
        """(height) => {
          const form = document.querySelector('#preview').closest('form');
          const buttons = form.querySelectorAll('button[type=submit]');
          const y = (el, edge) => el.getBoundingClientRect()[edge] + window.scrollY;
          const lowest = y(buttons[buttons.length - 1], 'bottom') + 16 - height;
          const starts = [...form.querySelectorAll('fieldset, label')]
            .map((el) => y(el, 'top') - 12).filter((t) => t >= lowest);
          return Math.max(0, Math.min(...starts, lowest + height));
        }""",
        HEIGHT,
    )
    page.evaluate(f"window.scrollTo(0, {int(top)})")
    page.screenshot(path=str(path))


if __name__ == "__main__":
    main()

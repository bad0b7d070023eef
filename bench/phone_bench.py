"""A captain's phone on bad hall Wi-Fi: the captain page's first load and a reload.

Headless Chromium (Debian's package) with the network throttled as in a crowded hall (400
kbit/s down, 200 up, 400 ms round trip) loads the captain page of the demo tournament served
by gunicorn (2 workers of 4 threads) with DEBUG off, as in hall mode (the app serves its
hashed, compressed static files itself through WhiteNoise), and, if nginx is installed,
behind nginx with the deploy's static location (deploy/nginx/doko.conf). Printed per server:
bytes on the wire (headers and bodies, as Chromium counts them) by kind, the time to
interactive (the document parsed and its deferred scripts run: DOMContentLoaded), when the
outbox is ready (``body[data-outbox-ready]`` set: its script has read the phone's IndexedDB;
seen by a MutationObserver installed before the page's scripts, so older code is timed
alike) and the first contentful paint (the page drawn with its stylesheet), the bytes of
files asked for only after the load event (the QR library), a reload's requests and bytes,
and one game save: from the tap on "Spiel speichern" until the sheet names the next game
(timed in the page, see ``TIMER``), with the requests it took (a normal game of two Re
players with 151 points, entered on the page as a captain would; skipped when the table's
next game is a forced solo or the sheet is not open for entry). The baseline of the same
run: a 1 KB page without any resource on the same throttled link. Service workers are
blocked: the HTTP cache alone is measured (the captain page's worker caches the same URLs).

    .venv/bin/python bench/phone_bench.py [--runs 3] [--code DIR]

``--code`` serves the app from another checkout (for a before/after on the same machine,
e.g. ``git archive <commit> | tar -x -C DIR``); this script and its Python stay the same.
"""

from __future__ import annotations

import argparse
import os
import re
import secrets
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
NGINX = shutil.which("nginx") or "/usr/sbin/nginx"
BROTLI = "/usr/lib/nginx/modules/ngx_http_brotli_static_module.so"
# Chromium's emulation: bytes per second and the round trip added to every request.
NETWORK = {"offline": False, "latency": 400,
           "downloadThroughput": 400_000 / 8, "uploadThroughput": 200_000 / 8}  # fmt: skip
BASELINE = (
    b"<!doctype html><html lang=de><meta charset=utf-8><title>Tisch</title><body><p>"
    + b"Doppelkopf " * 85
    + b"</p></body></html>"
)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def wait_port(port: int, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            time.sleep(0.1)
    raise SystemExit(f"nothing answers on port {port}")


def prepare(code: Path, work: Path) -> tuple[dict[str, str], str]:
    """The environment of the app with DEBUG off, its database with the demo tournament and
    its collected static files; returns the environment and a captain page's path."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("CELERY_", "HALL_"))}
    env.update(
        DJANGO_SETTINGS_MODULE="config.settings", DEBUG="0", SECRET_KEY=secrets.token_urlsafe(48),
        ALLOWED_HOSTS="127.0.0.1,localhost", DATABASE_URL=f"sqlite:///{work / 'db.sqlite3'}",
        STATIC_ROOT=str(work / "static"), MEDIA_ROOT=str(work / "media"), LOG_LEVEL="ERROR",
        SECURE_SSL_REDIRECT="0", SECURE_COOKIES="0", SECURE_PROXY_SSL_HEADER="0",
    )  # fmt: skip
    manage = [sys.executable, str(code / "manage.py")]
    for command in (["migrate"], ["collectstatic", "--no-input"], ["demo", "--series", "2"]):
        subprocess.run([*manage, *command, "-v", "0"], cwd=code, env=env, check=True,
                       stdout=subprocess.DEVNULL)  # fmt: skip
    script = (
        "from tournaments.models import Table\n"
        "t = Table.objects.filter(series__status='running').order_by('number').first()\n"
        "t = t or Table.objects.order_by('-series__number', 'number').first()\n"
        "print(t.get_captain_url())"
    )
    out = subprocess.run([*manage, "shell", "-c", script], cwd=code, env=env, check=True,
                         capture_output=True, text=True).stdout  # fmt: skip
    return env, out.strip().splitlines()[-1]


def nginx_site(code: Path, work: Path, port: int, upstream: int) -> str:
    """An HTTP server of nginx with the deploy's static location (as the deploy file has it)
    in front of gunicorn."""
    site = (code / "deploy" / "nginx" / "doko.conf").read_text()
    match = re.search(r"\n(    location /static/ \{\n.*?\n    \})\n", site, re.S)
    if match is None:
        raise SystemExit("no static location in deploy/nginx/doko.conf")
    static = match[1].replace("/srv/doko/app/staticfiles/", f"{work / 'static'}/")
    user = "user root;\n" if os.geteuid() == 0 else ""
    if "brotli_static" in static:  # Debian's libnginx-mod-http-brotli-static
        user += f"load_module {BROTLI};\n"
    return (
        f"{user}pid {work}/nginx.pid;\nerror_log {work}/nginx.log;\ndaemon off;\n"
        f"events {{}}\nhttp {{\n  include /etc/nginx/mime.types;\n  access_log off;\n"
        f"  server {{\n    listen 127.0.0.1:{port};\n{static}\n"
        f"    location / {{ proxy_pass http://127.0.0.1:{upstream}; }}\n"
        f"  }}\n}}\n"
    )


#: Installed before the page's own scripts: the time the outbox says it is ready.
READY = """
new MutationObserver((changes, observer) => {
  if (document.body && document.body.dataset.outboxReady === "1") {
    window.__outboxReady = performance.now();
    observer.disconnect();
  }
}).observe(document, { attributes: true, subtree: true, attributeFilter: ["data-outbox-ready"] });
"""


@dataclass
class Load:
    interactive: float  # seconds from navigation start to DOMContentLoaded
    ready: float | None = None  # seconds from navigation start to the outbox's ready flag
    painted: float = 0.0  # seconds from navigation start to the first contentful paint
    bytes_by_kind: dict[str, int] = field(default_factory=dict)
    requests: int = 0
    later_bytes: int = 0  # of the first load: files asked for after the load event
    later: list[str] = field(default_factory=list)
    reload_bytes: int = 0
    reload_requests: list[str] = field(default_factory=list)
    save: float | None = None  # seconds from the tap on save to the next game's number
    save_requests: list[str] = field(default_factory=list)

    @property
    def total(self) -> int:
        return sum(self.bytes_by_kind.values())


def short(url: str) -> str:
    """A request's path, the table's secret left out."""
    sent = url.split("//", 1)[-1].split("/", 1)[-1]
    return re.sub(r"tisch/[^/]+/", "tisch/…/", "/" + sent)


def kind_of(url: str, mime: str) -> str:
    if "css" in mime:
        return "CSS"
    if "javascript" in mime:
        return "JS"
    if "html" in mime:
        return "HTML"
    return "other"


TIMER = r"""(next) => {
  const timer = (window.__saveTimer = { start: null, end: null });
  const names = new RegExp(String.raw`(^|\D)${next}(\D|$)`);
  document.addEventListener("click", (event) => {
    const save = event.target instanceof Element && event.target.closest("button.save");
    if (save && timer.start === null) timer.start = performance.now();
  }, true);
  const observer = new MutationObserver(() => {
    const head = document.querySelector(".next-box.entering .next-line strong");
    if (timer.start === null || !head || !names.test(head.textContent)) return;
    timer.end = performance.now();
    observer.disconnect();
  });
  observer.observe(document.body, { childList: true, subtree: true, characterData: true });
}"""


def save_game(
    page: Any, load: Load, done: dict[str, int], mimes: dict[str, tuple[str, str]]
) -> None:
    """Enter one normal game and time the tap on save until the sheet names the next game."""
    from playwright.sync_api import expect

    head = page.locator(".next-box.entering .next-line strong")
    if not head.count() or page.locator(".next-box .forced").count():
        return
    number = int(re.findall(r"\d+", head.first.inner_text())[-1])
    players = page.locator("fieldset.when-normal label")
    players.nth(0).click()
    players.nth(1).click()
    page.fill("#id_re_points", "151")
    # The preview asks the server after a pause; let it answer so the save is timed alone.
    page.wait_for_timeout(1500)
    page.wait_for_load_state("networkidle")
    # Timed in the page: from the click event to the DOM change that names the next game (a
    # MutationObserver). Playwright's expect polls at 0, 100, 350, 850 ms, … after the
    # click, which rounded every save up to the next poll.
    page.evaluate(TIMER, number + 1)
    before = set(done)
    page.locator("button.save").click()
    expect(head.first).to_have_text(re.compile(rf"\b{number + 1}\b"), timeout=30_000)
    page.wait_for_function("() => window.__saveTimer.end !== null")
    load.save = page.evaluate("() => window.__saveTimer.end - window.__saveTimer.start") / 1000
    load.save_requests = [
        short(mimes.get(request_id, ("?", ""))[0])
        for request_id in done
        if request_id not in before
    ]


def measure(browser: Any, url: str) -> Load:
    context = browser.new_context(service_workers="block", viewport={"width": 390, "height": 844})
    page = context.new_page()
    page.add_init_script(READY)
    cdp = context.new_cdp_session(page)
    cdp.send("Network.enable")
    cdp.send("Network.setCacheDisabled", {"cacheDisabled": False})
    cdp.send("Network.emulateNetworkConditions", NETWORK)
    mimes: dict[str, tuple[str, str]] = {}
    done: dict[str, int] = {}

    def received(event: dict[str, Any]) -> None:
        response = event["response"]
        mimes[event["requestId"]] = (response["url"], response.get("mimeType", ""))

    def finished(event: dict[str, Any]) -> None:
        done[event["requestId"]] = int(event["encodedDataLength"])

    cdp.on("Network.responseReceived", received)
    cdp.on("Network.loadingFinished", finished)
    page.goto(url, wait_until="load")
    page.wait_for_load_state("networkidle")
    interactive = page.evaluate(
        "() => { const n = performance.getEntriesByType('navigation')[0];"
        " return n.domContentLoadedEventEnd / 1000; }"
    )
    ready = None
    if "tisch" in url:
        page.wait_for_function("() => window.__outboxReady !== undefined", timeout=30_000)
        ready = page.evaluate("() => window.__outboxReady") / 1000
    painted = page.evaluate(
        "() => (performance.getEntriesByName('first-contentful-paint')[0] || {}).startTime || 0"
    )
    load = Load(interactive=interactive, ready=ready, requests=len(done), painted=painted / 1000)
    after = set(page.evaluate(
        "() => { const end = performance.getEntriesByType('navigation')[0].loadEventEnd;"
        " return performance.getEntriesByType('resource').filter(e => e.startTime >= end)"
        ".map(e => e.name); }"
    ))  # fmt: skip
    for request_id, size in done.items():
        address, mime = mimes.get(request_id, (url, ""))
        kind = kind_of(address, mime)
        load.bytes_by_kind[kind] = load.bytes_by_kind.get(kind, 0) + size
        if address in after:
            load.later_bytes += size
            load.later.append(short(address))
    first = set(done)
    page.reload(wait_until="load")
    page.wait_for_load_state("networkidle")
    for request_id, size in done.items():
        if request_id not in first and size > 0:
            load.reload_bytes += size
            load.reload_requests.append(short(mimes.get(request_id, ("?", ""))[0]))
    if "tisch" in url:
        save_game(page, load, done, mimes)
    context.close()
    return load


class Baseline(BaseHTTPRequestHandler):
    def do_GET(self) -> None:
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(BASELINE)))
        self.end_headers()
        self.wfile.write(BASELINE)

    def log_message(self, format: str, *args: Any) -> None:
        pass


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--code", type=Path, default=ROOT, help="the checkout to serve")
    args = parser.parse_args()
    if not os.path.exists(CHROMIUM):
        raise SystemExit("chromium is not installed (apt-get install chromium)")
    code = args.code.resolve()
    work = Path(tempfile.mkdtemp(prefix="phone-bench-"))
    processes: list[subprocess.Popen[bytes]] = []
    baseline = ThreadingHTTPServer(("127.0.0.1", 0), Baseline)
    threading.Thread(target=baseline.serve_forever, daemon=True).start()
    try:
        env, path = prepare(code, work)
        app_port = free_port()
        processes.append(subprocess.Popen(
            [sys.executable, "-m", "gunicorn", "config.wsgi", "--bind", f"127.0.0.1:{app_port}",
             "--workers", "2", "--threads", "4", "--log-level", "warning"],
            cwd=code, env=env,
        ))  # fmt: skip
        wait_port(app_port)
        # Untimed first requests: a new worker imports and compiles on its first page (seconds
        # on a loaded machine), which the first measured server paid alone.
        for _ in range(6):
            urllib.request.urlopen(f"http://127.0.0.1:{app_port}{path}", timeout=120).read()
        targets = {"baseline: 1 KB page": f"http://127.0.0.1:{baseline.server_port}/"}
        targets["app itself (hall mode)"] = f"http://127.0.0.1:{app_port}{path}"
        if os.path.exists(NGINX):
            nginx_port = free_port()
            (work / "nginx.conf").write_text(nginx_site(code, work, nginx_port, app_port))
            processes.append(subprocess.Popen(
                [NGINX, "-p", str(work), "-c", str(work / "nginx.conf")],
                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            ))  # fmt: skip
            wait_port(nginx_port)
            targets["nginx (deploy's static)"] = f"http://127.0.0.1:{nginx_port}{path}"
        from playwright.sync_api import sync_playwright

        results: dict[str, list[Load]] = {name: [] for name in targets}
        loads = []
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(
                executable_path=CHROMIUM,
                args=["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                      "--disable-background-networking", "--disable-component-update"],
            )  # fmt: skip
            for _ in range(args.runs):  # the servers alternate within each run
                loads.append(os.getloadavg()[0])
                for name, url in targets.items():
                    results[name].append(measure(browser, url))
            browser.close()
    finally:
        baseline.shutdown()
        for process in reversed(processes):
            process.terminate()
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:  # a loaded machine: the figures still count
                process.kill()
                process.wait()
        shutil.rmtree(work, ignore_errors=True)

    print(f"code: {code}; {args.runs} runs, load average (1 min) "
          f"{' / '.join(f'{x:.2f}' for x in loads)}; network 400/200 kbit/s, 400 ms")  # fmt: skip
    floor = statistics.median(r.interactive for r in results["baseline: 1 KB page"])
    for name, runs in results.items():
        best = sorted(runs, key=lambda r: r.interactive)[len(runs) // 2]
        kinds = ", ".join(f"{k} {v / 1000:.1f}" for k, v in sorted(best.bytes_by_kind.items()))
        spread = sorted(r.interactive for r in runs)
        print(f"{name:<26} first load {best.total / 1000:6.1f} KB in {best.requests} requests "
              f"({kinds}); interactive {best.interactive:.2f} s ({spread[0]:.2f}-{spread[-1]:.2f})"
              f" = {best.interactive / floor:.2f}x the baseline; reload "
              f"{best.reload_bytes / 1000:.1f} KB in {len(best.reload_requests)} requests "
              f"({', '.join(best.reload_requests) or '-'})")  # fmt: skip
        if best.later:
            print(f"{'':<26} of it after the load event: {best.later_bytes / 1000:.1f} KB "
                  f"({', '.join(best.later)})")  # fmt: skip
        readies = sorted(r.ready for r in runs if r.ready is not None)
        if readies:
            middle = readies[len(readies) // 2]
            drawn = sorted(r.painted for r in runs)
            print(f"{'':<26} outbox ready {middle:.2f} s ({readies[0]:.2f}-{readies[-1]:.2f}) "
                  f"= {middle / floor:.2f}x the baseline; first contentful paint "
                  f"{drawn[len(drawn) // 2]:.2f} s ({drawn[0]:.2f}-{drawn[-1]:.2f})")  # fmt: skip
        saves = sorted(r.save for r in runs if r.save is not None)
        if saves:
            sent = [r.save_requests for r in runs if r.save is not None][-1]
            print(f"{'':<26} game save {saves[len(saves) // 2]:.2f} s (median of {len(saves)}; "
                  f"{saves[0]:.2f}-{saves[-1]:.2f}) = {saves[len(saves) // 2] / floor:.2f}x the "
                  f"baseline; the last save's requests: {', '.join(sent) or '-'}")  # fmt: skip


if __name__ == "__main__":
    main()

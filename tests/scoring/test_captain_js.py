"""The captain page's one script (static/js/captain.js) and the minified QR code library,
written by `manage.py captain_js` (scoring/captain_js.py) from the readable sources."""

import gzip
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from django.test import Client

from scoring.captain_js import (
    QR_SOURCE,
    QR_TARGET,
    ROOT,
    SOURCES,
    TARGET,
    captain_js,
    inline_script,
    qrcode_js,
    without,
)
from tournaments.models import Table


def packed(data: bytes) -> int:
    return len(gzip.compress(data, 9, mtime=0))


def test_the_committed_files_are_made_from_the_sources_as_they_are() -> None:
    """After a change of js/app.js, js/sheet.js or js/outbox.js: `manage.py captain_js`."""
    assert (ROOT / TARGET).read_text() == captain_js()
    assert (ROOT / QR_TARGET).read_text() == qrcode_js()


def test_they_are_smaller_than_the_sources() -> None:
    sources = sum(packed((ROOT / s).read_bytes()) for s in SOURCES)
    assert packed((ROOT / TARGET).read_bytes()) < 0.75 * sources
    # Only what the outbox calls is kept of the QR library: less than half of it, packed.
    assert packed((ROOT / QR_TARGET).read_bytes()) < 0.5 * packed((ROOT / QR_SOURCE).read_bytes())


def test_the_qr_library_keeps_what_the_outbox_calls() -> None:
    library = (ROOT / QR_TARGET).read_text()
    for kept in ("addData=function", "make=function", "getModuleCount=function"):
        assert kept in library
    assert "renderTo2dContext=function" in library
    for dropped in ("gifImage", "createSvgTag", "createDataURL", "qrKanji=function"):
        assert dropped not in library
    outbox = (ROOT / "static/js/outbox.js").read_text()
    calls = set(re.findall(r"\bqr\.(\w+)\(", outbox))
    assert calls == {"addData", "make", "getModuleCount", "renderTo2dContext"}


def test_a_marker_that_no_longer_matches_fails_loudly() -> None:
    source = "a\n  var cut = function() {\n  };\n  var kept = 1;\n"
    assert without(source, (("  var cut = ", "  var kept"),)) == "a\n  var kept = 1;\n"
    with pytest.raises(ValueError, match="starts 0 lines"):
        without(source, (("  var gone = ", "  var kept"),))
    with pytest.raises(ValueError, match="no line starts with"):
        without(source, (("  var cut = ", "  var gone"),))


def test_strings_and_template_literals_survive() -> None:
    """The minifier drops comments and blanks, never a character of a string."""
    bundle = (ROOT / TARGET).read_text()
    lines = (ROOT / "static/js/outbox.js").read_text().splitlines()
    code = "\n".join(line for line in lines if not line.lstrip().startswith("//"))
    for literal in set(re.findall(r"`[^`\n]+`", code)):
        assert literal in bundle, literal
    assert 'input[name="${name}"][value="${CSS.escape(value)}"]' in bundle
    assert "/^points_\\d+$/" in bundle


@pytest.mark.skipif(not shutil.which("node"), reason="node is not installed")
@pytest.mark.parametrize("target", [TARGET, QR_TARGET])
def test_they_parse(target: str) -> None:
    subprocess.run(["node", "--check", str(ROOT / target)], check=True, timeout=60)


@pytest.mark.django_db
def test_the_captain_page_carries_its_script_inside(client: Client, table: Table) -> None:
    """js/captain.js inside the page, allowed by the answer's nonce, ahead of the stylesheet
    (whose request a preload starts first), so that it never waits for the stylesheet."""
    response = client.get(f"/tisch/{table.captain_token}/")
    html = response.content.decode()
    assert re.findall(r"<script src=", html) == []
    nonce, text = re.findall(r'<script nonce="([^"]+)">(.*?)</script>', html, re.S)[0]
    assert text == (ROOT / TARGET).read_text() == inline_script()
    assert f"'nonce-{nonce}'" in response["Content-Security-Policy"]
    assert "'unsafe-inline'" not in response["Content-Security-Policy"]
    preload = html.index('<link rel="preload" href="/static/css/captain.css" as="style">')
    stylesheet = html.index('<link rel="stylesheet" href="/static/css/captain.css">')
    assert preload < html.index("<script nonce=") < stylesheet
    assert 'data-qrcode="/static/vendor/qrcode-generator/qrcode.min.js"' in html
    again = client.get(f"/tisch/{table.captain_token}/")
    assert f"'nonce-{nonce}'" not in again["Content-Security-Policy"]  # a new one each time


def test_a_script_that_would_end_its_element_is_not_carried(tmp_path: Path) -> None:
    (tmp_path / TARGET).parent.mkdir(parents=True)
    (tmp_path / TARGET).write_text('const a = "</SCRIPT>";')
    with pytest.raises(ValueError, match="cannot stand inside"):
        inline_script(tmp_path)


def test_the_page_reads_its_script_without_the_minifier() -> None:
    """rjsmin is a development tool: a deployed app imports the module without it."""
    code = (
        "import sys; sys.modules['rjsmin'] = None\n"
        "import scoring.captain_js as c; c.inline_script()"
    )
    subprocess.run([sys.executable, "-c", code], cwd=ROOT, check=True, timeout=60)

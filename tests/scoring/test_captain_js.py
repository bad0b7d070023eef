"""The captain page's one script (static/js/captain.js) and the minified QR code library,
written by `manage.py captain_js` (scoring/captain_js.py) from the readable sources."""

import gzip
import re
import shutil
import subprocess

import pytest
from django.test import Client

from scoring.captain_js import QR_SOURCE, QR_TARGET, ROOT, SOURCES, TARGET, captain_js, qrcode_js
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
    assert packed((ROOT / QR_TARGET).read_bytes()) < 0.85 * packed((ROOT / QR_SOURCE).read_bytes())


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
def test_the_captain_page_loads_one_script(client: Client, table: Table) -> None:
    html = client.get(f"/tisch/{table.captain_token}/").content.decode()
    scripts = re.findall(r'<script src="/static/([^"]+)"', html)
    assert scripts == ["js/captain.js"]
    assert 'data-qrcode="/static/vendor/qrcode-generator/qrcode.min.js"' in html

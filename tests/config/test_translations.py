"""Every message is translated: German and English, in the catalogues and in the code.

The UI text is written as English msgids. "Translated" means, per language:

* German: every entry has a German text (every plural form), none is fuzzy (msgfmt leaves
  fuzzy entries out, so the page would show the English msgid);
* English: the catalogue holds the same messages as the German one and none is fuzzy; an
  empty English msgstr is right (gettext shows the msgid, which is English); a filled one
  overrides the msgid's wording;
* both: the committed .mo says what the .po says, and every string the code marks for
  translation is in the catalogues (extracted afresh with ``makemessages`` into a copy of
  the source, so a new ``gettext`` call without ``make messages`` fails here, not on a page).

That no action code, Python repr or untranslated word reaches a page is checked on the pages
themselves: ``tests/browser/test_every_page.py``.
"""

from __future__ import annotations

import ast
import gettext
import os
import shutil
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
LANGUAGES = ("de", "en")


def catalogue(language: str, root: Path = ROOT) -> Path:
    return root / "locale" / language / "LC_MESSAGES" / "django.po"


@dataclass
class Entry:
    msgid: str
    plural: str | None = None
    forms: list[str] = field(default_factory=list)
    fuzzy: bool = False
    context: str | None = None  # msgctxt: the same English word counted or not


def entries(path: Path) -> list[Entry]:
    """The entries of a .po file, header and obsolete (``#~``) entries excluded."""
    found: list[Entry] = []
    entry = Entry("")
    target: list[str] | None = None
    parts: dict[str, list[str]] = {}

    def flush() -> None:
        nonlocal entry, parts
        entry.msgid = "".join(parts.get("msgid", []))
        if "msgctxt" in parts:
            entry.context = "".join(parts["msgctxt"])
        if "msgid_plural" in parts:
            entry.plural = "".join(parts["msgid_plural"])
        entry.forms = ["".join(parts[key]) for key in parts if key.startswith("msgstr")]
        if entry.msgid:
            found.append(entry)
        entry, parts = Entry(""), {}

    for line in [*path.read_text().splitlines(), ""]:
        if not line.strip():
            flush()
            target = None
        elif line.startswith("#,") and "fuzzy" in line:
            entry.fuzzy = True
        elif line.startswith(("msgctxt", "msgid", "msgstr")):
            key, text = line.split(" ", 1)
            target = parts.setdefault(key, [])
            target.append(ast.literal_eval(text))
        elif line.startswith('"') and target is not None:
            target.append(ast.literal_eval(line))
    return found


def test_every_german_string_is_translated() -> None:
    missing = [e.msgid for e in entries(catalogue("de")) if e.fuzzy or not all(e.forms)]
    assert not missing, f"{len(missing)} German texts missing or fuzzy: {missing}"


def test_english_catalogue_has_the_german_messages_and_nothing_fuzzy() -> None:
    german = {e.msgid for e in entries(catalogue("de"))}
    english = entries(catalogue("en"))
    assert {e.msgid for e in english} == german, "run `make messages`"
    fuzzy = [e.msgid for e in english if e.fuzzy]
    assert not fuzzy, f"fuzzy English entries (check and clear the flag): {fuzzy}"


@pytest.mark.parametrize("language", LANGUAGES)
def test_compiled_catalogue_matches_po(language: str) -> None:
    po = catalogue(language)
    with po.with_suffix(".mo").open("rb") as handle:
        compiled = gettext.GNUTranslations(handle)
    stale = []
    for e in entries(po):
        if e.fuzzy or not all(e.forms):
            continue  # not compiled: the msgid shows (checked above per language)
        if e.plural is None:
            served = [
                compiled.pgettext(e.context, e.msgid) if e.context else compiled.gettext(e.msgid)
            ]
        elif e.context:
            served = [compiled.npgettext(e.context, e.msgid, e.plural, n) for n in (1, 2)]
        else:
            served = [compiled.ngettext(e.msgid, e.plural, n) for n in (1, 2)]
        if served != e.forms:
            stale.append(e.msgid)
    assert not stale, f"run `make messages`; stale: {stale[:5]}"


def _extracted(tmp_path: Path) -> set[str]:
    """The msgids ``makemessages`` finds in the working tree today, extracted into a copy
    (the committed catalogues stay untouched)."""
    copy = tmp_path / "source"
    skip = shutil.ignore_patterns(
        ".*", "__pycache__", "locale", "media", "staticfiles", "var", "*.sqlite3", "*.pdf"
    )
    shutil.copytree(ROOT, copy, ignore=skip)
    (copy / "locale").mkdir()
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings", "PYTHONPATH": str(copy)}
    command = [sys.executable, "manage.py", "makemessages", "--locale", "de", "--no-location"]
    subprocess.run(command, cwd=copy, env=env, check=True, capture_output=True, timeout=120)
    return {e.msgid for e in entries(catalogue("de", copy))}


def test_every_marked_string_is_in_the_catalogues(tmp_path: Path) -> None:
    if shutil.which("xgettext") is None:
        if os.environ.get("CI"):
            pytest.fail("GNU gettext is required in CI (.ci/run installs it).")
        pytest.skip("GNU gettext is not installed (apt-get install gettext)")
    extracted = _extracted(tmp_path)
    for language in LANGUAGES:
        missing = sorted(extracted - {e.msgid for e in entries(catalogue(language))})
        assert not missing, (
            f"{len(missing)} marked strings are not in the {language} catalogue; run "
            f"`make messages` and translate them: {missing}"
        )

"""Parts of the captain page a save's answer can leave out because the phone shows them already.

A save answers with the sheet page's main part (``sheet_swap.html``). Two of its parts are
most of its bytes and after a new game usually come back as they were: the next game's
blank form (about 40 % of the answer) and the outbox's section with its words (about 20 %).
Their roots carry ``data-keep``; ``kept`` writes a digest of each part's markup into it.
The page's script keeps a copy of each marked part as it was first shown (before anything
was typed) and names their digests when it posts a game; ``kept`` then sends a
``<template data-kept="…">`` in place of a part with one of those digests, and the script
puts its copy there. A part that changed (a five-player table's next form has other seats,
a form with errors, another language) has another digest and comes whole.

The form's CSRF token, idempotency key and sheet version differ on every answer without
changing the form: they are left out of its digest; the script gives a kept form a new key
and the sheet's version (its CSRF token stays valid).

Knowing a part's digest used to mean drawing it. ``KnownParts`` remembers the digest of each
part drawn by what it was drawn from (its key: the language, the seats offered, the forced
soloist, ...); a part the phone shows already is then left out without being drawn at all
(``{% keep_part %}``, scoring/templatetags/kept_parts.py). Pure: no Django import.
"""

from __future__ import annotations

import hashlib
import re
import threading
from collections.abc import Collection, Hashable

#: A part's root: its tag with ``data-keep`` (written as ``data-keep`` or ``data-keep=""``)
#: up to its end tag; a part holds no element of its own kind.
PART = re.compile(r'<(form|section)\b([^>]*?) data-keep(?:="[0-9a-f]*")?([^>]*)>(.*?)</\1>', re.S)
#: Values that change on every answer, not the part.
VOLATILE = re.compile(
    r'(<input type="hidden" name="(?:csrfmiddlewaretoken|idempotency_key|version)" value=")'
    r'[^"]*"'
)
KEPT = '<template data-kept="{}"></template>'
DIGEST = re.compile(r"[0-9a-f]{12}")
#: More digests than a page has parts is not a phone's header.
MAX_DIGESTS = 8


def digest(part: str) -> str:
    """12 hex digits of the part's SHA-256, its volatile values left out."""
    return hashlib.sha256(VOLATILE.sub(r'\1"', part).encode()).hexdigest()[:12]


def _digest_of(match: re.Match[str]) -> str:
    """The digest of a part ``PART`` found (its ``data-keep`` value left out)."""
    tag, before, after, inner = match.groups()
    return digest(f"<{tag}{before}{after}>{inner}</{tag}>")


def kept(html: str, shown: Collection[str] = ()) -> str:
    """``html`` with each part's digest in its ``data-keep``, and a template in place of each
    part whose digest is in ``shown``."""
    out, at = [], 0
    for match in PART.finditer(html):
        tag, before, after, inner = match.groups()
        code = _digest_of(match)
        whole = f'<{tag}{before} data-keep="{code}"{after}>{inner}</{tag}>'
        out += [html[at : match.start()], KEPT.format(code) if code in shown else whole]
        at = match.end()
    return "".join([*out, html[at:]])


def shown_parts(header: str) -> set[str]:
    """The digests a phone names (``X-Sheet-Parts: a,b``); anything else is ignored."""
    codes = [c.strip() for c in header.split(",")[:MAX_DIGESTS]]
    return {c for c in codes if DIGEST.fullmatch(c)}


class KnownParts:
    """The digest of each part drawn, by the key of what it was drawn from: the same key, the
    same part. The ``size`` keys noted last are kept (a hall's tables, each in a language or
    two); the first noted go first."""

    def __init__(self, size: int = 4096) -> None:
        self.size = size
        self._digests: dict[Hashable, str] = {}
        self._lock = threading.Lock()

    def get(self, key: Hashable) -> str | None:
        return self._digests.get(key)

    def note(self, key: Hashable, html: str) -> str | None:
        """Remember the digest of the part in ``html`` (drawn from ``key``); None when
        ``html`` holds no part."""
        match = PART.search(html)
        if match is None:
            return None
        code = _digest_of(match)
        with self._lock:
            self._digests.pop(key, None)
            self._digests[key] = code
            while len(self._digests) > self.size:
                del self._digests[next(iter(self._digests))]
        return code

    def clear(self) -> None:
        with self._lock:
            self._digests.clear()

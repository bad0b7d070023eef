"""Names as people look them up: compared and sorted the way a German list is (DIN 5007,
variant 1: "Ä" files under "A", "ß" under "ss", case does not count)."""

from __future__ import annotations

import unicodedata


def folded(text: str) -> str:
    """Text for comparing and sorting names: case, accents and umlauts left out
    ("Müller" = "muller", "Weiß" = "weiss")."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    return "".join(c for c in decomposed if not unicodedata.combining(c))

"""Names as people look them up: compared and sorted the way a German list is (DIN 5007,
variant 1: "Ä" files under "A", "ß" under "ss", case does not count), and found however
they are typed ("muller", "Mueller" and "Müller" find Müller; "weiss" finds Weiß).

Every list of people and every name search, on pages, in documents and in the API, sorts
with ``name_key`` and searches with ``search_words`` and ``found``: never the database's
``order_by("last_name")`` or ``icontains``, whose order and case rules differ between SQLite
(bytes: "Öztürk" after "Zander") and PostgreSQL (the server's locale)."""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Iterable
from typing import Any, Protocol, TypeVar

T = TypeVar("T")

# A search reads at most this many words (a name, a club, a start number).
MAX_WORDS = 5
_TRANSCRIPTIONS = (("ae", "a"), ("oe", "o"), ("ue", "u"))


class Named(Protocol):
    first_name: str
    last_name: str


def folded(text: str) -> str:
    """Text for comparing and sorting names: case, accents and umlauts left out
    ("Müller" = "muller", "Weiß" = "weiss")."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def transcribed(text: str) -> str:
    """``folded`` text with the typewriter spellings of umlauts read as the umlaut
    ("Mueller" = "Müller" = "muller"); the search compares both forms."""
    text = folded(text)
    for spelled, letter in _TRANSCRIPTIONS:
        text = text.replace(spelled, letter)
    return text


def name_key(player: Named) -> tuple[str, str, str, str]:
    """The sort key of a person: last name, then first name, folded (DIN 5007), with the
    exact spelling last so the order never depends on the database."""
    return (
        folded(player.last_name),
        folded(player.first_name),
        player.last_name,
        player.first_name,
    )


def by_name(items: Iterable[T], player: Callable[[T], Named] | None = None) -> list[T]:
    """``items`` in name order; ``player`` picks the person from an item (a registration,
    a seat, a squad member); Python's sort is stable, so equal names keep their order."""
    pick: Callable[[Any], Named] = player or (lambda item: item)
    return sorted(items, key=lambda item: name_key(pick(item)))


def search_words(query: str) -> list[str]:
    """The words of a search as typed (commas separate like spaces), at most ``MAX_WORDS``."""
    return folded(query).replace(",", " ").split()[:MAX_WORDS]


def found(words: Iterable[str], *texts: object) -> bool:
    """Every word occurs in one of ``texts`` (name, club, number), folded or transcribed;
    no words find everything."""
    plain = folded(" ".join(str(t) for t in texts if t is not None))
    spelled = transcribed(plain)
    return all(word in plain or transcribed(word) in spelled for word in words)


# The name forms a player may consent to (``tournaments.models.NameForm``'s values; this
# module is a pure core and names them itself).
FULL, INITIAL, ANONYMOUS = "full", "initial", "anonymous"


def public_name(first: str, last: str, name_form: str, *, anonymous_label: str) -> str:
    """A player's name as his consent lets it be published (design decision 13):
    "Anna Schmidt" (``full``), "Anna S." (``initial``: first name and the last name's
    first letter) or ``anonymous_label`` (``anonymous``, e.g. "Spieler 17"). An unknown
    form publishes nothing of the name: consent is never presumed."""
    first, last = first.strip(), last.strip()
    if name_form == FULL:
        return f"{first} {last}".strip() or anonymous_label
    if name_form == INITIAL:
        if not last:
            return first or anonymous_label
        return f"{first} {last[0]}.".strip()
    return anonymous_label

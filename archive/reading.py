"""Reading an archive (docs/archive.md): its structure checked field by field, into plain
dataclasses the import saves. Every problem is named with where it is ("series 2, table 3,
seat 5: …"), so the organizer can find it; nothing here touches the database."""

from __future__ import annotations

import datetime
import hashlib
import json
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

from django.utils.translation import gettext as _

from archive.export import FORMAT, READABLE
from rules.ruleset import PRESETS
from scoring.models import MAX_DEDUCTION, ScoreSheet
from scoring.modes import MODES
from scoring.rulesets import OVERRIDABLE
from tournaments.archive_parts import archive_parts
from tournaments.models import NameForm, Series, Tiebreak, Tournament

#: A report lists at most this many problems (and says how many more there were).
MAX_PROBLEMS = 50
#: Sizes beyond any real tournament: an archive above them is refused outright.
MAX_PLAYERS = 20_000
MAX_TABLES = 2_000
MAX_GAMES = 60
INT32 = 2**31 - 1

T = TypeVar("T")


@dataclass(frozen=True)
class Problem:
    where: str
    message: str

    def __str__(self) -> str:
        return f"{self.where}: {self.message}" if self.where else self.message


class ArchiveRefused(Exception):
    """The archive cannot be imported; ``problems`` say why, each with where."""

    def __init__(self, problems: list[Problem], more: int = 0) -> None:
        super().__init__("; ".join(map(str, problems)))
        self.problems = problems
        self.more = more


@dataclass
class PlayerIn:
    id: int
    first_name: str
    last_name: str
    club: str
    ddv_number: str
    #: The consent to publication; an archive of version 1 has none: anonymous, unknown.
    name_form: str = NameForm.ANONYMOUS.value
    minor: bool = False
    guardian_consent: bool = False
    consent_at: datetime.datetime | None = None
    consent_known: bool = False

    @property
    def anonymized(self) -> bool:
        """The player's identity was removed in the source registry: no name at all."""
        return not (self.first_name.strip() or self.last_name.strip())


@dataclass
class RegistrationIn:
    start_number: int
    player: int
    checked_in: bool
    withdrawn_from_series: int | None


@dataclass
class GameIn:
    number: int
    dealer: int
    record: dict[str, Any]
    result: dict[str, Any] | None


@dataclass
class TableIn:
    number: int
    seats: dict[int, int]  # position -> start number
    status: str
    mode: str
    timeout: bool
    closed_unconfirmed: bool
    games: list[GameIn]


@dataclass
class DeductionIn:
    start_number: int
    points: int
    reason: str


@dataclass
class SeriesIn:
    number: int
    status: str
    starts_at: datetime.datetime | None
    closed_at: datetime.datetime | None
    draw_mode: str
    repeats: int
    tables: list[TableIn]
    deductions: list[DeductionIn]


@dataclass
class ArchiveIn:
    tournament: dict[str, Any]
    players: list[PlayerIn]
    registrations: list[RegistrationIn]
    series: list[SeriesIn]
    source: dict[str, Any] = field(default_factory=dict)
    version: int = READABLE[-1]
    #: The apps' parts as their ``read`` returned them, by key (``tournaments.archive_parts``).
    parts: dict[str, Any] = field(default_factory=dict)


#: How deep a game's record or result may nest (the engine's records are flat but for
#: lists of seats and the extras).
MAX_DEPTH = 4


class DuplicatedKeys(dict[str, Any]):
    """An object of the file that has a key twice (JSON keeps the last one silently); the
    reader refuses it with its row named."""

    duplicates: list[str]


def _object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    found = dict(pairs)
    if len(found) == len(pairs):
        return found
    marked = DuplicatedKeys(found)
    seen: set[str] = set()
    twice: set[str] = set()
    for key, _value in pairs:
        (twice if key in seen else seen).add(key)
    marked.duplicates = sorted(twice)
    return marked


def parse_json(raw: bytes) -> Any:
    """The file's JSON, or ``ArchiveRefused`` saying it is none. An object with a key twice
    comes back as ``DuplicatedKeys``."""
    try:
        return json.loads(raw.decode("utf-8-sig"), object_pairs_hook=_object)
    except (UnicodeDecodeError, ValueError, RecursionError) as exc:
        raise ArchiveRefused([Problem("", _("The file is not a JSON archive."))]) from exc


def storable(text: str) -> bool:
    """Whether the database can hold ``text``: no NUL character and no lone surrogate
    (JSON's ``\\u0000`` and ``\\ud800`` decode to them)."""
    if "\x00" in text:
        return False
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def visible(text: str) -> bool:
    """Whether ``text`` shows anything: not only spaces and invisible format characters such
    as the zero-width space or joiner."""
    return any(not c.isspace() and unicodedata.category(c) not in ("Cf", "Cc", "Zs") for c in text)


def unsafe(value: Any, depth: int = MAX_DEPTH) -> str | None:
    """What is wrong with a nested value the import stores as it is (a game's record), or
    None: a key twice, a text the database cannot hold, nesting deeper than ``depth``."""
    if isinstance(value, str):
        return None if storable(value) else _("A text holds a NUL character or a lone surrogate.")
    if isinstance(value, dict | list) and depth <= 0:
        return _("The value is nested too deeply.")
    if isinstance(value, DuplicatedKeys):
        return _("The key %(key)s appears twice.") % {"key": value.duplicates[0][:40]}
    if isinstance(value, dict):
        for key, inner in value.items():
            problem = unsafe(key, depth) or unsafe(inner, depth - 1)
            if problem:
                return problem
    elif isinstance(value, list):
        for inner in value:
            problem = unsafe(inner, depth - 1)
            if problem:
                return problem
    return None


def content_hash(data: dict[str, Any]) -> str:
    """SHA-256 over the archive without its export time: the same tournament exported twice
    (with the same results) hashes the same, however the file was indented."""
    content = {key: value for key, value in data.items() if key != "exported_at"}
    text = json.dumps(content, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


class Reader:
    """Collects problems while it reads; ``read`` raises them all at the end."""

    def __init__(self) -> None:
        self.problems: list[Problem] = []
        self.count = 0

    def problem(self, where: str, message: str) -> None:
        self.count += 1
        if len(self.problems) < MAX_PROBLEMS:
            self.problems.append(Problem(where, message))

    def refuse_if_any(self) -> None:
        if self.problems:
            raise ArchiveRefused(self.problems, self.count - len(self.problems))

    # -- typed fields ------------------------------------------------------------------------

    def get(self, data: dict[str, Any], key: str, where: str, check: Callable[[Any], T | None],
            expected: str, *, optional: bool = False, default: Any = None) -> Any:  # fmt: skip
        here = f"{where}, {key}" if where else key
        if key not in data or (optional and data[key] is None):
            if optional:
                return default
            self.problem(here, _("This field is missing."))
            return None
        value = check(data[key])
        if value is None:
            self.problem(here, expected)
        return value

    def text(self, data: dict[str, Any], key: str, where: str, limit: int, *,
             required: bool = False, optional: bool = False) -> str:  # fmt: skip
        def check(v: Any) -> str | None:
            if not isinstance(v, str) or len(v) > limit or (required and not visible(v)):
                return None
            return v if storable(v) else None

        expected = _(
            "Expected a text of at most %(limit)d characters, without NUL characters or lone "
            "surrogates."
        ) % {"limit": limit}
        if required:
            expected = _(
                "Expected a text of at most %(limit)d characters that shows more than spaces "
                "and invisible characters, without NUL characters or lone surrogates."
            ) % {"limit": limit}
        return self.get(data, key, where, check, expected, optional=optional, default="") or ""

    def integer(self, data: dict[str, Any], key: str, where: str, low: int, high: int, *,
                optional: bool = False) -> int | None:  # fmt: skip
        def check(v: Any) -> int | None:
            return v if type(v) is int and low <= v <= high else None

        expected = _("Expected a whole number from %(low)d to %(high)d.") % {
            "low": low, "high": high,
        }  # fmt: skip
        value = self.get(data, key, where, check, expected, optional=optional)
        return value if type(value) is int else None

    def boolean(self, data: dict[str, Any], key: str, where: str) -> bool:
        value = self.get(
            data, key, where, lambda v: v if type(v) is bool else None, _("Expected true or false.")
        )
        return bool(value)

    def choice(self, data: dict[str, Any], key: str, where: str, allowed: list[str]) -> str:
        expected = _("Expected one of: %(values)s.") % {"values": ", ".join(allowed)}
        value = self.get(data, key, where, lambda v: v if v in allowed else None, expected)
        return value if isinstance(value, str) else ""

    def moment(self, data: dict[str, Any], key: str, where: str) -> datetime.datetime | None:
        def check(v: Any) -> datetime.datetime | None:
            if not isinstance(v, str):
                return None
            try:
                parsed = datetime.datetime.fromisoformat(v)
            except ValueError:
                return None
            return parsed if parsed.tzinfo is not None else None

        expected = _("Expected a time such as 2026-05-01T18:00:00+02:00.")
        value = self.get(data, key, where, check, expected, optional=True)
        return value if isinstance(value, datetime.datetime) else None

    def day(self, data: dict[str, Any], key: str, where: str, *, optional: bool = False
            ) -> datetime.date | None:  # fmt: skip
        def check(v: Any) -> datetime.date | None:
            try:
                return datetime.date.fromisoformat(v) if isinstance(v, str) else None
            except ValueError:
                return None

        expected = _("Expected a date such as 2026-05-01.")
        value = self.get(data, key, where, check, expected, optional=optional)
        return value if isinstance(value, datetime.date) else None

    def items(self, data: dict[str, Any], key: str, where: str, limit: int) -> list[Any]:
        def check(v: Any) -> list[Any] | None:
            return v if isinstance(v, list) and len(v) <= limit else None

        expected = _("Expected a list of at most %(limit)d entries.") % {"limit": limit}
        value = self.get(data, key, where, check, expected)
        return value if isinstance(value, list) else []

    def obj(self, value: Any, where: str) -> dict[str, Any] | None:
        if isinstance(value, DuplicatedKeys):
            self.problem(
                where, _("The key %(key)s appears twice.") % {"key": value.duplicates[0][:40]}
            )
            return value
        if isinstance(value, dict):
            return value
        self.problem(where, _("Expected an object."))
        return None

    # -- the archive -------------------------------------------------------------------------

    def read(self, data: Any) -> ArchiveIn:
        top = self.obj(data, "")
        if top is None:
            self.refuse_if_any()
        assert top is not None
        if top.get("format") != FORMAT:
            self.problem("format", _("This is not a Doko-Turnier archive."))
            self.refuse_if_any()
        version = top.get("version")
        if type(version) is not int or version not in READABLE:
            self.problem(
                "version",
                _("Archive version %(found)s cannot be read; this server reads versions "
                  "%(versions)s.") % {"found": str(version)[:20],
                                      "versions": ", ".join(map(str, READABLE))},
            )  # fmt: skip
            self.refuse_if_any()
        assert isinstance(version, int)
        tournament = self.tournament(top)
        players = self.players(top, version)
        registrations = self.registrations(top, players, tournament.get("series_count") or 0)
        series = self.series_list(top, tournament, registrations)
        parts = self.parts(top, registrations)
        source = self.provenance(top, version)
        self.refuse_if_any()
        return ArchiveIn(
            tournament, list(players.values()), registrations, series, source, version, parts
        )

    def parts(self, top: dict[str, Any], registrations: list[RegistrationIn]) -> dict[str, Any]:
        """The apps' parts the archive holds (``tournaments.archive_parts``), each checked by
        its app; an archive without a part imports without it."""
        numbers = frozenset(r.start_number for r in registrations)
        found: dict[str, Any] = {}
        for part in archive_parts():
            if top.get(part.key) is None:
                continue
            value, problems = part.read(top[part.key], numbers)
            for where, message in problems:
                self.problem(where, message)
            found[part.key] = value
        return found

    def provenance(self, top: dict[str, Any], version: int) -> dict[str, Any]:
        """Where the archive comes from (kept with the imported tournament), in the shape the
        export writes it: the export time, the source site and short name, the audit
        summary; anything else is refused, never stored."""
        out: dict[str, Any] = {"format": FORMAT, "version": version}
        exported = self.moment(top, "exported_at", "")
        if exported is not None:
            out["exported_at"] = exported.isoformat()
        if top.get("source") is not None:
            where = "source"
            source = self.obj(top["source"], where) or {}
            self.known_keys(source, where, {"site", "slug"})
            out["source"] = {
                "site": self.text(source, "site", where, 200, optional=True),
                "slug": self.text(source, "slug", where, 60, optional=True),
            }
        if top.get("audit") is not None:
            where = "audit"
            audit = self.obj(top["audit"], where) or {}
            self.known_keys(audit, where, {"entries", "actions", "first", "last"})
            actions = self.obj(audit.get("actions", {}), f"{where}, actions") or {}
            if len(actions) > 500 or any(
                not isinstance(key, str) or len(key) > 100 or not storable(key)
                or type(count) is not int or not 0 <= count <= INT32
                for key, count in actions.items()
            ):  # fmt: skip
                self.problem(
                    f"{where}, actions",
                    _("Expected at most 500 action names, each with a whole number from 0."),
                )
                actions = {}
            first, last = self.moment(audit, "first", where), self.moment(audit, "last", where)
            out["audit"] = {
                "entries": self.integer(audit, "entries", where, 0, INT32, optional=True) or 0,
                "actions": actions,
                "first": first.isoformat() if first else None,
                "last": last.isoformat() if last else None,
            }
        return out

    def known_keys(self, data: dict[str, Any], where: str, allowed: set[str]) -> None:
        unknown = sorted(str(key)[:40] for key in data if key not in allowed)
        if unknown:
            self.problem(
                where,
                _("Unknown fields: %(keys)s (expected only %(allowed)s).")
                % {"keys": ", ".join(unknown[:5]), "allowed": ", ".join(sorted(allowed))},
            )

    def tournament(self, top: dict[str, Any]) -> dict[str, Any]:
        where = _("tournament")
        t = self.obj(top.get("tournament"), where) or {}
        out: dict[str, Any] = {
            "name": self.text(t, "name", where, 160, required=True),
            "slug": self.text(t, "slug", where, 60, required=True),
            "starts_on": self.day(t, "starts_on", where),
            "ends_on": self.day(t, "ends_on", where, optional=True),
            "venue": self.text(t, "venue", where, 200, optional=True),
            "ruleset": self.choice(t, "ruleset", where, sorted(PRESETS)),
            "series_count": self.integer(t, "series_count", where, 1, 20),
            "status": self.choice(t, "status", where, list(Tournament.Status.values)),
            "is_public": self.boolean(t, "is_public", where),
            "entry_mode": self.choice(t, "entry_mode", where, list(MODES)),
            "confirmation": self.choice(t, "confirmation", where, ["player", "organizer"]),
        }
        starts, ends = out["starts_on"], out["ends_on"]
        if starts and ends and ends < starts:
            self.problem(f"{where}, ends_on", _("The last day is before the first day."))
        overrides = t.get("rule_overrides") or {}
        if (
            not isinstance(overrides, dict)
            or isinstance(overrides, DuplicatedKeys)
            or any(
                key not in OVERRIDABLE or type(value) is not int or not 1 <= value <= 999
                for key, value in overrides.items()
            )
        ):
            self.problem(
                f"{where}, rule_overrides",
                _("Expected whole numbers from 1 to 999 for: %(keys)s.")
                % {"keys": ", ".join(OVERRIDABLE)},
            )
            overrides = {}
        out["rule_overrides"] = overrides
        tiebreak = t.get("tiebreak") or []
        if (
            not isinstance(tiebreak, list)
            or any(key not in Tiebreak.values for key in tiebreak)
            or len(set(tiebreak)) != len(tiebreak)
        ):
            self.problem(
                f"{where}, tiebreak",
                _("Expected a list of tie-breaks out of: %(keys)s.")
                % {"keys": ", ".join(Tiebreak.values)},
            )
            tiebreak = []
        out["tiebreak"] = tiebreak
        return out

    def players(self, top: dict[str, Any], version: int) -> dict[int, PlayerIn]:
        found: dict[int, PlayerIn] = {}
        numbers: set[str] = set()
        for index, item in enumerate(self.items(top, "players", "", MAX_PLAYERS), start=1):
            where = _("player %(index)d") % {"index": index}
            p = self.obj(item, where)
            if p is None:
                continue
            pk = self.integer(p, "id", where, 1, INT32)
            consent = self.consent(p, where) if version >= 2 else {}
            # An anonymized player (his identity removed in the source registry) has no name.
            named = consent.get("name_form") != NameForm.ANONYMOUS
            player = PlayerIn(
                id=pk or 0,
                first_name=self.text(p, "first_name", where, 80, required=named),
                last_name=self.text(p, "last_name", where, 80, required=named),
                club=self.text(p, "club", where, 120, optional=True),
                ddv_number=self.text(p, "ddv_number", where, 20, optional=True).strip(),
                **consent,
            )
            if pk is None:
                continue
            if pk in found:
                self.problem(where, _("Player id %(id)d appears twice.") % {"id": pk})
            if player.ddv_number:
                if player.ddv_number in numbers:
                    self.problem(
                        where,
                        _("DDV member number %(number)s appears twice.")
                        % {"number": player.ddv_number},
                    )
                numbers.add(player.ddv_number)
            found[pk] = player
        return found

    def consent(self, p: dict[str, Any], where: str) -> dict[str, Any]:
        """A player's consent to publication (version 2), refused where the registry's
        check would refuse it: a minor published by name without his guardian's consent."""
        consent = {
            "name_form": self.choice(p, "name_form", where, list(NameForm.values)),
            "minor": self.boolean(p, "minor", where),
            "guardian_consent": self.boolean(p, "guardian_consent", where),
            "consent_at": self.moment(p, "consent_at", where),
            "consent_known": True,
        }
        if (
            consent["minor"]
            and not consent["guardian_consent"]
            and consent["name_form"] not in (NameForm.ANONYMOUS, "")
        ):
            self.problem(
                f"{where}, name_form",
                _("A player under 18 is published by name only with a parent's or guardian's "
                  "consent."),
            )  # fmt: skip
        if not consent["name_form"]:  # refused above; what the dataclass holds meanwhile
            consent["name_form"] = NameForm.ANONYMOUS.value
        return consent

    def registrations(
        self, top: dict[str, Any], players: dict[int, PlayerIn], series_count: int
    ) -> list[RegistrationIn]:
        found: list[RegistrationIn] = []
        numbers: set[int] = set()
        used: set[int] = set()
        items = self.items(top, "registrations", "", MAX_PLAYERS)
        for index, item in enumerate(items, start=1):
            where = _("registration %(index)d") % {"index": index}
            r = self.obj(item, where)
            if r is None:
                continue
            number = self.integer(r, "start_number", where, 1, INT32)
            player = self.integer(r, "player", where, 1, INT32)
            checked_in = self.boolean(r, "checked_in", where)
            withdrawn = self.integer(
                r, "withdrawn_from_series", where, 1, max(series_count, 1), optional=True
            )
            if number is None or player is None:
                continue
            if player not in players:
                self.problem(where, _("Player id %(id)d is not in the archive.") % {"id": player})
            if player in used:
                self.problem(where, _("Player id %(id)d is registered twice.") % {"id": player})
            if number in numbers:
                self.problem(
                    where, _("Start number %(number)d appears twice.") % {"number": number}
                )
            used.add(player)
            numbers.add(number)
            found.append(RegistrationIn(number, player, checked_in, withdrawn))
        return found

    def series_list(
        self, top: dict[str, Any], tournament: dict[str, Any], registrations: list[RegistrationIn]
    ) -> list[SeriesIn]:
        count = tournament.get("series_count") or 0
        start_numbers = {r.start_number for r in registrations}
        found: list[SeriesIn] = []
        numbers: set[int] = set()
        for index, item in enumerate(self.items(top, "series", "", 20), start=1):
            s = self.obj(item, _("series entry %(index)d") % {"index": index})
            if s is None:
                continue
            number = self.integer(s, "number", _("series entry %(index)d") % {"index": index},
                                  1, max(count, 1))  # fmt: skip
            if number is None:
                continue
            where = _("series %(series)d") % {"series": number}
            if number in numbers:
                self.problem(where, _("This series appears twice."))
            numbers.add(number)
            series = SeriesIn(
                number=number,
                status=self.choice(s, "status", where, list(Series.Status.values)),
                starts_at=self.moment(s, "starts_at", where),
                closed_at=self.moment(s, "closed_at", where),
                draw_mode=self.text(s, "draw_mode", where, 20, optional=True),
                repeats=self.integer(s, "repeats", where, 0, INT32, optional=True) or 0,
                tables=self.tables(s, number, start_numbers),
                deductions=self.deductions(s, number, start_numbers),
            )
            found.append(series)
        return sorted(found, key=lambda s: s.number)

    def tables(self, s: dict[str, Any], series: int, start_numbers: set[int]) -> list[TableIn]:
        found: list[TableIn] = []
        numbers: set[int] = set()
        seated: set[int] = set()
        where_series = _("series %(series)d") % {"series": series}
        for item in self.items(s, "tables", where_series, MAX_TABLES):
            t = self.obj(item, where_series)
            if t is None:
                continue
            number = self.integer(t, "number", where_series, 1, 32767)
            if number is None:
                continue
            where = _("series %(series)d, table %(table)d") % {"series": series, "table": number}
            if number in numbers:
                self.problem(where, _("This table appears twice."))
            numbers.add(number)
            seats = self.seats(t, where, start_numbers, seated)
            sheet = self.obj(t.get("sheet", {}), f"{where}, sheet") or {}
            table = TableIn(
                number=number,
                seats=seats,
                status=self.choice(sheet, "status", where, list(ScoreSheet.Status.values)),
                mode=self.choice(sheet, "mode", where, list(MODES)),
                timeout=self.boolean(sheet, "timeout", where),
                closed_unconfirmed=self.boolean(sheet, "closed_unconfirmed", where),
                games=self.games(t, series, number),
            )
            found.append(table)
        return found

    def seats(self, t: dict[str, Any], where: str, start_numbers: set[int], seated: set[int]
              ) -> dict[int, int]:  # fmt: skip
        seats: dict[int, int] = {}
        items = self.items(t, "seats", where, 5)
        size = len(items)
        if size not in (4, 5):
            self.problem(where, _("A table has 4 or 5 seats, not %(size)d.") % {"size": size})
            size = 5
        for item in items:
            seat = self.obj(item, where)
            if seat is None:
                continue
            position = self.integer(seat, "position", where, 1, 99)
            number = self.integer(seat, "start_number", where, 1, INT32)
            if position is None or number is None:
                continue
            here = _("%(where)s, seat %(seat)d") % {"where": where, "seat": position}
            if not 1 <= position <= size:
                self.problem(here, _("The table has seats 1 to %(size)d only.") % {"size": size})
            elif position in seats:
                self.problem(here, _("This seat appears twice."))
            if number not in start_numbers:
                self.problem(
                    here, _("Start number %(number)d is not registered.") % {"number": number}
                )
            elif number in seated:
                self.problem(
                    here,
                    _("Start number %(number)d sits twice in this series.") % {"number": number},
                )
            seated.add(number)
            seats[position] = number
        return seats

    def games(self, t: dict[str, Any], series: int, table: int) -> list[GameIn]:
        found: list[GameIn] = []
        where_table = _("series %(series)d, table %(table)d") % {"series": series, "table": table}
        for index, item in enumerate(self.items(t, "games", where_table, MAX_GAMES), start=1):
            where = _("series %(series)d, table %(table)d, game %(game)d") % {
                "series": series, "table": table, "game": index,
            }  # fmt: skip
            g = self.obj(item, where)
            if g is None:
                continue
            number = self.integer(g, "number", where, index, index)
            dealer = self.integer(g, "dealer", where, 1, 5)
            record = self.obj(g.get("record"), f"{where}, record")
            if record is not None and (problem := unsafe(record)):
                self.problem(f"{where}, record", problem)
                record = None
            result = g.get("result")
            if result is not None and not isinstance(result, dict):
                self.problem(f"{where}, result", _("Expected an object."))
                result = None
            if result is not None and (problem := unsafe(result)):
                self.problem(f"{where}, result", problem)
                result = None
            if number is None or dealer is None or record is None:
                continue
            found.append(GameIn(number, dealer, record, result))
        return found

    def deductions(self, s: dict[str, Any], series: int, start_numbers: set[int]
                   ) -> list[DeductionIn]:  # fmt: skip
        found: list[DeductionIn] = []
        where_series = _("series %(series)d") % {"series": series}
        for index, item in enumerate(
            self.items(s, "deductions", where_series, MAX_PLAYERS), start=1
        ):
            where = _("series %(series)d, deduction %(index)d") % {
                "series": series, "index": index,
            }  # fmt: skip
            d = self.obj(item, where)
            if d is None:
                continue
            number = self.integer(d, "start_number", where, 1, INT32)
            points = self.integer(d, "points", where, -MAX_DEDUCTION, -1)
            reason = self.text(d, "reason", where, 300, required=True)
            if number is None or points is None:
                continue
            if number not in start_numbers:
                self.problem(
                    where, _("Start number %(number)d is not registered.") % {"number": number}
                )
            found.append(DeductionIn(number, points, reason))
        return found


def read_archive(data: Any) -> ArchiveIn:
    """The archive's content, or ``ArchiveRefused`` with every structural problem."""
    return Reader().read(data)

"""Use cases of the results app. Each runs in one transaction and records an audit entry."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Actor:
    """Who changes results and through which door."""

    via: str  # "captain" | "organizer" | "api"
    user: Any = None
    seat: int | None = None

    @property
    def is_organizer(self) -> bool:
        return self.via in ("organizer", "api") and self.user is not None

    def describe(self, table_number: int | None = None) -> str:
        if self.via == "captain":
            text = f"captain link table {table_number}"
            return f"{text}, seat {self.seat}" if self.seat else text
        name = getattr(self.user, "username", "?")
        return f"{self.via} {name}"


class EntryError(Exception):
    """A refused entry. ``code`` is stable; ``message`` is translated; ``field`` names the
    field of the game record concerned; ``status`` is the HTTP status an API answers with."""

    def __init__(
        self,
        code: str,
        message: str,
        *,
        field: str = "",
        status: int = 400,
        data: dict[str, Any] | None = None,
    ) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.field = field
        self.status = status
        self.data = data or {}

    def to_json(self) -> dict[str, Any]:
        return {"code": self.code, "field": self.field, "message": self.message, **self.data}


@dataclass
class EntryResult:
    """What a saved (or replayed) submission answers."""

    status: int
    body: dict[str, Any] = field(default_factory=dict)
    replayed: bool = False

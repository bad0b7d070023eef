"""The evening's door: a table's private link (a phone at that table, no account)."""

from __future__ import annotations

from common.actors import Door

TABLE_LINK = Door("evening-table", text="evening table {table}")

"""The doors the results app opens: a table's private link, the referee's session."""

from __future__ import annotations

from common.actors import Door

#: The table's private link (no account); the log names the table and, if known, the seat.
CAPTAIN = Door("captain", text="captain link table {table}", seated=True)

#: A referee of the tournament's club (or one who keeps it) handling the referee calls in
#: the pages: an account, like the organizer's door, named apart in the log.
REFEREE = Door("referee", account=True)

"""The door team competitions open: a team's private link."""

from __future__ import annotations

from common.actors import Door

#: A team's private link (no account): its line-ups.
TEAM_CAPTAIN = Door("team_captain", text="team captain link")

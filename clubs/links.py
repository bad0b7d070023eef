"""The club page's place for the links of the apps above (``common.links``): the cash box
and the settlement contribute theirs. Subject: the club and the user who looks."""

from __future__ import annotations

from common.links import Place

CLUB = Place("clubs.club", "the club and the user who looks at its page")

"""The team competitions as a list: the public one and the owner's own, on the shared list
page."""

from __future__ import annotations

from typing import Any, ClassVar

from django.db.models import Count, QuerySet
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from common.ownership import Ownership
from common.views import ListRow, OwnedListView
from teams.models import League
from teams.permissions import LEAGUES


class LeagueList(OwnedListView):
    ownership: ClassVar[Ownership[Any]] = LEAGUES
    stylesheet = "css/teams.css"
    name_column = gettext_lazy("Team competition")
    count_column = gettext_lazy("Teams")

    def counted(self, rows: QuerySet[Any]) -> QuerySet[Any]:
        counted: QuerySet[League] = rows.annotate(listed_count=Count("teams", distinct=True))
        return counted


class LeagueListView(LeagueList):
    heading = gettext_lazy("Team competitions")
    empty = gettext_lazy("No team competitions yet.")

    def action(self) -> tuple[str, str, bool] | None:
        if not self.request.user.is_authenticated:
            return None
        return (_("My team competitions"), reverse("teams:mine"), False)

    def row(self, thing: League, count: int) -> ListRow:
        detail = reverse("teams:detail", args=[thing.slug])
        return ListRow(
            thing.name, detail, not thing.is_public, count, note=thing.get_kind_display()
        )


class MyLeaguesView(LeagueList):
    mine = True
    heading = gettext_lazy("My team competitions")
    empty = gettext_lazy("You keep no team competition yet.")

    def action(self) -> tuple[str, str, bool] | None:
        return (_("New team competition"), reverse("teams:create"), True)

    def row(self, thing: League, count: int) -> ListRow:
        return ListRow(
            thing.name,
            reverse("teams:teams", args=[thing.slug]),
            not thing.is_public,
            count,
            links=(
                (_("Match days"), reverse("teams:schedule", args=[thing.slug])),
                (_("Settings"), reverse("teams:edit", args=[thing.slug])),
                (_("League table"), reverse("teams:detail", args=[thing.slug])),
            ),
        )

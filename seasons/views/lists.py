"""The seasons as a list: the public one and the owner's own, on the shared list page."""

from __future__ import annotations

from typing import Any, ClassVar

from django.db.models import Count, QuerySet
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from common.ownership import Ownership
from common.views import ListRow, OwnedListView
from seasons.models import Season
from seasons.permissions import SEASONS


class SeasonList(OwnedListView):
    ownership: ClassVar[Ownership[Any]] = SEASONS
    stylesheet = "css/seasons.css"
    name_column = gettext_lazy("Season")
    count_column = gettext_lazy("Tournaments")

    def counted(self, rows: QuerySet[Any]) -> QuerySet[Any]:
        counted: QuerySet[Season] = rows.annotate(listed_count=Count("attachments"))
        return counted


class SeasonListView(SeasonList):
    heading = gettext_lazy("Seasons")
    empty = gettext_lazy("No seasons yet.")

    def action(self) -> tuple[str, str, bool] | None:
        if not self.request.user.is_authenticated:
            return None
        return (_("My seasons"), reverse("seasons:mine"), False)

    def row(self, thing: Season, count: int) -> ListRow:
        return ListRow(thing.name, thing.get_absolute_url(), not thing.is_public, count)


class MySeasonsView(SeasonList):
    mine = True
    heading = gettext_lazy("My seasons")
    empty = gettext_lazy("You keep no season yet.")

    def action(self) -> tuple[str, str, bool] | None:
        return (_("New season"), reverse("seasons:create"), True)

    def row(self, thing: Season, count: int) -> ListRow:
        return ListRow(
            thing.name,
            reverse("seasons:tournaments", args=[thing.slug]),
            not thing.is_public,
            count,
            links=(
                (_("Settings"), reverse("seasons:edit", args=[thing.slug])),
                (_("Ranking"), thing.get_absolute_url()),
            ),
        )

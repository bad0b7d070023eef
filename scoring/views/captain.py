"""The table captain's pages, reached through the table's private link (no account)."""

from __future__ import annotations

from typing import Any

from django.shortcuts import get_object_or_404
from django.views.generic import TemplateView

from tournaments.models import Table


class TableHomeView(TemplateView):
    template_name = "scoring/table_home.html"

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        table = get_object_or_404(
            Table.objects.select_related("series__tournament"), captain_token=kwargs["token"]
        )
        seats = table.seats.select_related("registration__player").order_by("position")
        return {**super().get_context_data(**kwargs), "table": table, "seats": seats}

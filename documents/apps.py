from __future__ import annotations

from typing import TYPE_CHECKING

from django.apps import AppConfig
from django.urls import reverse
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from tournaments.dashboard import SERIES, Link, contribute

if TYPE_CHECKING:
    from tournaments.models import Series, Tournament


def print_pack(tournament: Tournament) -> list[Link]:
    return [
        Link(gettext("Print pack (PDF)"), reverse("documents:series", args=[tournament.slug, 1]))
    ]


def result_report(tournament: Tournament) -> list[Link]:
    return [
        Link(gettext("Result report (PDF)"), reverse("documents:results", args=[tournament.slug]))
    ]


def series_pack(tournament: Tournament, series: Series) -> list[Link]:
    url = reverse("documents:series", args=[tournament.slug, series.number])
    return [Link(gettext("Print pack (PDF)"), url)]


class DocumentsConfig(AppConfig):
    name = "documents"
    verbose_name = _("Documents")

    def ready(self) -> None:
        from documents.forgetting import forget_documents
        from documents.services import render_ahead
        from tournaments.signals import (
            player_anonymized,
            player_consent_changed,
            print_pack_changed,
        )

        player_anonymized.connect(forget_documents, dispatch_uid="documents-anonymized")
        print_pack_changed.connect(render_ahead, dispatch_uid="documents-render-ahead")
        player_consent_changed.connect(forget_documents, dispatch_uid="documents-consent")
        contribute("print", self.name, print_pack)
        contribute("results", self.name, result_report, order=20)
        SERIES.contribute(self.name, series_pack)

"""Organizer pages: request a document, watch its progress (htmx polling), download it."""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth.mixins import LoginRequiredMixin
from django.core.exceptions import PermissionDenied
from django.http import FileResponse, Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views import View

from documents import pipeline, services
from documents.models import GeneratedDocument
from tournaments.models import Series, Tournament
from tournaments.permissions import is_organizer

#: Milliseconds before each poll of a document's status: every 250 ms for the first two
#: seconds (a small print pack takes one or two), then less often for the long ones.
POLL_DELAYS_MS = (250,) * 8 + (500,) * 4 + (1000,)


@dataclass(frozen=True)
class Poll:
    """The status fragment's next poll: its number and how long to wait for it."""

    next: int
    delay_ms: int

    @classmethod
    def after(cls, request: HttpRequest) -> Poll:
        """The poll after the one this request is (``?poll=n``; the page itself is 0)."""
        try:
            done = min(max(int(request.GET.get("poll", "0")), 0), len(POLL_DELAYS_MS))
        except ValueError:
            done = 0
        delay = POLL_DELAYS_MS[min(done, len(POLL_DELAYS_MS) - 1)]
        return cls(next=min(done + 1, len(POLL_DELAYS_MS)), delay_ms=delay)


class OrganizerView(LoginRequiredMixin, View):
    """Anonymous users go to the login page; logged-in non-organizers get 403."""

    def check(self, tournament: Tournament) -> None:
        if not is_organizer(self.request.user, tournament):
            raise PermissionDenied


class DocumentPageView(OrganizerView):
    kind: str = GeneratedDocument.Kind.PRINT_PACK
    template_name = "documents/document_page.html"

    def target(self, slug: str, number: int | None) -> tuple[Tournament, Series | None]:
        tournament = get_object_or_404(Tournament, slug=slug)
        self.check(tournament)
        if number is None:
            return tournament, None
        return tournament, get_object_or_404(Series, tournament=tournament, number=number)

    def get(self, request: HttpRequest, slug: str, number: int | None = None) -> HttpResponse:
        tournament, series = self.target(slug, number)
        language = pipeline.document_language()
        document = services.latest_document(self.kind, tournament, series, language)
        current = document is not None and pipeline.is_current(document)
        context = {
            "tournament": tournament,
            "series": series,
            "kind": self.kind,
            "document": document,
            "current": current,
            "poll": Poll.after(request),
        }
        return render(request, self.template_name, context)

    def post(self, request: HttpRequest, slug: str, number: int | None = None) -> HttpResponse:
        tournament, series = self.target(slug, number)
        services.request_document(self.kind, tournament, series, user=request.user)
        return redirect(request.path)


class SeriesDocumentsView(DocumentPageView):
    kind = GeneratedDocument.Kind.PRINT_PACK


class ResultsDocumentView(DocumentPageView):
    kind = GeneratedDocument.Kind.RESULTS


class DocumentStatusView(OrganizerView):
    """The progress fragment; htmx replaces it (POLL_DELAYS_MS) until the document is
    finished."""

    def get(self, request: HttpRequest, pk: int) -> HttpResponse:
        document = get_object_or_404(
            GeneratedDocument.objects.select_related("tournament", "series"), pk=pk
        )
        self.check(document.tournament)
        document = pipeline.fail_if_stalled(document)
        context = {"document": document, "current": True, "retry": True,
                   "poll": Poll.after(request)}  # fmt: skip
        return render(request, "documents/_status.html", context)


class DocumentDownloadView(OrganizerView):
    def get(self, request: HttpRequest, pk: int) -> FileResponse:
        document = get_object_or_404(
            GeneratedDocument.objects.select_related("tournament", "series"), pk=pk
        )
        self.check(document.tournament)
        if document.status != GeneratedDocument.Status.DONE or not document.file:
            raise Http404
        return FileResponse(
            document.file.open("rb"),
            as_attachment=False,
            filename=document.filename,
            content_type="application/pdf",
        )

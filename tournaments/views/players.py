"""Registering players, importing lists, checking in at the door (organizers)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django.contrib import messages
from django.db.models import Count, Q
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views import View
from django.views.generic import FormView, TemplateView

from common.parsing import whole_number
from common.services import ServiceError
from tournaments import importing
from tournaments.forms import ImportUploadForm, OrganizerPlayerForm, WithdrawForm
from tournaments.models import Player, Registration, Tournament
from tournaments.names import by_name, found, search_words
from tournaments.permissions import tournament_registry
from tournaments.services.registrations import (
    ImportRow,
    PlayerData,
    import_match,
    import_players,
    matching_players,
    register,
    set_checked_in,
    withdraw,
)
from tournaments.views.mixins import OrganizerMixin

IMPORT_SESSION_KEY = "player-import"


@dataclass(frozen=True)
class PreviewRow:
    """One row of an uploaded player list as the preview shows it."""

    line: int
    name: str
    details: list[str]  # club, DDV number, e-mail: those the row has
    errors: list[str]  # each names its field; a row with errors is left out of the import
    candidates: list[Player]  # known players the row may be, offered for merging
    registered: Registration | None  # the person is already registered: the row is skipped


def search(registrations: Iterable[Registration], query: str) -> list[Registration]:
    """The registrations whose player's name or club contains every word of ``query``
    (folded as ``tournaments.names`` does: "mueller" finds Müller), or whose start number
    is one of the words."""
    words = search_words(query)
    return [
        r
        for r in registrations
        if all(
            found([word], r.player.first_name, r.player.last_name, r.player.club)
            or whole_number(word) == r.start_number
            for word in words
        )
    ]


def _data(values: dict[str, str]) -> PlayerData:
    """A checked import row as the registration takes it."""
    consent = importing.consent_of_row(values)
    return PlayerData(
        first_name=values.get("first_name", ""),
        last_name=values.get("last_name", ""),
        club=values.get("club", ""),
        ddv_number=values.get("ddv_number", ""),
        email=values.get("email", ""),
        name_form=consent["name_form"],
        minor=consent["minor"],
        guardian_consent=consent["guardian_consent"],
    )


class RegistrationListView(OrganizerMixin, FormView[OrganizerPlayerForm]):
    """All registrations with the form to add one; a possible duplicate is offered for
    merging before anything is saved."""

    template_name = "tournaments/organizer/registrations.html"
    form_class = OrganizerPlayerForm

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        context = super().get_context_data(**kwargs)
        registrations = self.tournament.registrations.select_related("player")
        context["query"] = self.request.GET.get("q", "")[:100]
        context["registrations"] = search(registrations, context["query"])
        return context

    def form_valid(self, form: OrganizerPlayerForm) -> HttpResponse:
        data = PlayerData(**{k: form.cleaned_data[k] for k in PlayerData.__annotations__})
        merge_with = form.cleaned_data.get("merge_with")
        existing = None
        if merge_with:
            # Only a player of this tournament's registry; any other id is ignored.
            existing = tournament_registry(self.tournament).filter(pk=merge_with).first()
            if existing is None:
                form.add_error(None, _("Player not found."))
                return self.form_invalid(form)
        elif "create_new" not in self.request.POST:
            candidates = list(matching_players(self.tournament, data)[:5])
            if candidates:
                return self.render_to_response(
                    self.get_context_data(form=form, candidates=candidates)
                )
        try:
            registration = register(
                self.tournament,
                data,
                existing_player=existing,
                checked_in=form.cleaned_data["checked_in"],
            )
        except ServiceError as exc:
            form.add_error(exc.field, exc.message)
            return self.form_invalid(form)
        messages.success(
            self.request,
            _("%(player)s has start number %(number)d.")
            % {"player": registration.player, "number": registration.start_number},
        )
        return redirect("tournaments:registrations", slug=self.tournament.slug)


class RegistrationEditView(OrganizerMixin, FormView[WithdrawForm]):
    template_name = "tournaments/organizer/registration_edit.html"
    form_class = WithdrawForm

    def get_registration(self) -> Registration:
        return get_object_or_404(
            self.tournament.registrations.select_related("player"), pk=self.kwargs["pk"]
        )

    def get_initial(self) -> dict[str, Any]:
        return {"from_series": self.get_registration().withdrawn_from_series}

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        return {**super().get_context_data(**kwargs), "registration": self.get_registration()}

    def form_valid(self, form: WithdrawForm) -> HttpResponse:
        registration = self.get_registration()
        try:
            withdraw(registration, form.cleaned_data["from_series"])
        except ServiceError as exc:
            form.add_error(exc.field, exc.message)
            return self.form_invalid(form)
        messages.success(self.request, _("Saved."))
        return redirect("tournaments:registrations", slug=self.tournament.slug)


class ImportView(OrganizerMixin, TemplateView):
    """Upload → preview with per-row errors (their count on top) and duplicate offers →
    confirm: the valid rows are registered, the rows with errors are listed and left out.
    The parsed rows wait in the session between the steps."""

    template_name = "tournaments/organizer/import.html"

    def get(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        return self.render_to_response(self.get_context_data(form=ImportUploadForm()))

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if "confirm" in request.POST:
            return self.confirm(request)
        form = ImportUploadForm(request.POST, request.FILES)
        if not form.is_valid():
            return self.render_to_response(self.get_context_data(form=form))
        upload = form.cleaned_data["file"]
        try:
            rows = importing.parse_players(upload.name, upload.read())
        except importing.ImportFileError as exc:
            form.add_error("file", str(exc))
            return self.render_to_response(self.get_context_data(form=form))
        preview = self.preview(rows)
        request.session[IMPORT_SESSION_KEY] = {
            "tournament": self.tournament.pk,
            "rows": [
                {"line": r.line, "values": r.values, "errors": list(r.errors.values())}
                for r in rows
            ],
        }
        return self.render_to_response(
            self.get_context_data(
                form=ImportUploadForm(),
                preview=preview,
                with_errors=sum(1 for row in preview if row.errors),
                to_register=sum(1 for row in preview if not row.errors and not row.registered),
                skipped=sum(1 for row in preview if row.registered is not None),
            )
        )

    def preview(self, rows: list[importing.ParsedRow]) -> list[PreviewRow]:
        preview = []
        for row in rows:
            match = None
            if not row.errors:
                match = import_match(self.tournament, _data(row.values))
            preview.append(
                PreviewRow(
                    line=row.line,
                    name=f"{row.values['first_name']} {row.values['last_name']}".strip(),
                    details=[
                        f"DDV {value}" if key == "ddv_number" else value
                        for key in ("club", "ddv_number", "email")
                        if (value := row.values[key])
                    ],
                    errors=list(row.errors.values()),
                    candidates=match.candidates if match else [],
                    registered=match.registered if match else None,
                )
            )
        return preview

    def confirm(self, request: HttpRequest) -> HttpResponse:
        stored = request.session.get(IMPORT_SESSION_KEY)
        if not stored or stored.get("tournament") != self.tournament.pk:
            messages.error(request, _("The preview has expired; please upload the file again."))
            return redirect("tournaments:import", slug=self.tournament.slug)
        rows = []
        left_out: list[str] = []
        for item in stored["rows"]:
            # As the preview found them (a repeat within the file too), checked again.
            errors = item.get("errors") or list(importing.check_values(item["values"]).values())
            if errors:  # listed in the preview; listed again below, not registered
                left_out.append(
                    _("line %(line)d: %(errors)s")
                    % {"line": item["line"], "errors": " ".join(errors)}
                )
                continue
            choice = request.POST.get(f"merge-{item['line']}", "")
            rows.append(
                ImportRow(
                    data=_data(item["values"]),
                    merge_with=whole_number(choice),
                    line=item["line"],
                )
            )
        try:
            result = import_players(self.tournament, rows)
        except ServiceError as exc:
            messages.error(request, _("Nothing was saved. %(reason)s") % {"reason": exc.message})
            return redirect("tournaments:import", slug=self.tournament.slug)
        del request.session[IMPORT_SESSION_KEY]
        n = len(result.created)
        messages.success(
            request,
            ngettext("%(n)d player registered.", "%(n)d players registered.", n) % {"n": n},
        )
        if left_out:
            n = len(left_out)
            messages.warning(
                request,
                ngettext(
                    "%(n)d row with errors was not imported: %(rows)s",
                    "%(n)d rows with errors were not imported: %(rows)s",
                    n,
                )
                % {"n": n, "rows": "; ".join(left_out)},
            )
        if result.skipped:
            n = len(result.skipped)
            names = ", ".join(
                f"{item.registration.player.sort_name} (#{item.registration.start_number})"
                for item in result.skipped
            )
            messages.info(
                request,
                ngettext(
                    "%(n)d row skipped, already registered: %(names)s",
                    "%(n)d rows skipped, already registered: %(names)s",
                    n,
                )
                % {"n": n, "names": names},
            )
        return redirect("tournaments:registrations", slug=self.tournament.slug)


@dataclass(frozen=True)
class HeadCount:
    """The check-in counter: players present at the door of all registered."""

    present: int
    total: int


def head_count(tournament: Tournament) -> HeadCount:
    counts = tournament.registrations.aggregate(
        total=Count("pk"), present=Count("pk", filter=Q(checked_in=True))
    )
    return HeadCount(present=counts["present"], total=counts["total"])


class CheckInView(OrganizerMixin, TemplateView):
    """The list at the door: search as you type, one tap to check in or out."""

    template_name = "tournaments/organizer/checkin.html"

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        context = super().get_context_data(**kwargs)
        query = self.request.GET.get("q", "")[:100]
        registrations = by_name(
            self.tournament.registrations.select_related("player"), lambda r: r.player
        )
        context.update(
            query=query,
            registrations=search(registrations, query),
            count=head_count(self.tournament),
        )
        return context

    def get_template_names(self) -> list[str]:
        if self.request.headers.get("HX-Request"):
            return ["tournaments/organizer/_checkin_rows.html"]
        return [self.template_name]


class CheckInToggleView(OrganizerMixin, View):
    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        registration = get_object_or_404(
            self.tournament.registrations.select_related("player"), pk=kwargs["pk"]
        )
        set_checked_in(registration, request.POST.get("present") == "1")
        if request.headers.get("HX-Request"):
            # The row in place and the counter out of band: the head count follows every tap.
            return render(
                request,
                "tournaments/organizer/_checkin_toggled.html",
                {
                    "r": registration,
                    "tournament": self.tournament,
                    "count": head_count(self.tournament),
                },
            )
        return redirect("tournaments:checkin", slug=self.tournament.slug)

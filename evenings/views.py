"""The evening's pages: the organizers' (groups, a group, an evening with its tables and
their links), the table's live page through its private link, the evening's result and
the button that books its payments into the club's cash box (``evenings.payments``).
They parse, check who may act (``evenings.permissions``) and present; the use cases are in
``evenings.services``. Outside the club the organizer pages do not exist (404)."""

from __future__ import annotations

import secrets
from typing import Any

import segno
from django.contrib import messages
from django.contrib.auth.mixins import LoginRequiredMixin
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBase
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import get_language, ngettext
from django.utils.translation import gettext as _
from django.views import View

from cashbox.money import format_cents
from cashbox.permissions import keeps_cashbox
from clubs.models import Club
from common.actors import ORGANIZER, Actor
from common.services import ServiceError
from evenings import payments, services
from evenings.championship import championship
from evenings.doors import TABLE_LINK
from evenings.forms import (
    ChampionshipForm,
    DrawForm,
    EveningForm,
    FullForm,
    GroupForm,
    MembersForm,
    QuickForm,
)
from evenings.models import Evening, EveningTable, Group
from evenings.permissions import is_member, keeps_evenings, may_book_payments, may_see_result
from rules.bock import BockState
from seasons.rules import EVENING_PRESET_LABELS
from tournaments.models import Player
from tournaments.permissions import readable_players


def money(cents: int, sign: bool = False) -> str:
    return format_cents(cents, get_language() or "de", sign=sign)


def bock_name(level: int) -> str:
    names = {1: _("Bock"), 2: _("Double Bock"), 3: _("Triple Bock")}
    return names.get(level, _("%(count)d× Bock") % {"count": level})


def bock_words(state: BockState) -> str:
    """ "Bock: noch 3 Spiele, danach Doppelbock" from the state's runs; "" without Bock."""
    runs = state.runs()
    if not runs:
        return ""
    first = runs[0]
    text = ngettext(
        "%(bock)s: %(count)d more game", "%(bock)s: %(count)d more games", first.games
    ) % {"bock": bock_name(first.level), "count": first.games}
    for run in runs[1:]:
        text += ngettext(
            ", then %(count)d game %(bock)s", ", then %(count)d games %(bock)s", run.games
        ) % {"bock": bock_name(run.level), "count": run.games}
    return text


def names_of(ids: list[int]) -> dict[int, str]:
    return {p.pk: services.player_name(p) for p in Player.objects.filter(pk__in=ids)}


class ClubMixin(LoginRequiredMixin):
    """The club from the URL for those who keep its evenings: its other members get 403,
    everybody else 404."""

    club: Club
    group: Group

    def dispatch(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
        if not request.user.is_authenticated:
            return self.handle_no_permission()
        self.club = get_object_or_404(Club, slug=kwargs["club"])
        if not is_member(request.user, self.club):
            raise Http404
        if not keeps_evenings(request.user, self.club):
            raise PermissionDenied
        if "runde" in kwargs:
            self.group = get_object_or_404(Group, club=self.club, slug=kwargs["runde"])
        return super().dispatch(request, *args, **kwargs)

    def actor(self) -> Actor:
        return Actor(ORGANIZER, user=self.request.user)  # type: ignore[attr-defined]

    def evening(self, pk: int) -> Evening:
        return get_object_or_404(Evening, group=self.group, pk=pk)


def _put_errors(form: Any, exc: ServiceError, fields: dict[str, str] | None = None) -> None:
    name = (fields or {}).get(exc.field or "", exc.field)
    form.add_error(name if name in form.fields else None, exc.message)


class GroupsView(ClubMixin, View):
    def page(self, request: HttpRequest, form: GroupForm, status: int = 200) -> HttpResponse:
        groups = Group.objects.filter(club=self.club).order_by("name")
        context = {"club": self.club, "groups": groups, "form": form}
        return render(request, "evenings/groups.html", context, status=status)

    def get(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        return self.page(request, GroupForm())

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        form = GroupForm(request.POST)
        if form.is_valid():
            data = services.GroupData(
                name=form.cleaned_data["name"],
                profile=form.cleaned_data["profile"],
                cents_per_point=form.cleaned_data["cents_per_point"],
                settlement=form.cleaned_data["settlement"],
                is_public=form.cleaned_data["is_public"],
            )
            try:
                group = services.create_group(self.club, data, actor=self.actor())
            except ServiceError as exc:
                _put_errors(form, exc)
            else:
                return redirect("evenings:group", club=self.club.slug, runde=group.slug)
        return self.page(request, form, status=400)


class GroupView(ClubMixin, View):
    """The group: its evenings, the next one, its season lines, its club championship (and
    the championship's rule, posted with ``form=championship``), its members."""

    def page(
        self,
        request: HttpRequest,
        form: EveningForm,
        status: int = 200,
        rule_form: ChampionshipForm | None = None,
    ) -> HttpResponse:
        rule_form = rule_form or ChampionshipForm(initial=ChampionshipForm.initial_for(self.group))
        table = championship(self.group)
        members = [
            services.player_name(m.player) for m in self.group.memberships.select_related("player")
        ]
        context = {
            "club": self.club,
            "group": self.group,
            "members": members,
            "evenings": self.group.evenings.all(),
            "form": form,
            "rate": money(self.group.cents_per_point),
            "profile": self.group.get_profile_display(),
            "season": [
                {"line": line, "balance": money(line.cents, True), "negative": line.cents < 0}
                for line in services.season_lines(self.group)
            ],
            "championship": table,
            "rule_label": EVENING_PRESET_LABELS.get(self.group.ranking_preset, table.rule.label),
            "table_points": [
                " / ".join(f"{p:+d}" if p else "0" for p in row) for row in table.rule.table_points
            ],
            "rule_form": rule_form,
        }
        return render(request, "evenings/group.html", context, status=status)

    def get(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        return self.page(request, EveningForm())

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if request.POST.get("form") == "championship":
            return self.post_rule(request)
        form = EveningForm(request.POST)
        if form.is_valid():
            data = services.EveningData(
                date=form.cleaned_data["date"],
                end=form.cleaned_data["end"],
                rounds=form.cleaned_data["rounds"],
                ends_at=form.cleaned_data["ends_at"],
            )
            try:
                evening = services.open_evening(self.group, data, actor=self.actor())
            except ServiceError as exc:
                _put_errors(form, exc)
            else:
                return redirect(
                    "evenings:evening", club=self.club.slug, runde=self.group.slug,
                    evening=evening.pk,
                )  # fmt: skip
        return self.page(request, form, status=400)

    def post_rule(self, request: HttpRequest) -> HttpResponse:
        form = ChampionshipForm(request.POST)
        if form.is_valid():
            try:
                services.set_championship_rule(
                    self.group, form.cleaned_data["ranking_preset"], form.overrides(),
                    actor=self.actor(),
                )  # fmt: skip
            except ServiceError as exc:
                _put_errors(form, exc)
            else:
                messages.success(request, _("Championship rule saved."))
                return redirect("evenings:group", club=self.club.slug, runde=self.group.slug)
        return self.page(request, EveningForm(), status=400, rule_form=form)


class MembersView(ClubMixin, View):
    def choices(self) -> list[tuple[int, str]]:
        known = self.group.memberships.values_list("player_id", flat=True)
        players = readable_players(self.request.user).exclude(pk__in=known)
        ordered = players.order_by("last_name", "first_name")
        return [(p.pk, services.player_name(p)) for p in ordered]

    def page(self, request: HttpRequest, form: MembersForm, status: int = 200) -> HttpResponse:
        context = {"club": self.club, "group": self.group, "form": form}
        return render(request, "evenings/members.html", context, status=status)

    def get(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        return self.page(request, MembersForm(choices=self.choices()))

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        form = MembersForm(request.POST, choices=self.choices())
        if form.is_valid():
            try:
                added = services.add_members(
                    self.group,
                    [int(p) for p in form.cleaned_data["players"]],
                    form.cleaned_data["names"].splitlines(),
                    actor=self.actor(),
                )
            except ServiceError as exc:
                _put_errors(form, exc, {"names": "names", "players": "players"})
            else:
                messages.success(
                    request,
                    ngettext("%(count)d player added.", "%(count)d players added.", len(added))
                    % {"count": len(added)},
                )
                return redirect("evenings:group", club=self.club.slug, runde=self.group.slug)
        return self.page(request, form, status=400)


def qr(url: str) -> str:
    return str(segno.make(url, error="m").svg_data_uri(scale=3))


class EveningView(ClubMixin, View):
    def member_choices(self) -> list[tuple[int, str]]:
        rows = self.group.memberships.select_related("player")
        return [(m.player_id, services.player_name(m.player)) for m in rows]

    def page(self, request: HttpRequest, evening: Evening, form: DrawForm | None = None,
             status: int = 200) -> HttpResponse:  # fmt: skip
        tables = []
        seated = [p for t in evening.tables.all() for p in t.seats]
        names = names_of(seated)
        for table in evening.tables.all():
            state = services.table_state(table)
            url = request.build_absolute_uri(reverse("evenings:table", args=[table.token]))
            tables.append({
                "table": table, "url": url, "qr": qr(url), "games": len(state.games),
                "players": [names.get(p, "?") for p in table.seats],
                "bock": bock_words(state.bock),
            })  # fmt: skip
        if form is None:
            form = DrawForm(choices=self.member_choices(), initial={"players": seated})
        context = {
            "club": self.club, "group": self.group, "evening": evening, "tables": tables,
            "form": form, "is_open": evening.status == Evening.Status.OPEN,
        }  # fmt: skip
        return render(request, "evenings/evening.html", context, status=status)

    def get(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        return self.page(request, self.evening(kwargs["evening"]))


class TablesView(EveningView):
    """POST: set the evening's tables (drawn at random or in the order chosen)."""

    http_method_names = ["post"]

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        evening = self.evening(kwargs["evening"])
        form = DrawForm(request.POST, choices=self.member_choices())
        if form.is_valid():
            players = [int(p) for p in form.cleaned_data["players"]]
            tables = form.cleaned_data["tables"]
            try:
                if form.cleaned_data["how"] == "order":
                    sizes = services.table_sizes(len(players), tables)
                    seats, start = [], 0
                    for size in sizes:
                        seats.append(players[start : start + size])
                        start += size
                    services.set_tables(evening, seats, actor=self.actor())
                else:
                    services.set_tables(evening, players=players, tables=tables, actor=self.actor())
            except ServiceError as exc:
                _put_errors(form, exc)
            else:
                messages.success(request, _("The tables are set."))
                return redirect(
                    "evenings:evening", club=self.club.slug, runde=self.group.slug,
                    evening=evening.pk,
                )  # fmt: skip
        return self.page(request, evening, form, status=400)


class CloseView(ClubMixin, View):
    http_method_names = ["post"]

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        evening = self.evening(kwargs["evening"])
        try:
            services.close_evening(evening, actor=self.actor())
        except ServiceError as exc:
            messages.error(request, exc.message)
            return redirect(
                "evenings:evening", club=self.club.slug, runde=self.group.slug,
                evening=evening.pk,
            )  # fmt: skip
        return redirect(
            "evenings:result", club=self.club.slug, runde=self.group.slug, evening=evening.pk
        )


def result_context(evening: Evening) -> dict[str, Any]:
    figures = evening.settlement
    if figures is None:  # still running: the points so far
        totals = services.evening_totals(evening)
        names = names_of(list(totals))
        rows = [
            {"name": names.get(p, "?"), "points": pts, "balance": ""}
            for p, pts in sorted(totals.items(), key=lambda i: (-i[1], names.get(i[0], "")))
        ]
        return {"rows": rows, "transfers": [], "closed": False}
    rows = [
        {"name": b["name"], "points": b["points"], "balance": money(b["cents"], True),
         "negative": b["cents"] < 0}
        for b in sorted(figures["balances"], key=lambda b: (-b["cents"], b["name"]))
    ]  # fmt: skip
    transfers = [
        {"payer": t["payer_name"], "payee": t["payee_name"] or _("cash box"),
         "amount": money(t["cents"])}
        for t in figures["transfers"]
    ]  # fmt: skip
    return {
        "rows": rows, "transfers": transfers, "closed": True,
        "cashbox_mode": figures["mode"] == "cashbox", "rate": money(figures["rate"]),
        "exact": figures["exact"],
    }  # fmt: skip


def cashbox_context(evening: Evening, user: Any) -> dict[str, Any]:
    """The evening's payments into the cash box, for those who book them: booked (how
    many, how much, how many reversed since) or still to book (and the button)."""
    if evening.status != Evening.Status.CLOSED or not may_book_payments(user, evening.group.club):
        return {"show": False}
    done = payments.payments_of(evening)
    due = payments.to_book(evening)
    return {
        "show": True,
        "booked": bool(done),
        "count": len(done),
        "total": money(sum(p.cents for p in done) if done else sum(cents for _p, _n, cents in due)),
        "reversed": len([p for p in done if getattr(p, "is_reversed", False)]),
        "due": len(due),
        "ledger": keeps_cashbox(user, evening.group.club),
    }


class ResultView(View):
    """The evening's result: balances and transfers; for the public only if the group is;
    for those who book its payments, whether they are in the cash box."""

    def get(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        club = get_object_or_404(Club, slug=kwargs["club"])
        group = get_object_or_404(Group, club=club, slug=kwargs["runde"])
        if not may_see_result(request.user, group):
            raise Http404
        evening = get_object_or_404(Evening, group=group, pk=kwargs["evening"])
        context = {
            "club": club,
            "group": group,
            "evening": evening,
            "keeps": keeps_evenings(request.user, club),
            "cashbox": cashbox_context(evening, request.user),
            **result_context(evening),
        }
        return render(request, "evenings/result.html", context)


class BookView(LoginRequiredMixin, View):
    """POST: book the closed evening's payments into the club's cash box (its owners,
    organizers and cashiers: other members 403, everybody else 404). Again, or retried: the
    same answer, nothing booked twice."""

    http_method_names = ["post"]

    def dispatch(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
        if not request.user.is_authenticated:
            return self.handle_no_permission()
        club = get_object_or_404(Club, slug=kwargs["club"])
        if not is_member(request.user, club):
            raise Http404
        if not may_book_payments(request.user, club):
            raise PermissionDenied
        return super().dispatch(request, *args, **kwargs)

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        group = get_object_or_404(Group, club__slug=kwargs["club"], slug=kwargs["runde"])
        evening = get_object_or_404(Evening, group=group, pk=kwargs["evening"])
        actor = Actor(ORGANIZER, user=request.user)
        try:
            booked = payments.book_payments(evening, actor=actor)
        except ServiceError as exc:
            messages.error(request, exc.message)
        else:
            messages.success(
                request,
                ngettext(
                    "The evening is booked into the cash box: %(count)d payment, %(total)s.",
                    "The evening is booked into the cash box: %(count)d payments, %(total)s.",
                    len(booked.payments),
                )
                % {"count": len(booked.payments), "total": money(booked.cents)},
            )
        return redirect("evenings:result", club=group.club.slug, runde=group.slug,
                        evening=evening.pk)  # fmt: skip


class TableMixin(View):
    table: EveningTable

    def dispatch(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
        self.table = get_object_or_404(
            EveningTable.objects.select_related("evening__group__club"), token=kwargs["token"]
        )
        return super().dispatch(request, *args, **kwargs)

    def actor(self) -> Actor:
        user = self.request.user
        return Actor(TABLE_LINK, user=user if user.is_authenticated else None)


class TableView(TableMixin):
    """The live table: seats, dealer, who sits out, Bock, quick and full entry."""

    def forms(
        self, state: services.TableState, data: Any = None, kind: str = ""
    ) -> tuple[QuickForm, FullForm]:
        rs = services.ruleset(self.table.evening.group)
        names = names_of(list(self.table.seats))
        playing = [
            (self.table.seats[p], names.get(self.table.seats[p], "?")) for p in state.turn.playing
        ]
        initial = {"key": secrets.token_urlsafe(12), "number": len(state.games) + 1}
        seated = list(self.table.seats)
        quick = QuickForm(
            data if kind == "quick" else None, playing=playing, rs=rs, seated=seated,
            initial=initial, prefix="q",
        )  # fmt: skip
        full = FullForm(
            data if kind == "full" else None, playing=playing, rs=rs, seated=seated,
            initial=initial, prefix="f",
        )  # fmt: skip
        return quick, full

    def page(
        self,
        request: HttpRequest,
        state: services.TableState,
        quick: QuickForm,
        full: FullForm,
        status: int = 200,
        open_full: bool = False,
    ) -> HttpResponse:
        table = self.table
        ids = list(dict.fromkeys([*table.seats, *(int(p) for g in state.games for p in g.points)]))
        names = names_of(ids)
        seats = [
            {"name": names.get(p, "?"), "total": state.totals.get(p, 0),
             "dealer": i == state.turn.dealer, "out": i in state.turn.sitting_out}
            for i, p in enumerate(table.seats)
        ]  # fmt: skip
        games = []
        for game in reversed(state.games[-8:]):
            games.append({
                "game": game,
                "bock": bock_name(game.bock) if game.bock else "",
                "points": [(names.get(int(p), "?"), v) for p, v in game.points.items() if v],
            })  # fmt: skip
        evening = table.evening
        context = {
            "table": table, "evening": evening, "group": evening.group, "seats": seats,
            "bock": bock_words(state.bock), "level": state.bock.level,
            "level_name": bock_name(state.bock.level) if state.bock.level else "",
            "quick": quick, "full": full, "games": games,
            "last": state.games[-1] if state.games else None,
            "is_open": evening.status == Evening.Status.OPEN, "games_left": state.games_left,
            "open_full": open_full, "next_number": len(state.games) + 1,
        }  # fmt: skip
        return render(request, "evenings/table.html", context, status=status)

    def get(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        state = services.table_state(self.table)
        quick, full = self.forms(state)
        return self.page(request, state, quick, full)

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        kind = "full" if request.POST.get("kind") == "full" else "quick"
        state = services.table_state(self.table)
        quick, full = self.forms(state, request.POST, kind)
        form: QuickForm | FullForm = full if kind == "full" else quick
        if form.is_valid():
            data = form.cleaned_data
            try:
                game = services.enter_game(
                    self.table, data["number"], form.entry(), key=data["key"], actor=self.actor()
                )
            except ServiceError as exc:
                fields = {"value": "value", "winners": "winners", "triggers": "triggers",
                          "re": "re", "re_points": "re_points", "solo": "solo",
                          "announcements.re": "re_announcement",
                          "announcements.kontra": "kontra_announcement"}  # fmt: skip
                field = next(
                    (v for k, v in fields.items() if (exc.field or "").startswith(k)), None
                )
                form.add_error(field if field in form.fields else None, exc.message)
            else:
                messages.success(request, _("Game %(number)d entered.") % {"number": game.number})
                return redirect("evenings:table", token=self.table.token)
        state = services.table_state(self.table)
        return self.page(request, state, quick, full, status=400, open_full=kind == "full")


class UndoView(TableMixin):
    http_method_names = ["post"]

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        try:
            number = int(request.POST.get("number", "0"))
        except ValueError:
            number = 0
        try:
            game = services.delete_last_game(self.table, number, actor=self.actor())
        except ServiceError as exc:
            messages.error(request, exc.message)
        else:
            messages.success(
                request, _("Game %(number)d deleted: enter it again.") % {"number": game.number}
            )
        return redirect("evenings:table", token=self.table.token)

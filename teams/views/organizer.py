"""A league's owner: his leagues, creating and changing one, teams and squads, the match
days, and per group the line-ups and the team draw."""

from __future__ import annotations

from typing import Any, ClassVar

from django.contrib import messages
from django.contrib.auth.mixins import LoginRequiredMixin
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBase
from django.shortcuts import redirect, render
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.generic import FormView, TemplateView

from clubs import roles
from clubs.forms import add_club_choice
from common.actors import ORGANIZER, Actor
from common.ownership import Ownership
from common.parsing import whole_number
from common.services import ServiceError
from common.views import KeeperMixin
from teams.forms import (
    OVERRIDE_FIELDS,
    GroupPlaceForm,
    LeagueForm,
    LineUpForm,
    MatchDayForm,
    NewPlayerForm,
    SquadListForm,
    TeamClubsForm,
    TeamForm,
)
from teams.models import GROUP_STAGE, Group, League, LineUp, SquadMember
from teams.permissions import LEAGUES
from teams.schedule import dates_out_of_order, meetings
from teams.services import (
    add_squad_member,
    add_team,
    change_league,
    change_places,
    change_team_clubs,
    create_league,
    draw_team_series,
    line_up_size,
    make_match_days,
    remove_squad_member,
    set_line_up,
)
from teams.squads import SEARCH_MAX_LENGTH, add_new_player, add_squad_list, search_candidates
from teams.standings import group_result
from tournaments.names import by_name

MAX_ID = 10**9


def _actor(request: HttpRequest) -> Actor:
    return Actor(ORGANIZER, user=request.user)


def _pk(raw: str | None) -> int | None:
    return whole_number(raw)


def _id(raw: str | None) -> int:
    """A row id from the form, or 0 (no row) for anything else."""
    return _pk(raw) or 0


class OwnerMixin(KeeperMixin):
    """The league from the URL, for its owner only (403 for everyone else)."""

    ownership: ClassVar[Ownership[League]] = LEAGUES
    url_kwarg = "league"
    context_name = "league"
    league: League


def _form_error(form: LeagueForm, exc: ServiceError) -> None:
    field = exc.field
    if field in OVERRIDE_FIELDS:
        field = OVERRIDE_FIELDS[field]
    form.add_error(field if field in form.fields else None, exc.message)


class LeagueCreateView(LoginRequiredMixin, FormView[LeagueForm]):
    template_name = "teams/organizer/league_form.html"
    form_class = LeagueForm

    def get_form(self, form_class: Any = None) -> LeagueForm:
        form = super().get_form(form_class)
        add_club_choice(form, self.request.user, roles.LEAGUES)
        return form

    def form_valid(self, form: LeagueForm) -> HttpResponse:
        try:
            league = create_league(
                form.league_data(), actor=_actor(self.request), club=form.cleaned_data.get("club")
            )
        except ServiceError as exc:
            _form_error(form, exc)
            return self.form_invalid(form)
        return redirect("teams:teams", league=league.slug)


class LeagueUpdateView(OwnerMixin, FormView[LeagueForm]):
    template_name = "teams/organizer/league_form.html"
    form_class = LeagueForm

    def get_initial(self) -> dict[str, Any]:
        return LeagueForm.initial_for(self.league)

    def form_valid(self, form: LeagueForm) -> HttpResponse:
        try:
            league = change_league(self.league, form.league_data(), actor=_actor(self.request))
        except ServiceError as exc:
            _form_error(form, exc)
            return self.form_invalid(form)
        messages.success(self.request, _("Team competition saved."))
        return redirect("teams:edit", league=league.slug)


class TeamsView(OwnerMixin, TemplateView):
    """The teams with their squads; add a team; per team add a player of the registry (a
    search) or a new one, remove one. Each form keeps its input and shows its errors."""

    template_name = "teams/organizer/teams.html"

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        context = super().get_context_data(**kwargs)
        teams = list(self.league.teams.order_by("position"))
        members: dict[int, list[SquadMember]] = {team.pk: [] for team in teams}
        for member in by_name(
            SquadMember.objects.filter(league=self.league).select_related("player").order_by("pk"),
            lambda m: m.player,
        ):
            members[member.team_id].append(member)
        query = self.request.GET.get("q", "")[:SEARCH_MAX_LENGTH].strip()
        search_team = _pk(self.request.GET.get("team"))
        forms_of = kwargs.get("forms", {})
        context.update(
            teams=[
                {
                    "team": team,
                    "members": members[team.pk],
                    "full": len(members[team.pk]) >= self.league.squad_max,
                    "new_player": forms_of.get(("new", team.pk))
                    or NewPlayerForm(prefix=f"new{team.pk}"),
                    "squad_list": forms_of.get(("list", team.pk))
                    or SquadListForm(prefix=f"list{team.pk}"),
                    "clubs": forms_of.get(("clubs", team.pk))
                    or TeamClubsForm(
                        prefix=f"clubs{team.pk}",
                        initial={"club": team.club, "partner_club": team.partner_club},
                    ),
                    "confirm_remove": forms_of.get(("confirm", team.pk)),
                    "errors": forms_of.get(("errors", team.pk), []),
                    "found": list(search_candidates(self.league, query))
                    if query and search_team == team.pk
                    else None,
                    "query": query if search_team == team.pk else "",
                }
                for team in teams
            ],
            team_form=forms_of.get("team") or TeamForm(prefix="team"),
            schedule_made=self.league.match_days.filter(GROUP_STAGE).exists(),
        )
        return context

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        action = request.POST.get("action", "")
        actor = _actor(request)
        forms: dict[Any, Any] = {}
        if action == "add_team":
            form = TeamForm(request.POST, prefix="team")
            if form.is_valid():
                try:
                    team = add_team(
                        self.league,
                        form.cleaned_data["name"],
                        club=form.cleaned_data["club"],
                        partner_club=form.cleaned_data["partner_club"],
                        actor=actor,
                    )
                    messages.success(request, _("“%(name)s” added.") % {"name": team.name})
                    return redirect("teams:teams", league=self.league.slug)
                except ServiceError as exc:
                    form.add_error(exc.field if exc.field in form.fields else None, exc.message)
            forms["team"] = form
            return self._again(forms)
        chosen = self.league.teams.filter(pk=_id(request.POST.get("team"))).first()
        if chosen is None:
            messages.error(request, _("Choose one of the league's teams."))
            return redirect("teams:teams", league=self.league.slug)
        team = chosen
        try:
            if action == "add_player":
                player = _pk(request.POST.get("player"))
                if player is None:
                    raise ServiceError("player_not_found", _("Player not found."), field="player")
                member = add_squad_member(team, player, actor=actor)
                messages.success(
                    request,
                    _("%(player)s plays for %(team)s.") % {"player": member.player, "team": team},
                )
            elif action == "new_player":
                new = NewPlayerForm(request.POST, prefix=f"new{team.pk}")
                forms[("new", team.pk)] = new
                if not new.is_valid():
                    return self._again(forms)
                try:
                    member = add_new_player(team, **new.cleaned_data, actor=actor)
                except ServiceError as exc:
                    new.add_error(exc.field if exc.field in new.fields else None, exc.message)
                    return self._again(forms)
                messages.success(
                    request,
                    _("%(player)s plays for %(team)s.") % {"player": member.player, "team": team},
                )
            elif action == "add_list":
                pasted = SquadListForm(request.POST, prefix=f"list{team.pk}")
                forms[("list", team.pk)] = pasted
                if not pasted.is_valid():
                    return self._again(forms)
                try:
                    added = add_squad_list(team, pasted.cleaned_data["players"], actor=actor)
                except ServiceError as exc:
                    lines = exc.data.get("lines", {})
                    for number, message in lines.items():
                        pasted.add_error(
                            "players",
                            _("Line %(n)s: %(message)s") % {"n": number, "message": message}
                            if number != "0"
                            else message,
                        )
                    if not lines:
                        pasted.add_error("players", exc.message)
                    return self._again(forms)
                messages.success(
                    request,
                    ngettext(
                        "%(n)d player added to %(team)s.",
                        "%(n)d players added to %(team)s.",
                        len(added),
                    )
                    % {"n": len(added), "team": team},
                )
            elif action == "change_clubs":
                clubs = TeamClubsForm(request.POST, prefix=f"clubs{team.pk}")
                forms[("clubs", team.pk)] = clubs
                if not clubs.is_valid():
                    return self._again(forms)
                try:
                    change_team_clubs(team, **clubs.cleaned_data, actor=actor)
                except ServiceError as exc:
                    clubs.add_error(exc.field if exc.field in clubs.fields else None, exc.message)
                    return self._again(forms)
                messages.success(request, _("“%(name)s” saved.") % {"name": team.name})
            elif action == "remove_player":
                found = (
                    team.squad.filter(pk=_id(request.POST.get("member")))
                    .select_related("player")
                    .first()
                )
                if found is None:
                    raise ServiceError("player_not_found", _("Player not found."))
                if request.POST.get("confirmed") != "1":
                    # Ask first: the page again, with the question next to his name.
                    forms[("confirm", team.pk)] = found
                    return self.render_to_response(self.get_context_data(forms=forms))
                remove_squad_member(found, actor=actor)
                messages.success(request, _("“%(name)s” removed.") % {"name": found.player})
            else:
                raise Http404
        except ServiceError as exc:
            forms[("errors", team.pk)] = [exc.message]
            return self._again(forms)
        return redirect("teams:teams", league=self.league.slug)

    def _again(self, forms: dict[Any, Any]) -> HttpResponse:
        return self.render_to_response(self.get_context_data(forms=forms), status=400)


class ScheduleView(OwnerMixin, TemplateView):
    """The match days and their groups; the button that makes them (again, while no series
    is drawn), with the repeated meetings and the pairs that never meet."""

    template_name = "teams/organizer/schedule.html"

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        context = super().get_context_data(**kwargs)
        days = list(
            self.league.match_days.filter(GROUP_STAGE)
            .order_by("number")
            .prefetch_related("groups__group_teams__team", "groups__tournament")
        )
        team_count = self.league.teams.count()
        repeats, never_met = meetings(
            [
                [entry.team_id for entry in group.group_teams.all()]
                for day in days
                for group in day.groups.all()
            ],
            team_count,
        )
        posted = kwargs.get("places")
        # Dated out of order: allowed (a postponed day keeps its number and its pairings),
        # but said next to the date, so a typo does not go unnoticed.
        out_of_order = dates_out_of_order([(day.number, day.date) for day in days])
        dates_of = {day.number: day.date for day in days if day.date is not None}
        entries = []
        for day in days:
            day_form = (
                posted[("day", day.pk)]
                if posted
                else MatchDayForm(prefix=f"day{day.pk}", initial={"date": day.date})
            )
            groups = [
                {
                    "group": group,
                    "form": posted[("group", group.pk)]
                    if posted
                    else GroupPlaceForm(prefix=f"group{group.pk}", initial={"venue": group.venue}),
                }
                for group in day.groups.all()
            ]
            earlier = out_of_order.get(day.number)
            warning = (
                _(
                    "This date is before that of match day %(n)d (%(date)s). Allowed, for a "
                    "postponed day; the numbers stay, as they fix who meets whom."
                )
                % {"n": earlier, "date": date_format(dates_of[earlier], "SHORT_DATE_FORMAT")}
                if earlier is not None
                else ""
            )
            entries.append(
                {"day": day, "form": day_form, "groups": groups, "date_warning": warning}
            )
        context.update(
            days=entries,
            team_count=team_count,
            repeats=repeats,
            never_met=never_met,
        )
        return context

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if request.POST.get("action") == "places":
            return self.save_places(request)
        try:
            plan = make_match_days(self.league, actor=_actor(request))
        except ServiceError as exc:
            messages.error(request, exc.message)
            return redirect("teams:schedule", league=self.league.slug)
        messages.success(
            request,
            _("Match days made: %(repeats)s, %(unmet)s.")
            % {
                "repeats": ngettext(
                    "%(n)d repeated meeting", "%(n)d repeated meetings", plan.repeats
                )
                % {"n": plan.repeats},
                "unmet": ngettext(
                    "%(n)d pair never meets", "%(n)d pairs never meet", plan.unmet_pairs
                )
                % {"n": plan.unmet_pairs},
            },
        )
        return redirect("teams:schedule", league=self.league.slug)

    def save_places(self, request: HttpRequest) -> HttpResponse:
        """Every match day's date and every group's venue from one form; nothing is saved
        while a field is wrong, and the page shows what was typed with the error."""
        forms_by_key: dict[tuple[str, int], Any] = {}
        dates, venues = {}, {}
        for day in (
            self.league.match_days.filter(GROUP_STAGE).order_by("number").prefetch_related("groups")
        ):
            day_form = MatchDayForm(request.POST, prefix=f"day{day.pk}")
            forms_by_key[("day", day.pk)] = day_form
            if day_form.is_valid():
                dates[day.pk] = day_form.cleaned_data["date"]
            for group in day.groups.all():
                group_form = GroupPlaceForm(request.POST, prefix=f"group{group.pk}")
                forms_by_key[("group", group.pk)] = group_form
                if group_form.is_valid():
                    venues[group.pk] = group_form.cleaned_data["venue"]
        if not all(form.is_valid() for form in forms_by_key.values()):
            context = self.get_context_data(places=forms_by_key)
            return render(request, self.template_name, context, status=400)
        try:
            change_places(self.league, dates=dates, venues=venues, actor=_actor(request))
        except ServiceError as exc:
            messages.error(request, exc.message)
        else:
            messages.success(request, _("Dates and venues saved."))
            saved = self.league.match_days.filter(GROUP_STAGE).values_list("number", "date")
            if dates_out_of_order(list(saved)):
                messages.warning(
                    request,
                    _("Some match days are dated before an earlier one: see the notes below."),
                )
        return redirect("teams:schedule", league=self.league.slug)


class GroupView(OwnerMixin, TemplateView):
    """One group of a match day: per series and team the line-up (a form each, which keeps
    its choice and shows its error), the team draw of each series, the day's result."""

    template_name = "teams/organizer/group.html"

    def dispatch(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
        self.group_pk = kwargs["group"]
        return super().dispatch(request, *args, **kwargs)

    def _group(self) -> Group:
        group = None
        if self.group_pk < MAX_ID:
            group = (
                Group.objects.filter(pk=self.group_pk, match_day__league=self.league)
                .select_related("match_day", "tournament")
                .first()
            )
        if group is None:
            raise Http404
        return group

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        context = super().get_context_data(**kwargs)
        group = kwargs.get("group_obj") or self._group()
        teams = [entry.team for entry in group.group_teams.select_related("team").order_by("order")]
        squads: dict[int, list[Any]] = {team.pk: [] for team in teams}
        for member in by_name(
            SquadMember.objects.filter(team__in=teams).select_related("player").order_by("pk"),
            lambda m: m.player,
        ):
            squads[member.team_id].append(member.player)
        chosen: dict[tuple[int, int], list[int]] = {}
        for line in LineUp.objects.filter(group=group).order_by("series_number", "team", "order"):
            chosen.setdefault((line.series_number, line.team_id), []).append(line.player_id)
        posted = kwargs.get("posted")
        series_list = []
        for series in group.tournament.series.order_by("number"):
            rows = []
            for team in teams:
                key = (series.number, team.pk)
                if posted is not None and posted[0] == key:
                    form = posted[1]
                else:
                    form = LineUpForm(
                        prefix=f"s{series.number}t{team.pk}",
                        squad=squads[team.pk],
                        initial={"players": chosen.get(key, [])},
                    )
                rows.append({"team": team, "form": form, "named": len(chosen.get(key, []))})
            series_list.append({"series": series, "rows": rows})
        context.update(
            group=group,
            series_list=series_list,
            size=line_up_size(group, self.league),
            result=group_result(group),
        )
        return context

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        group = self._group()
        number = _pk(request.POST.get("series"))
        series = group.tournament.series.filter(number=number).first() if number else None
        if series is None:
            messages.error(request, _("Choose one of the group's series."))
            return redirect("teams:group", league=self.league.slug, group=group.pk)
        if request.POST.get("action") == "draw":
            try:
                draw_team_series(series)
            except ServiceError as exc:
                messages.error(request, exc.message)
            else:
                messages.success(request, _("Series %(n)d drawn.") % {"n": series.number})
            return redirect("teams:group", league=self.league.slug, group=group.pk)
        team = group.teams.filter(pk=_id(request.POST.get("team"))).first()
        if team is None:
            messages.error(request, _("Choose one of the group's teams."))
            return redirect("teams:group", league=self.league.slug, group=group.pk)
        squad = by_name(m.player for m in team.squad.select_related("player").order_by("pk"))
        form = LineUpForm(request.POST, prefix=f"s{series.number}t{team.pk}", squad=squad)
        if form.is_valid():
            try:
                set_line_up(
                    group, team, series.number, form.cleaned_data["players"], actor=_actor(request)
                )
            except ServiceError as exc:
                form.add_error("players", exc.message)
            else:
                messages.success(
                    request,
                    _("Line-up of %(team)s for series %(n)d saved.")
                    % {"team": team, "n": series.number},
                )
                return redirect("teams:group", league=self.league.slug, group=group.pk)
        context = self.get_context_data(group_obj=group, posted=((series.number, team.pk), form))
        return render(request, self.template_name, context, status=400)

"""The team captain's page, through his team's private link (no account): the team's groups
and, for each series not drawn yet, the form that names who plays. The organizer hands the
link out like a table captain's; whoever holds it names this team's line-ups, nothing else."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.generic import TemplateView

from common.actors import Actor
from common.parsing import whole_number
from common.services import ServiceError
from teams.doors import TEAM_CAPTAIN
from teams.forms import LineUpForm
from teams.models import Group, LineUp, Team
from teams.services import line_up_size, set_line_up
from tournaments.names import by_name

TOKEN_MAX_LENGTH = 40  # Team.captain_token


def _pk(raw: str | None) -> int | None:
    return whole_number(raw)


class TeamCaptainView(TemplateView):
    template_name = "teams/captain.html"

    def setup(self, request: HttpRequest, *args: Any, **kwargs: Any) -> None:
        super().setup(request, *args, **kwargs)
        token = kwargs["team_token"]
        team = None
        if len(token) <= TOKEN_MAX_LENGTH:
            team = Team.objects.select_related("league").filter(captain_token=token).first()
        if team is None:
            raise Http404
        self.team = team

    def squad(self) -> list[Any]:
        return by_name(m.player for m in self.team.squad.select_related("player").order_by("pk"))

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        squad = self.squad()
        groups = list(
            Group.objects.filter(group_teams__team=self.team)
            .select_related("match_day", "tournament")
            .order_by("match_day__number", "number")
        )
        chosen: dict[tuple[int, int], list[int]] = {}
        for line in LineUp.objects.filter(team=self.team, group__in=groups).order_by("order"):
            chosen.setdefault((line.group_id, line.series_number), []).append(line.player_id)
        names = {p.pk: str(p) for p in squad}
        posted = kwargs.get("posted")
        days = []
        for group in groups:
            rows = []
            for series in group.tournament.series.order_by("number"):
                key = (group.pk, series.number)
                form = None
                if posted is not None and posted[0] == key:
                    form = posted[1]  # with its error, even if the series was drawn meanwhile
                elif series.status == series.Status.PLANNED:
                    form = LineUpForm(
                        prefix=f"g{group.pk}s{series.number}",
                        squad=squad,
                        initial={"players": chosen.get(key, [])},
                    )
                rows.append(
                    {
                        "series": series,
                        "form": form,
                        "named": [names.get(pk, "?") for pk in chosen.get(key, [])],
                    }
                )
            size = line_up_size(group, self.team.league)
            days.append({"group": group, "rows": rows, "size": size})
        return {
            **super().get_context_data(**kwargs),
            "team": self.team,
            "league": self.team.league,
            "squad": squad,
            "days": days,
        }

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        group = Group.objects.filter(
            pk=_pk(request.POST.get("group")) or 0, group_teams__team=self.team
        ).first()
        number = _pk(request.POST.get("series"))
        series = group.tournament.series.filter(number=number).first() if group and number else None
        if group is None or series is None:
            messages.error(request, _("Choose one of the team's series."))
            return redirect("teams:captain", team_token=self.team.captain_token)
        form = LineUpForm(request.POST, prefix=f"g{group.pk}s{series.number}", squad=self.squad())
        if form.is_valid():
            try:
                set_line_up(
                    group,
                    self.team,
                    series.number,
                    form.cleaned_data["players"],
                    actor=Actor(TEAM_CAPTAIN),
                )
            except ServiceError as exc:
                form.add_error("players", exc.message)
            else:
                messages.success(
                    request,
                    _("Line-up of %(team)s for series %(n)d saved.")
                    % {"team": self.team, "n": series.number},
                )
                return redirect("teams:captain", team_token=self.team.captain_token)
        context = self.get_context_data(posted=((group.pk, series.number), form))
        return render(request, self.template_name, context, status=400)

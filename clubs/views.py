"""The clubs' pages: a user's clubs, a club's members (the actions for its owners), and the
invitation link's page. They parse, check who may act (``clubs.members`` decides) and
present; the members' use cases are in ``clubs.members``."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.mixins import LoginRequiredMixin
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBase
from django.shortcuts import get_object_or_404, redirect
from django.urls import reverse
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views import View
from django.views.generic import TemplateView

from clubs import invitations, members, roles
from clubs.forms import PrivacyForm
from clubs.links import CLUB
from clubs.mail import mail_configured
from clubs.models import Club, Invitation, Membership
from clubs.privacy import default_notice, privacy_notice
from common.actors import ORGANIZER, Actor
from common.services import ServiceError


def _actor(request: HttpRequest) -> Actor:
    return Actor(ORGANIZER, user=request.user)


class MyClubsView(LoginRequiredMixin, TemplateView):
    """The clubs the user belongs to, with his role in each."""

    template_name = "clubs/mine.html"

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        context = super().get_context_data(**kwargs)
        context["memberships"] = (
            Membership.objects.filter(user=self.request.user.pk)
            .select_related("club")
            .order_by("club__name", "club__pk")
        )
        return context


class MemberMixin(LoginRequiredMixin):
    """The club from the URL, for its members only: to anyone else it does not exist."""

    club: Club
    role: str

    def dispatch(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
        if not request.user.is_authenticated:
            return self.handle_no_permission()
        self.club = get_object_or_404(Club, slug=kwargs["club"])
        role = members.role_of(self.club, request.user)
        if role is None:
            raise Http404
        self.role = role
        return super().dispatch(request, *args, **kwargs)


class ClubView(MemberMixin, TemplateView):
    """The club's members and their roles; its owners change them and invite by link."""

    template_name = "clubs/club.html"

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        context = super().get_context_data(**kwargs)
        context.update(
            club=self.club,
            is_owner=self.role == roles.OWNER,
            my_role=Membership.Role(self.role).label,
            memberships=self.club.memberships.select_related("user").order_by("pk"),
            roles=Membership.Role.choices,
            more_links=CLUB.links(self.club, self.request.user),
            invitations=(
                invitations.open_invitations(self.club) if self.role == roles.OWNER else []
            ),
            mail_configured=mail_configured(),
        )
        return context


class InviteView(MemberMixin, View):
    """POST: a new invitation for a role (owners). With an e-mail address and a mail server
    its link is sent there; else the link is shown once on the club's page to be copied."""

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if self.role != roles.OWNER:
            raise PermissionDenied
        try:
            invitation = invitations.invite(
                self.club,
                request.POST.get("role", ""),
                email=request.POST.get("email", ""),
                language=get_language() or "de",
                actor=_actor(request),
            )
        except ServiceError as exc:
            messages.error(request, exc.message)
            return redirect("clubs:detail", club=self.club.slug)
        link = request.build_absolute_uri(
            reverse("clubs:accept", kwargs={"token": invitation.token})
        )
        if invitation.mail in (Invitation.Mail.SENT, Invitation.Mail.QUEUED):
            messages.success(
                request, _("Invitation sent to %(email)s.") % {"email": invitation.email}
            )
        elif invitation.mail == Invitation.Mail.FAILED:
            messages.error(
                request,
                _(
                    "The invitation could not be sent to %(email)s. Send this link yourself "
                    "(valid for %(days)d days): %(link)s"
                )
                % {"email": invitation.email, "days": invitations.INVITATION_DAYS, "link": link},
            )
        else:
            messages.success(
                request,
                _("Invitation link (valid for %(days)d days): %(link)s")
                % {"days": invitations.INVITATION_DAYS, "link": link},
            )
        return redirect("clubs:detail", club=self.club.slug)


class WithdrawInvitationView(MemberMixin, View):
    """POST: withdraw an open invitation (owners); its link no longer works."""

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if self.role != roles.OWNER:
            raise PermissionDenied
        try:
            invitations.withdraw_invitation(self.club, kwargs["pk"], actor=_actor(request))
        except ServiceError as exc:
            messages.error(request, exc.message)
        else:
            messages.success(request, _("The invitation is withdrawn."))
        return redirect("clubs:detail", club=self.club.slug)


class MemberActionView(MemberMixin, View):
    """POST ``action`` (``role``, ``remove``, ``hand_over``, ``leave``) for the member
    ``user`` (``leave``: oneself)."""

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        action, actor = request.POST.get("action", ""), _actor(request)
        if action != "leave" and self.role != roles.OWNER:
            raise PermissionDenied  # only owners change the members
        try:
            user_id = int(request.POST.get("user") or 0)
        except ValueError:
            user_id = 0
        try:
            if action == "leave":
                members.leave(self.club, actor=actor)
                messages.success(request, _("You have left the club."))
                return redirect("clubs:mine")
            if action == "role":
                members.change_role(self.club, user_id, request.POST.get("role", ""), actor=actor)
            elif action == "remove":
                members.remove_member(self.club, user_id, actor=actor)
            elif action == "hand_over":
                members.hand_over(self.club, user_id, actor=actor)
            else:
                messages.error(request, _("Choose an action."))
                return redirect("clubs:detail", club=self.club.slug)
        except ServiceError as exc:
            messages.error(request, exc.message)
            return redirect("clubs:detail", club=self.club.slug)
        messages.success(request, _("Members saved."))
        return redirect("clubs:detail", club=self.club.slug)


class AcceptView(LoginRequiredMixin, TemplateView):
    """The invitation link: which club and role it offers; POST joins."""

    template_name = "clubs/invitation.html"

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        context = super().get_context_data(**kwargs)
        try:
            invitation = invitations.read_invitation(kwargs["token"])
        except ServiceError as exc:
            context["problem"] = exc.message
        else:
            context.update(club=invitation.club, role=invitation.get_role_display())
        return context

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        try:
            membership = invitations.accept_invitation(kwargs["token"], actor=_actor(request))
        except ServiceError as exc:
            messages.error(request, exc.message)
            return redirect("clubs:mine")
        return redirect("clubs:detail", club=membership.club.slug)


class PrivacyView(TemplateView):
    """The club's privacy notice, public, in the visitor's language (DSGVO)."""

    template_name = "clubs/privacy.html"

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        club = get_object_or_404(Club, slug=kwargs["club"])
        text = privacy_notice(club, get_language() or "de")
        # The notice's first line is its title (the default texts' and, by the edit page's
        # help, a club's own).
        title, _newline, body = text.strip().partition("\n")
        return {**super().get_context_data(**kwargs), "club": club, "title": title, "body": body}


class PrivacyEditView(MemberMixin, TemplateView):
    """The owners edit the privacy notice (German, English) and the publication period."""

    template_name = "clubs/privacy_edit.html"

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        if self.role != roles.OWNER:
            raise PermissionDenied
        form = kwargs.get("form") or PrivacyForm(
            initial={
                "publication_years": self.club.publication_years,
                "notice_de": self.club.privacy_notice_de,
                "notice_en": self.club.privacy_notice_en,
            }
        )
        return {
            **super().get_context_data(**kwargs),
            "club": self.club,
            "form": form,
            "default_de": default_notice(self.club, "de"),
            "default_en": default_notice(self.club, "en"),
        }

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if self.role != roles.OWNER:
            raise PermissionDenied
        form = PrivacyForm(request.POST)
        if form.is_valid():
            try:
                members.change_privacy(
                    self.club,
                    notice_de=form.cleaned_data["notice_de"],
                    notice_en=form.cleaned_data["notice_en"],
                    publication_years=form.cleaned_data["publication_years"],
                    actor=_actor(request),
                )
            except ServiceError as exc:
                form.add_error(exc.field, exc.message)
            else:
                messages.success(request, _("The privacy settings are saved."))
                return redirect("clubs:privacy-edit", club=self.club.slug)
        return self.render_to_response(self.get_context_data(form=form))

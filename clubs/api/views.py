"""A user's clubs, a club's members and its invitations through the API: thin views over
the same use cases as the club pages (``clubs.members``, ``clubs.invitations``), with the
same permissions. A club exists only for its members (anybody else signed in: 404); its
members read its members; its owners change them, invite and withdraw invitations (other
members: 403 ``not_owner``); without credentials 401."""

from __future__ import annotations

from typing import Any

from django.http import Http404
from django.urls import reverse
from django.utils.translation import get_language
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import exceptions
from rest_framework.generics import GenericAPIView
from rest_framework.request import Request
from rest_framework.response import Response

from clubs import invitations, members, roles
from clubs.api.serializers import (
    HandOverSerializer,
    InvitationSerializer,
    InviteSerializer,
    MemberSerializer,
    MembersSerializer,
    MyClubSerializer,
    NewInvitationSerializer,
    RoleSerializer,
    invitation_json,
    member_json,
    my_club_json,
)
from clubs.models import Club, Membership
from common.actors import API, Actor
from common.api.base import ApiView, validated
from common.api.errors import ApiError, raise_service_error
from common.api.schema import errors
from common.services import ServiceError

CLUB = OpenApiParameter("club", str, OpenApiParameter.PATH, description="The club's short name.")
USER = OpenApiParameter("user", str, OpenApiParameter.PATH, description="The member's user name.")
INVITATION = OpenApiParameter(
    "invitation", int, OpenApiParameter.PATH, description="The invitation's id."
)
READ_ERRORS = errors(401, 404)
OWNER_READ_ERRORS = errors(401, 403, 404)
CHANGE_ERRORS = errors(400, 401, 403, 404, 409)
NO_CONTENT = OpenApiResponse(description="Done; no body.")


def _actor(request: Request) -> Actor:
    return Actor(API, user=request.user)


def member_club(request: Request, slug: str) -> tuple[Club, str]:
    """The club and the caller's role in it; 401 without credentials, 404 for a club of
    which he is no member (or that does not exist)."""
    if not request.user.is_authenticated:
        raise exceptions.NotAuthenticated()
    membership = (
        Membership.objects.filter(club__slug=slug, user=request.user.pk)
        .select_related("club")
        .first()
    )
    if membership is None:
        raise Http404
    return membership.club, membership.role


def owned_club(request: Request, slug: str) -> Club:
    club, role = member_club(request, slug)
    if role != roles.OWNER:
        raise ApiError(403, "not_owner", str(members.owners_only_message()))
    return club


def _member(club: Club, username: str) -> Membership:
    found = (
        Membership.objects.filter(club=club, user__username=username).select_related("user").first()
    )
    if found is None:
        raise Http404
    return found


class ClubListView(ApiView, GenericAPIView[Any]):
    serializer_class = MyClubSerializer

    @extend_schema(
        summary="The caller's clubs, with his role in each",
        responses={200: MyClubSerializer(many=True), **errors(401)},
    )
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        if not request.user.is_authenticated:
            raise exceptions.NotAuthenticated()
        mine = (
            Membership.objects.filter(user=request.user.pk)
            .select_related("club")
            .order_by("club__name", "club__pk")
        )
        page = self.paginate_queryset(mine)
        assert page is not None  # ApiMixin sets a pagination class
        user_id = request.user.pk
        return self.get_paginated_response([my_club_json(m, user_id) for m in page])


class MemberListView(ApiView, GenericAPIView[Any]):
    serializer_class = MemberSerializer

    @extend_schema(
        summary="The club's members and their roles (for its members)",
        parameters=[CLUB],
        responses={200: MemberSerializer(many=True), **READ_ERRORS},
    )
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        club, _role = member_club(request, kwargs["club"])
        rows = club.memberships.select_related("user").order_by("pk")
        page = self.paginate_queryset(rows)
        assert page is not None
        return self.get_paginated_response([member_json(m) for m in page])


class MemberView(ApiView):
    @extend_schema(
        summary="Change a member's role (owners)",
        description="A club keeps at least one owner: 409 `last_owner`.",
        parameters=[CLUB, USER],
        request=RoleSerializer,
        responses={200: MemberSerializer, **CHANGE_ERRORS},
    )
    def patch(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        club = owned_club(request, kwargs["club"])
        member = _member(club, kwargs["user"])
        data = validated(RoleSerializer, request.data)
        try:
            changed = members.change_role(club, member.user_id, data["role"], actor=_actor(request))
        except ServiceError as exc:
            raise_service_error(exc)
        return Response(member_json(changed))

    @extend_schema(
        summary="Remove a member from the club (owners)",
        description="A club keeps at least one owner: 409 `last_owner`.",
        parameters=[CLUB, USER],
        responses={204: NO_CONTENT, **errors(401, 403, 404, 409)},
    )
    def delete(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        club = owned_club(request, kwargs["club"])
        member = _member(club, kwargs["user"])
        try:
            members.remove_member(club, member.user_id, actor=_actor(request))
        except ServiceError as exc:
            raise_service_error(exc)
        return Response(status=204)


class HandOverView(ApiView):
    @extend_schema(
        summary="Hand the club over to a member (owners)",
        description="The member becomes an owner and the caller an organizer. To oneself: no "
        "change. Answers every member. A user name that is no member's: 400 on `user`.",
        parameters=[CLUB],
        request=HandOverSerializer,
        responses={200: MembersSerializer, **CHANGE_ERRORS},
    )
    def post(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        club = owned_club(request, kwargs["club"])
        data = validated(HandOverSerializer, request.data)
        successor = (
            Membership.objects.filter(club=club, user__username=data["user"]).only("user").first()
        )
        if successor is None:
            raise ApiError(400, "not_member", str(members.not_member_message()), field="user")
        try:
            members.hand_over(club, successor.user_id, actor=_actor(request))
        except ServiceError as exc:
            raise_service_error(exc)
        rows = club.memberships.select_related("user").order_by("pk")
        return Response({"members": [member_json(m) for m in rows]})


class LeaveView(ApiView):
    @extend_schema(
        summary="Leave the club",
        description="The last owner cannot leave: 409 `last_owner` (hand the club over first).",
        parameters=[CLUB],
        request=None,
        responses={204: NO_CONTENT, **errors(401, 404, 409)},
    )
    def post(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        club, _role = member_club(request, kwargs["club"])
        try:
            members.leave(club, actor=_actor(request))
        except ServiceError as exc:
            raise_service_error(exc)
        return Response(status=204)


class InvitationListView(ApiView, GenericAPIView[Any]):
    serializer_class = InvitationSerializer

    @extend_schema(
        summary="The club's open invitations (owners)",
        parameters=[CLUB],
        responses={200: InvitationSerializer(many=True), **OWNER_READ_ERRORS},
    )
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        club = owned_club(request, kwargs["club"])
        page = self.paginate_queryset(invitations.open_invitations(club))
        assert page is not None
        return self.get_paginated_response([invitation_json(i) for i in page])

    @extend_schema(
        summary="Invite somebody with a role (owners): a link, and by e-mail if asked",
        description="201 with the invitation and its `link` (shown this once; valid "
        "once, until `expires_at`). With `email` and a mail server configured the link is "
        "sent there in the caller's language (`Accept-Language`) once stored; `mail` says "
        "how (`queued`, `sent`, `failed`); without a mail server `mail` is `none`: send the "
        "link yourself.",
        parameters=[CLUB],
        request=InviteSerializer,
        responses={201: NewInvitationSerializer, **errors(400, 401, 403, 404)},
    )
    def post(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        club = owned_club(request, kwargs["club"])
        data = validated(InviteSerializer, request.data)
        try:
            invitation = invitations.invite(
                club, data["role"], email=data.get("email", ""),
                language=get_language() or "de", actor=_actor(request),
            )  # fmt: skip
        except ServiceError as exc:
            raise_service_error(exc)
        link = request.build_absolute_uri(
            reverse("clubs:accept", kwargs={"token": invitation.token})
        )
        return Response({**invitation_json(invitation), "link": link}, status=201)


class WithdrawInvitationView(ApiView):
    @extend_schema(
        summary="Withdraw an invitation (owners): its link no longer works",
        description="Again: no change. An accepted one: 409 `invitation_used`.",
        parameters=[CLUB, INVITATION],
        request=None,
        responses={200: InvitationSerializer, **errors(401, 403, 404, 409)},
    )
    def post(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        club = owned_club(request, kwargs["club"])
        try:
            invitation = invitations.withdraw_invitation(
                club, kwargs["invitation"], actor=_actor(request)
            )
        except ServiceError as exc:
            raise_service_error(exc)
        return Response(invitation_json(invitation))

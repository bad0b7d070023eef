"""A user's clubs, a club's members and its invitations as the API shows them and what it
takes."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from clubs.models import Invitation, Membership
from common.api.base import StrictSerializer


class MyClubSerializer(serializers.Serializer[Any]):
    """Schema only: a club of the caller, with his role in it."""

    slug = serializers.CharField(help_text="The club's short name (in its addresses).")
    name = serializers.CharField()
    role = serializers.ChoiceField(choices=Membership.Role.choices, help_text="The caller's role.")
    personal = serializers.BooleanField(help_text="The caller's personal club.")


class MemberSerializer(serializers.Serializer[Any]):
    """Schema only: a member of the club and his role."""

    user = serializers.CharField(help_text="The member's user name (in his address).")
    name = serializers.CharField(help_text="His full name, else his user name.")
    role = serializers.ChoiceField(choices=Membership.Role.choices)
    joined_at = serializers.DateTimeField()


class MembersSerializer(serializers.Serializer[Any]):
    """Schema only: every member of the club after a change."""

    members = MemberSerializer(many=True)


class RoleSerializer(StrictSerializer):
    role = serializers.ChoiceField(choices=Membership.Role.choices)


class HandOverSerializer(StrictSerializer):
    user = serializers.CharField(
        max_length=150, help_text="The member who becomes the club's owner; you become organizer."
    )


class InviteSerializer(StrictSerializer):
    role = serializers.ChoiceField(choices=Membership.Role.choices)
    email = serializers.EmailField(
        required=False,
        allow_blank=True,
        max_length=254,
        help_text="Optional: the link is sent there when the server has a mail server "
        "(`mail` in the answer says how it went); else copy `link` yourself.",
    )


class InvitationSerializer(serializers.Serializer[Any]):
    """Schema only: an invitation. ``link`` only in the answer that made it."""

    id = serializers.IntegerField()
    role = serializers.ChoiceField(choices=Membership.Role.choices)
    email = serializers.CharField(allow_blank=True, help_text='"": a link only.')
    status = serializers.ChoiceField(choices=Invitation.Status.choices)
    mail = serializers.ChoiceField(
        choices=Invitation.Mail.choices,
        help_text="`none`: not sent by e-mail (no address, or no mail server); `queued`: "
        "a worker sends it; `sent`; `failed`: send the link yourself.",
    )
    invited_by = serializers.CharField(allow_null=True)
    created_at = serializers.DateTimeField()
    expires_at = serializers.DateTimeField()


class NewInvitationSerializer(InvitationSerializer):
    """Schema only: a new invitation with its link (shown this once)."""

    link = serializers.CharField(help_text="The invitation link; valid once, until expires_at.")


def my_club_json(membership: Membership, user_id: int) -> dict[str, Any]:
    club = membership.club
    return {
        "slug": club.slug,
        "name": club.name,
        "role": membership.role,
        "personal": club.personal_of_id == user_id,
    }


def member_json(membership: Membership) -> dict[str, Any]:
    user = membership.user
    return {
        "user": user.get_username(),
        "name": user.get_full_name() or user.get_username(),
        "role": membership.role,
        "joined_at": membership.joined_at,
    }


def invitation_json(invitation: Invitation) -> dict[str, Any]:
    inviter = invitation.invited_by
    return {
        "id": invitation.pk,
        "role": invitation.role,
        "email": invitation.email,
        "status": invitation.status,
        "mail": invitation.mail,
        "invited_by": inviter.get_username() if inviter else None,
        "created_at": invitation.created_at,
        "expires_at": invitation.expires_at,
    }

"""The use cases of a club's members: leaving, removing a member, changing a role, handing
over ownership (inviting and accepting: ``clubs.invitations``). Each locks the club's row, so
that two owners acting at once are taken one after the other and the club always keeps at
least one owner; each is logged in ``ClubChange``.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from clubs import roles
from clubs.models import Club, ClubChange, Membership
from common.actors import Actor
from common.services import Refusal, ServiceError


def owners_only_message() -> str:
    return _("Only the club's owners may do this.")


def not_member_message() -> str:
    return _("This person is not a member of the club.")


def _forbidden(message: str) -> ServiceError:
    return ServiceError("forbidden", message, refusal=Refusal.FORBIDDEN)


def _user_of(actor: Actor) -> Any:
    if actor.user is None or not actor.user.is_authenticated:
        raise _forbidden(_("Log in first."))
    return actor.user


def _locked(club: Club) -> Club:
    return Club.objects.select_for_update().get(pk=club.pk)


def role_of(club: Club, user: Any) -> str | None:
    if not user.is_authenticated:
        return None
    found = Membership.objects.filter(club=club, user=user.pk).values_list("role", flat=True)
    return found.first()


def _require_owner(club: Club, actor: Actor) -> Any:
    user = _user_of(actor)
    if role_of(club, user) != roles.OWNER:
        raise _forbidden(owners_only_message())
    return user


def _member(club: Club, user_id: int) -> Membership:
    found = Membership.objects.filter(club=club, user_id=user_id).select_related("user").first()
    if found is None:
        raise ServiceError("not_member", not_member_message(), refusal=Refusal.NOT_FOUND)
    return found


def _keep_an_owner(club: Club, leaving: Membership) -> None:
    """Refuse when ``leaving`` is the club's last owner (the club's row is locked)."""
    owners = Membership.objects.filter(club=club, role=roles.OWNER).exclude(pk=leaving.pk)
    if leaving.role == roles.OWNER and not owners.exists():
        raise ServiceError(
            "last_owner",
            _("A club keeps at least one owner: hand the club over first."),
            refusal=Refusal.CONFLICT,
        )


def _log(club: Club, action: str, actor: Actor, before: Any = None, after: Any = None) -> None:
    ClubChange.objects.create(
        club=club, action=action, before=before, after=after, user=actor.user,
        via=actor.describe(),
    )  # fmt: skip


def _entry(membership: Membership) -> dict[str, str]:
    return {"user": membership.user.get_username(), "role": membership.role}


# --- members ------------------------------------------------------------------------------


@transaction.atomic
def leave(club: Club, *, actor: Actor) -> None:
    user = _user_of(actor)
    club = _locked(club)
    membership = _member(club, user.pk)
    _keep_an_owner(club, membership)
    before = _entry(membership)
    membership.delete()
    _log(club, "clubs.member.left", actor, before=before)


@transaction.atomic
def remove_member(club: Club, user_id: int, *, actor: Actor) -> None:
    club = _locked(club)
    _require_owner(club, actor)
    membership = _member(club, user_id)
    _keep_an_owner(club, membership)
    before = _entry(membership)
    membership.delete()
    _log(club, "clubs.member.removed", actor, before=before)


@transaction.atomic
def change_role(club: Club, user_id: int, role: str, *, actor: Actor) -> Membership:
    club = _locked(club)
    _require_owner(club, actor)
    if role not in roles.ROLES:
        raise ServiceError("invalid_role", _("Choose a role."), field="role")
    membership = _member(club, user_id)
    if role != roles.OWNER:
        _keep_an_owner(club, membership)
    before = _entry(membership)
    membership.role = role
    membership.save(update_fields=["role"])
    _log(club, "clubs.member.role_changed", actor, before=before, after=_entry(membership))
    return membership


@transaction.atomic
def hand_over(club: Club, user_id: int, *, actor: Actor) -> None:
    """Make the member ``user_id`` the club's owner; the acting owner becomes an organizer."""
    club = _locked(club)
    user = _require_owner(club, actor)
    successor = _member(club, user_id)
    if successor.user_id == user.pk:
        return
    mine = _member(club, user.pk)
    before = [_entry(mine), _entry(successor)]
    successor.role = roles.OWNER
    successor.save(update_fields=["role"])
    mine.role = roles.ORGANIZER
    mine.save(update_fields=["role"])
    after = [_entry(mine), _entry(successor)]
    _log(club, "clubs.club.handed_over", actor, before=before, after=after)


# --- privacy -------------------------------------------------------------------------------


@transaction.atomic
def change_privacy(
    club: Club, *, notice_de: str, notice_en: str, publication_years: int, actor: Actor
) -> Club:
    """The club's privacy notice (per language; empty: the default) and how many years its
    results are published with names (0: no limit); owners only."""
    locked = _locked(club)
    _require_owner(locked, actor)
    if not 0 <= publication_years <= 50:
        raise ServiceError("invalid_years", _("Give 0 to 50 years."), field="publication_years")
    before = {"publication_years": locked.publication_years}
    locked.privacy_notice_de, locked.privacy_notice_en = notice_de.strip(), notice_en.strip()
    locked.publication_years = publication_years
    locked.save(update_fields=["privacy_notice_de", "privacy_notice_en", "publication_years"])
    _log(locked, "clubs.club.privacy_changed", actor, before=before,
         after={"publication_years": publication_years})  # fmt: skip
    return locked

"""The club a tournament, season or league belongs to, as a field of its API resource."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from django.utils.translation import gettext_lazy as _
from rest_framework import serializers

from clubs.models import Club
from clubs.services import clubs_keeping


class ClubField(serializers.SlugRelatedField):  # type: ignore[type-arg]
    """The owning club by its short name. When creating, one of the clubs in which the
    requester keeps things of ``kind`` (any other answers as if it did not exist: a club's
    name is not public); left out, his personal club. It stays the club it was created in:
    an update may send it back unchanged, not another."""

    def __init__(self, kind: str, **kwargs: Any) -> None:
        self.kind = kind
        kwargs.setdefault(
            "help_text",
            "The club it belongs to (its short name): one in which you keep such things; "
            "left out, your personal club. Fixed once created.",
        )
        super().__init__(slug_field="slug", required=False, **kwargs)

    def get_queryset(self) -> QuerySet[Club]:
        request = self.context.get("request")
        if request is None:
            return Club.objects.none()
        return clubs_keeping(request.user, self.kind)

    def to_internal_value(self, data: Any) -> Club:
        kept = getattr(self.parent, "instance", None)
        if kept is not None:
            if data != kept.club.slug:
                raise serializers.ValidationError(
                    _("It stays in the club it was created in."), code="club_fixed"
                )
            club: Club = kept.club
            return club
        chosen: Club = super().to_internal_value(data)
        return chosen

"""The owned thing from an API URL: 404 when the requester may not see it, 401/403 when he
may see it but not change it (one rule, ``common.ownership``, for every owned thing)."""

from __future__ import annotations

from typing import TypeVar

from django.db.models import Model, QuerySet
from django.http import Http404
from rest_framework import exceptions
from rest_framework.request import Request

from common.api.errors import ApiError
from common.ownership import Ownership

M = TypeVar("M", bound=Model)


def seen(
    request: Request, ownership: Ownership[M], slug: str, queryset: QuerySet[M] | None = None
) -> M:
    """The thing with this slug, if the requester may see it (else 404)."""
    thing = ownership.visible(request.user, queryset).filter(slug=slug).first()
    if thing is None:
        raise Http404
    return thing


def require_keeper(
    request: Request, ownership: Ownership[M], thing: M, code: str, message: str
) -> None:
    """401 for an anonymous requester, 403 (``code``, ``message``) for one who does not keep it."""
    if not request.user.is_authenticated:
        raise exceptions.NotAuthenticated()
    if not ownership.may_keep(request.user, thing):
        raise ApiError(403, code, message)


def kept(
    request: Request,
    ownership: Ownership[M],
    slug: str,
    code: str,
    message: str,
    queryset: QuerySet[M] | None = None,
) -> M:
    """The thing with this slug, for those who keep it (404 when not even seen)."""
    thing = seen(request, ownership, slug, queryset)
    require_keeper(request, ownership, thing, code, message)
    return thing


def kept_only(request: Request, ownership: Ownership[M], slug: str) -> M:
    """The thing with this slug for those who keep it; a private resource of it (its fees,
    its referee calls) does not exist for anybody else, public or not: 404. Anonymous
    requesters get 401 whatever the slug, so the answer says nothing about the thing."""
    if not request.user.is_authenticated:
        raise exceptions.NotAuthenticated()
    thing = ownership.model._default_manager.filter(slug=slug).first()
    if thing is None or not ownership.may_keep(request.user, thing):
        raise Http404
    return thing

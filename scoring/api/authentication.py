"""Table captains authenticate with ``Authorization: Table <captain token>``.

The token is the one of the table's private link (QR code on the score sheet). It resolves
to the table, not to a user: ``request.user`` stays anonymous and ``request.auth`` is the
``Table``. What the captain may do with it is decided in ``scoring.api.access``.
"""

from __future__ import annotations

import re
from typing import Any

from django.contrib.auth.models import AnonymousUser
from django.utils.translation import gettext_lazy as _
from drf_spectacular.extensions import OpenApiAuthenticationExtension
from rest_framework import exceptions
from rest_framework.authentication import BaseAuthentication, get_authorization_header
from rest_framework.request import Request

from scoring.reads import table_by_token
from tournaments.models import Table

TOKEN = re.compile(rb"^[A-Za-z0-9_-]{1,40}$")


class TableAuthentication(BaseAuthentication):
    keyword = "Table"

    def authenticate(self, request: Request) -> tuple[AnonymousUser, Table] | None:
        parts = get_authorization_header(request).split()
        if not parts or parts[0].lower() != self.keyword.lower().encode():
            return None
        if len(parts) != 2 or not TOKEN.match(parts[1]):
            raise exceptions.AuthenticationFailed(
                _("Invalid table token header."), code="invalid_table_token"
            )
        token = parts[1].decode("ascii")
        table = table_by_token(token)
        if table is None:
            raise exceptions.AuthenticationFailed(
                _("This table link is not valid."), code="invalid_table_token"
            )
        return AnonymousUser(), table

    def authenticate_header(self, request: Request) -> str:
        return self.keyword


def captain_table(request: Request) -> Table | None:
    """The table whose captain token authenticated the request, if any."""
    return request.auth if isinstance(request.auth, Table) else None


# drf-spectacular's extension base registers subclasses in an unannotated __init_subclass__.
class TableAuthenticationScheme(OpenApiAuthenticationExtension):  # type: ignore[no-untyped-call]
    target_class = "scoring.api.authentication.TableAuthentication"
    name = "tableAuth"

    def get_security_definition(self, auto_schema: Any) -> dict[str, str]:
        return {
            "type": "apiKey",
            "in": "header",
            "name": "Authorization",
            "description": "Table captains: `Table <captain token>` (the token of the "
            "table's private link).",
        }

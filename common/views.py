"""What the apps' HTML pages share: the owned thing from the URL, for its keepers only; the
lists of owned things, public and the keeper's own."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from django.contrib.auth.mixins import LoginRequiredMixin
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.db.models import Model, QuerySet
from django.http import HttpRequest, HttpResponseBase
from django.shortcuts import get_object_or_404
from django.views.generic import TemplateView
from django_stubs_ext import StrOrPromise

from common.ownership import Ownership


class KeeperMixin(LoginRequiredMixin):
    """The thing from the URL (``slug`` by ``url_kwarg``), for those who keep it (the login
    page for anonymous visitors, 403 for everyone else). A subclass names the rule, the URL
    keyword and the attribute and context name it is kept under."""

    ownership: ClassVar[Ownership[Any]]
    url_kwarg: ClassVar[str]
    context_name: ClassVar[str]

    def dispatch(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
        if not request.user.is_authenticated:
            return self.handle_no_permission()
        thing: Model = get_object_or_404(self.ownership.model, slug=kwargs[self.url_kwarg])
        if not self.ownership.may_keep(request.user, thing):
            raise PermissionDenied
        setattr(self, self.context_name, thing)
        return super().dispatch(request, *args, **kwargs)

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        context: dict[str, Any] = super().get_context_data(**kwargs)  # type: ignore[misc]
        context[self.context_name] = getattr(self, self.context_name)
        return context


@dataclass(frozen=True)
class ListRow:
    """One owned thing in a list: its name and page, whether it is private, a line under the
    name, its keeper's links (owner lists only) and the figure of the right-hand column."""

    name: str
    url: str
    private: bool
    count: int
    note: str = ""
    links: tuple[tuple[str, str], ...] = ()


class OwnedListView(TemplateView):
    """A list of owned things (seasons, leagues): the public one (``mine = False``: what the
    visitor may see) or the keeper's own (``mine = True``: what he keeps, with his links).
    Who keeps and who sees come from the ``ownership`` rule; a subclass says what a row
    shows and the words around it."""

    template_name = "common/owned_list.html"
    ownership: ClassVar[Ownership[Any]]
    mine: ClassVar[bool] = False
    stylesheet: ClassVar[str]
    #: Words of the page: its title, the name and count columns, the empty list.
    heading: ClassVar[StrOrPromise]
    name_column: ClassVar[StrOrPromise]
    count_column: ClassVar[StrOrPromise]
    empty: ClassVar[StrOrPromise]

    def dispatch(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
        if self.mine and not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        return super().dispatch(request, *args, **kwargs)

    def things(self) -> QuerySet[Any]:
        rows: QuerySet[Any] = self.ownership.model._default_manager.all()
        if self.mine:
            return rows.filter(self.ownership.kept_by(self.request.user))
        return self.ownership.visible(self.request.user, rows)

    def counted(self, rows: QuerySet[Any]) -> QuerySet[Any]:
        """``rows`` with the count column's figure as ``listed_count``."""
        raise NotImplementedError

    def row(self, thing: Any, count: int) -> ListRow:
        raise NotImplementedError

    def action(self) -> tuple[str, str, bool] | None:
        """The button beside the heading: (label, URL, primary), or none."""
        return None

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        context = super().get_context_data(**kwargs)
        things = self.counted(self.things()).order_by("name", "pk")
        context.update(
            heading=self.heading,
            stylesheet=self.stylesheet,
            name_column=self.name_column,
            count_column=self.count_column,
            empty=self.empty,
            action=self.action(),
            mine=self.mine,
            rows=[self.row(thing, thing.listed_count) for thing in things],
        )
        return context

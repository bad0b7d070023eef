"""SQL pieces built from models, for statements that do several things at once."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any, Generic, NamedTuple, TypeVar

from django.db import DEFAULT_DB_ALIAS, connection
from django.db.backends.utils import CursorWrapper
from django.db.models import AutoField, BigAutoField, Model, QuerySet, SmallAutoField
from django.db.models.query import get_related_populators  # type: ignore[attr-defined]
from django.db.models.sql.compiler import SQLCompiler

M = TypeVar("M", bound=Model)


def prepared_cursor() -> CursorWrapper:
    """A cursor for a statement sent over and over with other values (each game entry's): on
    PostgreSQL it is prepared once per connection and its values bound on the server
    (``config/postgresql/base.py``); elsewhere the ordinary cursor. Its SQL must be valid
    with typed parameters: cast where PostgreSQL cannot infer a parameter's type."""
    make = getattr(connection, "prepared_cursor", None)
    return make() if make is not None else connection.cursor()


def insert_cte(obj: Model, name: str, returning: str = "") -> tuple[str, dict[str, Any]]:
    """A CTE ``name AS (INSERT ...)`` that inserts the unsaved ``obj`` as ``obj.save()``
    would (``auto_now``/``auto_now_add`` and defaults included; its primary key from the
    database: name it in ``returning`` to read it), with its named parameters
    (``%(name_<i>)s``), to run in another statement. PostgreSQL only: SQLite has no
    data-modifying CTEs."""
    fields = [
        f
        for f in obj._meta.local_concrete_fields
        if not isinstance(f, AutoField | BigAutoField | SmallAutoField)
    ]
    quote = connection.ops.quote_name
    params = {
        f"{name}_{i}": f.get_db_prep_save(f.pre_save(obj, True), connection)
        for i, f in enumerate(fields)
    }
    sql = "{name} AS (INSERT INTO {table} ({columns}) VALUES ({values}){returning})".format(
        name=name,
        table=quote(obj._meta.db_table),
        columns=", ".join(quote(f.column) for f in fields),
        values=", ".join(f"%({key})s" for key in params),
        returning=f" RETURNING {returning}" if returning else "",
    )
    return sql, params


class _Compiled(NamedTuple):
    sql: str
    compiler: SQLCompiler
    names: list[str]  # the model's attributes, in the order of its columns
    start: int
    end: int
    related: list[Any]  # Django's populators of the select_related objects


class PreparedLookup(Generic[M]):
    """The first object of a queryset that is run over and over with one value (a token):
    compiled to SQL once per thread, as the ORM's compile costs more than the statement, and
    sent through ``prepared_cursor``. The object is built as the queryset would build it,
    with its ``select_related`` objects. ``queryset(value)`` must filter on ``value`` and
    have no other parameter."""

    def __init__(self, queryset: Callable[[str], QuerySet[M]]) -> None:
        self.queryset = queryset
        self.local = threading.local()  # a compiler belongs to its thread's connection

    def compiled(self) -> _Compiled:
        found: _Compiled | None = getattr(self.local, "compiled", None)
        if found is None:
            marker = "lookup-value"
            compiler = self.queryset(marker).query.get_compiler(using=DEFAULT_DB_ALIAS)
            sql, params = compiler.as_sql()
            assert list(params) == [marker], "one parameter: the value"
            info = compiler.klass_info
            assert info is not None
            start, end = info["select_fields"][0], info["select_fields"][-1] + 1
            names = [column[0].target.attname for column in compiler.select[start:end]]
            related = get_related_populators(info, compiler.select, DEFAULT_DB_ALIAS)
            found = self.local.compiled = _Compiled(sql, compiler, names, start, end, related)
        return found

    def first(self, value: str) -> M | None:
        compiled = self.compiled()
        with prepared_cursor() as cursor:
            cursor.execute(compiled.sql, [value])
            rows = cursor.fetchmany(1)
        for row in compiled.compiler.results_iter([rows]):
            model = compiled.compiler.klass_info["model"]
            obj: M = model.from_db(
                DEFAULT_DB_ALIAS, compiled.names, row[compiled.start : compiled.end]
            )
            for populator in compiled.related:
                populator.populate(row, obj)
            return obj
        return None

"""SQL pieces built from models, for statements that do several things at once."""

from __future__ import annotations

import functools
import logging
import threading
from collections.abc import Callable
from types import NoneType
from typing import Any, Generic, NamedTuple, TypeVar

from django.db import DEFAULT_DB_ALIAS, connection
from django.db.backends.utils import CursorWrapper
from django.db.models import (
    AutoField,
    BigAutoField,
    BigIntegerField,
    BooleanField,
    CharField,
    Field,
    ForeignKey,
    IntegerField,
    Model,
    OneToOneField,
    PositiveIntegerField,
    PositiveSmallIntegerField,
    QuerySet,
    SmallAutoField,
    SmallIntegerField,
    TextField,
)
from django.db.models.sql.compiler import SQLCompiler

try:  # Django's, not public API: see PreparedLookup
    from django.db.models.query import get_related_populators  # type: ignore[attr-defined]
except ImportError:  # pragma: no cover - a Django without it: PreparedLookup takes the ORM
    get_related_populators = None

M = TypeVar("M", bound=Model)

logger = logging.getLogger(__name__)


def prepared_cursor() -> CursorWrapper:
    """A cursor for a statement sent over and over with other values (each game entry's): on
    PostgreSQL it is prepared once per connection and its values bound on the server
    (``config/postgresql/base.py``); elsewhere the ordinary cursor. Its SQL must be valid
    with typed parameters: cast where PostgreSQL cannot infer a parameter's type."""
    make = getattr(connection, "prepared_cursor", None)
    return make() if make is not None else connection.cursor()


#: Field classes that send a value of these types to the database as it is: what their
#: ``get_db_prep_save`` returns for it. Matched by exact class, so a subclass that converts
#: differently goes the ORM's way.
_AS_IS: dict[type[Field[Any, Any]], tuple[type, ...]] = {
    **dict.fromkeys((CharField, TextField), (str, NoneType)),
    **dict.fromkeys(
        (
            IntegerField, PositiveIntegerField, PositiveSmallIntegerField, SmallIntegerField,
            BigIntegerField, AutoField, BigAutoField, SmallAutoField,
        ),
        (int, NoneType),
    ),
    BooleanField: (bool, NoneType),
}  # fmt: skip


class _Column(NamedTuple):
    field: Field[Any, Any]
    attname: str
    as_is: tuple[type, ...]  # value types sent unconverted
    pre_save: bool  # the field sets its value on save (``auto_now``)


def _as_is(field: Field[Any, Any]) -> tuple[type, ...]:
    if type(field) in (ForeignKey, OneToOneField):
        # None as None, otherwise the target's conversion (an id, unless the target is
        # a string key, which may not take "")
        target = _AS_IS.get(type(field.target_field), ())  # type: ignore[attr-defined]
        return target if int in target else ()
    return _AS_IS.get(type(field), ())


@functools.cache
def _insert(model: type[Model], name: str, returning: str) -> tuple[str, tuple[_Column, ...]]:
    """The CTE of ``insert_cte`` and its columns, built once per model."""
    columns = tuple(
        _Column(f, f.attname, _as_is(f), type(f).pre_save is not Field.pre_save)
        for f in model._meta.local_concrete_fields
        if not isinstance(f, AutoField | BigAutoField | SmallAutoField)
    )
    quote = connection.ops.quote_name
    sql = "{name} AS (INSERT INTO {table} ({columns}) VALUES ({values}){returning})".format(
        name=name,
        table=quote(model._meta.db_table),
        columns=", ".join(quote(c.field.column) for c in columns),
        values=", ".join(f"%({name}_{i})s" for i in range(len(columns))),
        returning=f" RETURNING {returning}" if returning else "",
    )
    return sql, columns


def insert_cte(obj: Model, name: str, returning: str = "") -> tuple[str, dict[str, Any]]:
    """A CTE ``name AS (INSERT ...)`` that inserts the unsaved ``obj`` as ``obj.save()``
    would (``auto_now``/``auto_now_add`` and defaults included; its primary key from the
    database: name it in ``returning`` to read it), with its named parameters
    (``%(name_<i>)s``), to run in another statement. PostgreSQL only: SQLite has no
    data-modifying CTEs.

    The SQL is built once per model. Each value is what the field's ``get_db_prep_save``
    returns; for the plain ones (a string for a text field, an id for a foreign key, ...)
    that is the value itself, which is then sent without the ORM's round of calls."""
    sql, columns = _insert(type(obj), name, returning)
    params: dict[str, Any] = {}
    for i, column in enumerate(columns):
        field = column.field
        value = field.pre_save(obj, True) if column.pre_save else getattr(obj, column.attname)
        if type(value) not in column.as_is:
            value = field.get_db_prep_save(value, connection)
        params[f"{name}_{i}"] = value
    return sql, params


class _Compiled(NamedTuple):
    sql: str
    compiler: SQLCompiler
    names: list[str]  # the model's attributes, in the order of its columns
    start: int
    end: int
    related: list[Any]  # Django's populators of the select_related objects
    converters: dict[int, Any]  # Django's converters of the row's columns, by position


#: What ``PreparedLookup`` borrows from Django (as of 5.2), none of it public API.
DJANGO_INTERNALS = (
    "django.db.models.query.get_related_populators(klass_info, select, db)",
    'SQLCompiler.klass_info["model"/"select_fields"/"related_klass_infos"]',
    "SQLCompiler.select[i][0].target.attname",
    "SQLCompiler.col_count, has_composite_fields(expressions)",
    "SQLCompiler.get_converters(expressions)",
    "SQLCompiler.apply_converters(rows, converters)",
    "RelatedPopulator.populate(row, obj)",
)
#: What Django raises here when one of them is gone or changed its shape.
_CHANGED = (AttributeError, ImportError, IndexError, KeyError, TypeError)


class PreparedLookup(Generic[M]):
    """A queryset that is run over and over with one value (a token, a table's id): compiled
    to SQL once per thread, as the ORM's compile costs more than the statement, and sent
    through ``prepared_cursor``; ``first`` answers its first object, ``all`` every one, in its
    order. The objects are built as the queryset would build them, with their
    ``select_related`` objects. ``queryset(value)`` must filter on ``value`` and
    have no other parameter; ``marker`` is a value the query is compiled with, of the
    field's type (a string for a token, a number for an id).

    Compiling and building use Django's internals (``DJANGO_INTERNALS``). Should a Django
    upgrade remove or change one of them, the lookup logs a warning once, keeps the reason
    in ``problem`` and from then on runs the queryset through the ORM (the same object, one
    statement, compiled each time); ``tests/config/test_prepared_cursor.py`` fails, naming
    them."""

    def __init__(
        self, queryset: Callable[[Any], QuerySet[M]], marker: Any = "lookup-value"
    ) -> None:
        self.queryset = queryset
        self.marker = marker
        self.local = threading.local()  # a compiler belongs to its thread's connection
        self.problem: str | None = None  # why the ORM runs the lookup: Django's internals

    def compiled(self) -> _Compiled | None:
        """The compiled statement of this thread; None once Django's internals failed."""
        if self.problem is not None:
            return None
        found: _Compiled | None = getattr(self.local, "compiled", None)
        if found is None:
            marker = self.marker
            compiler = self.queryset(marker).query.get_compiler(using=DEFAULT_DB_ALIAS)
            sql, params = compiler.as_sql()
            assert list(params) == [marker], "one parameter: the value"
            try:
                found = self.local.compiled = self._compile(compiler, sql)
            except _CHANGED as exc:
                self._give_up(exc)
                return None
        return found

    def first(self, value: Any) -> M | None:
        return next(iter(self._run(value, first=True)), None)

    def all(self, value: Any) -> list[M]:
        return self._run(value, first=False)

    def _run(self, value: Any, *, first: bool) -> list[M]:
        compiled = self.compiled()
        if compiled is None:
            return self._by_orm(value, first=first)
        with prepared_cursor() as cursor:
            cursor.execute(compiled.sql, [value])
            rows = cursor.fetchmany(1) if first else cursor.fetchall()
        try:
            return self._build(compiled, rows)
        except _CHANGED as exc:
            self._give_up(exc)
            return self._by_orm(value, first=first)

    def _by_orm(self, value: Any, *, first: bool) -> list[M]:
        queryset = self.queryset(value)
        return list(queryset[:1] if first else queryset)

    def _give_up(self, exc: Exception) -> None:
        if self.problem is None:
            self.problem = (
                "Django's internals that common.sql.PreparedLookup relies on changed "
                f"({'; '.join(DJANGO_INTERNALS)}): {exc!r}"
            )
            logger.warning("%s; the lookup runs through the ORM instead.", self.problem)

    @staticmethod
    def _compile(compiler: SQLCompiler, sql: str) -> _Compiled:
        if get_related_populators is None:
            raise ImportError("django.db.models.query.get_related_populators is gone")
        info = compiler.klass_info
        assert info is not None
        start, end = info["select_fields"][0], info["select_fields"][-1] + 1
        names = [column[0].target.attname for column in compiler.select[start:end]]
        related = get_related_populators(info, compiler.select, DEFAULT_DB_ALIAS)
        # As the ORM converts a row (``results_iter``), with the converters looked up once
        # instead of for every row: some forty columns, each asking its field and the backend.
        columns = [column[0] for column in compiler.select[: compiler.col_count]]
        if compiler.has_composite_fields(columns):
            raise TypeError("composite fields: the lookup does not convert them")
        converters = compiler.get_converters(columns)
        return _Compiled(sql, compiler, names, start, end, related, converters)

    @staticmethod
    def _build(compiled: _Compiled, rows: list[Any]) -> list[Any]:
        model = compiled.compiler.klass_info["model"]
        built = []
        for row in compiled.compiler.apply_converters(rows, compiled.converters):
            obj = model.from_db(
                DEFAULT_DB_ALIAS, compiled.names, row[compiled.start : compiled.end]
            )
            for populator in compiled.related:
                populator.populate(row, obj)
            built.append(obj)
        return built

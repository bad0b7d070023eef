"""SQL pieces built from models, for statements that do several things at once."""

from __future__ import annotations

from typing import Any

from django.db import connection
from django.db.models import AutoField, BigAutoField, Model, SmallAutoField


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

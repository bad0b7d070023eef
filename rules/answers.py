"""The answers of the command line's JSON interface, one function per command: ``score``
(one line of a game record in, one result or error object out) and ``check-series``. The
command line (``rules.cli``) and the conformance runner (``rules.conformance``) both use
them."""

from __future__ import annotations

import json

from rules.errors import EngineError, engine_error
from rules.record import GameRecord, parse_record
from rules.ruleset import RuleSet
from rules.scoring import score
from rules.series import validate_series

_SERIES_KEYS = frozenset(("table_size", "timeout", "games"))


def _error(error: EngineError) -> dict[str, object]:
    return {"error": error.to_json()}


def _decode(raw: bytes | str) -> object | EngineError:
    try:
        data: object = json.loads(raw)
    except (ValueError, RecursionError) as exc:
        return engine_error("invalid_json", "", f"Not valid JSON: {exc}")
    return data


def score_line(raw: bytes | str, ruleset: RuleSet) -> dict[str, object]:
    """The output object for one input line of ``score``."""
    data = _decode(raw)
    if isinstance(data, EngineError):
        return _error(data)
    try:
        record = parse_record(data, ruleset)
        if isinstance(record, GameRecord):
            return score(record, ruleset).to_json()
        return _error(record)
    except Exception as exc:  # a bug must not break the one-line-per-line contract
        return _error(engine_error("internal_error", "", f"Internal error: {exc!r}"))


def check_series(raw: bytes | str, ruleset: RuleSet) -> dict[str, object]:
    """The output object of ``check-series`` for the whole input."""
    data = _decode(raw)
    if isinstance(data, EngineError):
        return _error(data)
    if type(data) is not dict:
        return _error(engine_error("not_an_object", "", "The input must be a JSON object."))
    for key in data:
        if key not in _SERIES_KEYS:
            return _error(engine_error("unknown_field", str(key), f"Unknown field {key!r}."))
    table_size = data.get("table_size")
    if type(table_size) is not int:
        return _error(engine_error("wrong_type", "table_size", "table_size must be 4 or 5."))
    if table_size not in ruleset.table_sizes:
        return _error(engine_error("invalid_table_size", "table_size"))
    timeout = data.get("timeout", False)
    if type(timeout) is not bool:
        return _error(engine_error("wrong_type", "timeout", "timeout must be true or false."))
    if "games" not in data:
        return _error(engine_error("missing_field", "games", "games is required."))
    games = data["games"]
    if type(games) is not list:
        return _error(engine_error("wrong_type", "games", "games must be a list."))
    try:
        return validate_series(games, table_size, ruleset, timeout=timeout).to_json()
    except Exception as exc:  # never a traceback instead of an answer
        return _error(engine_error("internal_error", "", f"Internal error: {exc!r}"))

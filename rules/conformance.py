"""The conformance set: the spec's worked examples as cases any implementation can run.

``docs/rules/conformance.json`` (format in ``docs/rules-engine.md``) holds each worked example
of ``docs/rules/ddv-tsr.md`` and ``docs/rules/decisions.md`` with its source section and the
expected outcome, computed by hand from the spec text. ``run_cases`` checks this engine
against it; ``python -m rules conformance FILE`` prints one line per case and a summary.

Case kinds: ``score`` (a game record in the ``score`` input format -> winner, value and seat
scores, or an error code), ``announce`` (may a party announce a level now? spec 3.2) and
``series`` (a ``check-series`` input -> finding codes and fields of ``next``; only the keys a
case names are compared).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

from rules.announcements import may_announce
from rules.answers import check_series, score_line
from rules.contracts import LEVEL_FROM_JSON, AnnouncementLevel
from rules.ruleset import RuleSet

FORMAT = "doko-conformance"
VERSION = 1


class ConformanceFileError(ValueError):
    """The file is not a conformance set this runner reads."""


@dataclass(frozen=True, slots=True)
class CaseResult:
    id: str
    source: str
    agrees: bool
    detail: str  # what differs; "" when the case agrees


def load(path: Path) -> dict[str, object]:
    """Read and check the top level of a conformance file."""
    try:
        data: object = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise ConformanceFileError(f"{path}: {exc}") from exc
    if type(data) is not dict:
        raise ConformanceFileError(f"{path}: not a JSON object")
    if data.get("format") != FORMAT or data.get("version") != VERSION:
        raise ConformanceFileError(f"{path}: not a {FORMAT} file of version {VERSION}")
    if type(data.get("cases")) is not list:
        raise ConformanceFileError(f"{path}: 'cases' must be a list")
    return data


def _level(value: object) -> AnnouncementLevel:
    level = LEVEL_FROM_JSON.get(value if isinstance(value, str) else None)
    if level is None:
        raise ConformanceFileError(f"unknown announcement level {value!r}")
    return level


def _optional_int(data: dict[str, object], key: str) -> int | None:
    value = data.get(key)
    if value is not None and type(value) is not int:
        raise ConformanceFileError(f"{key} must be an integer or absent")
    return value


def _score(case: dict[str, object], rs: RuleSet) -> dict[str, object]:
    result = score_line(json.dumps(case["record"]), rs)
    error = result.get("error")
    if isinstance(error, dict):
        return {"error": error["code"], "field": error["field"]}
    return {key: result[key] for key in ("winner", "value", "scores")}


def _announce(case: dict[str, object], rs: RuleSet) -> dict[str, object]:
    given = case["input"]
    if type(given) is not dict:
        raise ConformanceFileError("input must be an object")
    cards = given.get("cards_in_hand")
    if type(cards) is not int:
        raise ConformanceFileError("cards_in_hand must be an integer")
    allowed = may_announce(
        _level(given.get("level")),
        cards,
        rs,
        own=_level(given.get("own")),
        opponent=_level(given.get("opponent")),
        ansage_cards=_optional_int(given, "ansage_cards"),
        klaerungsstich=_optional_int(given, "klaerungsstich"),
    )
    return {"allowed": allowed}


def _series(case: dict[str, object], rs: RuleSet) -> dict[str, object]:
    report = check_series(json.dumps(case["input"]), rs)
    if "error" in report:
        return report
    findings = report["findings"]
    assert isinstance(findings, list)
    return {"findings": [f["code"] for f in findings], "next": report["next"]}


_KINDS: dict[str, Callable[[dict[str, object], RuleSet], dict[str, object]]] = {
    "score": _score,
    "announce": _announce,
    "series": _series,
}


def _differences(expected: object, got: object, strict: bool, path: str = "") -> Iterator[str]:
    """What ``got`` has differently from ``expected``; unless ``strict``, only the keys
    ``expected`` names are compared (a series case names the fields of ``next`` it is about)."""
    if isinstance(expected, dict) and isinstance(got, dict):
        for key, value in expected.items():
            where = f"{path}.{key}" if path else str(key)
            if key not in got:
                yield f"{where}: expected {json.dumps(value)}, missing"
            else:
                yield from _differences(value, got[key], strict, where)
        if strict:
            for key in got.keys() - expected.keys():
                where = f"{path}.{key}" if path else str(key)
                yield f"{where}: not expected, got {json.dumps(got[key])}"
    elif expected != got or type(expected) is not type(got):
        yield f"{path or 'result'}: expected {json.dumps(expected)}, got {json.dumps(got)}"


def run_case(case: object, rs: RuleSet) -> CaseResult:
    """Run one case; a malformed case disagrees (with the reason) rather than stopping the run."""
    if type(case) is not dict:
        return CaseResult("?", "", False, "a case must be a JSON object")
    case_id, source = str(case.get("id", "?")), str(case.get("source", ""))
    run = _KINDS.get(str(case.get("kind")))
    if run is None:
        return CaseResult(case_id, source, False, f"unknown kind {case.get('kind')!r}")
    try:
        got = run(case, rs)
    except (ConformanceFileError, KeyError) as exc:
        return CaseResult(case_id, source, False, f"malformed case: {exc}")
    strict = case.get("kind") != "series"
    # "expect_one_of": the spec leaves a choice (e.g. ignore or refuse an entry it never scores)
    alternatives = case["expect_one_of"] if "expect_one_of" in case else [case.get("expect")]
    if type(alternatives) is not list or not alternatives:
        return CaseResult(case_id, source, False, "expect_one_of must be a non-empty list")
    tried = [list(_differences(expected, got, strict)) for expected in alternatives]
    if any(not diffs for diffs in tried):
        return CaseResult(case_id, source, True, "")
    return CaseResult(case_id, source, False, " | ".join("; ".join(d) for d in tried))


def run_cases(data: dict[str, object], rs: RuleSet) -> list[CaseResult]:
    cases = data["cases"]
    assert isinstance(cases, list)
    return [run_case(case, rs) for case in cases]


def report(results: list[CaseResult]) -> Iterator[str]:
    """One line per case, then the summary line."""
    for r in results:
        if r.agrees:
            yield f"agree     {r.id}  [{r.source}]"
        else:
            yield f"DISAGREE  {r.id}  [{r.source}]: {r.detail}"
    bad = sum(not r.agrees for r in results)
    yield f"{len(results)} cases: {len(results) - bad} agree, {bad} disagree"

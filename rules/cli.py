"""Command line: ``python -m rules score`` and ``python -m rules check-series``.

A stable interface other tools depend on (``docs/rules-engine.md``):

- ``score [--ruleset NAME]`` reads JSON Lines of game records on stdin and writes exactly one
  JSON line per input line, in order: the result or ``{"error": {...}}``. Lines that are not
  JSON (including empty lines) give an ``invalid_json`` error line. Exit status 0.
- ``check-series [--ruleset NAME]`` reads one JSON object ``{"table_size": 4|5, "timeout":
  false, "games": [...]}`` and prints ``{"findings": [...], "next": {...}}``, or
  ``{"error": {...}}`` when the object itself is malformed. Exit status 0.
- ``conformance FILE [--ruleset NAME]`` runs a conformance set (``rules.conformance``): one
  line per case, a summary line; exit status 0 when every case agrees, 1 when one disagrees,
  2 when the file cannot be read.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import IO

from rules.answers import check_series, score_line
from rules.conformance import ConformanceFileError, load, report, run_cases
from rules.ruleset import PROFILES, RuleSet


def _dumps(obj: object) -> str:
    return json.dumps(obj, separators=(",", ":"))


def score_stream(lines: Iterable[bytes], out: IO[str], ruleset: RuleSet) -> None:
    for raw in lines:
        out.write(_dumps(score_line(raw, ruleset)) + "\n")
        out.flush()


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m rules", description="Doppelkopf rules engine (DDV TSR)."
    )
    commands = parser.add_subparsers(dest="command", required=True)
    for name, help_text in (
        ("score", "score game records: JSON Lines in, one JSON line out per line"),
        ("check-series", "validate one table's series: one JSON object in, one out"),
    ):
        command = commands.add_parser(name, help=help_text)
        command.add_argument("--ruleset", default="ddv", choices=sorted(PROFILES))
    conformance = commands.add_parser(
        "conformance", help="run a conformance set (docs/rules/conformance.json)"
    )
    conformance.add_argument("file", type=Path)
    conformance.add_argument("--ruleset", default=None, choices=sorted(PROFILES))
    args = parser.parse_args(argv)
    if args.command == "conformance":
        return _conformance(args.file, args.ruleset)
    ruleset = PROFILES[args.ruleset]
    if args.command == "score":
        score_stream(sys.stdin.buffer, sys.stdout, ruleset)
    else:
        sys.stdout.write(_dumps(check_series(sys.stdin.buffer.read(), ruleset)) + "\n")
    return 0


def _conformance(path: Path, ruleset_name: str | None) -> int:
    try:
        data = load(path)
    except ConformanceFileError as exc:
        sys.stderr.write(f"python -m rules conformance: {exc}\n")
        return 2
    name = ruleset_name or str(data.get("ruleset", "ddv"))
    if name not in PROFILES:
        sys.stderr.write(f"python -m rules conformance: unknown rule set {name!r}\n")
        return 2
    results = run_cases(data, PROFILES[name])
    for line in report(results):
        sys.stdout.write(line + "\n")
    return 0 if all(r.agrees for r in results) else 1

"""The captain's game form drawn field by field: Django's widget templates against the project's
renderer (``common.form_renderer``), in-process, alternating, CPU time per form.

Each round draws every field of a blank four-seat ``GameForm`` (what the captain page and a
save's answer draw) with each renderer in turn, ``--forms`` times; prints each round's
median per form and the ratio of the two, and asserts the HTML is the same. No database.
It is not a test.

    .venv/bin/python bench/form_bench.py --rounds 5
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench._django import setup

SEATS = [(1, "Anna"), (2, "Bernd"), (3, "Clara"), (4, "Dörte")]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=5, help="rounds of both renderers (5)")
    parser.add_argument("--forms", type=int, default=200, help="forms per renderer a round")
    args = parser.parse_args()
    count: int = args.forms
    setup()
    from django.forms.renderers import DjangoTemplates, get_default_renderer
    from django.utils.translation import override

    from scoring.forms import GameForm

    renderers = {"django": DjangoTemplates(), "project": get_default_renderer()}

    def drawn(renderer: object) -> list[str]:
        return [str(field) for field in GameForm(None, seats=SEATS, renderer=renderer)]

    def per_form(renderer: object) -> float:
        started = time.process_time()
        for _ in range(count):
            drawn(renderer)
        return (time.process_time() - started) / count * 1000

    with override("de"):
        assert drawn(renderers["django"]) == drawn(renderers["project"])
        for renderer in renderers.values():
            per_form(renderer)  # warm: templates loaded, translations read
        figures: dict[str, list[float]] = {name: [] for name in renderers}
        for _round in range(args.rounds):
            for name, renderer in renderers.items():
                figures[name].append(per_form(renderer))
    print(f"renderer   median ms per form ({args.rounds} rounds x {args.forms} forms)")
    for name, values in figures.items():
        print(f"{name:10} {statistics.median(values):6.2f}  ({min(values):.2f}-{max(values):.2f})")
    ratios = [p / d for p, d in zip(figures["project"], figures["django"], strict=True)]
    spread = f"{min(ratios):.2f}-{max(ratios):.2f}"
    print(f"project / django: {statistics.median(ratios):.2f} (rounds {spread})")


if __name__ == "__main__":
    main()

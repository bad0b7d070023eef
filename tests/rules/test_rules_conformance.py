"""The published conformance set (docs/rules/conformance.json) and its runner."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from rules import DDV
from rules.conformance import ConformanceFileError, load, report, run_case, run_cases

ROOT = Path(__file__).resolve().parents[2]
CONFORMANCE = ROOT / "docs" / "rules" / "conformance.json"
SPEC = ROOT / "docs" / "rules" / "ddv-tsr.md"
DATA = load(CONFORMANCE)
CASES: list[dict[str, object]] = DATA["cases"]  # type: ignore[assignment]


@pytest.mark.parametrize("case", CASES, ids=[str(c["id"]) for c in CASES])
def test_every_case_agrees(case: dict[str, object]) -> None:
    result = run_case(case, DDV)
    assert result.agrees, result.detail


def test_cases_are_documented_and_unique() -> None:
    ids = [c["id"] for c in CASES]
    assert len(ids) == len(set(ids))
    for case in CASES:
        assert str(case["source"]).startswith("ddv-tsr.md §"), case["id"]
        assert case["note"], case["id"]
        assert ("expect" in case) != ("expect_one_of" in case), case["id"]


def test_every_vector_of_the_spec_has_a_case() -> None:
    """Every row of the spec's test-vector tables (section 6) is cited by some case."""
    section = SPEC.read_text(encoding="utf-8").split("## 6. Test vectors")[1].split("\n## ")[0]
    vectors = re.findall(r"^\| ([0-9]+|[PTFL][0-9]) \|", section, flags=re.MULTILINE)
    assert len(vectors) == 28 + 6 + 4
    cited = " ".join(str(c["source"]) for c in CASES)
    missing = [v for v in vectors if not re.search(rf"§6 vector {v}\b", cited)]
    assert missing == []


def _tampered(tmp_path: Path) -> Path:
    data = json.loads(CONFORMANCE.read_text(encoding="utf-8"))
    data["cases"][0]["expect"]["value"] += 1  # vector 1: -5 becomes -4
    path = tmp_path / "tampered.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def test_the_runner_reports_a_disagreement(tmp_path: Path) -> None:
    results = run_cases(load(_tampered(tmp_path)), DDV)
    bad = [r for r in results if not r.agrees]
    assert [r.id for r in bad] == ["vector-1"]
    assert bad[0].detail == "value: expected -4, got -5"
    lines = list(report(results))
    assert lines[-1] == f"{len(CASES)} cases: {len(CASES) - 1} agree, 1 disagree"


def test_a_case_disagrees_on_any_other_outcome() -> None:
    """Refused instead of scored, an unexpected key, a malformed case, an unknown kind."""
    refused = {
        "id": "x",
        "source": "s",
        "kind": "score",
        "record": {"contract": "normal"},
        "expect": {"winner": "re", "value": 1, "scores": {}},
    }
    assert not run_case(refused, DDV).agrees
    series = {"id": "y", "kind": "series", "input": {"table_size": 4, "games": []}}
    assert not run_case({**series, "expect": {"next": {"game": 2}}}, DDV).agrees
    assert run_case({**series, "expect": {"next": {"game": 1}}}, DDV).agrees
    announce = {"id": "z", "kind": "announce", "input": {"level": "keine", "cards_in_hand": 9}}
    assert "malformed" in run_case({**announce, "expect": {"allowed": True}}, DDV).detail
    assert not run_case({"id": "w", "kind": "quiz", "expect": {}}, DDV).agrees
    assert not run_case([], DDV).agrees


def test_a_file_that_is_not_a_conformance_set(tmp_path: Path) -> None:
    for text in ("[]", "{", '{"format": "doko-conformance", "version": 2, "cases": []}'):
        path = tmp_path / "bad.json"
        path.write_text(text, encoding="utf-8")
        with pytest.raises(ConformanceFileError):
            load(path)


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "rules", "conformance", *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
        check=False,
    )


def test_cli_runs_the_published_set() -> None:
    done = _cli(str(CONFORMANCE))
    assert done.returncode == 0, done.stdout + done.stderr
    lines = done.stdout.splitlines()
    assert len(lines) == len(CASES) + 1
    assert all(line.startswith("agree     ") for line in lines[:-1])
    assert lines[-1] == f"{len(CASES)} cases: {len(CASES)} agree, 0 disagree"


def test_cli_exit_codes(tmp_path: Path) -> None:
    done = _cli(str(_tampered(tmp_path)))
    assert done.returncode == 1
    assert "DISAGREE  vector-1  [ddv-tsr.md §6 vector 1" in done.stdout
    missing = _cli(str(tmp_path / "nothing.json"))
    assert missing.returncode == 2 and "nothing.json" in missing.stderr

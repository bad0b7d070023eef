"""The command line interface through a real subprocess (``python -m rules``)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from rules.testing import game, l1_series, series_game

ROOT = Path(__file__).resolve().parents[2]


def run(*args: str, stdin: bytes) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-m", "rules", *args],
        input=stdin,
        capture_output=True,
        cwd=ROOT,
        timeout=60,
        check=False,
    )


def lines_of(proc: subprocess.CompletedProcess[bytes]) -> list[dict[str, Any]]:
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == b""
    return [json.loads(line) for line in proc.stdout.decode().splitlines()]


def test_score_one_line_out_per_line_in_and_in_order() -> None:
    inputs = [
        json.dumps(game(ann=(None, "ansage"), points=80, tricks=4)),  # vector 1
        "this is not json",
        json.dumps(game(points=300)),
        "",
        json.dumps(game("solo", solo="buben", ann=("60", None), points=185, tricks=10)),
        "[1, 2",
        "42",
        json.dumps(game()).replace('"re_points": 121', '"re_points": 1e400'),
        "\xff\xfe garbage",
        json.dumps(game(points=120)),
    ]
    stdin = "\n".join(inputs).encode("utf-8", "surrogateescape") + b"\n"
    out = lines_of(run("score", stdin=stdin))
    assert len(out) == len(inputs)
    assert out[0] == {
        "winner": "kontra",
        "value": -5,
        "scores": {"1": -5, "2": -5, "3": 5, "4": 5},
        "breakdown": [
            {"item": "won", "party": "kontra", "points": 1},
            {"item": "under_90", "party": "kontra", "points": 1},
            {"item": "announced_kontra", "party": "kontra", "points": 2},
            {"item": "gegen_die_alten", "party": "kontra", "points": 1},
        ],
    }
    codes = [line.get("error", {}).get("code") for line in out]
    assert codes == [
        None,
        "invalid_json",
        "re_points_out_of_range",
        "invalid_json",
        None,
        "invalid_json",
        "not_an_object",
        "wrong_type",
        "invalid_json",
        None,
    ]
    assert out[4]["scores"] == {"1": 21, "2": -7, "3": -7, "4": -7}
    assert out[9]["winner"] == "kontra" and out[9]["value"] == -2
    for line in out:
        if "error" in line:
            assert set(line["error"]) == {"code", "field", "message"}
        else:
            assert list(line) == ["winner", "value", "scores", "breakdown"]


def test_score_last_line_without_newline_and_crlf() -> None:
    record = json.dumps(game())
    out = lines_of(run("score", stdin=f"{record}\r\n{record}".encode()))
    assert [line["value"] for line in out] == [1, 1]


def test_score_empty_input_gives_no_output() -> None:
    assert lines_of(run("score", stdin=b"")) == []


def test_score_with_house_ruleset() -> None:
    record = json.dumps(game(points=151, bock=1))
    ddv = lines_of(run("score", stdin=record.encode()))
    assert ddv[0]["error"]["code"] == "bock_out_of_range"
    [bock] = lines_of(run("score", "--ruleset", "haus_bock", stdin=record.encode()))
    assert bock["value"] == 4
    assert bock["breakdown"][-1] == {"item": "bock", "party": "re", "points": 2}


def test_unknown_ruleset_is_a_usage_error() -> None:
    proc = run("score", "--ruleset", "nope", stdin=b"")
    assert proc.returncode == 2
    assert b"invalid choice" in proc.stderr


def test_check_series_valid() -> None:
    payload = {"table_size": 4, "timeout": False, "games": l1_series()}
    [out] = lines_of(run("check-series", stdin=json.dumps(payload).encode()))
    assert out["findings"] == []
    assert out["next"]["finished"] is True


def test_check_series_in_progress_and_findings() -> None:
    games = [series_game(1), series_game(3)]
    [out] = lines_of(
        run("check-series", stdin=json.dumps({"table_size": 4, "games": games}).encode())
    )
    assert out["findings"][0] == {
        "severity": "error",
        "code": "dealer_wrong",
        "game": 2,
        "data": {"expected": 2, "actual": 3},
    }
    assert {f["code"] for f in out["findings"]} == {
        "dealer_wrong",
        "too_few_games",
        "compulsory_solo_missing",
    }
    assert out["next"] == {
        "game": 3,
        "games_played": 2,
        "games_left": 22,
        "finished": False,
        "dealer": 4,
        "sitting_out": None,
        "forced": None,
        "compulsory_solo_allowed": True,
        "compulsory_allowed": [1, 2, 3, 4],
        "compulsory_open": [1, 2, 3, 4],
    }


def test_check_series_bad_input_gives_an_error_line() -> None:
    cases = [
        (b"nope", "invalid_json"),
        (b"[]", "not_an_object"),
        (b'{"table_size": 4}', "missing_field"),
        (b'{"table_size": "4", "games": []}', "wrong_type"),
        (b'{"table_size": 4, "games": {}}', "wrong_type"),
        (b'{"table_size": 4, "timeout": 1, "games": []}', "wrong_type"),
        (b'{"table_size": 7, "games": []}', "invalid_table_size"),
        (b'{"table_size": 4, "games": [], "round": 1}', "unknown_field"),
    ]
    for stdin, code in cases:
        [out] = lines_of(run("check-series", stdin=stdin))
        assert out["error"]["code"] == code, stdin

"""Every code the rules engine and the services can return reaches people as words: the
engine's error and finding codes have a message here in German and English (never "Die
Eingabe ist ungültig (derived_mismatch)"), and every ServiceError is raised with a message
that is translated, not a bare code or an English literal."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from django.utils import translation

from rules.errors import ERROR_CODES
from rules.replay import FINDING_CODES
from scoring.messages import (
    ERROR_MESSAGES,
    FINDING_MESSAGES,
    ITEM_LABELS,
    engine_error_message,
    finding_message,
)

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("language", ["de", "en"])
@pytest.mark.parametrize("code", sorted(ERROR_CODES))
def test_every_engine_error_has_words(code: str, language: str) -> None:
    assert code in ERROR_MESSAGES
    with translation.override(language):
        message = engine_error_message(code, "")
    assert message and code not in message and "%(" not in message


@pytest.mark.parametrize("language", ["de", "en"])
@pytest.mark.parametrize("code", sorted(FINDING_CODES))
def test_every_finding_has_words(code: str, language: str) -> None:
    assert code in FINDING_MESSAGES
    with translation.override(language):
        message = finding_message(code, {}, 3)
    assert message and code not in message


def test_no_message_for_a_code_the_engine_does_not_have() -> None:
    assert set(ERROR_MESSAGES) <= set(ERROR_CODES)
    assert set(FINDING_MESSAGES) <= set(FINDING_CODES)


def test_derived_mismatch_says_what_is_wrong_in_german() -> None:
    with translation.override("de"):
        message = engine_error_message("derived_mismatch", "dealer")
    assert "derived_mismatch" not in message and "Geber" in message and "Liste" in message


def test_every_breakdown_item_says_whose_it_is() -> None:
    # "Kontra: unter 90 +1" read as if Kontra were under 90: the label names the other side.
    with translation.override("de"):
        assert str(ITEM_LABELS["under_90"]) == "Gegenpartei unter 90"
        assert str(ITEM_LABELS["absage_re_90"]) == "Absage „keine 90“ von Re"


def _service_errors() -> list[tuple[str, int, ast.Call]]:
    found = []
    for path in ROOT.rglob("*.py"):
        parts = path.relative_to(ROOT).parts
        if parts[0] in {".venv", "tests", "bench", "docs"} or "migrations" in parts:
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Call) and (
                getattr(node.func, "id", None) == "ServiceError"
                or getattr(node.func, "attr", None) == "ServiceError"
            ):
                found.append((str(path.relative_to(ROOT)), node.lineno, node))
    return found


def test_every_service_error_carries_a_translated_message() -> None:
    calls = _service_errors()
    assert len(calls) > 50  # the scan sees the services
    untranslated = []
    for where, line, call in calls:
        if len(call.args) < 2:
            untranslated.append(f"{where}:{line}: no message")
            continue
        code, message = call.args[:2]
        if isinstance(code, ast.Constant):  # a stable snake_case code
            assert isinstance(code.value, str) and code.value.isidentifier(), (where, line)
        text = message.left if isinstance(message, ast.BinOp) else message
        if isinstance(text, ast.Constant | ast.JoinedStr):  # a literal: never translated
            untranslated.append(f"{where}:{line}: {ast.unparse(message)[:60]}")
    assert not untranslated, untranslated

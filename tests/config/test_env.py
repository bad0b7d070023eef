"""Settings readers refuse nonsense with a message that names the variable."""

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.exceptions import ImproperlyConfigured

from config.env import env_bool, env_int, env_list, env_secret, env_str, env_url

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize(("raw", "expected"), [("1", True), ("Yes", True), ("off", False)])
def test_env_bool_reads_words(raw: str, expected: bool) -> None:
    assert env_bool("DEBUG", not expected, {"DEBUG": raw}) is expected


def test_env_bool_default_when_unset_or_blank() -> None:
    assert env_bool("DEBUG", True, {}) is True
    assert env_bool("DEBUG", False, {"DEBUG": "  "}) is False


def test_env_bool_refuses_nonsense() -> None:
    with pytest.raises(ImproperlyConfigured, match=r"DEBUG='maybe' is not a yes/no value"):
        env_bool("DEBUG", True, {"DEBUG": "maybe"})


def test_env_int_refuses_text_and_range() -> None:
    with pytest.raises(ImproperlyConfigured, match="not a whole number"):
        env_int("N", 1, {"N": "ten"})
    with pytest.raises(ImproperlyConfigured, match="between 0 and 5"):
        env_int("N", 1, {"N": "9"}, minimum=0, maximum=5)
    assert env_int("N", 1, {"N": "3"}, minimum=0, maximum=5) == 3


def test_env_list_splits_and_refuses_empty_items() -> None:
    assert env_list("HOSTS", ["x"], {"HOSTS": "a.de, b.de"}) == ["a.de", "b.de"]
    assert env_list("HOSTS", ["x"], {}) == ["x"]
    with pytest.raises(ImproperlyConfigured, match="empty entry"):
        env_list("HOSTS", [], {"HOSTS": "a.de,,b.de"})


def test_env_str_default() -> None:
    assert env_str("X", "d", {}) == "d"
    assert env_str("X", "d", {"X": "v"}) == "v"


def test_env_url_checks_scheme_without_leaking_password() -> None:
    schemes = frozenset({"postgres"})
    assert env_url("DATABASE_URL", schemes, {"DATABASE_URL": "postgres://u@h/db"})
    with pytest.raises(ImproperlyConfigured, match="DATABASE_URL") as info:
        env_url("DATABASE_URL", schemes, {"DATABASE_URL": "mysql://u:secret@h/db"})
    assert "secret" not in str(info.value)


def _load_settings(**env: str) -> subprocess.CompletedProcess[str]:
    environ = {k: v for k, v in os.environ.items() if k not in {"DEBUG", "SECRET_KEY"}}
    environ.update(env)
    return subprocess.run(
        [sys.executable, "-c", "import django; django.setup()"],
        cwd=ROOT,
        env=environ,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_settings_require_secret_key_without_debug() -> None:
    result = _load_settings(DEBUG="0")
    assert result.returncode != 0
    assert "SECRET_KEY must be set when DEBUG is off" in result.stderr


def test_settings_refuse_bad_debug_value() -> None:
    result = _load_settings(DEBUG="perhaps")
    assert result.returncode != 0
    assert "DEBUG='perhaps' is not a yes/no value" in result.stderr


def test_settings_refuse_unknown_database_scheme() -> None:
    result = _load_settings(DATABASE_URL="oracle://x@y/z")
    assert result.returncode != 0
    assert "DATABASE_URL" in result.stderr and "postgres://" in result.stderr


def test_settings_refuse_short_secret_key() -> None:
    result = _load_settings(DEBUG="0", SECRET_KEY="short")
    assert result.returncode != 0
    assert "SECRET_KEY must be at least 50 characters" in result.stderr
    # 32 characters are enough for development, not for production.
    key = "abcdefgh" * 4
    assert _load_settings(DEBUG="1", SECRET_KEY=key).returncode == 0
    result = _load_settings(DEBUG="0", SECRET_KEY=key)
    assert result.returncode != 0 and key not in result.stderr


def test_settings_refuse_a_long_but_trivial_secret_key() -> None:
    result = _load_settings(DEBUG="0", SECRET_KEY="x" * 60)
    assert result.returncode != 0
    assert "5 different characters" in result.stderr


def test_env_secret_reader() -> None:
    assert env_secret("K", {}, min_length=50) is None
    assert env_secret("K", {"K": "abcde" * 10}, min_length=50) == "abcde" * 10
    with pytest.raises(ImproperlyConfigured, match="K must be at least 50") as info:
        env_secret("K", {"K": "hidden-value"}, min_length=50)
    assert "hidden-value" not in str(info.value)


def test_settings_load_in_production_shape() -> None:
    key = "k3Y-q" * 11
    result = _load_settings(DEBUG="0", SECRET_KEY=key, ALLOWED_HOSTS="doko.example.org")
    assert result.returncode == 0, result.stderr

"""The hall kit's plan: a secret key made once and kept private, the environment of hall
mode, gunicorn's command line, the address and its QR code in the terminal."""

from __future__ import annotations

import io
import stat
from pathlib import Path

import pytest

from hall.kit import (
    HallError,
    HallPlan,
    ensure_secret_key,
    gunicorn_command,
    hall_environment,
    print_address,
)


def plan(tmp_path: Path, *, https: bool = False) -> HallPlan:
    return HallPlan(bind="0.0.0.0", port=8000, address="192.168.1.20", https=https, workers=3,
                    threads=4, data_dir=tmp_path, backup_dir=tmp_path / "bk", keep=7)  # fmt: skip


def test_secret_key_is_made_once_and_readable_by_its_owner_only(tmp_path: Path) -> None:
    path = tmp_path / "hall" / "secret_key"
    first = ensure_secret_key(path)
    assert len(first) >= 50 and stat.S_IMODE(path.stat().st_mode) == 0o600
    path.chmod(0o644)
    assert ensure_secret_key(path) == first  # kept, and made private again
    assert stat.S_IMODE(path.stat().st_mode) == 0o600


def test_a_spoilt_secret_key_file_stops_the_start(tmp_path: Path) -> None:
    path = tmp_path / "secret_key"
    path.write_text("short")
    with pytest.raises(HallError, match="delete it"):
        ensure_secret_key(path)


def test_hall_environment_plain_http(tmp_path: Path) -> None:
    env = hall_environment(plan(tmp_path), "s" * 60, {"DEBUG": "1", "PATH": "/bin"})
    assert env["DEBUG"] == "0" and env["HALL_MODE"] == "1" and env["PATH"] == "/bin"
    assert env["SITE_URL"] == "http://192.168.1.20:8000"
    assert env["ALLOWED_HOSTS"] == "localhost,127.0.0.1,[::1],192.168.1.20"
    assert env["SECURE_SSL_REDIRECT"] == env["SECURE_COOKIES"] == "0"
    assert env["SECURE_PROXY_SSL_HEADER"] == "0"  # no proxy: no forwarded header believed
    assert env["BACKUP_DIR"] == str(tmp_path / "bk") and env["BACKUP_KEEP"] == "7"


def test_hall_environment_https_and_what_the_director_set_wins(tmp_path: Path) -> None:
    given = {"SITE_URL": "https://doko.lan:8000", "ALLOWED_HOSTS": "doko.lan"}
    env = hall_environment(plan(tmp_path, https=True), "s" * 60, given)
    assert env["SITE_URL"] == "https://doko.lan:8000" and env["ALLOWED_HOSTS"] == "doko.lan"
    assert env["SECURE_SSL_REDIRECT"] == env["SECURE_COOKIES"] == "1"
    assert env["SECURE_HSTS_SECONDS"] == "0"


def test_gunicorn_command(tmp_path: Path) -> None:
    command = gunicorn_command(plan(tmp_path, https=True))
    text = " ".join(command)
    assert "--bind 0.0.0.0:8000" in text and "--worker-class gthread" in text
    assert "--workers 3" in text and "--graceful-timeout 30" in text
    assert f"--certfile {tmp_path / 'hall-cert.pem'}" in text
    assert "config.redaction.GunicornLogger" in text
    assert "--certfile" not in gunicorn_command(plan(tmp_path))


def test_address_as_text_and_qr_code(tmp_path: Path) -> None:
    out = io.StringIO()
    print_address(plan(tmp_path), out)
    text = out.getvalue()
    assert "http://192.168.1.20:8000/" in text and "█" in text and "Plain HTTP" in text

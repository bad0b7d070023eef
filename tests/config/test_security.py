"""Production settings from the environment, the deployment check with the README's own
variables, and a Content-Security-Policy the pages keep to."""

from __future__ import annotations

import os
import re
import secrets
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
from django.test import Client

ROOT = Path(__file__).resolve().parents[2]
PROJECT_VARIABLES = re.compile(
    r"^(DEBUG|SECRET_KEY|ALLOWED_HOSTS|CSRF_TRUSTED_ORIGINS|SITE_URL|DATABASE_URL|CELERY_\w+"
    r"|CACHE_URL|SECURE_\w+|LOG_LEVEL|EMAIL_\w+|DEFAULT_FROM_EMAIL"
    # set in-process by the browser tests' fixture; a deployment never has it
    r"|DJANGO_ALLOW_ASYNC_UNSAFE)$"
)


def readme_production_variables() -> dict[str, str]:
    """The ``export NAME=value`` lines of the README's "Running it for real" block."""
    text = (ROOT / "README.md").read_text()
    section = text.split("## Running it for real", 1)[1]
    block = section.split("```sh", 1)[1].split("```", 1)[0]
    variables = {}
    for line in block.splitlines():
        if line.startswith("export "):
            name, _, value = shlex.split(line[len("export ") :], comments=True)[0].partition("=")
            variables[name] = value
    return variables


def _run(args: list[str], env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    environ = {k: v for k, v in os.environ.items() if not PROJECT_VARIABLES.match(k)}
    environ.update(env)
    return subprocess.run(
        [sys.executable, *args], cwd=ROOT, env=environ, capture_output=True, text=True,
        timeout=120,
    )  # fmt: skip


def test_check_deploy_with_the_readme_variables_reports_nothing() -> None:
    variables = readme_production_variables()
    assert {"DEBUG", "SECRET_KEY", "ALLOWED_HOSTS", "SECURE_HSTS_SECONDS"} <= set(variables)
    assert variables["DEBUG"] == "0"
    # The README's key is a placeholder the settings refuse; a real key takes its place.
    refused = _run(["manage.py", "check"], variables)
    assert refused.returncode != 0 and "placeholder" in refused.stderr
    variables["SECRET_KEY"] = secrets.token_urlsafe(50)
    result = _run(["manage.py", "check", "--deploy", "--fail-level", "WARNING"], variables)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "System check identified no issues (0 silenced)." in result.stdout + result.stderr


def test_mail_settings_come_from_the_environment_and_fail_loudly() -> None:
    script = (
        "import django; django.setup(); from django.conf import settings as s; "
        "print(repr(s.EMAIL_HOST), s.EMAIL_PORT, s.EMAIL_USE_TLS, s.EMAIL_USE_SSL)"
    )
    assert _run(["-c", script], {}).stdout.split() == ["''", "587", "True", "False"]
    server = {"EMAIL_HOST": "smtp.example.org", "DEFAULT_FROM_EMAIL": "Doko <d@example.org>"}
    ssl = _run(["-c", script], {**server, "EMAIL_USE_SSL": "1", "EMAIL_PORT": "465"})
    assert ssl.stdout.split() == ["'smtp.example.org'", "465", "False", "True"], ssl.stderr
    both = _run(["-c", script], {**server, "EMAIL_USE_SSL": "1", "EMAIL_USE_TLS": "1"})
    assert both.returncode != 0 and "EMAIL_USE_SSL and EMAIL_USE_TLS" in both.stderr
    sender = _run(["-c", script], {"EMAIL_HOST": "smtp.example.org"})
    assert sender.returncode != 0 and "DEFAULT_FROM_EMAIL must be set" in sender.stderr


def test_https_settings_come_from_the_environment() -> None:
    script = (
        "import django; django.setup(); from django.conf import settings as s; "
        "print(s.SECURE_HSTS_SECONDS, s.SECURE_HSTS_INCLUDE_SUBDOMAINS, s.SECURE_HSTS_PRELOAD, "
        "s.SECURE_SSL_REDIRECT, s.SESSION_COOKIE_SECURE, s.CSRF_COOKIE_SECURE, "
        "s.SECURE_PROXY_SSL_HEADER)"
    )
    key = secrets.token_urlsafe(50)
    production = _run(["-c", script], {"DEBUG": "0", "SECRET_KEY": key})
    assert production.stdout.split() == [
        "0", "False", "False", "True", "True", "True", "('HTTP_X_FORWARDED_PROTO',", "'https')",
    ], production.stderr  # fmt: skip
    tuned = _run(["-c", script], {
        "DEBUG": "0", "SECRET_KEY": key, "SECURE_HSTS_SECONDS": "600",
        "SECURE_HSTS_INCLUDE_SUBDOMAINS": "1", "SECURE_HSTS_PRELOAD": "yes",
        "SECURE_SSL_REDIRECT": "0", "SECURE_COOKIES": "0", "SECURE_PROXY_SSL_HEADER": "0",
    })  # fmt: skip
    assert tuned.stdout.split() == ["600", "True", "True", "False", "False", "False", "None"]
    development = _run(["-c", script], {"DEBUG": "1"})
    assert development.stdout.split()[3:6] == ["False", "False", "False"]
    bad = _run(["-c", script], {"DEBUG": "0", "SECRET_KEY": key, "SECURE_HSTS_SECONDS": "-1"})
    assert bad.returncode != 0 and "SECURE_HSTS_SECONDS" in bad.stderr


@pytest.mark.django_db
def test_hsts_and_redirect_behind_the_proxy(settings) -> None:  # type: ignore[no-untyped-def]
    settings.SECURE_SSL_REDIRECT = True
    settings.SECURE_HSTS_SECONDS = 31536000
    settings.SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    settings.SECURE_HSTS_PRELOAD = True
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    client = Client()
    plain = client.get("/turniere/")
    assert plain.status_code == 301 and plain["Location"].startswith("https://")
    assert client.get("/healthz").status_code in (200, 503)  # exempt: monitors ask directly
    secure = client.get("/turniere/", HTTP_X_FORWARDED_PROTO="https")
    assert secure.status_code == 200
    assert secure["Strict-Transport-Security"] == "max-age=31536000; includeSubDomains; preload"


def _policy(response) -> dict[str, list[str]]:  # type: ignore[no-untyped-def]
    directives = {}
    for part in response["Content-Security-Policy"].split(";"):
        name, *values = part.split()
        directives[name] = values
    return directives


@pytest.mark.django_db
@pytest.mark.parametrize("url", ["/", "/turniere/", "/login/", "/api/v1/docs/", "/api/v1/x/"])
def test_every_answer_has_a_strict_content_security_policy(url: str) -> None:
    response = Client().get(url)
    policy = _policy(response)
    assert policy["default-src"] == ["'self'"]
    assert policy["script-src"] == ["'self'"] and policy["style-src"] == ["'self'"]
    assert policy["frame-ancestors"] == ["'none'"] and policy["object-src"] == ["'none'"]
    assert "'unsafe-inline'" not in response["Content-Security-Policy"]
    assert "'unsafe-eval'" not in response["Content-Security-Policy"]


INLINE = [
    # a script element without src or a nonce (the policy allows the answer's nonce only)
    re.compile(r"<script(?![^>]*\s(?:src|nonce)=)[^>]*>", re.I),
    re.compile(r"<style", re.I),
    re.compile(r"\sstyle=", re.I),
    re.compile(r"\son[a-z]+=", re.I),  # onclick=, onsubmit=, ...
    re.compile(r"javascript:", re.I),
]


@pytest.mark.django_db
@pytest.mark.parametrize("url", ["/", "/turniere/", "/login/", "/api/v1/docs/"])
def test_pages_have_no_inline_script_or_style(url: str) -> None:
    html = Client().get(url).content.decode()
    for pattern in INLINE:
        assert not pattern.search(html), (url, pattern.pattern)


def test_templates_have_no_inline_script_or_style() -> None:
    """Every browser-facing template (print templates go to WeasyPrint, not a browser)."""
    for path in (ROOT / "templates").rglob("*.html"):
        if "print" in path.relative_to(ROOT / "templates").parts:
            continue
        html = path.read_text()
        for pattern in INLINE:
            assert not pattern.search(html), (str(path), pattern.pattern)


def test_htmx_is_configured_for_the_policy() -> None:
    base = (ROOT / "templates" / "base.html").read_text()
    assert '"includeIndicatorStyles": false' in base and '"allowEval": false' in base
    assert "js/app.js" in base and (ROOT / "static" / "js" / "app.js").exists()

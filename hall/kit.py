"""The hall kit: the app served for real on the venue's local network from one command.

``manage.py hall`` (``make hall``) runs in two steps. The first works out the plan: this
machine's address on the local network, a secret key generated once and kept in a file only
its owner may read, a self-signed certificate with ``--https``, and the environment of hall
mode (``DEBUG=0``, ``HALL_MODE=1``, the address in ``SITE_URL`` and ``ALLOWED_HOSTS``). It then
replaces itself with the same command in that environment, which migrates, collects the
static files (hashed, compressed; the app serves them itself through WhiteNoise), starts
gunicorn and makes the backups: after every closed series (in the web processes) and every
``BACKUP_INTERVAL_MINUTES`` while a series runs (a timer thread in this process, the only
one). Ctrl-C or SIGTERM stops gunicorn gracefully: requests in progress finish, then a last
backup is written.

gunicorn runs in its own session, so the terminal's Ctrl-C reaches this process only, which
asks gunicorn for the graceful stop (SIGTERM) instead of the quick one (SIGINT). Its workers
are threaded (``gthread``): without nginx in front, a slow phone holds one thread of a
worker, never a whole worker.
"""

from __future__ import annotations

import hashlib
import ipaddress
import os
import secrets
import shutil
import socket
import subprocess
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

import segno

#: The variables of hall mode that the first step hands to the second.
SERVE_MARK = "HALL_SERVE"


class HallError(Exception):
    """The hall cannot start; the message says why."""


@dataclass(frozen=True)
class HallPlan:
    bind: str  # the address gunicorn listens on
    port: int
    address: str  # the address phones open
    https: bool
    workers: int
    threads: int
    data_dir: Path  # secret key and certificate
    backup_dir: Path
    keep: int

    @property
    def url(self) -> str:
        host = f"[{self.address}]" if ":" in self.address else self.address
        return f"{'https' if self.https else 'http'}://{host}:{self.port}"

    @property
    def secret_file(self) -> Path:
        return self.data_dir / "secret_key"

    @property
    def certificate(self) -> Path:
        return self.data_dir / "hall-cert.pem"

    @property
    def private_key(self) -> Path:
        return self.data_dir / "hall-key.pem"


def lan_address() -> str:
    """This machine's address on the local network: the local address a packet to the
    outside would leave from (a UDP socket sends nothing). 127.0.0.1 without a network."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(("192.0.2.1", 9))
            return str(probe.getsockname()[0])
    except OSError:
        return "127.0.0.1"


def phone_address(bind: str) -> str:
    """What phones open: the network address when listening on every interface."""
    return lan_address() if bind in ("0.0.0.0", "::") else bind


def default_workers() -> int:
    return min(2 * (os.cpu_count() or 1) + 1, 9)


def ensure_secret_key(path: Path) -> str:
    """The hall's secret key: made once, kept in ``path`` readable by its owner only."""
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        pass
    else:
        with os.fdopen(descriptor, "w") as handle:
            handle.write(secrets.token_urlsafe(50))
    path.chmod(0o600)
    key = path.read_text().strip()
    if len(key) < 50:
        raise HallError(f"{path} holds no usable secret key; delete it to make a new one.")
    return key


def _san(name: str) -> str:
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return f"DNS:{name}"
    return f"IP:{name}"


def ensure_certificate(plan: HallPlan) -> None:
    """A self-signed certificate for the phone address, 127.0.0.1 and localhost, made with
    openssl when missing or made for another address (the key readable by its owner only)."""
    names = list(dict.fromkeys([plan.address, "127.0.0.1", "localhost"]))
    stamp = plan.data_dir / "hall-cert.names"
    wanted = " ".join(names)
    if (
        plan.certificate.exists()
        and plan.private_key.exists()
        and stamp.exists()
        and stamp.read_text() == wanted
    ):
        return
    openssl = shutil.which("openssl")
    if openssl is None:
        raise HallError("HTTPS needs openssl for its certificate (Debian: apt install openssl).")
    plan.data_dir.mkdir(parents=True, exist_ok=True)
    plan.private_key.unlink(missing_ok=True)
    result = subprocess.run(
        [openssl, "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "825",
         "-subj", "/CN=Doko-Turnier hall", "-addext",
         "subjectAltName=" + ",".join(_san(n) for n in names),
         "-keyout", str(plan.private_key), "-out", str(plan.certificate)],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    if result.returncode != 0:
        raise HallError(f"openssl could not make the certificate: {result.stderr.strip()}")
    plan.private_key.chmod(0o600)
    stamp.write_text(wanted)


def hall_environment(plan: HallPlan, secret_key: str, base: Mapping[str, str]) -> dict[str, str]:
    """The environment of hall mode. ``SITE_URL``, ``ALLOWED_HOSTS`` and
    ``CSRF_TRUSTED_ORIGINS`` already set in ``base`` win over what the plan derives."""
    env = dict(base)
    hosts = list(dict.fromkeys(["localhost", "127.0.0.1", "[::1]", plan.address]))
    env.setdefault("SITE_URL", plan.url)
    env.setdefault("ALLOWED_HOSTS", ",".join(hosts))
    env.setdefault("CSRF_TRUSTED_ORIGINS", plan.url)
    secure = "1" if plan.https else "0"
    env.update(
        {
            SERVE_MARK: "1",
            "HALL_MODE": "1",
            "DEBUG": "0",
            "SECRET_KEY": secret_key,
            # No proxy in front: nobody's X-Forwarded-Proto is believed.
            "SECURE_PROXY_SSL_HEADER": "0",
            "TRUSTED_PROXY_COUNT": "0",
            "SECURE_SSL_REDIRECT": secure,
            "SECURE_COOKIES": secure,
            # A self-signed certificate and HSTS do not mix: a browser that remembered
            # HSTS would not let the phone past the certificate warning.
            "SECURE_HSTS_SECONDS": "0",
            "BACKUP_DIR": str(plan.backup_dir),
            "BACKUP_KEEP": str(plan.keep),
        }
    )
    return env


def gunicorn_command(plan: HallPlan) -> list[str]:
    bind = f"[{plan.bind}]" if ":" in plan.bind else plan.bind
    command = [
        sys.executable, "-m", "gunicorn", "config.wsgi",
        "--bind", f"{bind}:{plan.port}",
        "--workers", str(plan.workers), "--worker-class", "gthread",
        "--threads", str(plan.threads),
        # Eager tasks: a print pack is made in the request that asks for it.
        "--timeout", "300", "--graceful-timeout", "30", "--keep-alive", "5",
        "--max-requests", "2000", "--max-requests-jitter", "200",
        "--limit-request-line", "8190", "--limit-request-fields", "100",
        "--logger-class", "config.redaction.GunicornLogger",
        "--error-logfile", "-", "--log-level", "warning",
    ]  # fmt: skip
    if plan.https:
        command += ["--certfile", str(plan.certificate), "--keyfile", str(plan.private_key)]
    return command


def print_address(plan: HallPlan, out: TextIO) -> None:
    """The address as text and as a QR code for the director's phone."""
    out.write(f"\n  Doko-Turnier runs on {plan.url}/\n\n")
    segno.make(plan.url + "/", error="m").terminal(out=out, compact=True)
    out.write("\n")
    if plan.https:
        out.write(
            "  HTTPS with a certificate this machine made itself: each phone warns once;\n"
            "  accept it for this address and the connection is encrypted.\n"
        )
    else:
        out.write(
            "  Plain HTTP: anyone on this Wi-Fi could read what phones send (captain links,\n"
            "  logins). Use a network for the hall only, or start it with --https.\n"
        )
    out.write(f"  Backups go to {plan.backup_dir} (the newest {plan.keep} are kept).\n")
    out.write("  Ctrl-C stops the server after the requests in progress.\n\n")
    out.flush()


def static_sources_digest() -> str:
    """A digest of every static source file (path, size, modification time), so that
    ``collectstatic``, which hashes and compresses them all, runs again only when one
    changed (a restart at the venue should take seconds)."""
    from django.contrib.staticfiles.finders import get_finders

    digest = hashlib.sha256()
    for finder in get_finders():
        for path, storage in finder.list([]):
            stat = os.stat(storage.path(path))
            digest.update(f"{path}\0{stat.st_size}\0{stat.st_mtime_ns}\n".encode())
    return digest.hexdigest()

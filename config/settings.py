"""Django settings for Doko-Turnier: one module, driven by the environment.

Development defaults need nothing installed: SQLite in the project directory and Celery
tasks run eagerly in-process. Production sets DEBUG=0, SECRET_KEY, ALLOWED_HOSTS,
DATABASE_URL (PostgreSQL) and CELERY_BROKER_URL (Redis); see README.md.
"""

from __future__ import annotations

import datetime
import secrets
from collections.abc import Mapping
from pathlib import Path

import dj_database_url
import django_stubs_ext
from csp import constants as csp
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _

from config import static_files
from config.env import env_bool, env_int, env_list, env_secret, env_str, env_url

# Django's generic classes (FormView[Form], ModelForm[Model]) can be subscripted at run time
# as the type checker reads them; before any view or form module is imported.
django_stubs_ext.monkeypatch()

BASE_DIR = Path(__file__).resolve().parent.parent

DEBUG = env_bool("DEBUG", True)


def _secret_key() -> str:
    # Django's deployment check asks for 50 characters; development tolerates 32.
    key = env_secret("SECRET_KEY", min_length=32 if DEBUG else 50)
    if key is not None:
        return key
    if not DEBUG:
        raise ImproperlyConfigured("SECRET_KEY must be set when DEBUG is off.")
    # Development: one random key kept in an ignored file, so sessions survive restarts.
    path = BASE_DIR / ".secret_key"
    if not path.exists():
        path.write_text(secrets.token_urlsafe(50))
        path.chmod(0o600)
    return path.read_text().strip()


SECRET_KEY = _secret_key()
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["localhost", "127.0.0.1", "[::1]", "testserver"])
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])
SITE_URL = (env_str("SITE_URL", "http://127.0.0.1:8000") or "").rstrip("/")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "rest_framework",
    "rest_framework.authtoken",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "axes",
    "clubs",
    "tournaments",
    "scoring",
    "archive",
    "seasons",
    "teams",
    "documents",
    "hall",
    "cashbox",
    "evenings",
    "fees",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # Pages and API answers gzipped for whoever accepts it (a captain page with its sheet is
    # some 20 KB of HTML, 4 KB gzipped, on a hall's slow Wi-Fi). Static files are not passed
    # on this far: WhiteNoise or nginx sends their precompressed copies. Django's gzip adds
    # random bytes against length-guessing attacks (BREACH); CSRF tokens are masked anew.
    "django.middleware.gzip.GZipMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    # django-csp's, with the header built once per process (config/csp.py).
    "config.csp.CSPMiddleware",
    # Innermost, so the refusals they answer still get the security headers above.
    "tournaments.throttling.FailedCredentialsMiddleware",
    "tournaments.throttling.KnownDeviceMiddleware",
    "axes.middleware.AxesMiddleware",
    # An unreachable database is 503 with Retry-After and one log line (config/outage.py).
    "config.outage.DatabaseOutageMiddleware",
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"
ASGI_APPLICATION = "config.asgi.application"

# Django's widget templates drawn in Python, byte for byte (a third of a save's answer).
FORM_RENDERER = "common.form_renderer.WidgetRenderer"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "django.template.context_processors.i18n",
            ],
            # Template tags of a module outside an app: {% load form_fields %}.
            "libraries": {"form_fields": "common.form_fields"},
        },
    },
]

# Database: SQLite next to the project unless DATABASE_URL names another one.
_database_url = env_url("DATABASE_URL", frozenset({"postgres", "postgresql", "sqlite"}))
DATABASES: dict[str, Mapping[str, object]]
if _database_url is None:
    DATABASES = {
        "default": {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": BASE_DIR / "db.sqlite3",
            "OPTIONS": {"timeout": 20, "transaction_mode": "IMMEDIATE"},
        }
    }
else:
    DATABASES = {
        "default": dj_database_url.parse(
            _database_url,
            conn_max_age=env_int("DB_CONN_MAX_AGE", 60, minimum=0),
            # A reused connection is checked before each request; on PostgreSQL without a
            # round trip unless its socket shows trouble (config/postgresql/base.py).
            conn_health_checks=True,
            engine="config.postgresql" if _database_url.startswith("postgres") else None,
        )
    }
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# ---- Hall mode and backups (hall/kit.py, hall/backups.py; README "At the venue") ---- begin
# `manage.py hall` runs itself and gunicorn with HALL_MODE=1 and DEBUG=0. The embedded
# SQLite database then works in WAL mode (readers never wait for the one writer) and
# commits with a full sync, so a game acknowledged to a phone survives even a power cut;
# every write takes the lock when its transaction begins (IMMEDIATE) and waits up to
# 20 s for it, so concurrent writers queue instead of failing with "database is locked".
HALL_MODE = env_bool("HALL_MODE", False)
if HALL_MODE and DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    _sqlite_options = DATABASES["default"].get("OPTIONS")
    DATABASES["default"] = {
        **DATABASES["default"],
        "OPTIONS": {
            **(_sqlite_options if isinstance(_sqlite_options, Mapping) else {}),
            "timeout": 20,
            "transaction_mode": "IMMEDIATE",
            "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=FULL",
        },
    }
# Backups (`manage.py backup`): where they go and how many are kept. With BACKUP_DIR set, a
# backup is also made after every closed series; `manage.py hall` sets it (its --backup-dir)
# and makes one every BACKUP_INTERVAL_MINUTES while a series runs.
BACKUP_DIR = env_str("BACKUP_DIR", None)
BACKUP_KEEP = env_int("BACKUP_KEEP", 50, minimum=1, maximum=100_000)
BACKUP_INTERVAL_MINUTES = env_int("BACKUP_INTERVAL_MINUTES", 15, minimum=1, maximum=24 * 60)
# ---- Hall mode and backups ---------------------------------------------------------- end
# SQLite ignores the covering columns of the standings index (PostgreSQL uses them).
SILENCED_SYSTEM_CHECKS = ["models.W040"]

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "tournaments:mine"
LOGOUT_REDIRECT_URL = "landing"

# Languages: German first and default, English second.
LANGUAGE_CODE = "de"
LANGUAGES = [("de", _("German")), ("en", _("English"))]
LOCALE_PATHS = [BASE_DIR / "locale"]
USE_I18N = True
TIME_ZONE = env_str("TIME_ZONE", "Europe/Berlin")
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = Path(env_str("STATIC_ROOT", "") or BASE_DIR / "staticfiles")
MEDIA_URL = "media/"
MEDIA_ROOT = Path(env_str("MEDIA_ROOT", str(BASE_DIR / "media")) or BASE_DIR / "media")
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if DEBUG
            else "whitenoise.storage.CompressedManifestStaticFilesStorage"
        )
    },
}
# With DEBUG off (deploy, hall mode) collectstatic writes each file under its hashed name
# with a .gz and a .br beside it; WhiteNoise sends the smallest the browser accepts and marks
# hashed names immutable for a year (config/static_files.py), like the deploy's nginx.
WHITENOISE_ADD_HEADERS_FUNCTION = static_files.add_headers

# Celery: eager in-process without a broker, Redis when CELERY_BROKER_URL is set.
CELERY_BROKER_URL = env_url("CELERY_BROKER_URL", frozenset({"redis", "rediss"}))
CELERY_RESULT_BACKEND = env_url("CELERY_RESULT_BACKEND", frozenset({"redis", "rediss"})) or (
    CELERY_BROKER_URL
)
CELERY_TASK_ALWAYS_EAGER = CELERY_BROKER_URL is None
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_TASK_SERIALIZER = "json"
CELERY_RESULT_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_TASK_ACKS_LATE = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
# Each worker process warms up for documents when it starts (documents/warmup.py: about a
# second of CPU, several on a busy machine); Celery's default would end a process that
# takes more than 4 s to report for work.
CELERY_WORKER_PROC_ALIVE_TIMEOUT = 30.0
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# A worker whose Redis went away keeps reconnecting (every few seconds, forever) instead of
# exiting after 100 tries; systemd restarts it if it exits anyway (deploy/systemd/).
CELERY_BROKER_CONNECTION_RETRY = True
CELERY_BROKER_CONNECTION_MAX_RETRIES = None
# Queuing a task from a request fails fast while Redis is down: one connection try of at
# most a second, no retries (Celery's default retries for 0.6 s, holding the worker).
# Callers on the request path catch the failure (seasons.services.request_refresh).
CELERY_TASK_PUBLISH_RETRY_POLICY = {
    "max_retries": 0,
    "interval_start": 0,
    "interval_step": 0.1,
    "interval_max": 0.1,
}
CELERY_TIMEZONE = TIME_ZONE

# E-mail (club invitations, clubs/mail.py): sent only when EMAIL_HOST names an SMTP server;
# without one the owner copies the invitation link himself. Port 587 with STARTTLS unless
# told otherwise; EMAIL_USE_SSL (port 465) instead of STARTTLS. DEFAULT_FROM_EMAIL is the
# sender the server accepts, required with EMAIL_HOST.
EMAIL_HOST = env_str("EMAIL_HOST", "") or ""
EMAIL_PORT = env_int("EMAIL_PORT", 587, minimum=1, maximum=65535)
EMAIL_HOST_USER = env_str("EMAIL_HOST_USER", "") or ""
EMAIL_HOST_PASSWORD = env_str("EMAIL_HOST_PASSWORD", "") or ""
EMAIL_USE_SSL = env_bool("EMAIL_USE_SSL", False)
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", not EMAIL_USE_SSL)
EMAIL_TIMEOUT = env_int("EMAIL_TIMEOUT", 10, minimum=1, maximum=300)
DEFAULT_FROM_EMAIL = env_str("DEFAULT_FROM_EMAIL", "") or "webmaster@localhost"
if EMAIL_USE_SSL and EMAIL_USE_TLS:
    raise ImproperlyConfigured("EMAIL_USE_SSL and EMAIL_USE_TLS exclude each other; set one.")
if EMAIL_HOST and not env_str("DEFAULT_FROM_EMAIL", None):
    raise ImproperlyConfigured(
        "DEFAULT_FROM_EMAIL must be set with EMAIL_HOST (e.g. Doko-Turnier <doko@example.org>)."
    )

# Cache: CACHE_URL, else the broker's Redis, else the memory of each process. Counters of
# failed links and credentials must be shared by all web processes: production has Redis.
_cache_url = env_url("CACHE_URL", frozenset({"redis", "rediss"})) or CELERY_BROKER_URL
# While Redis is down each process answers from its own memory (config/cache.py); waiting
# for Redis is bounded so that an outage costs a request milliseconds, not seconds.
CACHES = {
    "default": (
        {
            "BACKEND": "config.cache.FallbackRedisCache",
            "LOCATION": _cache_url,
            "OPTIONS": {"socket_connect_timeout": 0.5, "socket_timeout": 1.0},
        }
        if _cache_url
        else {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}
    )
    | {"KEY_PREFIX": "doko"}
}

# Guessing (see tournaments/throttling.py): wrong passwords lock the account (django-axes);
# failed captain links, registration links and API credentials are refused per address.
# Successful requests are never counted or refused.
AUTHENTICATION_BACKENDS = [
    "tournaments.throttling.LoginAttemptsBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AXES_FAILURE_LIMIT = env_int("LOGIN_FAILURE_LIMIT", 10, minimum=1, maximum=100)
AXES_COOLOFF_TIME = datetime.timedelta(
    minutes=env_int("LOGIN_COOLOFF_MINUTES", 15, minimum=1, maximum=24 * 60)
)
# Per account, and per device (address and browser) against one password tried on many
# accounts; never per address alone, since a whole hall shares one NAT address. A browser in
# which the account logged in before is exempt (a signed cookie), so that nobody on the
# hall's Wi-Fi can lock an organizer out; its login clears the lock for the account.
AXES_LOCKOUT_PARAMETERS = ["username", ["ip_address", "user_agent"]]
AXES_RESET_ON_SUCCESS = True
AXES_WHITELIST_CALLABLE = "tournaments.throttling.known_device_login"
AXES_LOCKOUT_CALLABLE = "tournaments.throttling.login_locked_out"
TOKEN_FAILURE_LIMIT = env_int("TOKEN_FAILURE_LIMIT", 20, minimum=1, maximum=10_000)
TOKEN_FAILURE_WINDOW = env_int("TOKEN_FAILURE_WINDOW", 600, minimum=10, maximum=86_400)
TRUSTED_PROXY_COUNT = env_int("TRUSTED_PROXY_COUNT", 0, minimum=0, maximum=5)
AXES_IPWARE_PROXY_COUNT = TRUSTED_PROXY_COUNT or None

# Documents (PDFs) survive a lost worker: every document task is stopped after
# DOCUMENT_TASK_TIME_LIMIT seconds (an exception after the soft limit, a kill after the hard
# one); a document without progress for DOCUMENT_STALL_SECONDS is marked failed and may be
# requested again. The stall time must exceed the hard limit, so a task that still works
# always reports progress in time. Redis hands an unacknowledged message (its worker died)
# to another worker after the visibility timeout, which must exceed the longest task.
DOCUMENT_TASK_TIME_LIMIT = 120
DOCUMENT_STALL_SECONDS = env_int(
    "DOCUMENT_STALL_SECONDS", 300, minimum=DOCUMENT_TASK_TIME_LIMIT + 30, maximum=86_400
)
# Archive imports run as a task too (archive/jobs.py), under the same rule: a time limit,
# and an import without progress for longer than that is marked failed (its worker was lost).
# A drawn series' print pack is rendered ahead by a worker when its seating or names change,
# so the organizer's click finds it ready (documents.services.prepare_print_pack). On by
# default with a broker; without one it would render inside the request that drew.
DOCUMENT_PRERENDER = env_bool("DOCUMENT_PRERENDER", CELERY_BROKER_URL is not None)
# The processes the Celery worker renders documents with (its --concurrency, 2 in
# deploy/systemd/doko-worker.service): a document's missing pages are split into at least
# this many parts, so a small one keeps every process busy instead of one.
DOCUMENT_WORKER_PROCESSES = env_int("DOCUMENT_WORKER_PROCESSES", 2, minimum=1, maximum=64)
ARCHIVE_IMPORT_TIME_LIMIT = env_int("ARCHIVE_IMPORT_TIME_LIMIT", 540, minimum=60, maximum=3000)
ARCHIVE_IMPORT_STALL_SECONDS = ARCHIVE_IMPORT_TIME_LIMIT + 30
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "visibility_timeout": max(600, ARCHIVE_IMPORT_TIME_LIMIT + 60),
    "socket_connect_timeout": 1,
}

REST_FRAMEWORK = {
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.TokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticatedOrReadOnly"],
    "DEFAULT_PAGINATION_CLASS": "rest_framework.pagination.LimitOffsetPagination",
    "DEFAULT_METADATA_CLASS": "common.api.metadata.BasicMetadata",
    "PAGE_SIZE": 100,
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Doko-Turnier API",
    "DESCRIPTION": "Doppelkopf tournaments under the DDV tournament rules.",
    "VERSION": "1",
    "SERVE_INCLUDE_SCHEMA": False,
    # Swagger UI from our own static files, not a CDN.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    # Choice sets of the same field name in several resources, each named once.
    "ENUM_NAME_OVERRIDES": {
        "FeeStatusEnum": "fees.models.Booking.Kind",
        "RefereeCallStatusEnum": "scoring.models.RefereeCall.Status",
        "InvitationStatusEnum": "clubs.models.Invitation.Status",
    },
}

# HTTPS behind the TLS-terminating proxy (deploy/nginx/doko.conf sets X-Forwarded-Proto).
# Each is on by default when DEBUG is off; HSTS is opt-in because browsers remember it.
if env_bool("SECURE_PROXY_SSL_HEADER", not DEBUG):
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", not DEBUG)
SECURE_REDIRECT_EXEMPT = [r"^healthz$"]  # monitoring asks the app directly, over plain HTTP
SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 0, minimum=0, maximum=2 * 365 * 24 * 3600)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", False)
SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", False)
SESSION_COOKIE_SECURE = env_bool("SECURE_COOKIES", not DEBUG)
CSRF_COOKIE_SECURE = SESSION_COOKIE_SECURE
CSRF_FAILURE_VIEW = "common.api.errors.csrf_failure"  # the error JSON under /api/

# Content-Security-Policy (django-csp): scripts, styles, fonts and images from our own
# static files only; no inline script or style (htmx is told so in templates/base.html).
# Swagger UI and Pico draw icons from data: URIs.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [csp.SELF],
        "script-src": [csp.SELF, csp.NONCE],
        "style-src": [csp.SELF],
        "img-src": [csp.SELF, "data:"],
        "font-src": [csp.SELF],
        "connect-src": [csp.SELF],
        "object-src": [csp.NONE],
        "base-uri": [csp.SELF],
        "form-action": [csp.SELF],
        "frame-ancestors": [csp.NONE],
    }
}

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    # Captain tokens and credentials never reach the log (config/redaction.py).
    "filters": {"redact": {"()": "config.redaction.RedactingFilter"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "filters": ["redact"]}},
    # Django's own loggers write through the filtered handler too, not through Django's
    # default console handler.
    "loggers": {"django": {"handlers": [], "level": env_str("LOG_LEVEL", "WARNING")}},
    "root": {"handlers": ["console"], "level": env_str("LOG_LEVEL", "WARNING")},
}

"""Typed readers for settings taken from the environment.

Each reader fails loudly with :class:`ImproperlyConfigured` and a message that names the
variable, the bad value and what would be accepted, so a typo in a deployment never turns
into a silently wrong default.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from urllib.parse import urlsplit

from django.core.exceptions import ImproperlyConfigured

TRUE_WORDS = frozenset({"1", "true", "yes", "on"})
FALSE_WORDS = frozenset({"0", "false", "no", "off"})


def _raw(name: str, environ: Mapping[str, str] | None) -> str | None:
    value = (os.environ if environ is None else environ).get(name)
    if value is None or value.strip() == "":
        return None
    return value.strip()


def env_bool(name: str, default: bool, environ: Mapping[str, str] | None = None) -> bool:
    value = _raw(name, environ)
    if value is None:
        return default
    word = value.lower()
    if word in TRUE_WORDS:
        return True
    if word in FALSE_WORDS:
        return False
    raise ImproperlyConfigured(
        f"{name}={value!r} is not a yes/no value; use one of "
        f"{', '.join(sorted(TRUE_WORDS))} or {', '.join(sorted(FALSE_WORDS))}."
    )


def env_int(
    name: str,
    default: int,
    environ: Mapping[str, str] | None = None,
    *,
    minimum: int | None = None,
    maximum: int | None = None,
) -> int:
    value = _raw(name, environ)
    if value is None:
        return default
    try:
        number = int(value)
    except ValueError:
        raise ImproperlyConfigured(f"{name}={value!r} is not a whole number.") from None
    if (minimum is not None and number < minimum) or (maximum is not None and number > maximum):
        raise ImproperlyConfigured(f"{name}={number} must lie between {minimum} and {maximum}.")
    return number


def env_str(name: str, default: str | None, environ: Mapping[str, str] | None = None) -> str | None:
    value = _raw(name, environ)
    return default if value is None else value


def env_list(name: str, default: list[str], environ: Mapping[str, str] | None = None) -> list[str]:
    value = _raw(name, environ)
    if value is None:
        return list(default)
    items = [item.strip() for item in value.split(",")]
    if any(not item for item in items):
        raise ImproperlyConfigured(
            f"{name}={value!r} has an empty entry; separate values with single commas."
        )
    return items


def env_url(
    name: str, schemes: frozenset[str], environ: Mapping[str, str] | None = None
) -> str | None:
    """A URL whose scheme must be one of ``schemes``; None when unset."""
    value = _raw(name, environ)
    if value is None:
        return None
    parts = urlsplit(value)
    if parts.scheme not in schemes or not (parts.netloc or parts.path):
        # The value may hold a password: name only its scheme in the message.
        raise ImproperlyConfigured(
            f"{name} (scheme {parts.scheme or 'missing'!r}) is not a URL of the form "
            f"{' or '.join(sorted(s + '://...' for s in schemes))}."
        )
    return value


def env_secret(
    name: str,
    environ: Mapping[str, str] | None = None,
    *,
    min_length: int,
    min_unique: int = 5,
) -> str | None:
    """A secret of at least ``min_length`` characters (and ``min_unique`` different ones);
    None when unset. The message never repeats the value."""
    value = _raw(name, environ)
    if value is None:
        return None
    if value.startswith("<") and value.endswith(">"):
        raise ImproperlyConfigured(f"{name} is still the placeholder from README.md; set a secret.")
    if len(value) < min_length or len(set(value)) < min_unique:
        raise ImproperlyConfigured(
            f"{name} must be at least {min_length} characters long with at least "
            f"{min_unique} different characters (it has {len(value)}); generate one with "
            "python -c 'import secrets; print(secrets.token_urlsafe(50))'."
        )
    return value

"""The cache: Redis shared by every web process, and the process's own memory while Redis is
away.

The hall's boards, the sheets' findings and the counters of failed links live in the cache.
None of them is worth an error page: when Redis does not answer, ``FallbackRedisCache``
answers from a local memory cache (``LocMemCache``) for ``RETRY_SECONDS`` without asking
Redis again, logs the outage once and the return once. Each web process then builds its own
boards and counts failed links on its own (a guesser gets the limit once per process: the
throttle still refuses, never more than it would with Redis). Connecting and waiting are
bounded (``OPTIONS`` in settings), so an unreachable Redis costs a request a fraction of a
second once every ``RETRY_SECONDS``, not a worker for seconds.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from typing import Any, TypeVar

from django.core.cache.backends.base import DEFAULT_TIMEOUT, BaseCache
from django.core.cache.backends.locmem import LocMemCache
from django.core.cache.backends.redis import RedisCache
from redis.exceptions import RedisError

logger = logging.getLogger(__name__)

T = TypeVar("T")

#: After a failure, Redis is asked again only after this many seconds.
RETRY_SECONDS = 5.0


class FallbackRedisCache(RedisCache):
    """Django's Redis cache that answers from process memory while Redis is down."""

    def __init__(self, server: str, params: dict[str, Any]) -> None:
        super().__init__(server, params)
        local_params = {key: value for key, value in params.items() if key != "OPTIONS"}
        self.local: BaseCache = LocMemCache(f"fallback-{id(self)}", local_params)
        self._down_until = 0.0
        self._lock = threading.Lock()

    @property
    def available(self) -> bool:
        """False while Redis is taken for down (the local memory answers)."""
        return time.monotonic() >= self._down_until

    def _try(self, remote: Callable[[], T], local: Callable[[], T]) -> T:
        if not self.available:
            return local()
        try:
            result = remote()
        except RedisError as exc:
            with self._lock:
                first = self._down_until == 0.0
                self._down_until = time.monotonic() + RETRY_SECONDS
            if first:
                logger.warning(
                    "Cache unavailable (%s): answering from process memory", type(exc).__name__
                )
            return local()
        if self._down_until:
            with self._lock:
                back = self._down_until != 0.0
                self._down_until = 0.0
            if back:
                logger.warning("Cache available again")
        return result

    def add(
        self, key: Any, value: Any, timeout: Any = DEFAULT_TIMEOUT, version: int | None = None
    ) -> bool:
        return self._try(
            lambda: super(FallbackRedisCache, self).add(key, value, timeout, version),
            lambda: self.local.add(key, value, timeout, version),
        )

    def get(self, key: Any, default: Any = None, version: int | None = None) -> Any:
        return self._try(
            lambda: super(FallbackRedisCache, self).get(key, default, version),
            lambda: self.local.get(key, default, version),
        )

    def set(
        self, key: Any, value: Any, timeout: Any = DEFAULT_TIMEOUT, version: int | None = None
    ) -> None:
        self._try(
            lambda: super(FallbackRedisCache, self).set(key, value, timeout, version),
            lambda: self.local.set(key, value, timeout, version),
        )

    def touch(self, key: Any, timeout: Any = DEFAULT_TIMEOUT, version: int | None = None) -> bool:
        return self._try(
            lambda: super(FallbackRedisCache, self).touch(key, timeout, version),
            lambda: self.local.touch(key, timeout, version),
        )

    def delete(self, key: Any, version: int | None = None) -> bool:
        return self._try(
            lambda: super(FallbackRedisCache, self).delete(key, version),
            lambda: self.local.delete(key, version),
        )

    def get_many(self, keys: Any, version: int | None = None) -> dict[Any, Any]:
        return self._try(
            lambda: super(FallbackRedisCache, self).get_many(keys, version),
            lambda: self.local.get_many(keys, version),
        )

    def has_key(self, key: Any, version: int | None = None) -> bool:
        return self._try(
            lambda: super(FallbackRedisCache, self).has_key(key, version),
            lambda: self.local.has_key(key, version),
        )

    def incr(self, key: Any, delta: int = 1, version: int | None = None) -> int:
        return self._try(
            lambda: super(FallbackRedisCache, self).incr(key, delta, version),
            lambda: self.local.incr(key, delta, version),
        )

    def set_many(
        self, data: dict[Any, Any], timeout: Any = DEFAULT_TIMEOUT, version: int | None = None
    ) -> list[Any]:
        return self._try(
            lambda: super(FallbackRedisCache, self).set_many(data, timeout, version),
            lambda: self.local.set_many(data, timeout, version),
        )

    def delete_many(self, keys: Any, version: int | None = None) -> None:
        self._try(
            lambda: super(FallbackRedisCache, self).delete_many(keys, version),
            lambda: self.local.delete_many(keys, version),
        )

    def clear(self) -> None:
        self.local.clear()
        self._try(lambda: super(FallbackRedisCache, self).clear(), lambda: None)

    def ping(self) -> bool:
        """Whether Redis answers now (for /healthz); never raises."""
        try:
            client: Any = self._cache.get_client(write=False)  # type: ignore[attr-defined]
            return bool(client.ping())
        except RedisError:
            return False

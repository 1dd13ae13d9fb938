"""What stands before every API route: the bearer token, a per-client rate limit (token bucket)
and a bound on request bodies (checked on ``Content-Length`` and again while the body streams)."""

from __future__ import annotations

import hmac
import json
import math
import time
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any, ClassVar

from fastapi import HTTPException, Request

from citewise.errors import CitewiseError

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


class ApiError(HTTPException, CitewiseError):
    """An HTTP error with a stable machine-readable ``code`` (rendered as ``{"error": {...}}``)."""

    def __init__(
        self, status: int, code: str, message: str, headers: dict[str, str] | None = None, **extra: Any
    ) -> None:
        super().__init__(status_code=status, detail=message, headers=headers)
        self.code = code
        self.message = message
        self.extra = extra

    def body(self) -> dict[str, Any]:
        return {"error": {"code": self.code, "message": self.message, **self.extra}}


class TokenCheck:
    """Requires ``Authorization: Bearer <token>`` when a token is configured (constant-time compare).
    Runs after the rate limit; each failure costs the client ``failure_cost`` more requests of its bucket."""

    def __init__(self, token: str | None, limiter: RateLimiter | None = None, failure_cost: int = 5) -> None:
        self.token = token.strip() if token else None
        self.limiter = limiter
        self.failure_cost = failure_cost

    def __call__(self, request: Request) -> None:
        if not self.token:
            return
        scheme, _, given = request.headers.get("authorization", "").partition(" ")
        if scheme.lower() != "bearer" or not given:
            self._failed(request)
            raise ApiError(401, "unauthorized", "missing bearer token", {"WWW-Authenticate": "Bearer"})
        if not hmac.compare_digest(given.strip().encode(), self.token.encode()):
            self._failed(request)
            raise ApiError(401, "unauthorized", "invalid bearer token", {"WWW-Authenticate": "Bearer"})

    def _failed(self, request: Request) -> None:
        if self.limiter is not None:
            self.limiter.charge(client_of(request), self.failure_cost)


def client_of(request: Request) -> str:
    """The client's address as the server saw the connection (``X-Forwarded-For`` is applied, from trusted
    proxies only, by the server before the request gets here)."""
    return request.client.host if request.client else "unknown"


class RateLimiter:
    """A token bucket per client: ``burst`` requests at once, refilled at ``per_minute``."""

    def __init__(
        self, per_minute: float, burst: int, clock: Callable[[], float] = time.monotonic, max_clients: int = 10_000
    ) -> None:
        self.rate = per_minute / 60.0
        self.burst = float(burst)
        self.clock = clock
        self.max_clients = max_clients
        self.buckets: dict[str, tuple[float, float]] = {}

    def take(self, client: str) -> float:
        """0 when the request may go ahead, else the seconds to wait."""
        now = self.clock()
        tokens, last = self.buckets.get(client, (self.burst, now))
        tokens = min(self.burst, tokens + (now - last) * self.rate)
        if tokens >= 1.0:
            self.buckets[client] = (tokens - 1.0, now)
            self._prune(now)
            return 0.0
        self.buckets[client] = (tokens, now)
        return (1.0 - tokens) / self.rate if self.rate > 0 else math.inf

    def charge(self, client: str, cost: int) -> None:
        """Take ``cost`` more requests from the client's bucket (it may go below zero: the client waits)."""
        now = self.clock()
        tokens, last = self.buckets.get(client, (self.burst, now))
        tokens = min(self.burst, tokens + (now - last) * self.rate)
        self.buckets[client] = (tokens - cost, now)

    def _prune(self, now: float) -> None:
        if len(self.buckets) <= self.max_clients:
            return
        full = [k for k, (t, last) in self.buckets.items() if t + (now - last) * self.rate >= self.burst]
        for k in full or list(self.buckets)[: len(self.buckets) // 2]:
            del self.buckets[k]

    def __call__(self, request: Request) -> None:
        wait = self.take(client_of(request))
        if wait:
            seconds = max(1, math.ceil(wait)) if math.isfinite(wait) else 60
            raise ApiError(
                429,
                "rate_limited",
                f"too many requests: try again in {seconds} s",
                {"Retry-After": str(seconds)},
                retry_after=seconds,
            )


class BodyTooLarge(ApiError):
    def __init__(self, limit: int) -> None:
        super().__init__(413, "too_large", f"request body over the limit of {_size(limit)}")


class BodyLimit:
    """ASGI middleware: refuses request bodies over ``limit_for(method, path)`` bytes with a JSON 413."""

    def __init__(self, app: ASGIApp, limit_for: Callable[[str, str], int]) -> None:
        self.app = app
        self.limit_for = limit_for

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        limit = self.limit_for(scope["method"], scope["path"])
        declared = dict(scope.get("headers") or []).get(b"content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > limit):
            await _too_large(send, limit)
            return
        received = 0
        started = False

        async def bounded_receive() -> Message:
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > limit:
                    raise BodyTooLarge(limit)
            return message

        async def tracking_send(message: Message) -> None:
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, bounded_receive, tracking_send)
        except BodyTooLarge:
            if not started:
                await _too_large(send, limit)


async def _too_large(send: Send, limit: int) -> None:
    body = BodyTooLarge(limit).body()
    data = json.dumps(body).encode()
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(data)).encode())]
    await send({"type": "http.response.start", "status": 413, "headers": headers})
    await send({"type": "http.response.body", "body": data})


def _size(n: int) -> str:
    return f"{n / 1048576:g} MB" if n >= 1048576 else f"{n / 1024:g} KB"


class HostOriginGuard:
    """ASGI middleware: answers only requests whose ``Host`` is one of the server's own names (no DNS
    rebinding), and refuses state-changing requests sent by a page of another origin (``Origin`` or
    ``Sec-Fetch-Site: cross-site``)."""

    UNSAFE: ClassVar[set[str]] = {"POST", "PUT", "PATCH", "DELETE"}

    def __init__(self, app: ASGIApp, hosts: set[str]) -> None:
        self.app = app
        self.hosts = {h.lower().strip("[]") for h in hosts}

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers") or []}
        host = headers.get("host", "")
        name = _host_name(host)
        if name not in self.hosts:
            await _refuse(send, 421, "host_not_allowed", f"this server does not answer to the host name {name!r}")
            return
        if scope["method"] in self.UNSAFE:
            origin = headers.get("origin")
            cross = headers.get("sec-fetch-site", "") == "cross-site"
            if cross or (origin is not None and not _same_origin(origin, host)):
                await _refuse(send, 403, "cross_origin", "requests from another site's page are refused")
                return
        await self.app(scope, receive, send)


def _host_name(host: str) -> str:
    host = host.strip().lower()
    if host.startswith("["):
        return host[1 : host.find("]")] if "]" in host else host
    return host.rsplit(":", 1)[0] if host.count(":") == 1 else host


def _same_origin(origin: str, host: str) -> bool:
    scheme, _, rest = origin.partition("://")
    return scheme in ("http", "https") and rest.lower().rstrip("/") == host.strip().lower()


async def _refuse(send: Send, status: int, code: str, message: str) -> None:
    data = json.dumps({"error": {"code": code, "message": message}}).encode()
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(data)).encode())]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": data})


class SecurityHeaders:
    """ASGI middleware: every response says where its content may come from (this server only)."""

    HEADERS: ClassVar[list[tuple[bytes, bytes]]] = [
        (
            b"content-security-policy",
            b"default-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none'; frame-ancestors 'none'",
        ),
        (b"x-content-type-options", b"nosniff"),
        (b"referrer-policy", b"no-referrer"),
        (b"x-frame-options", b"DENY"),
    ]

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                present = {k.lower() for k, _ in message.get("headers", [])}
                extra = [(k, v) for k, v in self.HEADERS if k not in present]
                message["headers"] = [*message.get("headers", []), *extra]
            await send(message)

        await self.app(scope, receive, with_headers)

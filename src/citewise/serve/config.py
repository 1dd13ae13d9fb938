"""Settings of the HTTP server: binding, token, limits. Environment ``CITEWISE_SERVE__*`` (the
names a ``serve`` section of the main ``Settings`` would use) plus ``CITEWISE_API_TOKEN``; the
``citewise serve`` flags go on top."""

from __future__ import annotations

import ipaddress

from pydantic import Field, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict


class ServeSettings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="CITEWISE_SERVE__", extra="forbid", populate_by_name=True)

    host: str = "127.0.0.1"
    port: int = 8000
    token: str | None = Field(default=None, validation_alias="CITEWISE_API_TOKEN")
    """Bearer token every API call must carry; required when binding beyond loopback. Surrounding
    whitespace (a trailing newline from a secrets file) is removed."""

    reviewer_token: str | None = Field(default=None, validation_alias="CITEWISE_REVIEWER_TOKEN")
    """With it set, the audit log (questions asked, answers, reviews) is open only to this token: the API
    token asks, searches and manages documents, the reviewer token also reads, reviews and deletes logged
    answers. Without it, the API token does everything."""

    @field_validator("token", "reviewer_token")
    @classmethod
    def _strip_token(cls, value: str | None) -> str | None:
        return value.strip() or None if value is not None else None

    rate_per_minute: float = 120.0
    """Sustained requests per minute allowed to one client (by address)."""
    rate_burst: int = 30
    """Requests a client may make at once before the sustained rate applies."""
    max_json_kb: int = 64
    """Largest JSON request body."""
    max_upload_mb: float = 25.0
    """Largest upload request (all files together); each file also obeys ``ingest.max_file_mb``."""
    max_files: int = 20
    """Most files in one upload."""
    max_question_chars: int = 2000
    allowed_hosts: list[str] = Field(default_factory=list)
    """Host names the server answers to (the ``Host`` header) besides loopback and the bound address;
    anything else is refused, so a page on another site cannot reach the server by DNS rebinding."""
    trusted_proxies: list[str] = Field(default_factory=list)
    """Addresses of reverse proxies whose ``X-Forwarded-For`` names the client; from anyone else the
    header is ignored (the rate limit counts the connecting address)."""
    generators: list[str] = Field(default_factory=lambda: ["extractive"])
    """Generators API clients may choose per request (``local`` keeps a CPU busy for many seconds per
    answer: allow it deliberately). The server's own default (``answer.generator``) is always allowed."""
    max_queue: int = 8
    """Requests waiting for the index worker beyond which new ones get 503 with Retry-After."""
    deadline_s: float = 60.0
    """Longest a request waits for its answer before it gets 504 (the work already started finishes)."""
    auth_failure_cost: int = 5
    """Requests a failed authentication costs in the client's rate bucket (guessing tokens is slow)."""

    def hosts(self) -> set[str]:
        """Every host name the ``Host`` header may carry."""
        names = {"127.0.0.1", "localhost", "::1", *(h.lower() for h in self.allowed_hosts)}
        if self.host not in ("0.0.0.0", "::"):
            names.add(self.host.lower())
        return names


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def binding_problem(settings: ServeSettings) -> str | None:
    """Why the server must not start as configured (None when it may)."""
    if not is_loopback(settings.host) and not settings.token:
        return (
            f"refusing to listen on {settings.host} without a token: set CITEWISE_API_TOKEN "
            "(every API call must then carry 'Authorization: Bearer <token>'), or bind to 127.0.0.1"
        )
    return None

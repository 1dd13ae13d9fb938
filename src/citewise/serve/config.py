"""Settings of the HTTP server: binding, token, limits. Environment ``CITEWISE_SERVE__*`` (the
names a ``serve`` section of the main ``Settings`` would use) plus ``CITEWISE_API_TOKEN``; the
``citewise serve`` flags go on top."""

from __future__ import annotations

import ipaddress

from pydantic import Field
from pydantic_settings import BaseSettings, SettingsConfigDict


class ServeSettings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="CITEWISE_SERVE__", extra="forbid", populate_by_name=True)

    host: str = "127.0.0.1"
    port: int = 8000
    token: str | None = Field(default=None, validation_alias="CITEWISE_API_TOKEN")
    """Bearer token every API call must carry; required when binding beyond loopback."""
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

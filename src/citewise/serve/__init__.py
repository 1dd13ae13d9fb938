"""User-facing surfaces: the CLI (and later the HTTP API and web page)."""

"""User-facing surfaces: the CLI, the HTTP API (``api``) and the web page it serves (``web/``)."""

"""Files and records -> ``Document`` (text, pages, tables, structure tree, metadata)."""

PARSER_VERSION = "4"
"""Bumped whenever parsing or structure recognition changes what a document becomes: files ingested
by an older version are parsed again (their unchanged chunks keep their cached vectors)."""

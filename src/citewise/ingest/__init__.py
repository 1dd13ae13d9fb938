"""Files and records -> ``Document`` (text, pages, tables, structure tree, metadata)."""

"""citewise: question answering over authoritative documents where every sentence is cited."""

__version__ = "0.1.0"

"""Document -> Chunks with context headers and provenance."""

from citewise.chunk.chunker import Chunker, chunk_document

__all__ = ["Chunker", "chunk_document"]

"""The HTTP API and the page: ``create_app(settings, serve_settings)``.

The API routes (``/ask``, ``/search``, ``/documents…``, ``/answers…``) carry the bearer-token check
and the per-client rate limit; the page (``/``, ``/static``), ``/docs``, ``/openapi.json`` and
``/healthz`` are open. Every error is JSON, ``{"error": {"code": ..., "message": ...}}``: errors
from citewise's error tree become HTTP codes here only."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Callable, Mapping
from contextlib import asynccontextmanager
from dataclasses import asdict
from pathlib import Path
from typing import Annotated, Any, Literal
from urllib.parse import unquote, urlparse

from fastapi import APIRouter, Depends, FastAPI, File, Query, Request, UploadFile
from fastapi.concurrency import run_in_threadpool
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, StreamingResponse
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, Field
from starlette.exceptions import HTTPException as StarletteHTTPException

from citewise.assistant.records import AnswerSentence
from citewise.engine import FROM_SETTINGS, Engine
from citewise.errors import CitewiseError, IngestError, NotFound, StoreError
from citewise.index.embedder import Embedder
from citewise.serve.config import ServeSettings
from citewise.serve.guards import ApiError, BodyLimit, HostOriginGuard, RateLimiter, SecurityHeaders, TokenCheck
from citewise.serve.streaming import answer_events
from citewise.serve.uploads import Upload, UploadRejected, uploads_folder
from citewise.serve.worker import Busy, Services, TimedOut, Worker, Writer
from citewise.settings import Settings

WEB = Path(__file__).parent / "web"
PREMISE_CHARS = 20_000
"""Longest premise ``/verify`` reads: a provision, not a document."""
log = logging.getLogger("citewise.serve")


class AskRequest(BaseModel):
    question: str = Field(min_length=1, description="A question in English or Vietnamese.")
    generator: str | None = Field(default=None, description="extractive (default) | local | openai")
    stream: bool = Field(
        default=False,
        description="Reply as NDJSON: a line per checked sentence as soon as a model has written it, then the "
        "answer to show (`citewise.serve.streaming`).",
    )


class VerifyRequest(BaseModel):
    claim: str = Field(min_length=1, description="A sentence to check, in English or Vietnamese.")
    premise: str = Field(min_length=1, description="The text it should rest on: a quote, a provision.")


class ReviewRequest(BaseModel):
    status: Literal["verified", "flagged"]
    note: str = Field(default="", max_length=2000)
    reviewer: str = Field(default="", max_length=200)


def create_app(
    settings: Settings, serve: ServeSettings | None = None, embedder: Embedder | None = FROM_SETTINGS
) -> FastAPI:
    serve = serve or ServeSettings()
    upload_limit = int(serve.max_upload_mb * 1024 * 1024)
    worker = Worker(settings, embedder, upload_limit, serve.max_queue, serve.deadline_s)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        await worker.start()
        try:
            yield
        finally:
            await worker.stop()

    app = FastAPI(
        title="citewise",
        version="0.1.0",
        description="Answers from authoritative documents, every sentence cited and checked, or a refusal.",
        docs_url=None,  # the bundled /docs page reads /openapi.json; nothing is fetched from a CDN
        redoc_url=None,
        lifespan=lifespan,
    )
    app.state.worker = worker
    app.state.serve = serve
    _install_error_handlers(app)

    def limit_for(method: str, path: str) -> int:
        return upload_limit if (method == "POST" and path == "/documents") else serve.max_json_kb * 1024

    app.add_middleware(BodyLimit, limit_for=limit_for)
    app.add_middleware(HostOriginGuard, hosts=serve.hosts())
    app.add_middleware(SecurityHeaders)

    limiter = RateLimiter(serve.rate_per_minute, serve.rate_burst)
    # the rate limit first: wrong tokens are counted (and cost more) like any other request
    guarded = APIRouter(
        dependencies=[Depends(limiter), Depends(TokenCheck(serve.token, limiter, serve.auth_failure_cost))]
    )
    reviewers = APIRouter(
        dependencies=[
            Depends(limiter),
            Depends(TokenCheck(serve.reviewer_token or serve.token, limiter, serve.auth_failure_cost)),
        ]
    )
    _document_routes(guarded, worker, serve)
    _answer_routes(guarded, worker, serve)
    _audit_routes(reviewers, worker)
    app.include_router(guarded)
    app.include_router(reviewers)
    _page_routes(app, worker)
    return app


# -- questions and answers ------------------------------------------------------------------
def _answer_routes(router: APIRouter, worker: Worker, serve: ServeSettings) -> None:
    @router.post("/ask", summary="Answer a question with cited sentences, or refuse", response_model=None)
    async def ask(body: AskRequest) -> dict[str, Any] | StreamingResponse:
        question = _bounded_question(body.question, serve)
        generator = body.generator
        if generator is not None:
            from citewise.answer.base import GENERATORS

            if generator not in GENERATORS.names():
                raise ApiError(
                    400,
                    "unknown_generator",
                    f"unknown generator {generator!r} (known: {', '.join(GENERATORS.names())})",
                )
            allowed = {*serve.generators, worker.settings.answer.generator}
            if generator not in allowed:
                raise ApiError(
                    403,
                    "generator_not_allowed",
                    f"generator {generator!r} is not open to API clients (allowed: {', '.join(sorted(allowed))}; "
                    "the server's CITEWISE_SERVE__GENERATORS sets them)",
                )

        def answer(s: Services, sink: Callable[[AnswerSentence], None] | None = None) -> dict[str, Any]:
            result = s.engine.ask(question, generator, on_sentence=sink)
            audit_id = s.audit.record(result, s.engine.store.generation())
            return {**result.to_dict(), "audit_id": audit_id}

        if body.stream:
            lines = await answer_events(worker, answer, describe_error)
            return StreamingResponse(lines, media_type="application/x-ndjson")
        return await worker.run(answer)

    @router.post("/verify", summary="Check whether a premise supports a claim, and say why not")
    async def verify(body: VerifyRequest) -> dict[str, Any]:
        claim = _bounded_question(body.claim, serve)
        if len(body.premise) > PREMISE_CHARS:
            raise ApiError(413, "too_large", f"premise longer than {PREMISE_CHARS} characters")
        return await worker.run(lambda s: s.engine.supports(claim, body.premise).to_dict())

    @router.get("/search", summary="Rank the provisions that answer a question")
    async def search(
        q: Annotated[str, Query(min_length=1, description="A question in English or Vietnamese.")],
        k: Annotated[int, Query(ge=1, le=50)] = 10,
    ) -> dict[str, Any]:
        question = _bounded_question(q, serve)
        return await worker.run(lambda s: s.engine.search(question, k).to_dict())


def _audit_routes(router: APIRouter, worker: Worker) -> None:
    """The audit log: open to the reviewer token when one is set."""

    @router.get("/answers", summary="The audit log, latest first")
    async def answers(
        limit: Annotated[int, Query(ge=1, le=500)] = 50,
        review: Annotated[Literal["verified", "flagged", "unreviewed"] | None, Query()] = None,
    ) -> list[dict[str, Any]]:
        def listing(s: Services) -> list[dict[str, Any]]:
            return [{**asdict(e), "outcome": e.outcome} for e in s.audit.entries(limit, review)]

        return await worker.run(listing)

    @router.get("/answers/{answer_id}", summary="One logged answer with its reviews")
    async def answer_record(answer_id: str) -> dict[str, Any]:
        number = _answer_id(answer_id)
        return await worker.run(lambda s: s.audit.get(number))

    @router.post("/answers/{answer_id}/review", summary="Mark a logged answer verified or flagged")
    async def review(answer_id: str, body: ReviewRequest) -> dict[str, Any]:
        number = _answer_id(answer_id)

        def mark(s: Services) -> dict[str, Any]:
            return {"answer_id": number, **asdict(s.audit.review(number, body.status, body.note, body.reviewer))}

        return await worker.run(mark)

    @router.delete("/answers/{answer_id}", summary="Delete a logged answer with its citations and reviews")
    async def delete_answer(answer_id: str) -> dict[str, Any]:
        number = _answer_id(answer_id)

        def remove(s: Services) -> dict[str, Any]:
            s.audit.delete(number)
            return {"deleted": number}

        return await worker.run(remove)


def _answer_id(value: str) -> int:
    """An audit-log id from the path: anything but a positive integer SQLite can hold names no answer."""
    if not value.isascii() or not value.isdigit() or not 0 < int(value) < 2**63:
        raise NotFound(f"no answer {value[:40]} in the audit log")
    return int(value)


def _bounded_question(question: str, serve: ServeSettings) -> str:
    question = question.strip()
    if not question:
        raise ApiError(422, "invalid_request", "the question is empty")
    if len(question) > serve.max_question_chars:
        raise ApiError(413, "too_large", f"question longer than {serve.max_question_chars} characters")
    return question


# -- documents ------------------------------------------------------------------------------
def _document_json(engine: Engine, doc_id: str | None = None) -> Any:
    folder = uploads_folder(engine.settings).as_uri() + "/"
    docs = engine.store.documents()
    out = [{**asdict(d), "file": _file_name(d.source_uri), "uploaded": d.source_uri.startswith(folder)} for d in docs]
    if doc_id is None:
        return out
    for d in out:
        if d["doc_id"] == doc_id:
            return d
    raise NotFound(f"no document {doc_id}")


def _public(document: dict[str, Any]) -> dict[str, Any]:
    """A document as clients see it: its file name, never the server's path to it."""
    return {k: v for k, v in document.items() if k != "source_uri"}


def _file_name(source_uri: str) -> str:
    return unquote(Path(urlparse(source_uri).path).name) or source_uri


def _document_routes(router: APIRouter, worker: Worker, serve: ServeSettings) -> None:
    @router.get("/documents", summary="Indexed documents with their status and warnings")
    async def documents() -> list[dict[str, Any]]:
        return [_public(d) for d in await worker.run(lambda s: _document_json(s.engine))]

    @router.post(
        "/documents",
        summary="Upload files and index them as a job (all or nothing)",
        status_code=202,
        response_model=None,
    )
    async def upload(
        files: Annotated[list[UploadFile], File(description="PDF, DOCX, HTML, Markdown or text files")],
        wait: Annotated[
            bool, Query(description="wait for the job and reply with its documents (201) or its errors")
        ] = False,
    ) -> JSONResponse:
        if len(files) > serve.max_files:
            raise ApiError(413, "too_many_files", f"at most {serve.max_files} files per upload")
        uploads = [Upload(f.filename or "", f.file) for f in files]
        try:  # names and sizes are checked, and the bytes copied, while the request is read
            staged = await run_in_threadpool(worker.stage, lambda u: u.stage(uploads))
        finally:
            for f in files:
                await f.close()
        job = worker.submit(staged)
        if not wait:
            url = f"/jobs/{job.job}"
            return JSONResponse({**job.to_dict(), "status_url": url}, status_code=202, headers={"Location": url})
        await worker.wait(job)
        if job.error is not None:
            raise job.error
        return JSONResponse({"job": job.job, "documents": job.documents}, status_code=201)

    @router.get("/jobs/{job_id}", summary="An upload job: queued, running, done (its documents) or failed (why)")
    async def job_status(job_id: str) -> dict[str, Any]:
        return worker.job(job_id).to_dict()

    @router.get("/documents/{doc_id}", summary="One document: summary and provisions")
    async def document(doc_id: str) -> dict[str, Any]:
        def one(s: Services) -> dict[str, Any]:
            summary = _document_json(s.engine, doc_id)
            nodes = [n.to_dict() for n in s.engine.store.nodes(doc_id)]
            return {**_public(summary), "nodes": nodes}

        return await worker.run(one)

    @router.delete("/documents/{doc_id}", summary="Remove a document (and its uploaded file)")
    async def delete(doc_id: str) -> dict[str, Any]:
        def remove(w: Writer) -> dict[str, Any]:
            summary = _document_json(w.engine, doc_id)
            w.engine.store.delete_document(doc_id)
            w.engine.store.refresh()
            removed_file = w.uploads.remove_file(summary["source_uri"])
            worker.documents = len(w.engine.store.documents())
            return {"removed": doc_id, "title": summary["title"], "file_removed": removed_file}

        return await worker.write(remove)

    @router.get(
        "/documents/{doc_id}/source",
        summary="A document's text with page spans (offsets match citations), or its original file",
        response_model=None,
    )
    async def source(
        doc_id: str, format: Annotated[Literal["text", "original"], Query()] = "text"
    ) -> dict[str, Any] | FileResponse:
        if format == "original":
            path = await worker.run(lambda s: _original_path(s, doc_id))
            # always a download: an uploaded HTML file must never run as a page of this origin
            return FileResponse(path, filename=path.name, content_disposition_type="attachment")

        def text(s: Services) -> dict[str, Any]:
            doc = s.engine.store.load_document(doc_id)
            return {
                "doc_id": doc.doc_id,
                "title": doc.title,
                "lang": doc.lang,
                "fmt": doc.fmt,
                "file": _file_name(doc.source_uri),
                "text": doc.text,
                "pages": [asdict(p) for p in doc.pages],
                "nodes": [
                    {k: v for k, v in n.to_dict().items() if k not in ("refs", "xrefs", "aliases")} for n in doc.nodes
                ],
                "original": _original_path_or_none(doc.source_uri) is not None,
            }

        return await worker.run(text)


def _original_path_or_none(source_uri: str) -> Path | None:
    parsed = urlparse(source_uri)
    if parsed.scheme != "file" or parsed.fragment:
        return None
    path = Path(unquote(parsed.path))
    return path if path.is_file() else None


def _original_path(s: Services, doc_id: str) -> Path:
    summary = _document_json(s.engine, doc_id)
    path = _original_path_or_none(summary["source_uri"])
    if path is None:
        raise NotFound(f"the original file of {doc_id} is not available")
    return path


# -- page, docs, health -----------------------------------------------------------------------
def _page_routes(app: FastAPI, worker: Worker) -> None:
    app.mount("/static", StaticFiles(directory=WEB), name="static")

    @app.get("/", include_in_schema=False)
    async def page() -> FileResponse:
        return FileResponse(WEB / "index.html")

    @app.get("/docs", include_in_schema=False)
    async def docs() -> FileResponse:
        return FileResponse(WEB / "docs.html")

    @app.get("/healthz", summary="Liveness: the server is up and the index is open")
    async def healthz() -> dict[str, Any]:
        done, total = worker.embedding
        return {
            "status": "ok",
            "documents": worker.documents,
            "auth": bool(app.state.serve.token),
            "embedding": {"done": done, "total": total},
        }


# -- errors -----------------------------------------------------------------------------------
def _error(
    status: int, code: str, message: str, headers: Mapping[str, str] | None = None, **extra: Any
) -> JSONResponse:
    return JSONResponse({"error": {"code": code, "message": message, **extra}}, status_code=status, headers=headers)


_HTTP_CODES = {400: "bad_request", 401: "unauthorized", 404: "not_found", 405: "method_not_allowed", 413: "too_large"}


def _install_error_handlers(app: FastAPI) -> None:
    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        if isinstance(exc, ApiError):
            return JSONResponse(exc.body(), status_code=exc.status_code, headers=exc.headers)
        code = _HTTP_CODES.get(exc.status_code, "http_error")
        return _error(exc.status_code, code, str(exc.detail), exc.headers)

    @app.exception_handler(RequestValidationError)
    async def invalid(request: Request, exc: RequestValidationError) -> JSONResponse:
        problems = [
            f"{'.'.join(str(p) for p in e.get('loc', ()) if p != 'body') or 'body'}: {e.get('msg', 'invalid')}"
            for e in exc.errors()
        ]
        return _error(422, "invalid_request", "; ".join(problems) or "invalid request", problems=problems)

    @app.exception_handler(UploadRejected)
    async def rejected(request: Request, exc: UploadRejected) -> JSONResponse:
        files = [{"file": e.source or "", "error": e.reason, "kind": type(e).__name__} for e in exc.errors]
        return _error(exc.status, "upload_rejected", exc.reason, files=files)

    @app.exception_handler(NotFound)
    async def not_found(request: Request, exc: NotFound) -> JSONResponse:
        return _error(404, "not_found", str(exc))

    @app.exception_handler(IngestError)
    async def ingest_error(request: Request, exc: IngestError) -> JSONResponse:
        return _error(422, "ingest_failed", exc.line())

    @app.exception_handler(Busy)
    async def busy(request: Request, exc: Busy) -> JSONResponse:
        return _error(*describe_error(exc), headers={"Retry-After": str(exc.retry_after)})

    @app.exception_handler(CitewiseError)
    async def citewise_error(request: Request, exc: CitewiseError) -> JSONResponse:
        return _error(*describe_error(exc))

    @app.exception_handler(ValueError)
    async def value_error(request: Request, exc: ValueError) -> JSONResponse:
        return _error(400, "bad_request", str(exc))

    @app.exception_handler(Exception)
    async def internal(request: Request, exc: Exception) -> JSONResponse:
        log.exception("internal error on %s %s", request.method, request.url.path)
        return _error(*describe_error(exc))


def describe_error(exc: BaseException) -> tuple[int, str, str]:
    """An error of a question as (HTTP status, code, message), for a JSON error reply or a stream's last line."""
    if isinstance(exc, Busy):
        return 503, "busy", str(exc)
    if isinstance(exc, TimedOut):
        return 504, "timeout", str(exc)
    if isinstance(exc, StoreError):
        return 503, "index_unavailable", str(exc)
    if isinstance(exc, CitewiseError | ValueError):
        return 400, "bad_request", str(exc)
    return 500, "internal_error", f"internal error ({type(exc).__name__}); see the server log"

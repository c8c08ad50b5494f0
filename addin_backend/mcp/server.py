"""The MCP server: LEDGER's tools, resources and prompt for an agent, on the orchestration layer.

Every tool parses its arguments, calls the function of :mod:`addin_backend.service` that the
REST route or the command does, and answers the same JSON (``structuredContent``, with the
same JSON as text), so the agent's own model is the LLM and LEDGER needs no key. Errors are
tool errors (``isError``) whose ``structuredContent`` is ``{"error": {code, message, ...}}``
with the codes of the REST API (``errors.ERROR_TABLE``); the server stays up.

The loop an agent follows (the ``edit_with_dependencies`` prompt says it): ``open_document``
-> ``outline``/``find``/``read_units`` -> ``get_context`` -> ``propose_operations`` (or
``propose_edit``) -> review the propagated operations and findings -> ``apply_proposal``.

Tools that need the graph wait for the document's graph job, reporting its stages as
progress notifications (when the call carries a progress token). Blocking work runs in
worker threads, so the server answers other calls meanwhile.

No ``from __future__ import annotations`` here: the SDK reads the tools' signatures, and
their annotations refer to names local to :func:`build_server`.
"""
import base64
import binascii
import json
import logging
import os
import re
from collections import Counter
from functools import partial, wraps
from typing import Annotated, Any, Awaitable, Callable, Literal

import anyio
from anyio import from_thread, to_thread
from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ResourceError, ResourceNotFoundError, ToolError
from mcp.server.mcpserver.resolve import ListRoots, Resolve
from mcp_types import CallToolResult, ListRootsResult, TextContent, ToolAnnotations
from pydantic import Field, ValidationError, WithJsonSchema

from .. import __version__
from adapters.vocabulary import NamePolicy, Strategy

from ..errors import InvalidRequestError, UnknownDocumentError, describe
from ..store import documents
from . import schemas
from .roots import file_roots
from .workspace import CLIENT_HEADER, OWNER_HEADER, QUOTA_HEADER, Workspace

__all__ = ["build_server", "TOOL_NAMES", "READ_ONLY_TOOLS", "WRITING_TOOLS", "PROMPT_NAME", "INSTRUCTIONS"]

log = logging.getLogger("ledger.mcp")

READ_ONLY_TOOLS = ("open_document", "outline", "find", "read_units", "impact", "get_context", "check_document",
                   "propose_edit", "propose_operations")
WRITING_TOOLS = ("apply_proposal", "accept_all", "reject_all")
TOOL_NAMES = READ_ONLY_TOOLS + WRITING_TOOLS
PROMPT_NAME = "edit_with_dependencies"

INSTRUCTIONS = """LEDGER edits long .docx/.odt documents with their dependencies: cross-references, \
defined terms, numbering. Edits become native tracked changes (Word and LibreOffice) with the \
author and a reason on each.
The loop: open_document -> outline / find / read_units (never the whole document at once) -> \
get_context for the edit (the units it depends on, within a token budget, each with why) -> \
write the operations yourself and call propose_operations (or let LEDGER's rules engine plan \
an instruction with propose_edit) -> review the proposal: the propagated operations (renumbered \
references, renamed uses of a term) and the findings (broken references, conflicts) -> \
apply_proposal with the proposal id and an author. A proposal never changes the document; only \
apply_proposal writes, into a copy."""


# --- results and errors -----------------------------------------------------------------------


def _answer(result: dict[str, Any]) -> CallToolResult:
    text = json.dumps(result, ensure_ascii=False, separators=(",", ":"))
    return CallToolResult(content=[TextContent(type="text", text=text)], structured_content=result)


def _error(err: dict[str, Any]) -> CallToolResult:
    text = f"{err['code']}: {err['message']}"
    if err.get("details"):
        text += " " + json.dumps(err["details"], ensure_ascii=False, default=str)
    return CallToolResult(content=[TextContent(type="text", text=text)], structured_content={"error": err},
                          is_error=True)


def refusal(exc: BaseException) -> CallToolResult | None:
    """The tool error of a known error (the REST API's code), else ``None``."""
    known = describe(exc) if isinstance(exc, Exception) else None
    return _error(json.loads(json.dumps(known[0], default=str))) if known else None


def _tool(fn: Callable[..., Awaitable[dict[str, Any]]]) -> Callable[..., Awaitable[CallToolResult]]:
    """A tool body's answer as a structured result; a known error as a tool error with its code."""

    @wraps(fn)
    async def run(*args: Any, **kwargs: Any) -> CallToolResult:
        try:
            return _answer(await fn(*args, **kwargs))
        except Exception as exc:
            refused = refusal(exc)
            if refused is None:
                raise
            log.info("tool %s refused: %s", fn.__name__, exc)
            return refused

    return run


def _control_argument(value: Any, where: str = "", depth: int = 0) -> tuple[str, str] | None:
    """``(where, what)`` of the first string in the arguments that holds a character no document
    can (NUL, other C0 controls: :func:`..api.schemas.control_character`), else ``None``.

    >>> _control_argument({"author": "Ada", "operations": [{"text": "a\\x00b"}]})
    ('operations.0.text', 'U+0000 is a control character a document cannot hold')
    """
    from ..api.schemas import control_character

    if isinstance(value, str):
        what = control_character(value)
        return None if what is None else (where or "arguments", what)
    if depth > 32:
        return None  # the SDK's validation refuses what is nested this deep
    items = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
    for key, item in items:
        found = _control_argument(item, f"{where}.{key}" if where else str(key), depth + 1)
        if found is not None:
            return found
    return None


def request_owner(ctx: Any) -> str | None:
    """Whose documents an MCP request reaches: the HTTP door's owner header (the key's group or
    fingerprint, ``api.context.owner``); ``None`` over stdio and on a server without keys."""
    try:
        headers = ctx.headers if ctx is not None else None
        return (headers or {}).get(OWNER_HEADER) or None
    except Exception:  # no request behind the context (a direct call, stdio)
        return None


_DOCUMENT_URI = re.compile(r"^ledger://documents/([^/?#]+)")


class LedgerMCPServer(MCPServer):
    """:class:`MCPServer` whose argument errors carry a code too (``invalid_request``), and whose
    tools and resources reach only the caller's documents (another key's are unknown)."""

    ledger_store: Any = None

    async def call_tool(self, name: str, arguments: dict[str, Any], context: Any = None) -> Any:
        bad = _control_argument(arguments)
        if bad is not None:  # the REST door's check, on every string argument (a path too)
            return _error({"code": "invalid_request", "message": f"{name}: {bad[0]}: {bad[1]}"})
        doc_id = arguments.get("document_id") if isinstance(arguments, dict) else None
        if isinstance(doc_id, str) and (who := request_owner(context)) is not None:
            try:
                await to_thread.run_sync(partial(documents.check_owner, self.ledger_store, doc_id, who))
            except UnknownDocumentError as exc:
                return refusal(exc)
        try:
            return await super().call_tool(name, arguments, context)
        except ToolError as exc:
            if isinstance(exc.__cause__, ValidationError):
                problems = "; ".join(f"{'.'.join(str(p) for p in e['loc']) or 'arguments'}: {e['msg']}"
                                     for e in exc.__cause__.errors()[:5])
                return _error({"code": "invalid_request", "message": f"{name}: {problems}"})
            if self._tool_manager.get_tool(name) is None:
                return _error({"code": "unknown_tool", "message": f"no tool {name!r}; the tools are "
                                                                  f"{', '.join(TOOL_NAMES)}"})
            raise

    async def read_resource(self, uri: Any, context: Any = None) -> Any:
        m = _DOCUMENT_URI.match(str(uri))
        if m and (who := request_owner(context)) is not None:
            try:
                await to_thread.run_sync(partial(documents.check_owner, self.ledger_store, m.group(1), who))
            except UnknownDocumentError as exc:
                raise ResourceNotFoundError(f"unknown_document: {exc}") from None
        return await super().read_resource(uri, context)


# --- argument types ---------------------------------------------------------------------------

DocumentId = Annotated[str, Field(min_length=1, max_length=64, pattern=r"^[A-Za-z0-9_.-]+$",
                                  description="The document_id open_document answered")]
UnitId = Annotated[str, Field(min_length=1, max_length=200, description="A unit id (from outline, find or "
                                                                         "read_units)")]
Instruction = Annotated[str, Field(min_length=1, max_length=4000, pattern=r"\S",
                                   description="What the edit should do, in words")]
Author = Annotated[str, Field(min_length=1, max_length=255, pattern=r"\S",
                              description="The name the tracked changes carry")]
Selection = Annotated[str, Field(min_length=1, max_length=100_000, pattern=r"\S",
                                 description="Text the user selected (located in the document)")]
Budget = Annotated[int, Field(ge=1, le=1_000_000, description="Token budget of the packed context")]
OutputPath = Annotated[str, Field(min_length=1, max_length=4096,
                                  description="Where to write (stdio: a path under a root; relative paths are "
                                              "taken in the first root)")]

_READ = ToolAnnotations(read_only_hint=True, destructive_hint=False, idempotent_hint=True, open_world_hint=False)
#: Proposals are kept by the server (a new id each call) but change no document.
_PROPOSE = ToolAnnotations(read_only_hint=True, destructive_hint=False, idempotent_hint=False,
                           open_world_hint=False)


def _writing(files: bool, *, idempotent: bool) -> ToolAnnotations:
    """A tool that writes: over stdio into files (it may replace a file it wrote before, or its input
    with overwrite=true: destructive), over HTTP only new revisions or documents (additive)."""
    return ToolAnnotations(read_only_hint=False, destructive_hint=files, idempotent_hint=idempotent and files,
                           open_world_hint=False)


# --- the server -------------------------------------------------------------------------------


def build_server(ws: Workspace, *, name: str = "ledger") -> MCPServer:
    """The MCP server over ``ws`` (stdio when ``ws`` has roots, the HTTP door when not)."""
    server = LedgerMCPServer(name, title="LEDGER", version=__version__, instructions=INSTRUCTIONS,
                             website_url=None, log_level="WARNING")
    server.ledger_store = ws.store  # whose documents a call reaches is checked on this store

    # -- helpers shared by the tools (closures over ws) ---------------------------------------

    def ask_roots(ctx: Context) -> ListRoots | None:
        """The client's roots, asked on each call that takes a path (when it declares roots)."""
        caps = ctx.client_capabilities
        return ListRoots() if ws.files and caps is not None and caps.roots is not None else None

    ClientRoots = Annotated[ListRootsResult | None, Resolve(ask_roots)]

    def client_folders(roots: ListRootsResult | None) -> list[str]:
        return file_roots(str(r.uri) for r in roots.roots) if roots is not None else []

    def who(ctx: Context) -> str:
        headers = ctx.headers if not ws.files else None
        return (headers or {}).get(CLIENT_HEADER) or ws.who

    def room(ctx: Context, incoming: int) -> Any:
        """Hold ``incoming`` bytes of the caller's quota for a write (the REST API's quota: the
        HTTP door's key, or address); gives ``charge(scope)`` to count what was stored."""
        from ..service import quota

        headers = ctx.headers if not ws.files else None
        client = (headers or {}).get(QUOTA_HEADER) or who(ctx)
        return quota.reserve(ws.store, client, incoming, ws.quota_bytes)

    def account(ctx: Context) -> tuple[str, int] | None:
        """Whose quota what a tool derives (a proposal, a revision) counts in, as ``room`` reserves."""
        headers = ctx.headers if not ws.files else None
        client = (headers or {}).get(QUOTA_HEADER) or who(ctx)
        return (client, ws.quota_bytes) if ws.quota_bytes > 0 else None

    async def follow(ctx: Context, job: dict[str, Any], what: str) -> dict[str, Any]:
        """The result of a job the tool's work became (a large rename: the REST API's 202), waited
        for here without holding a thread, with its progress as notifications; a failed job is
        the tool's error."""
        from ..jobs.runner import job_error

        last = None
        while True:
            rec = await run(ws.runner.get, job["id"])
            if rec["status"] == "done":
                return dict(rec["result"])
            if rec["status"] == "failed":
                raise job_error(rec)
            key = (rec.get("stage"), round(float(rec.get("progress") or 0.0), 2))
            if key != last:
                last = key
                await notify(ctx, float(rec.get("progress") or 0.0), f"{what}: {rec.get('stage')}")
            await anyio.sleep(0.25)

    async def run(fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        return await to_thread.run_sync(partial(_within_budget, ws.request_seconds, fn, *args, **kwargs))

    async def notify(ctx: Context, progress: float, message: str) -> None:
        try:
            await ctx.report_progress(progress, 1.0, message)
        except Exception:  # the client went away; the work goes on
            log.debug("progress notification failed", exc_info=True)

    async def graph(ctx: Context, doc_id: str, doc: Any = None, *, announce: bool = False) -> Any:
        """The document's complete graph, waiting for its job with progress notifications (the
        job's stage and overall fraction); ``announce``: also say when it is ready."""
        from ..service.graph_job import wait_for_graph

        last: list[Any] = [None]

        def on_wait(details: dict[str, Any]) -> None:
            progress = float(details.get("progress") or 0.0)
            key = (details.get("stage"), round(progress, 2))
            if key != last[0]:
                last[0] = key
                message = f"building the dependency graph: {details.get('stage')} ({int(100 * progress)}%)"
                from_thread.run(notify, ctx, progress, message)

        G = await run(wait_for_graph, ws.store, ws.runner, doc_id, doc, timeout=ws.graph_timeout, on_wait=on_wait)
        if announce or last[0] is not None:
            await notify(ctx, 1.0, f"dependency graph ready: {G.number_of_nodes()} nodes, "
                                   f"{G.number_of_edges()} edges")
        return G

    def load(doc_id: str) -> Any:
        return documents.load(ws.store, doc_id)

    # -- reading ---------------------------------------------------------------------------

    @_tool
    async def open_document(
        path: Annotated[str | None, Field(max_length=4096, description=(
            "stdio: a .docx/.odt file under a root (relative: in the first root)"))] = None,
        document_id: Annotated[str | None, Field(max_length=64, pattern=r"^[A-Za-z0-9_.-]+$", description=(
            "A document opened or uploaded before (REST POST /api/v1/documents gives one too)"))] = None,
        content_base64: Annotated[str | None, Field(description=(
            "The document's bytes, base64 (an upload; over HTTP the way to bring a file)"))] = None,
        filename: Annotated[str | None, Field(max_length=255, description="The upload's file name")] = None,
        wait_for_graph: Annotated[bool, Field(description=(
            "Wait until the dependency graph is built (progress notifications meanwhile)"))] = True,
        *,
        ctx: Context,
        client_roots: ClientRoots = None,
    ) -> dict[str, Any]:
        """Open a document (a path, an earlier document_id, or an upload): its id, format, size in
        units and tokens, and the top of its outline. Reopening an unchanged file gives the same
        document_id and unit ids."""
        from ..service import graph_job, lookup, uploads

        given = [k for k, v in (("path", path), ("document_id", document_id), ("content_base64", content_base64))
                 if v is not None]
        if len(given) != 1:
            raise InvalidRequestError("give exactly one of path, document_id or content_base64"
                                      + (f" (not {', '.join(given)})" if given else ""))

        def take() -> tuple[dict[str, Any], Any, bool, str | None]:
            if document_id is not None:
                return documents.get_meta(ws.store, document_id), load(document_id), True, ws.source(document_id)
            if content_base64 is not None:
                try:
                    data = base64.b64decode(content_base64, validate=True)
                except (binascii.Error, ValueError):
                    raise InvalidRequestError("content_base64 is not base64", field="content_base64") from None
                with room(ctx, len(data)) as charge:  # read where the runner reads a REST upload
                    meta, doc, _job = uploads.take_in_upload(ws.store, ws.runner, data, filename=filename,
                                                             limits=ws.limits, semantic=ws.semantic,
                                                             owner=request_owner(ctx), account=account(ctx))
                    charge(meta["id"])
                return meta, doc if doc is not None else load(meta["id"]), False, None
            if path is None:
                raise InvalidRequestError("give exactly one of path, document_id or content_base64")
            real = ws.path(path, client_folders(client_roots))
            prev = ws.known(real)
            if prev is not None:
                try:
                    return documents.get_meta(ws.store, prev.document_id), load(prev.document_id), True, real
                except UnknownDocumentError:
                    pass  # expired: read it again
            data, doc = uploads.read_file(real, limits=ws.limits)
            meta, doc, _job = uploads.take_in(ws.store, ws.runner, data, doc=doc,
                                              filename=filename or os.path.basename(real), semantic=ws.semantic)
            ws.remember(meta["id"], real)
            return meta, doc, False, real

        meta, doc, reused, source = await run(take)
        graph_info: dict[str, Any] = {"complete": False}
        if wait_for_graph:
            G = await graph(ctx, meta["id"], doc, announce=True)
            graph_info = {"complete": bool(G.graph.get("complete", True)), "nodes": G.number_of_nodes(),
                          "edges": G.number_of_edges()}
        job = await run(ws.runner.get, graph_job.graph_job_id(meta["id"]))
        graph_info.update(status=job["status"], stage=job["stage"], progress=job["progress"])
        return {"document_id": meta["id"], "format": meta["format"], "filename": meta.get("filename"),
                "path": source, "size": meta["size"], "sha256": meta["sha256"], "units": meta["units"],
                "tokens": await run(lookup.document_tokens, doc), "warnings": meta.get("warnings", 0),
                "reused": reused, "graph": graph_info, "outline": await run(lookup.outline_summary, doc)}

    @_tool
    async def outline(document_id: DocumentId) -> dict[str, Any]:
        """The document's headings and clauses as a tree: id, kind, label, number, title, level."""
        doc = await run(load, document_id)
        return {"document": document_id, "outline": await run(documents.outline, doc)}

    @_tool
    async def find(
        document_id: DocumentId,
        query: Annotated[str, Field(min_length=1, max_length=2000, description=(
            "A label ('Section 4.2', 'Table 3'), a defined term, or text to look for"))],
        limit: Annotated[int, Field(ge=1, le=200, description="At most this many matches")] = 20,
        *,
        ctx: Context,
    ) -> dict[str, Any]:
        """Units by label, by the defined term the query uses (its defining unit), or by text."""
        from ..service import lookup

        G = await graph(ctx, document_id)
        doc = await run(load, document_id)
        return {"document": document_id, **await run(lookup.find, doc, G, query, limit=limit)}

    @_tool
    async def read_units(
        document_id: DocumentId,
        ids: Annotated[list[UnitId] | None, Field(max_length=200, description="These units, in this order")] = None,
        offset: Annotated[int, Field(ge=0, description="Start at this unit (document order, or in ids)")] = 0,
        limit: Annotated[int, Field(ge=1, le=200, description="At most this many units")] = 50,
        max_tokens: Annotated[int, Field(ge=1, le=32_000, description=(
            "Stop the page once its texts reach this many tokens"))] = 8000,
    ) -> dict[str, Any]:
        """Units with their text, a page at a time (bounded by units and tokens); next_offset
        continues, so a long document never arrives in one answer."""
        from ..service import lookup

        doc = await run(load, document_id)
        return {"document": document_id, **await run(lookup.read_units, doc, ids=ids, offset=offset, limit=limit,
                                                     max_tokens=max_tokens)}

    @_tool
    async def impact(
        document_id: DocumentId,
        unit_id: Annotated[str | None, Field(max_length=200, description="The unit an edit would touch")] = None,
        selection_text: Annotated[str | None, Field(max_length=100_000, description=(
            "Or: text in the document (located for you)"))] = None,
        depth: Annotated[int, Field(ge=1, le=10, description="Hops to follow")] = 2,
        types: Annotated[list[Literal["CONTAINS", "REFERENCES", "DEPENDS", "RELATED"]] | None, Field(
            description="Edge types to follow (default REFERENCES, DEPENDS)")] = None,
        *,
        ctx: Context,
    ) -> dict[str, Any]:
        """What a unit (or selected text) references and what depends on it, within a few hops,
        each with its edge type and evidence; and its broken references."""
        from ..service.impact import stored_impact

        if (unit_id is None) == (selection_text is None):
            raise InvalidRequestError("give unit_id or selection_text")
        await graph(ctx, document_id)
        return await run(stored_impact, ws.store, ws.runner, document_id, unit=unit_id,
                         selection={"text": selection_text} if selection_text else None, depth=depth,
                         types=list(dict.fromkeys(types)) if types else None)

    @_tool
    async def get_context(
        document_id: DocumentId,
        instruction: Instruction,
        target: Annotated[str | None, Field(max_length=200, description="The unit to edit (else the "
                                            "selection, else what the instruction names)")] = None,
        selection: Annotated[str | None, Field(max_length=100_000, description="Text the edit is "
                                               "about")] = None,
        budget: Budget = 1500,
        strategy: Annotated[Strategy, Field(description="ledger: follow the graph")] = "ledger",
        weights: Annotated[str | None, Field(max_length=500, description=(
            "Edge priorities, e.g. REFERENCES=100,DEPENDS=50,CONTAINS=30,RELATED=10,decay=0.5"))] = None,
        *,
        ctx: Context,
    ) -> dict[str, Any]:
        """The context an edit depends on, packed within the token budget: the target units, what
        they reference and what depends on them, each with why it is there and its tokens."""
        from ..service.context import parse_weights, stored_context

        parse_weights(weights)
        await graph(ctx, document_id)
        return await run(stored_context, ws.store, ws.runner, document_id, semantic=ws.semantic,
                         instruction=instruction, target=target, selection=selection, budget=budget,
                         strategy=strategy, weights=weights)

    @_tool
    async def check_document(
        document_id: DocumentId,
        revision: Annotated[int | None, Field(ge=1, description="An applied revision instead")] = None,
        *,
        ctx: Context,
    ) -> dict[str, Any]:
        """The whole-document findings: broken references, numbering gaps and duplicates,
        undefined acronyms, variant spellings."""
        from ..service.checks import check_stored

        return await run(check_stored, ws.store, document_id, revision, account=account(ctx))

    # -- proposing -------------------------------------------------------------------------

    @_tool
    async def propose_edit(
        document_id: DocumentId,
        instruction: Instruction,
        engine: Annotated[Literal["rules", "llm", "auto"], Field(description=(
            "rules: LEDGER's offline grammar (rename, renumber, delete, move, replace ...); llm: the "
            "configured endpoint; auto: rules, then llm"))] = "rules",
        target: Annotated[str | None, Field(max_length=200, description="The unit at the cursor")] = None,
        selection: Annotated[str | None, Field(max_length=100_000, description="Selected text")] = None,
        author: Annotated[str | None, Field(max_length=255, description="Author of the changes")] = None,
        budget: Budget = 1500,
        names: Annotated[NamePolicy, Field(description=(
            "A rename and the term inside a longer name ('Destination Connection ID' for 'connection ID'): "
            "auto follows the document's usage, rename renames inside names too, keep keeps every capitalised "
            "use; the instruction's 'including names' wins"))] = "auto",
        *,
        ctx: Context,
    ) -> dict[str, Any]:
        """Plan an instruction with LEDGER's engine: its operations, the operations they make
        necessary elsewhere (with reasons), and the findings. Nothing is written."""
        from ..service import edits

        await graph(ctx, document_id)
        request = {"instruction": instruction, "target": target, "selection": selection, "engine": engine,
                   "author": author, "budget": budget, "semantic": ws.semantic, "names": names}
        # the REST API's orchestration: a large rename (or a model's proposal) is a job on the edit lane
        proposal, job = await run(edits.request_proposal, ws.store, ws.runner, document_id, request,
                                  account=account(ctx))
        return proposal if job is None else await follow(ctx, job, "proposing")

    @_tool
    async def propose_operations(
        document_id: DocumentId,
        operations: Annotated[list[dict[str, Any]], WithJsonSchema(schemas.operations_schema())],
        instruction: Annotated[str | None, Field(max_length=4000, description="What they do, in words")] = None,
        author: Annotated[str | None, Field(max_length=255, description="Author of the changes")] = None,
        budget: Budget = 1500,
        names: Annotated[NamePolicy, Field(description=(
            "How a rename operation treats its term inside a longer name ('Destination Connection ID' for "
            "'connection ID'): auto follows the document's usage, rename renames inside names too, keep keeps "
            "every capitalised use"))] = "auto",
        *,
        ctx: Context,
    ) -> dict[str, Any]:
        """The main path for an agent: operations you wrote (the REST API's operation JSON),
        validated, propagated (renumbering, renamed terms) and verified into a proposal to
        review, then apply_proposal. Nothing is written."""
        from ..service import edits

        schemas.check_operations(operations)
        G = await graph(ctx, document_id)
        doc = await run(load, document_id)
        return await run(edits.propose_operations, ws.store, document_id, doc, G, operations,
                         instruction=instruction, author=author, budget=budget, semantic=ws.semantic,
                         names=names, account=account(ctx))

    # -- writing ---------------------------------------------------------------------------

    def default_output(source: str | None, which: str) -> str | None:
        if source is None:
            return None
        stem, ext = os.path.splitext(source)
        return f"{stem}.{which}{ext}"

    def out_path(output_path: str | None, source: str | None, which: str, roots: ListRootsResult | None,
                 overwrite: bool) -> str:
        wanted = output_path or default_output(source, which)
        if wanted is None:
            raise InvalidRequestError("give output_path: the document was not opened from a file here",
                                      field="output_path")
        return ws.output(ws.path(wanted, client_folders(roots), what="output_path"), source=source,
                         overwrite=overwrite)

    def write(path: str, data: bytes) -> None:
        from ..service.files import write_bytes

        write_bytes(path, data)
        ws.wrote(path)

    @_tool
    async def apply_proposal(
        document_id: DocumentId,
        proposal_id: Annotated[str, Field(min_length=1, max_length=64, pattern=r"^[A-Za-z0-9_.-]+$",
                                          description="The id propose_operations or propose_edit answered")],
        author: Author,
        operation_ids: Annotated[list[str] | None, Field(min_length=1, description=(
            "Only these operations (a propagated one follows its source)"))] = None,
        output_path: Annotated[str | None, Field(max_length=4096, description=(
            "stdio: where to write (default NAME.ledger.EXT beside the input)"))] = None,
        overwrite: Annotated[bool, Field(description="May replace an existing file (even the input)")] = False,
        *,
        ctx: Context,
        client_roots: ClientRoots = None,
    ) -> dict[str, Any]:
        """Write the proposal's operations as tracked changes by author into a copy (stdio: a file;
        HTTP: a new revision to download); the written file is read back and verified."""
        from ..service import edits, revisions

        target = None
        if ws.files:
            source = ws.source(document_id)
            target = out_path(output_path, source, "ledger", client_roots, overwrite)
        elif output_path is not None:
            ws.path(output_path, [], what="output_path")  # refused: this door writes no files

        def apply() -> dict[str, Any]:
            with room(ctx, 0):  # the revision is counted as it is kept (its real size)
                record = edits.apply(ws.store, document_id, author=author.strip(), who=who(ctx),
                                     audit_log=ws.audit_log or os.devnull, proposal_id=proposal_id,
                                     keep=operation_ids, semantic=ws.semantic, memory_mb=ws.work_memory_mb,
                                     account=account(ctx))
            if target is not None:
                write(target, revisions.revision_bytes(ws.store, document_id, record["revision"]))
            return record

        record = await run(apply)
        ops = record["operations"]
        ids = {op["id"] for op in ops}
        propagated = sum(1 for op in ops if op.get("source") in ids)
        by_op = dict(Counter(op["op"] for op in ops))
        counts = {s: sum(1 for f in record["findings"] if f.get("severity") == s) for s in ("error", "warning", "info")}
        where = target or f"revision {record['revision']}"
        text = (f"wrote {len(ops)} tracked change(s) by {record['author']} "
                f"({', '.join(f'{n} {op}' for op, n in by_op.items())}; {propagated} propagated) into {where}; "
                f"findings: {counts['error']} error(s), {counts['warning']} warning(s)")
        out = {**record, "path": target, "download": None if ws.files else
               f"/api/v1/documents/{document_id}/revisions/{record['revision']}/file",
               "summary": {"operations": len(ops), "propagated": propagated, "by_op": by_op, "findings": counts,
                           "text": text}}
        return out

    async def resolve_all(which: Literal["accept", "reject"], ctx: Context, document_id: str | None, path: str | None,
                          revision: int | None, output_path: str | None, overwrite: bool,
                          client_roots: ListRootsResult | None) -> dict[str, Any]:
        from adapters import read

        from ..service import revisions, uploads
        from ..service.files import read_bytes

        if (document_id is None) == (path is None):
            raise InvalidRequestError("give document_id or path")
        if revision is not None and document_id is None:
            raise InvalidRequestError("revision goes with document_id", field="revision")

        def work() -> dict[str, Any]:
            source: str | None
            if path is not None:
                source = ws.path(path, client_folders(client_roots))
                data = read_bytes(source)
            else:
                assert document_id is not None  # one of the two, checked above
                source = ws.source(document_id) if revision is None else None
                data = (revisions.revision_bytes(ws.store, document_id, revision) if revision is not None
                        else documents.original(ws.store, document_id)[0])
            out = revisions.resolve(data, which)
            doc = read(out)
            left = len(doc.revisions)
            verb = "accepted" if which == "accept" else "rejected"
            if ws.files:
                base = source or (ws.source(document_id) if document_id else None)
                target = out_path(output_path, base, verb, client_roots, overwrite)
                write(target, out)
                return {"which": which, "source": source or f"{document_id} revision {revision}", "path": target,
                        "document_id": None, "units": len(doc.units), "tracked_changes_left": left}
            if output_path is not None:
                ws.path(output_path, [], what="output_path")
            if document_id is None:  # (a path is read only where files are written)
                raise InvalidRequestError("give document_id", field="document_id")
            meta = documents.get_meta(ws.store, document_id)
            stem = os.path.splitext(meta.get("filename") or document_id)[0]
            with room(ctx, len(out)) as charge:
                new, _doc, _job = uploads.take_in(ws.store, ws.runner, out, filename=f"{stem}.{verb}.{meta['format']}",
                                                  limits=ws.limits, semantic=ws.semantic, owner=request_owner(ctx),
                                                  account=account(ctx))
                charge(new["id"])
            return {"which": which, "source": f"{document_id}" + (f" revision {revision}" if revision else ""),
                    "path": None, "document_id": new["id"], "units": len(doc.units), "tracked_changes_left": left}

        return await run(work)

    ResolveDoc = Annotated[str | None, Field(max_length=64, pattern=r"^[A-Za-z0-9_.-]+$", description=(
        "A document (its original, or one of its revisions)"))]
    ResolvePath = Annotated[str | None, Field(max_length=4096, description=(
        "stdio: a file under a root (e.g. the NAME.ledger.docx apply_proposal wrote)"))]
    Revision = Annotated[int | None, Field(ge=1, description="With document_id: an applied revision")]
    ResolveOut = Annotated[str | None, Field(max_length=4096, description=(
        "stdio: where to write (default NAME.accepted.EXT / NAME.rejected.EXT beside the source); "
        "HTTP: the result becomes a new document"))]
    Overwrite = Annotated[bool, Field(description="May replace an existing file")]

    @_tool
    async def accept_all(document_id: ResolveDoc = None, path: ResolvePath = None, revision: Revision = None,
                         output_path: ResolveOut = None, overwrite: Overwrite = False, *, ctx: Context,
                         client_roots: ClientRoots = None) -> dict[str, Any]:
        """Accept every tracked change into a copy (stdio: a file; HTTP: a new document)."""
        return await resolve_all("accept", ctx, document_id, path, revision, output_path, overwrite, client_roots)

    @_tool
    async def reject_all(document_id: ResolveDoc = None, path: ResolvePath = None, revision: Revision = None,
                         output_path: ResolveOut = None, overwrite: Overwrite = False, *, ctx: Context,
                         client_roots: ClientRoots = None) -> dict[str, Any]:
        """Reject every tracked change into a copy (stdio: a file; HTTP: a new document)."""
        return await resolve_all("reject", ctx, document_id, path, revision, output_path, overwrite, client_roots)

    # -- registration ----------------------------------------------------------------------

    titles = {"open_document": "Open a document", "outline": "Outline", "find": "Find units",
              "read_units": "Read units (paged)", "impact": "Impact of an edit", "get_context": "Context for an edit",
              "check_document": "Check the document", "propose_edit": "Propose an edit (LEDGER's engine)",
              "propose_operations": "Propose your operations", "apply_proposal": "Apply a proposal",
              "accept_all": "Accept all tracked changes", "reject_all": "Reject all tracked changes"}
    outputs = {"open_document": "OpenedDocument", "outline": "Outline", "find": "Found", "read_units": "UnitPage",
               "impact": "Impact", "get_context": "Context", "check_document": "Check", "propose_edit": "Proposal",
               "propose_operations": "Proposal", "apply_proposal": "AppliedCopy", "accept_all": "Resolved",
               "reject_all": "Resolved"}
    bodies = {"open_document": open_document, "outline": outline, "find": find, "read_units": read_units,
              "impact": impact, "get_context": get_context, "check_document": check_document,
              "propose_edit": propose_edit, "propose_operations": propose_operations,
              "apply_proposal": apply_proposal, "accept_all": accept_all, "reject_all": reject_all}
    for tool_name in TOOL_NAMES:
        if tool_name in ("propose_edit", "propose_operations"):
            notes = _PROPOSE
        elif tool_name in WRITING_TOOLS:
            notes = _writing(ws.files, idempotent=tool_name != "apply_proposal")
        else:
            notes = _READ
        server.add_tool(bodies[tool_name], name=tool_name, title=titles[tool_name],
                        annotations=notes, structured_output=False)
        tool = server._tool_manager.get_tool(tool_name)
        if tool is not None:  # just added
            tool.fn_metadata.output_schema = schemas.output_schema(outputs[tool_name])

    _resources(server, ws, graph_wait=lambda doc_id: _wait_sync(ws, doc_id))
    _prompt(server, ws)
    return server


# --- resources ----------------------------------------------------------------------------------


def _within_budget(seconds: float, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """``fn`` under the tool call's wall-clock budget (:mod:`addin_backend.budget`)."""
    from ..budget import budget

    with budget(seconds, "the request"):
        return fn(*args, **kwargs)


def _wait_sync(ws: Workspace, doc_id: str) -> Any:
    from ..service.graph_job import wait_for_graph

    return wait_for_graph(ws.store, ws.runner, doc_id, timeout=ws.graph_timeout)


def _resources(server: MCPServer, ws: Workspace, *, graph_wait: Callable[[str], Any]) -> None:
    """The document's graph (JSON, GraphML), text views and outline as resources."""

    def reading(fn: Callable[..., Any]) -> Callable[..., Awaitable[Any]]:
        @wraps(fn)
        async def read(*args: Any, **kwargs: Any) -> Any:
            try:
                return await to_thread.run_sync(partial(fn, *args, **kwargs))
            except UnknownDocumentError as exc:
                raise ResourceNotFoundError(f"unknown_document: {exc}") from None
            except Exception as exc:
                known = describe(exc)
                if known is None:
                    raise
                raise ResourceError(f"{known[0]['code']}: {known[0]['message']}") from None

        return read

    def graph_json(document_id: str) -> str:
        from ..service.graphs import graph_export

        documents.get_meta(ws.store, document_id)
        return json.dumps(graph_export(graph_wait(document_id), "json"), ensure_ascii=False)

    def graph_graphml(document_id: str) -> str:
        from ..service.graphs import graph_export

        documents.get_meta(ws.store, document_id)
        return graph_export(graph_wait(document_id), "graphml").decode("utf-8")

    def text(document_id: str) -> str:
        return "\n".join(documents.load(ws.store, document_id).lines("accepted"))

    def text_rejected(document_id: str) -> str:
        return "\n".join(documents.load(ws.store, document_id).lines("rejected"))

    def outline(document_id: str) -> str:
        doc = documents.load(ws.store, document_id)
        return json.dumps({"document": document_id, "outline": documents.outline(doc)}, ensure_ascii=False)

    def listing() -> str:
        return json.dumps({"documents": ws.opened()}, ensure_ascii=False)

    base = "ledger://documents/{document_id}"
    for uri, fn, mime, title in (
        (base + "/graph", graph_json, "application/json", "Dependency graph (JSON)"),
        (base + "/graph.graphml", graph_graphml, "application/graphml+xml", "Dependency graph (GraphML)"),
        (base + "/text", text, "text/plain", "Text, tracked changes accepted"),
        (base + "/text/rejected", text_rejected, "text/plain", "Text, tracked changes rejected"),
        (base + "/outline", outline, "application/json", "Outline"),
    ):
        server.resource(uri, name=fn.__name__, title=title, mime_type=mime)(reading(fn))
    server.resource("ledger://documents", name="documents", title="Documents opened from files here",
                    mime_type="application/json")(listing)


# --- the prompt ----------------------------------------------------------------------------------


def _prompt(server: MCPServer, ws: Workspace) -> None:
    def edit_with_dependencies(
        document: Annotated[str, Field(description="The document: a path (stdio) or a document_id")],
        instruction: Annotated[str, Field(description="The edit to make")],
        author: Annotated[str, Field(description="The name the tracked changes carry")] = "LEDGER agent",
    ) -> str:
        """Edit a document with its dependencies: context, your operations, propagation, review, apply."""
        how = "path" if ws.files and not document.isalnum() else "document_id"
        return f"""Edit the document {document!r} with LEDGER, keeping its dependencies right.

Instruction: {instruction}

Follow this loop:
1. open_document({how}={document!r}) -> note the document_id and the outline summary.
2. Locate what the instruction is about: outline, find (a label such as "Section 4.2", a defined
   term, or text) or read_units (paged; never ask for the whole document).
3. get_context(document_id, instruction, target=<unit id>) -> read the packed context: what the
   unit references and what depends on it, each with why it is there.
4. Write the edit yourself as operations, e.g. {{"op": "replace", "unit": "<id>", "start": <i>,
   "end": <j>, "text": "<new>", "before": "<the unit's text>"}} ({{"op": "rename", "old": ..., "text": ...}}
   renames a term everywhere), and call propose_operations(document_id, operations, instruction).
   (propose_edit lets LEDGER's rules engine plan instructions it understands.)
5. Review the proposal: its propagated operations (renumbered references, renamed uses; each
   with a reason) and its findings (errors first). Fix and propose again if something is wrong.
6. apply_proposal(document_id, proposal_id, author={author!r}) writes tracked changes into a copy
   and verifies it; report the summary and the path (or revision) to the user."""

    server.prompt(name=PROMPT_NAME, title="Edit with dependencies")(edit_with_dependencies)

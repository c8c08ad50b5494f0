"""Choosing an engine: ``rules`` (offline), ``llm`` (configured endpoint) or ``auto`` (rules, then LLM)."""
from __future__ import annotations

from dataclasses import replace as dc_replace
from typing import Any, Iterable, Mapping, Protocol

from adapters.model import Document, Unit
from adapters.quotes import quote_style, restyle
from adapters.vocabulary import ENGINES
from addin_backend.errors import InstructionNotUnderstoodError, InvalidRequestError

from . import rules
from .operations import Checked
from .proposal import ContextItem, Proposal

__all__ = ["ENGINE_NAMES", "AutoEngine", "DocumentQuotes", "Engine", "RulesEngine", "in_document_quotes", "select_engine"]

#: The engines a request may name (:data:`adapters.vocabulary.ENGINES`).
ENGINE_NAMES = ENGINES

Context = Iterable[ContextItem | Unit | tuple[Unit, str]] | None


class Engine(Protocol):
    """What the API and the CLI call, whichever engine answers."""

    name: str

    def propose(
        self, doc: Document, instruction: str, context: Context = None, *,
        author: str, target: str | None = None, selection: str | None = None, names: str = "auto",
    ) -> Proposal: ...


class RulesEngine:
    """The offline grammar of :mod:`addin_backend.edits.rules` (context is not needed)."""

    name = "rules"

    def propose(
        self, doc: Document, instruction: str, context: Context = None, *,
        author: str, target: str | None = None, selection: str | None = None, names: str = "auto",
    ) -> Proposal:
        return rules.propose(doc, instruction, author=author, target=target, selection=selection, names=names)


def in_document_quotes(doc: Document, proposal: Proposal) -> Proposal:
    """The proposal with the texts it writes in the document's quotation marks (its majority,
    :func:`adapters.quotes.restyle`): a model writes straight quotes into a document that writes
    curly ones, and the reverse. The rules engine does the same as it writes."""
    marks = "\"'\u2018\u2019\u201a\u201c\u201d\u201e\u00ab\u00bb"
    texts = [e for e in proposal.edits if e.op in ("replace", "set_text", "insert_after") and e.text
             and any(c in e.text for c in marks)]
    if not texts:
        return proposal
    style = quote_style(u.text for u in doc.units)

    def styled(e: Any) -> Any:
        return dc_replace(e, text=restyle(e.text, style)) if any(e is t for t in texts) else e

    # the marks of a text move no edit: edits the engine checked stay checked
    edits = proposal.edits
    proposal.edits = edits.map(styled) if isinstance(edits, Checked) else [styled(e) for e in edits]
    return proposal


class DocumentQuotes:
    """An engine whose proposals write in the document's quotation marks (:func:`in_document_quotes`);
    everything else is the wrapped engine's."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.name = engine.name

    def __getattr__(self, key: str) -> Any:
        return getattr(self.engine, key)

    def propose(
        self, doc: Document, instruction: str, context: Context = None, *,
        author: str, target: str | None = None, selection: str | None = None, names: str = "auto",
    ) -> Proposal:
        return in_document_quotes(doc, self.engine.propose(doc, instruction, context, author=author, target=target,
                                                           selection=selection, names=names))


class AutoEngine:
    """Rules first; an instruction they cannot parse goes to the LLM engine when one is configured."""

    name = "auto"

    def __init__(self, llm: Engine | None = None) -> None:
        self.rules = RulesEngine()
        self.llm = llm

    def propose(
        self, doc: Document, instruction: str, context: Context = None, *,
        author: str, target: str | None = None, selection: str | None = None, names: str = "auto",
    ) -> Proposal:
        try:
            return self.rules.propose(doc, instruction, author=author, target=target, selection=selection,
                                      names=names)
        except InstructionNotUnderstoodError:
            if self.llm is None:
                raise
        proposal = self.llm.propose(doc, instruction, context, author=author, target=target, selection=selection,
                                     names=names)
        proposal.warnings.insert(0, "the rules engine could not parse the instruction; the LLM engine answered")
        return proposal


def select_engine(name: str = "auto", *, env: Mapping[str, str] | None = None) -> Engine:
    """The engine called ``name``; ``env`` (default ``os.environ``) configures the LLM engine.

    :raise EngineUnavailableError: ``llm`` without ``LEDGER_LLM_ENDPOINT``/``LEDGER_LLM_KEY``, or
        an LLM configuration that does not parse.
    :raise InvalidRequestError: an unknown engine name.
    """
    if name == "rules":
        return RulesEngine()
    if name in ("llm", "auto"):
        from .llm import LLMEngine, llm_configured  # the SDK itself is imported only per request

        if name == "llm":
            return DocumentQuotes(LLMEngine.from_env(env))
        return AutoEngine(DocumentQuotes(LLMEngine.from_env(env)) if llm_configured(env) else None)
    raise InvalidRequestError(f"unknown engine {name!r}; expected one of {', '.join(ENGINE_NAMES)}")

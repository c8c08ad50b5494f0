"""The LLM engine: a chat model behind Azure AI Inference or any OpenAI-compatible server proposes
edits; LEDGER parses and checks them.

Two ways to ask (``LEDGER_LLM_SCHEMA``):

- ``edits`` (the default for Azure): the model writes concrete operations on units per
  :data:`~addin_backend.edits.operations.RESPONSE_SCHEMA` (replace words, set a unit's text,
  insert, delete, move, rename); an answer that does not fit is fed back once, then refused.
- ``operations`` (the default for OpenAI-compatible servers, where small local models run): the
  model names at most a few of LEDGER's high-level operations (rename a term, delete a unit,
  retitle, rewrite a unit's text, replace words) per
  :func:`~addin_backend.edits.llm_operations.operations_schema`, with an output budget sized to
  them; propagation does the rest, and :func:`~addin_backend.edits.llm_operations.repair` keeps
  what can be used without guessing (see that module).

In the ``edits`` way, the model sees the instruction and the retrieved context (each unit with its id, kind, label,
why it is included and its text) and must answer with JSON per
:data:`~addin_backend.edits.operations.RESPONSE_SCHEMA`. Its answer is never trusted: code fences
are stripped, the JSON parsed, every operation validated against the document; a malformed
answer is sent back once with the error, then refused. 429 and 5xx answers and timeouts are
retried with exponential backoff (honouring ``Retry-After``), all within one deadline.

The model is not trusted (:mod:`.llm_http`): the whole call, every retry included, has one
deadline (``LEDGER_LLM_DEADLINE``, and sooner the request's or job's budget), each wait for a
byte an idle timeout, a trickling server is cut at the deadline, no redirect is followed (the
key never goes to another address), an answer is read up to a size cap and parsed defensively,
and written text with bidirectional controls the unit does not already use is sent back, then
refused (:mod:`.written`). The request is what the Azure AI Inference SDK sent: ``POST
{endpoint}/chat/completions?api-version=...`` with the key as ``api-key`` and as a bearer token.

Configuration (environment):

- ``LEDGER_LLM_PROVIDER`` — ``azure`` (default: Azure AI Foundry / Azure OpenAI) or ``openai``
  (any OpenAI-compatible ``/v1/chat/completions`` server: llama.cpp / xllamacpp, vLLM, Ollama,
  LM Studio); the same SDK talks to both
- ``LEDGER_LLM_ENDPOINT`` — e.g. ``https://<resource>.services.ai.azure.com/models``, an Azure
  OpenAI deployment URL ``https://<resource>.openai.azure.com/openai/deployments/<name>``, or
  ``http://127.0.0.1:8080/v1`` for a local server
- ``LEDGER_LLM_KEY`` — the key (sent as ``api-key`` and ``Authorization: Bearer``); optional for
  ``openai`` (a server run without keys)
- ``LEDGER_LLM_MODEL`` — model name sent in the body (optional for single-model endpoints)
- ``LEDGER_LLM_API_VERSION`` — ``api-version`` query value (SDK default ``2024-05-01-preview``)
- ``LEDGER_LLM_TIMEOUT`` — seconds to connect, and the most a read waits for a byte (default 60)
- ``LEDGER_LLM_DEADLINE`` — seconds the whole call may take, retries included (default 120;
  the request's or job's budget, when sooner, wins)
- ``LEDGER_LLM_MAX_ANSWER_MB`` — the most one answer may hold (default 4)
- ``LEDGER_LLM_MAX_RETRIES`` — retries after a 429/5xx/timeout (default 4), within the deadline
- ``LEDGER_LLM_RESPONSE_FORMAT`` — ``json_schema`` (default), ``json_object`` or ``text``
- ``LEDGER_LLM_SCHEMA`` — ``edits`` or ``operations`` (default: by provider, above)
- ``LEDGER_LLM_MAX_TOKENS`` — the most tokens one answer may take (default 2048; the
  ``operations`` way asks for fewer, sized to the operations and the units they may rewrite)
"""
from __future__ import annotations

import json
import os
import random
import re
import time
from dataclasses import dataclass
from email.utils import parsedate_to_datetime
from typing import Any, Callable, Iterable, Mapping

from adapters.model import Document, Edit, Unit
from addin_backend.errors import EngineUnavailableError, InstructionNotUnderstoodError, LedgerError

from ..foreground import idle as waiting_elsewhere
from .llm_http import Deadline, check_text, parse_json
from .operations import validate_edits
from .specs import RESPONSE_SCHEMA, edit_from_spec, now_iso
from .proposal import ContextItem, Proposal, Usage, as_context
from .resolve import LABEL_RX, resolve_ref
from .tree import body_units, enclosing_section

__all__ = ["ENV_VARS", "LLMConfig", "LLMEngine", "build_messages", "llm_configured", "parse_reply"]

#: Environment variables the engine reads (field of :class:`LLMConfig` -> variable).
ENV_VARS = {
    "endpoint": "LEDGER_LLM_ENDPOINT",
    "key": "LEDGER_LLM_KEY",
    "model": "LEDGER_LLM_MODEL",
    "api_version": "LEDGER_LLM_API_VERSION",
    "timeout": "LEDGER_LLM_TIMEOUT",
    "deadline": "LEDGER_LLM_DEADLINE",
    "max_answer_mb": "LEDGER_LLM_MAX_ANSWER_MB",
    "max_retries": "LEDGER_LLM_MAX_RETRIES",
    "response_format": "LEDGER_LLM_RESPONSE_FORMAT",
    "provider": "LEDGER_LLM_PROVIDER",
    "schema": "LEDGER_LLM_SCHEMA",
    "max_tokens": "LEDGER_LLM_MAX_TOKENS",
    "context": "LEDGER_LLM_CONTEXT",
}
_FORMATS = ("json_schema", "json_object", "text")
#: Stops an answer of operations: compact JSON never holds them, a model looping on blank lines
#: or opening a second fenced block does.
_OPERATIONS_STOP = ["\n\n\n", "\n```\n"]
#: ``azure``: Azure AI Foundry / Azure OpenAI (a key is required); ``openai``: any
#: OpenAI-compatible server (llama.cpp, vLLM, Ollama, LM Studio; the key is optional).
PROVIDERS = ("azure", "openai")
#: How the model is asked: concrete ``edits``, or LEDGER's high-level ``operations``.
SCHEMAS = ("edits", "operations")
#: Sent as the key to a keyless OpenAI-compatible server (the SDK's credential must not be empty).
_NO_KEY = "none"
_RETRY_STATUS = {408, 429}
_DEFAULT_CONTEXT_CHARS = 8000


@dataclass(frozen=True)
class LLMConfig:
    """Where the model is and how patiently to talk to it."""

    endpoint: str
    key: str
    model: str | None = None
    api_version: str | None = None
    timeout: float = 60.0
    #: Seconds the whole call may take, every attempt and wait included.
    deadline: float = 120.0
    #: The most one answer may hold, in MB.
    max_answer_mb: float = 4.0
    max_retries: int = 4
    response_format: str = "json_schema"
    backoff: float = 1.0
    max_backoff: float = 30.0
    temperature: float | None = 0.0
    max_tokens: int | None = 2048
    provider: str = "azure"
    schema: str = "edits"
    #: The model's window in tokens, where it is small enough to matter (a local server): the
    #: context sent is cut to fit it with the answer's budget; ``None``: sent as retrieved.
    context: int | None = None

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> "LLMConfig":
        """The configuration from ``LEDGER_LLM_*`` variables.

        :raise EngineUnavailableError: endpoint or key missing (the key may be left out for an
            ``openai`` provider), or a value that does not parse.
        """
        env = os.environ if env is None else env
        get = lambda field: (env.get(ENV_VARS[field]) or "").strip()  # noqa: E731
        provider = get("provider").lower() or "azure"
        if provider not in PROVIDERS:
            raise EngineUnavailableError(f"{ENV_VARS['provider']} must be one of {', '.join(PROVIDERS)}")
        needed = ("endpoint", "key") if provider == "azure" else ("endpoint",)
        missing = [ENV_VARS[f] for f in needed if not get(f)]
        if missing:
            raise EngineUnavailableError(f"the LLM engine is not configured: set {' and '.join(missing)}", missing=missing)
        fields: dict[str, Any] = {"endpoint": get("endpoint"), "key": get("key") or _NO_KEY, "provider": provider}
        fields["model"] = get("model") or None
        fields["api_version"] = get("api_version") or None
        try:
            if get("timeout"):
                fields["timeout"] = float(get("timeout"))
            if get("deadline"):
                fields["deadline"] = float(get("deadline"))
            if get("max_answer_mb"):
                fields["max_answer_mb"] = float(get("max_answer_mb"))
            if get("max_retries"):
                fields["max_retries"] = int(get("max_retries"))
            if get("max_tokens"):
                fields["max_tokens"] = int(get("max_tokens"))
            if get("context"):
                fields["context"] = int(get("context"))
        except ValueError as exc:
            raise EngineUnavailableError(f"the LLM engine is misconfigured: {exc}") from exc
        if (min(fields.get("timeout", 1), fields.get("deadline", 1), fields.get("max_answer_mb", 1)) <= 0
                or fields.get("max_retries", 0) < 0 or fields.get("max_tokens", 1) < 1):
            raise EngineUnavailableError(
                f"{ENV_VARS['timeout']}, {ENV_VARS['deadline']} and {ENV_VARS['max_answer_mb']} must be > 0, "
                f"{ENV_VARS['max_retries']} >= 0 and {ENV_VARS['max_tokens']} >= 1")
        if fields.get("context", 256) < 256:
            raise EngineUnavailableError(f"{ENV_VARS['context']} must be at least 256 (tokens)")
        schema = get("schema").lower() or ("operations" if provider == "openai" else "edits")
        if schema not in SCHEMAS:
            raise EngineUnavailableError(f"{ENV_VARS['schema']} must be one of {', '.join(SCHEMAS)}")
        fields["schema"] = schema
        fmt = get("response_format") or "json_schema"
        if fmt not in _FORMATS:
            raise EngineUnavailableError(f"{ENV_VARS['response_format']} must be one of {', '.join(_FORMATS)}")
        fields["response_format"] = fmt
        return cls(**fields)


def llm_configured(env: Mapping[str, str] | None = None) -> bool:
    """Whether an endpoint and a key are set, or an endpoint of an ``openai`` provider (the
    engine may still fail to reach it)."""
    env = os.environ if env is None else env
    get = lambda name: (env.get(ENV_VARS[name]) or "").strip()  # noqa: E731
    keyless = get("provider").lower() == "openai"
    return bool(get("endpoint") and (get("key") or keyless))


# --- prompt ---------------------------------------------------------------------------------

SYSTEM_PROMPT = """You are LEDGER's edit engine. You change a long structured document by proposing \
edit operations on its units (headings, paragraphs, list items, captions, tables). You see only \
the units the edit depends on.

Reply with ONE JSON object and nothing else:
{"explanation": "<one sentence for the user>", "edits": [<operation>, ...]}
Every operation has the keys op, unit, old, occurrence, text, after, before_unit, kind, style, reason \
(null for keys the operation does not use):
- replace: change words inside a unit. unit = its id; old = the exact words to change, copied from \
the unit's text; text = the new words. Keep old short but unique in the unit, or set occurrence \
(1 = first).
- set_text: unit, text = the unit's whole new text (only when most of it changes).
- insert_after: unit = the unit the new one follows; text = its text; kind = paragraph, list_item, \
section or caption; style = a style name from the context (null: like the unit).
- delete: unit.
- move: unit, and after or before_unit = the id of the unit to place it after or before (a section \
moves with its content).
- rename: old = a term, text = its new name; renames every occurrence in the document with its \
plural, possessive and case forms.
Rules: use only unit ids from the context. Change nothing the instruction does not ask for, but keep \
the document consistent: when a value or a name changes, change every statement of it in the \
context. Do not renumber sections, figures or cross-references; LEDGER does that. Give each \
operation a short reason."""


def _describe(item: ContextItem) -> str:
    u = item.unit
    head = [u.id, u.kind]
    if u.label:
        head.append(u.label)
    if u.style:
        head.append(f"style {u.style}")
    if item.reason:
        head.append(f"why: {item.reason}")
    return f"### {' | '.join(head)}\n{u.text}"


def build_messages(
    doc: Document,
    instruction: str,
    context: list[ContextItem],
    *,
    target: str | None = None,
    selection: str | None = None,
) -> list[dict[str, str]]:
    """The chat messages for one instruction: the operations' contract, then the task and context."""
    lines = [f"Instruction: {instruction.strip()}"]
    if target and (unit := doc.get(target)) is not None:
        lines.append(f"The cursor is in unit {unit.id}" + (f" ({unit.label})." if unit.label else "."))
    if selection:
        lines.append(f"Selected text: {json.dumps(selection, ensure_ascii=False)}")
    lines.append("")
    lines.append(f"Context ({len(context)} units, in document order where it matters):")
    lines.extend(_describe(item) for item in context)
    return [{"role": "system", "content": SYSTEM_PROMPT}, {"role": "user", "content": "\n".join(lines)}]


def default_context(doc: Document, instruction: str, target: str | None) -> list[ContextItem]:
    """A small context when retrieval gave none: named units, the cursor's section, else the start."""
    out: dict[str, ContextItem] = {}

    def add(unit: Unit, reason: str) -> None:
        out.setdefault(unit.id, ContextItem(unit, reason))

    if target and (unit := doc.get(target)) is not None:
        if (sec := enclosing_section(doc, unit)) is not None and sec is not unit:
            add(sec, "section of the cursor")
        add(unit, "at the cursor")
    for m in re.finditer(LABEL_RX, instruction, re.IGNORECASE):
        try:
            for unit in resolve_ref(doc, m.group(0)):
                add(unit, f"named in the instruction ({m.group(0)})")
                for child in doc.children(unit.id):
                    add(child, f"content of {m.group(0)}")
        except LedgerError:
            continue
    if not out:
        size = 0
        for unit in body_units(doc):
            if size > _DEFAULT_CONTEXT_CHARS:
                break
            add(unit, "document opening (no context was retrieved)")
            size += len(unit.text)
    return list(out.values())


# --- reply ----------------------------------------------------------------------------------

_FENCE = re.compile(r"^\s*```[\w-]*\s*\n?(.*?)\n?\s*```\s*$", re.DOTALL)


def _json_of(reply: str) -> Any:
    text = reply.strip()
    m = _FENCE.match(text)
    if m:
        text = m.group(1).strip()
    try:
        return parse_json(text)  # nesting and lone surrogates refused (ValueError), never a RecursionError
    except ValueError as first:
        if "not JSON" not in str(first):
            raise
        starts = [i for i in (text.find("{"), text.find("[")) if i >= 0]
        if starts:
            try:
                found = json.JSONDecoder().raw_decode(text[min(starts):])[0]
                check_text(found)
                return found
            except json.JSONDecodeError:
                pass
        raise ValueError(f"the reply is not valid JSON ({str(first).removeprefix('the answer is not JSON (')[:-1]})") from None


def parse_reply(
    doc: Document, reply: str | None, *, author: str, reason: str, date: str | None = None, names: str = "auto",
) -> tuple[list[Edit], str]:
    """Validated edits and the explanation from a model's reply.

    :raise ValueError: the reply is not JSON of the expected shape.
    :raise LedgerError: an operation that does not fit the document (unknown unit, text not found).
    """
    if not reply or not reply.strip():
        raise ValueError("the reply is empty")
    data = _json_of(reply)
    _refuse_controls(doc, data)
    explanation = ""
    if isinstance(data, dict):
        specs = data.get("edits")
        explanation = data.get("explanation") or ""
        if not isinstance(specs, list):
            raise ValueError('the reply must be an object with an "edits" list')
        if not isinstance(explanation, str):
            raise ValueError('"explanation" must be a string')
    elif isinstance(data, list):
        specs = data
    else:
        raise ValueError('the reply must be an object {"explanation": ..., "edits": [...]}')
    date = date or now_iso()
    edits = []
    for i, spec in enumerate(specs):
        try:
            edits.append(edit_from_spec(doc, spec, author=author, date=date, reason=reason, source="llm"))
        except LedgerError as exc:
            raise type(exc)(f"operation {i + 1}: {exc.message}", **exc.details) from exc
    return validate_edits(doc, edits, names=names), explanation


def _refuse_controls(doc: Document, data: Any) -> None:
    """Refuse an answer with text the document could not take as it is written: a bidirectional
    control the document does not use (:mod:`.written`), anywhere in the answer.

    :raise ValueError: the first such string (the answer is sent back with it, then refused).
    """
    from .written import check_written

    texts: list[tuple[str, Any]] = []
    stack: list[tuple[str, Any]] = [("answer", data)]
    while stack:
        where, item = stack.pop()
        if isinstance(item, str):
            texts.append((where, item))
        elif isinstance(item, dict):
            stack.extend((f"{where}.{k}", v) for k, v in item.items())
        elif isinstance(item, list):
            stack.extend((f"{where}[{i}]", v) for i, v in enumerate(item))
    bad = check_written(doc, texts)
    if bad is not None:
        raise ValueError(f"{bad[0]}: {bad[1]}; write the text without it")


# --- engine ---------------------------------------------------------------------------------


def _send_back(messages: list[dict[str, str]], reply: str | None, problem: str, feedback: str, attempt: int,
               usage: Usage, exc: Exception) -> list[dict[str, str]]:
    """The conversation with the unusable answer and what was wrong with it, for one more try;
    after the second try a clear error (both ways of asking retry alike).

    :raise EngineUnavailableError: ``attempt`` was the second.
    """
    if attempt == 2:
        raise EngineUnavailableError(
            f"the model's answer could not be used twice in a row: {problem}",
            reason="invalid_output", reply=(reply or "")[:2000], usage=usage.to_json(),
        ) from exc
    return messages + [{"role": "assistant", "content": reply or ""}, {"role": "user", "content": feedback}]


class LLMEngine:
    """Proposes edits with a chat-completions model; see the module docstring for configuration."""

    name = "llm"

    def __init__(self, config: LLMConfig, *, sleep: Callable[[float], None] = time.sleep) -> None:
        self.config = config
        self._sleep = sleep

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> "LLMEngine":
        """:raise EngineUnavailableError: when ``LEDGER_LLM_ENDPOINT``/``LEDGER_LLM_KEY`` are unset."""
        return cls(LLMConfig.from_env(env))

    def propose(
        self,
        doc: Document,
        instruction: str,
        context: Iterable[ContextItem | Unit | tuple[Unit, str]] | None = None,
        *,
        author: str,
        target: str | None = None,
        selection: str | None = None,
        names: str = "auto",
    ) -> Proposal:
        """Ask the model for edits, validate them, retry once on a malformed answer.

        :raise EngineUnavailableError: the endpoint failed after retries, refused the key, or
            answered twice with operations that do not fit the document.
        """
        items = as_context(context) or default_context(doc, instruction, target)
        if self.config.schema == "operations":
            return self._propose_operations(doc, instruction, items, author=author, target=target, selection=selection)
        messages = build_messages(doc, instruction, items, target=target, selection=selection)
        usage = Usage(model=self.config.model)
        fmt = self.config.response_format
        client = self._client()
        for attempt in (1, 2):
            reply, fmt = self._complete(client, messages, usage, fmt)
            try:
                edits, explanation = parse_reply(doc, reply, author=author, reason=instruction.strip(), names=names)
                break
            except (ValueError, LedgerError) as exc:
                problem = exc.message if isinstance(exc, LedgerError) else str(exc)
                messages = _send_back(messages, reply, problem, _feedback(problem), attempt, usage, exc)
        targets = [e.unit for e in edits if e.unit] or ([target] if target else [])
        return Proposal(
            edits=edits, targets=list(dict.fromkeys(targets)),
            explanation=explanation or f"{len(edits)} edit(s) proposed by the model.",
            engine="llm", instruction=instruction.strip(), usage=usage, names=names,
        )

    def _propose_operations(
        self, doc: Document, instruction: str, items: list[ContextItem], *,
        author: str, target: str | None, selection: str | None,
    ) -> Proposal:
        """The ``operations`` way (:mod:`.llm_operations`): a short answer of LEDGER's operations,
        repaired without guessing; an answer that is not JSON is sent back once.

        :raise InstructionNotUnderstoodError: the model refused, or none of its operations could be used.
        :raise EngineUnavailableError: the endpoint failed, or answered twice with no JSON.
        """
        from ..retrieval.tokens import count_tokens
        from . import llm_operations as ops

        max_tokens = ops.output_budget(items, count_tokens, self.config.max_tokens)
        fitted = ops.fit_context(doc, instruction, items, count_tokens, self.config.context, max_tokens)
        messages, keys = ops.build_messages(doc, instruction, fitted, target=target, selection=selection)
        usage = Usage(model=self.config.model)
        fmt = self.config.response_format
        schema = ops.operations_schema()
        cut: list[str] = []
        client = self._client()
        for attempt in (1, 2):
            reply, fmt = self._complete(client, messages, usage, fmt, schema=schema, name="ledger_operations",
                                        max_tokens=max_tokens, stop=_OPERATIONS_STOP)
            try:
                answer = _json_of(reply or "")
                _refuse_controls(doc, answer)
                found = ops.parse_operations(answer)
                break
            except ValueError as exc:
                if (found := ops.salvage(reply or "")):
                    cut = [f"the answer was cut off at its token limit; the {len(found)} complete operation(s) "
                           "before the cut were read"]
                    break
                messages = _send_back(messages, reply, str(exc), f'Your answer could not be used: {exc}\n'
                                      'Answer again with only {"operations": [...]}.', attempt, usage, exc)
        fixed = ops.repair(doc, found, instruction, keys, author=author, date=now_iso(), reason=instruction.strip())
        fixed.notes[:0] = cut
        if len(fitted) < len(items):
            fixed.notes.insert(0, f"the model saw {len(fitted)} of the {len(items)} context units: its window is "
                                  f"{self.config.context} tokens")
        if not fixed.edits:
            why = (f"the model declined: {fixed.refusal}" if fixed.refusal else
                   "none of the model's operations could be used" + (f" ({'; '.join(fixed.notes)})" if fixed.notes else
                                                                     " (it proposed none)"))
            raise InstructionNotUnderstoodError(
                f"The LLM engine could not do this instruction: {why}.", reason="model_refused" if fixed.refusal
                else "no_usable_operation", notes=fixed.notes, reply=(reply or "")[:2000], usage=usage.to_json(),
            )
        edits = validate_edits(doc, fixed.edits)
        targets = [e.unit for e in fixed.edits if e.unit] or ([target] if target else [])
        return Proposal(
            edits=edits, targets=list(dict.fromkeys(targets)),
            explanation=ops.describe(fixed.edits, doc) or f"{len(edits)} edit(s) proposed by the model.",
            engine="llm", instruction=instruction.strip(), usage=usage, warnings=list(fixed.notes),
        )

    # -- transport -------------------------------------------------------------------------

    def _client(self) -> "_Call":
        """One model call: its deadline (``LEDGER_LLM_DEADLINE``, or the request's or job's budget
        when that comes sooner) over every attempt the call makes."""
        from ..budget import remaining

        left = remaining()
        seconds = self.config.deadline if left is None else max(0.0, min(self.config.deadline, left))
        return _Call(Deadline(seconds))

    def _response_format(self, fmt: str, schema: dict[str, Any] = RESPONSE_SCHEMA,
                         name: str = "ledger_edits") -> dict[str, Any] | None:
        if fmt == "json_schema":
            return {"type": "json_schema", "json_schema": {
                "name": name, "schema": schema, "description": "LEDGER edit operations on the document's units",
                "strict": True}}
        return {"type": "json_object"} if fmt == "json_object" else None

    def _complete(
        self, client: "_Call", messages: list[dict[str, str]], usage: Usage, fmt: str, *,
        schema: dict[str, Any] = RESPONSE_SCHEMA, name: str = "ledger_edits",
        max_tokens: int | None = None, stop: list[str] | None = None,
    ) -> tuple[str | None, str]:
        """One answer from the endpoint, retrying 429/5xx/timeouts within the call's deadline;
        returns (content, format used). ``max_tokens`` (default: the configured cap) and ``stop``
        bound the answer.

        :raise EngineUnavailableError: refused (key, redirect, other 4xx), the retries or the
            deadline spent, or an answer that cannot be used as it came (too large, not JSON).
        """
        from .llm_http import ModelAnswerError, TransportError, post_json

        cfg = self.config
        failures = 0
        while True:
            if client.deadline.passed():
                raise EngineUnavailableError(
                    f"the LLM endpoint gave no usable answer within the call's deadline of {client.deadline.seconds:g} s "
                    f"({ENV_VARS['deadline']}, or the request's budget); gave up after {failures + 1} attempt(s)",
                    attempts=failures + 1, reason="deadline")
            usage.requests += 1
            headers: Mapping[str, str] = {}
            body: dict[str, Any] = {"messages": messages, "max_tokens": max_tokens or cfg.max_tokens}
            if cfg.model:
                body["model"] = cfg.model
            if cfg.temperature is not None:
                body["temperature"] = cfg.temperature
            response_format = self._response_format(fmt, schema, name)
            if response_format is not None:
                body["response_format"] = response_format
            if stop:
                body["stop"] = stop
            try:
                with waiting_elsewhere():  # the cores are free while the model answers
                    answer = post_json(cfg.endpoint.rstrip("/") + "/chat/completions", body,
                                       headers={"api-key": cfg.key, "Authorization": f"Bearer {cfg.key}"},
                                       params={"api-version": cfg.api_version or _API_VERSION}, idle=cfg.timeout,
                                       deadline=client.deadline, max_bytes=int(cfg.max_answer_mb * (1 << 20)))
            except TransportError as exc:
                problem = {"timeout": "timed out", "deadline": "did not answer in time"}.get(
                    exc.kind, f"unreachable ({exc})")
            except ModelAnswerError as exc:
                raise EngineUnavailableError(f"the LLM endpoint's answer cannot be used: {exc}",
                                             reason="invalid_output") from None
            else:
                status = answer.status
                if 300 <= status < 400:
                    raise EngineUnavailableError(
                        f"the LLM endpoint answered HTTP {status} (a redirect); LEDGER follows none, so the key never "
                        f"goes to another address: set {ENV_VARS['endpoint']} to the final address", status=status)
                if status == 401:
                    raise EngineUnavailableError(f"the LLM endpoint refused the key (HTTP {status})", status=status)
                if status >= 400:
                    text = answer.text()
                    if status == 400 and fmt != "text" and re.search(r"response_format|json_schema|json_object", text):
                        fmt = _FORMATS[_FORMATS.index(fmt) + 1]  # the model lacks this format: ask more simply
                        continue
                    if status not in _RETRY_STATUS and status < 500:
                        raise EngineUnavailableError(f"the LLM endpoint answered HTTP {status}: {text}", status=status)
                    problem = f"HTTP {status}"
                    headers = answer.headers
                else:
                    return _content(answer, usage), fmt
            failures += 1
            if failures > cfg.max_retries:
                raise EngineUnavailableError(
                    f"the LLM endpoint {problem}; gave up after {failures} attempt(s)", attempts=failures
                )
            wait = self._delay(failures, headers)
            if wait >= client.deadline.left():
                raise EngineUnavailableError(
                    f"the LLM endpoint {problem}; gave up after {failures} attempt(s): the call's deadline of "
                    f"{client.deadline.seconds:g} s leaves no time for another", attempts=failures, reason="deadline")
            with waiting_elsewhere():
                self._sleep(wait)

    def _delay(self, failures: int, headers: Mapping[str, str]) -> float:
        """Seconds before the next attempt: the server's Retry-After, else exponential backoff."""
        wait = _retry_after(headers)
        if wait is None:
            wait = self.config.backoff * 2 ** (failures - 1) * (1 + random.random() * 0.1)
        return max(0.0, min(wait, self.config.max_backoff))


#: The ``api-version`` sent when none is configured (what the Azure AI Inference SDK sends).
_API_VERSION = "2024-05-01-preview"


@dataclass
class _Call:
    """One model call's state across its attempts."""

    deadline: "Deadline"


def _count(value: Any) -> bool:
    """Whether a usage figure of an answer is a plausible count of tokens."""
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value < 1 << 40


def _content(answer: Any, usage: Usage) -> str | None:
    """The first choice's text of a ``chat.completion`` answer, its usage added to ``usage``.

    :raise EngineUnavailableError: an answer that is not a chat completion (``invalid_output``).
    """
    from .llm_http import ModelAnswerError

    try:
        data = answer.json()
    except ModelAnswerError as exc:
        raise EngineUnavailableError(f"the LLM endpoint's answer cannot be used: {exc}", reason="invalid_output") from None
    if not isinstance(data, dict):
        raise EngineUnavailableError("the LLM endpoint's answer is not a chat completion", reason="invalid_output")
    counts = data.get("usage")
    if isinstance(counts, dict):
        prompt, completion, total = (counts.get(k) for k in ("prompt_tokens", "completion_tokens", "total_tokens"))
        if isinstance(prompt, int) and isinstance(completion, int) and _count(prompt) and _count(completion):
            usage.add(prompt, completion, total if isinstance(total, int) and _count(total) else None)
    model = data.get("model")
    if isinstance(model, str) and model:
        usage.model = model[:200]
    choices = data.get("choices")
    if not isinstance(choices, list) or not choices:
        return None
    first = choices[0]
    message = first.get("message") if isinstance(first, dict) else None
    content = message.get("content") if isinstance(message, dict) else None
    if content is not None and not isinstance(content, str):
        raise EngineUnavailableError("the LLM endpoint's answer has no text content", reason="invalid_output")
    return content


def _retry_after(headers: Mapping[str, str]) -> float | None:
    lower = {k.lower(): v for k, v in dict(headers).items()}
    for key, scale in (("retry-after-ms", 0.001), ("x-ms-retry-after-ms", 0.001), ("retry-after", 1.0)):
        value = (lower.get(key) or "").strip()
        if not value:
            continue
        try:
            return float(value) * scale
        except ValueError:
            try:
                return max(0.0, parsedate_to_datetime(value).timestamp() - time.time())
            except (TypeError, ValueError):
                continue
    return None


def _body(exc: Any) -> str:
    try:
        return exc.response.text() if exc.response is not None else str(exc)
    except Exception:  # a body that cannot be decoded is no reason to hide the status
        return str(exc)


def _feedback(problem: str) -> str:
    return (
        f"Your answer could not be used: {problem}\n"
        'Answer again with only the JSON object {"explanation": ..., "edits": [...]}. Use unit ids '
        "from the context and copy old exactly from the unit's text."
    )

"""Driving ``ledger mcp`` and ``/mcp`` with the SDK's own client, as an agent's host would."""
from __future__ import annotations

import os
import sys
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, AsyncIterator

import httpx
from mcp import Client, StdioServerParameters
from mcp.client.streamable_http import streamable_http_client
from mcp_types import CallToolResult

ROOT = Path(__file__).resolve().parents[2]
AUTHOR = "Ada Lovelace"

__all__ = ["ROOT", "AUTHOR", "stdio_client", "http_client", "ok", "refused", "Progress"]


def _env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("LEDGER_")}
    env.update({"PYTHONPATH": str(ROOT), "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1",
                "TOKENIZERS_PARALLELISM": "false"})
    return env


@asynccontextmanager
async def stdio_client(*roots: Path, extra: tuple[str, ...] = (), **client: Any) -> AsyncIterator[Client]:
    """``ledger mcp --root ROOT ... --no-semantic`` as a subprocess, and the SDK client on its pipes."""
    args = ["-m", "addin_backend.cli", "mcp", "--no-semantic", *extra]
    for r in roots:
        args += ["--root", str(r)]
    params = StdioServerParameters(command=sys.executable, args=args, env=_env(), cwd=str(ROOT))
    async with Client(params, read_timeout_seconds=300, **client) as c:
        yield c


@asynccontextmanager
async def http_client(url: str, key: str | None, **client: Any) -> AsyncIterator[Client]:
    """The SDK client on ``URL/mcp`` (streamable HTTP), with the API key as a bearer token."""
    headers = {"Authorization": f"Bearer {key}"} if key else {}
    async with httpx.AsyncClient(headers=headers, timeout=300) as http:
        async with Client(streamable_http_client(url + "/mcp", http_client=http), read_timeout_seconds=300,
                          **client) as c:
            yield c


def ok(result: CallToolResult) -> dict[str, Any]:
    """The structured answer of a call that must succeed."""
    assert not result.is_error, result.content
    assert result.structured_content is not None
    return result.structured_content


def refused(result: CallToolResult, code: str) -> dict[str, Any]:
    """The error of a call that must be refused with ``code`` (a clear tool error, not a crash)."""
    assert result.is_error, result.structured_content
    err = (result.structured_content or {}).get("error")
    assert err is not None, result.content
    assert err["code"] == code, err
    assert err["message"] and result.content[0].text.startswith(f"{code}: "), result.content
    return err


class Progress:
    """A progress callback that keeps what the server reported."""

    def __init__(self) -> None:
        self.seen: list[tuple[float, float | None, str | None]] = []

    async def __call__(self, progress: float, total: float | None, message: str | None) -> None:
        self.seen.append((progress, total, message))

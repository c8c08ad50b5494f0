"""Blueprint ``check``: document-wide findings of an upload or of one of its applied revisions,
their fixes as tracked changes, and the house style sheets teams upload."""
from __future__ import annotations

from contextlib import nullcontext

from flask import Blueprint, Response, current_app, g, jsonify, request, url_for

from ..store.documents import get_meta
from ..errors import InvalidRequestError
from ..service.checks import check_stored
from ..service.fixes import fix_stored
from ..service.styles import MAX_SHEET_BYTES, StyleSheetError, get_style, put_style, resolve_style, style_scope
from .context import account, int_arg, json_body, owner, reserve, store

__all__ = ["bp"]

bp = Blueprint("check", __name__)


@bp.get("/api/v1/documents/<document_id>/check")
def check(document_id: str) -> Response:
    revision = int_arg("revision", None, minimum=1)
    return jsonify(check_stored(store(), document_id, revision, style=request.args.get("style"),
                                max_findings=int(current_app.config["MAX_FINDINGS"]), owner=style_owner(),
                                account=account()))


@bp.post("/api/v1/documents/<document_id>/check/fix")
def fix(document_id: str):
    body = json_body("FixRequest")
    sheet = resolve_style(store(), body.get("style"), style_owner())
    # an apply writes a revision (about the upload's size): reserved; a preview writes nothing
    with reserve(get_meta(store(), document_id)["size"]) if body.get("apply") else nullcontext():
        out = fix_stored(store(), document_id, ids=body.get("findings"), kinds=body.get("kinds"),
                         author=body.get("author"), style=sheet, apply=bool(body.get("apply")),
                         who=g.get("client", "anonymous"), audit_log=current_app.config["AUDIT_LOG"],
                         account=account())
    if body.get("apply"):
        download = url_for("edits.revision_file", document_id=document_id, rev=out["revision"])
        return jsonify(**out, download=download), 201, {"Location": download}
    return jsonify(out), 201


@bp.put("/api/v1/styles/<name>")
def upload_style(name: str) -> tuple[Response, int]:
    if (request.content_length or 0) > MAX_SHEET_BYTES:
        raise StyleSheetError(f"{name[:64]}.toml: a style sheet is at most {MAX_SHEET_BYTES // 1024} KB")
    raw = request.stream.read(MAX_SHEET_BYTES + 1)
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise InvalidRequestError("a style sheet is UTF-8 TOML text") from None
    if not text.strip():
        raise InvalidRequestError("send the style sheet's TOML as the request body")
    if len(raw) > MAX_SHEET_BYTES:
        raise StyleSheetError(f"{name[:64]}.toml: a style sheet is at most {MAX_SHEET_BYTES // 1024} KB")
    owner = style_owner()
    with reserve(len(raw)) as charge:  # a sheet counts in the key's quota
        out = put_style(store(), name, text, owner)
        charge(style_scope(owner, name))
    return jsonify(out), 201


@bp.get("/api/v1/styles/<name>")
def read_style(name: str) -> Response:
    return jsonify(get_style(store(), name, style_owner()))


def style_owner() -> str:
    """Whose style sheet names a request means: its API key's, or its key's group's
    (``LEDGER_KEY_GROUPS``: a team's ``house`` sheet is the team's); one shared owner without keys."""
    return owner() or str(g.get("client", "anonymous"))

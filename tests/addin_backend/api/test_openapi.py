"""The OpenAPI document describes exactly the routes the app serves."""
from __future__ import annotations

import re

from addin_backend.api.openapi import OPERATIONS

#: Routes that serve files for browsers, not the API: not in the OpenAPI document.
NOT_API = {"/", "/taskpane/", "/manifest.xml", "/static/<path:filename>",
           "/mcp"}  # the MCP server (JSON-RPC over streamable HTTP), not a REST route


def _routes(app) -> set[tuple[str, str]]:
    out = set()
    for rule in app.url_map.iter_rules():
        if rule.rule in NOT_API:
            continue
        path = re.sub(r"<(?:[a-z]+:)?([a-z_]+)>", r"{\1}", rule.rule)
        out.update((path, m.lower()) for m in rule.methods - {"HEAD", "OPTIONS"})
    return out


def test_every_route_is_documented_and_every_documented_route_exists(make_app):
    app = make_app()
    spec = app.test_client().get("/api/v1/openapi.json").json
    documented = {(path, method) for path, ops in spec["paths"].items() for method in ops}
    assert documented == _routes(app)
    assert len(documented) == len(OPERATIONS)


def test_path_parameters_match_the_rule_variables(make_app):
    spec = make_app().test_client().get("/api/v1/openapi.json").json
    for path, ops in spec["paths"].items():
        for op in ops.values():
            declared = {p["name"] for p in op.get("parameters", []) if p["in"] == "path"}
            assert declared == set(re.findall(r"{(\w+)}", path)), path


KEY = "openapi-key-0123456789"


def test_security_and_limits_follow_the_settings(make_app):
    open_spec = make_app().test_client().get("/api/v1/openapi.json").json
    assert "security" not in open_spec
    assert "401" not in open_spec["paths"]["/api/v1/version"]["get"]["responses"]
    keyed = make_app(API_KEYS=[KEY], RATE_LIMIT="10/minute").test_client().get(
        "/api/v1/openapi.json", headers={"Authorization": f"Bearer {KEY}"}).json
    assert keyed["openapi"] == "3.1.0" and keyed["security"] == [{"bearer": []}]
    version = keyed["paths"]["/api/v1/version"]["get"]["responses"]
    assert {"200", "401", "429", "503"} <= set(version)
    assert keyed["paths"]["/healthz"]["get"]["security"] == []
    # no rate limit, but keys: the limit on wrong keys per address may answer 429 on any route
    guarded = make_app(API_KEYS=[KEY], RATE_LIMIT="off").test_client().get(
        "/api/v1/openapi.json", headers={"Authorization": f"Bearer {KEY}"}).json
    assert "429" in guarded["paths"]["/api/v1/version"]["get"]["responses"]
    unlimited = make_app(API_KEYS=[KEY], RATE_LIMIT="off", AUTH_FAIL_LIMIT="off").test_client().get(
        "/api/v1/openapi.json", headers={"Authorization": f"Bearer {KEY}"}).json
    assert "429" not in unlimited["paths"]["/api/v1/version"]["get"]["responses"]


def test_every_reference_resolves(make_app):
    spec = make_app().test_client().get("/api/v1/openapi.json").json
    refs = set(re.findall(r'"\$ref": "#/components/schemas/(\w+)"', __import__("json").dumps(spec)))
    assert refs and refs <= set(spec["components"]["schemas"])


def test_the_names_spelled_in_the_document_are_the_backends():
    from addin_backend.service import edits as service_edits
    from addin_backend.api import openapi
    from addin_backend.edits.engines import ENGINE_NAMES
    from addin_backend.graph import EDGE_TYPES
    from addin_backend.retrieval import STRATEGIES

    assert openapi.EDGE_TYPES == EDGE_TYPES and openapi.STRATEGIES == STRATEGIES
    assert set(openapi.ENGINES) == set(ENGINE_NAMES) and openapi.VIEW_KEYS == service_edits.VIEW_KEYS


def test_every_json_body_has_a_schema_and_every_post_declares_its_errors(make_app):
    spec = make_app().test_client().get("/api/v1/openapi.json").json
    for path, ops in spec["paths"].items():
        for method, op in ops.items():
            body = op.get("requestBody", {}).get("content", {}).get("application/json")
            if body:
                name = body["schema"]["$ref"].rsplit("/", 1)[1]
                assert name in spec["components"]["schemas"], (path, method)
                assert "400" in op["responses"] and "404" in op["responses"], (path, method)

"""Imports point down: adapters never import the backend; graph code never touches XML."""
from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
XML_LIBS = {"lxml", "docx", "odf", "xml"}


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out.update(a.name.split(".")[0] for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            out.add(node.module.split(".")[0])
    return out


def test_adapters_never_import_the_backend():
    offenders = [p for p in (ROOT / "adapters").rglob("*.py") if "addin_backend" in _imports(p)]
    assert offenders == []


def test_backend_outside_adapters_never_parses_xml():
    offenders = []
    for p in (ROOT / "addin_backend").rglob("*.py"):
        if _imports(p) & XML_LIBS:
            offenders.append(p)
    assert offenders == []


def test_namespace_uris_stay_in_the_adapters_xml_modules():
    allowed = {"oxml.py", "odfxml.py"}
    offenders = []
    for p in list((ROOT / "adapters").rglob("*.py")) + list((ROOT / "addin_backend").rglob("*.py")):
        if p.name in allowed:
            continue
        text = p.read_text(encoding="utf-8")
        if "schemas.openxmlformats.org/wordprocessingml" in text or "urn:oasis:names:tc:opendocument:xmlns" in text:
            offenders.append(p)
    assert offenders == []


# --- the orchestration layer -------------------------------------------------------------------
# The flow: read (adapters) -> units -> graph -> retrieval -> edit engines -> verification ->
# writers. The engines sit at the bottom of the backend, the service (orchestration) above them,
# the doors (cli, api, mcp, serving) on top; a door calls the service, never an engine, and
# nothing calls upward.

PACKAGE = "addin_backend"
#: Serving code is a door too: ``serving.http_worker`` is the gunicorn worker class ``ledger serve``
#: runs, ``serving.queue_worker`` is ``ledger worker``.
DOORS = ("addin_backend.cli", "addin_backend.cli_text", "addin_backend.serving", "addin_backend.api",
         "addin_backend.mcp")
SERVICE = "addin_backend.service"
#: What a door reaches only through the service.
ENGINES = ("addin_backend.graph", "addin_backend.retrieval", "addin_backend.edits", "addin_backend.verify",
           "addin_backend.checks")
#: Under the engines: the language of the text and the models that read it. A door may set them up
#: for its process (``ledger serve``/``worker``/``context`` name the embedding cache, a worker loads
#: the models before its first job), but like the engines they never call upward.
MODELS = ("addin_backend.language", "addin_backend.embeddings")
FRAMEWORKS = {"flask", "argparse", "werkzeug", "gunicorn"}
#: Known exceptions, each with its reason. ``ledger graph`` still runs the graph package's own
#: command (build, export, summary); it moves to ``service.graphs`` + ``cli_text`` with that file.
ALLOWED = {("addin_backend.cli", "addin_backend.graph.command"),
           ("addin_backend.cli", "addin_backend.graph.command.run_graph_command")}


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _absolute_imports(path: Path) -> set[str]:
    """Every module ``path`` imports, dotted and absolute (relative imports resolved;
    ``from . import x`` counts as ``package.x``)."""
    name = _module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                mod = ".".join(base + ([node.module] if node.module else []))
            else:
                mod = node.module or ""
            out.add(mod)
            out.update(f"{mod}.{a.name}" for a in node.names)
    return out


def _within(module: str, prefixes: tuple[str, ...] | str) -> bool:
    prefixes = (prefixes,) if isinstance(prefixes, str) else prefixes
    return any(module == p or module.startswith(p + ".") for p in prefixes)


def _layer(module: str) -> str:
    if _within(module, DOORS):
        return "door"
    if _within(module, SERVICE):
        return "service"
    return "engine"


def _backend_modules() -> list[tuple[str, Path]]:
    return [(_module_name(p), p) for p in sorted((ROOT / PACKAGE).rglob("*.py"))]


def test_the_import_resolver_sees_relative_imports():
    mods = _absolute_imports(ROOT / "addin_backend" / "api" / "edits.py")
    assert "addin_backend.service.edits" in mods and "flask" in mods


def test_doors_reach_the_engines_only_through_the_service():
    offenders = [(m, i) for m, p in _backend_modules() if _layer(m) == "door"
                 for i in _absolute_imports(p) if _within(i, ENGINES) and (m, i) not in ALLOWED]
    assert offenders == []


def test_the_service_knows_no_door_and_no_web_or_argument_framework():
    offenders = [(m, i) for m, p in _backend_modules() if _layer(m) == "service"
                 for i in _absolute_imports(p) if _within(i, DOORS) or i.split(".")[0] in FRAMEWORKS]
    assert offenders == []


def test_engines_never_call_up_into_the_service_or_the_doors():
    offenders = [(m, i) for m, p in _backend_modules() if _layer(m) == "engine"
                 for i in _absolute_imports(p)
                 if _within(i, DOORS) or _within(i, SERVICE) or i.split(".")[0] in FRAMEWORKS]
    assert offenders == []


def _upward(modules: list[tuple[str, set[str]]]) -> list[tuple[str, str]]:
    """The imports of a door or of the service by an engine or the models under them."""
    return [(m, i) for m, imports in modules if _within(m, ENGINES + MODELS)
            for i in sorted(imports) if _within(i, DOORS) or _within(i, SERVICE)]


def test_every_layer_listed_names_a_module():
    """A name left behind by a move would match nothing and silently check nothing."""
    missing = [name for name in (*DOORS, SERVICE, *ENGINES, *MODELS)
               if not (ROOT.joinpath(*name.split(".")).is_dir() or ROOT.joinpath(*name.split(".")).with_suffix(".py").is_file())]
    assert missing == []


def test_the_engines_never_import_the_doors_or_the_service():
    modules = [(m, _absolute_imports(p)) for m, p in _backend_modules()]
    assert all(any(_within(m, engine) for m, _ in modules) for engine in ENGINES + MODELS)
    assert _upward(modules) == []


def test_an_engine_importing_the_service_or_a_door_is_caught():
    modules = [("addin_backend.checks.document", {"addin_backend.service.checks", "addin_backend.findings"}),
               ("addin_backend.language.nlp", {"addin_backend.serving.server"}),
               ("addin_backend.service.checks", {"addin_backend.checks.document"})]
    assert _upward(modules) == [("addin_backend.checks.document", "addin_backend.service.checks"),
                                ("addin_backend.language.nlp", "addin_backend.serving.server")]

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


# --- the folder order and no import circles ------------------------------------------------------
# The flow top to bottom: doors > service > edits, verify, checks > retrieval > graph > language >
# adapters. A module imports its own layer or a lower one, never a higher one, and no modules
# import each other round a circle (function-local imports count: one hides a circle, it does
# not break it).

#: Top first. The service's job machinery sits with it; numbering reads the graph's label index;
#: the shared modules (errors, findings, budgets, the outline, the store) import only adapters.
LAYERS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("doors", DOORS),
    ("service", (SERVICE, "addin_backend.jobs")),
    ("engines", ("addin_backend.edits", "addin_backend.verify", "addin_backend.checks")),
    ("retrieval", ("addin_backend.retrieval",)),
    ("graph", ("addin_backend.graph", "addin_backend.numbering")),
    ("language", MODELS),
    ("shared", ("addin_backend.errors", "addin_backend.findings", "addin_backend.budget", "addin_backend.foreground",
                "addin_backend.memory",
                "addin_backend.outline", "addin_backend.store", "addin_backend.pane_vocabulary", PACKAGE)),
    ("adapters", ("adapters",)),
)
def _all_modules() -> dict[str, Path]:
    return {_module_name(p): p for top in ("adapters", PACKAGE) for p in sorted((ROOT / top).rglob("*.py"))}


def _resolved_imports(name: str, path: Path, modules: dict[str, Path]) -> set[str]:
    """The modules of this tree that ``name`` imports anywhere in its body (function-local
    imports too): ``from pkg import sub`` is the submodule ``pkg.sub``, ``from mod import name``
    the module ``mod``; outside names are left out."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]

    def module_of(dotted: str) -> str | None:
        while dotted and dotted not in modules:
            dotted = dotted.rpartition(".")[0]
        return dotted or None

    wanted: list[str] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            wanted.extend(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                parts = package.split(".")
                base = ".".join(parts[: len(parts) - node.level + 1] + ([node.module] if node.module else []))
            else:
                base = node.module or ""
            wanted.extend(f"{base}.{a.name}" if f"{base}.{a.name}" in modules else base for a in node.names)
    return {m for m in map(module_of, wanted) if m and m != name}


def _import_graph() -> dict[str, set[str]]:
    modules = _all_modules()
    return {name: _resolved_imports(name, path, modules) for name, path in modules.items()}


def _rank(module: str) -> int | None:
    """The layer of ``module`` (0 is the top), by the longest prefix that names it."""
    best: tuple[int, int] | None = None
    for i, (_layer_name, prefixes) in enumerate(LAYERS):
        for p in prefixes:
            if _within(module, p) and (best is None or len(p) > best[1]):
                best = (i, len(p))
    return best[0] if best else None


def _upward_imports(graph: dict[str, set[str]]) -> list[tuple[str, str]]:
    return sorted((m, i) for m, imports in graph.items() for i in imports
                  if (_rank(m) or 0) > (_rank(i) or 0))


def _circles(graph: dict[str, set[str]]) -> list[frozenset[str]]:
    """The strongly connected sets of more than one module (Tarjan's algorithm, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    out: list[frozenset[str]] = []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph.get(root, ()))))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.get(child, ())))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                members = set()
                while True:
                    m = stack.pop()
                    on_stack.discard(m)
                    members.add(m)
                    if m == node:
                        break
                if len(members) > 1:
                    out.append(frozenset(members))
    return out


def test_every_module_has_a_layer():
    assert [m for m in _all_modules() if _rank(m) is None] == []


def test_the_folders_keep_their_order():
    """doors > service > edits, verify, checks > retrieval > graph > language > adapters."""
    assert _upward_imports(_import_graph()) == []


def test_no_module_imports_round_a_circle():
    assert sorted(sorted(c) for c in _circles(_import_graph())) == []


def test_the_order_and_circle_checks_can_fail():
    graph = {"addin_backend.graph.mentions": {"addin_backend.edits.terms", "adapters.words"},
             "addin_backend.edits.terms": {"addin_backend.language.forms"},
             "addin_backend.language.forms": {"addin_backend.language.nlp"},
             "addin_backend.language.nlp": {"addin_backend.language.wordlists"},
             "addin_backend.language.wordlists": {"addin_backend.language.nlp"},
             "adapters.words": set()}
    assert _upward_imports(graph) == [("addin_backend.graph.mentions", "addin_backend.edits.terms")]
    assert _circles(graph) == [frozenset({"addin_backend.language.nlp", "addin_backend.language.wordlists"})]


def test_the_resolver_sees_function_local_imports_and_submodules():
    modules = _all_modules()
    got = _resolved_imports("addin_backend.service.edits", modules["addin_backend.service.edits"], modules)
    assert {"addin_backend.edits.pipeline", "addin_backend.verify.after_edit", "addin_backend.jobs.runner"} <= got
    got = _resolved_imports("addin_backend.edits.engines", modules["addin_backend.edits.engines"], modules)
    assert "addin_backend.edits.rules" in got and "addin_backend.edits" not in got  # from . import rules

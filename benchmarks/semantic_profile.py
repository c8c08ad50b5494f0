"""Where the semantic stage (RELATED) spends its CPU, and what a shorter summary costs in quality.

    python -m benchmarks.semantic_profile [--files DOC ...] [--budgets 256,64,48,32 | --layers 6,4,3 | --screen 0.3,0.5 | --openvino]
        [--distilled sif-384,sif-256,idf-256] [--truth DOC ...] [--json OUT]

Profile (every ``--files`` document, default rfc9000.A.docx and the largest file of
``devset/wild/``): the graph is built without RELATED, then the stage's parts are timed one by one
in this process, CPU seconds (all threads): the summaries (:func:`addin_backend.graph.related.summaries`),
the tokenisation, the model (the ONNX runs of the RELATED encoder, batched as it batches them),
and the rest of :func:`~addin_backend.graph.related.scored_pairs` with every vector already in
memory (the statistics, the neighbour search and the pair filters), the statistics also alone.
Each line also gives the embedded texts and their word pieces (mean, median, 90th percentile).

Layers (``--layers``): the same rows per count of MiniLM's transformer layers kept (its first
ones, exported once into a temporary folder): a model of 3 layers costs half per word piece.

Screen (``--screen``): could a cheap first pass pick the units that need the model (a cascade)?
The share of today's RELATED pairs with both units among the top fraction of units by a cheap
screen's strongest pair (:func:`screen`).

OpenVINO (``--openvino``): the same model quantised statically (NNCF, calibrated on the
documents' own summaries) and run by OpenVINO, against the encoder in use: its cost per word
piece, its vectors' cosine with the float32 export's, and the RELATED rows (:func:`openvino`).
The project does not install either package: ``pip install --target DIR openvino nncf`` (and
what nncf needs that the environment lacks), then ``PYTHONPATH=DIR``.

Distilled (``--distilled VARIANTS``): a static encoder distilled from MiniLM
(:mod:`benchmarks.static_encoder`: each word piece's vector by the float32 export, distilled once
into the model home), a text the weighted mean of its pieces' vectors; each variant
``WEIGHTING-DIMS`` (``sif`` or ``idf``, 384 dimensions or fewer by PCA) against today's encoder in
the RELATED rows (:func:`distilled`). With ``--screen``, the screen gains each variant as a kind.

Budgets (``--budgets``): the RELATED edges each summary budget in word pieces gives (the same
documents and the ``--truth`` documents, the benchmark's synthetic ones with their ``.truth.json``),
the word pieces embedded and the stage's CPU seconds; precision and recall against the truth's
RELATED pairs where there is one, and the Jaccard overlap with the first budget's edges (give the
widest first): how far the cut moves the edges, against the tolerance ``embed_bench`` uses (one
calibration step).
"""
from __future__ import annotations

import argparse
import functools
import json
import sys
import time
from pathlib import Path
from typing import Any, Callable, Sequence

ROOT = Path(__file__).resolve().parent.parent

__all__ = ["default_files", "profile", "budgets", "layers", "screen", "openvino", "distilled_encoder", "distilled", "main"]


def default_files() -> list[Path]:
    """rfc9000.A.docx and the largest document of ``devset/wild/`` (those that exist)."""
    from benchmarks.real_bench import default_devset

    devset = default_devset()
    out = [devset / "rfc" / "rfc9000.A.docx"]
    wild = [p for p in (devset / "wild").glob("*") if p.suffix in (".docx", ".odt")]
    if wild:
        out.append(max(wild, key=lambda p: p.stat().st_size))
    return [p for p in out if p.exists()]


def _cpu() -> float:
    return time.process_time()


def profile(path: Path) -> dict[str, Any]:
    """The semantic stage of ``path`` in parts, CPU seconds each (see the module's docstring)."""
    import numpy as np

    from adapters import read_path
    from addin_backend.embeddings.encoders import length_batches, related_backend
    from addin_backend.graph import build_graph
    from addin_backend.graph import related as R
    from addin_backend.language import nlp

    nlp.configure_embedding_cache(None)
    doc = read_path(str(path))
    G = build_graph(doc, semantic=False)
    encoder = nlp.get_embedder(related_backend())
    encoder.encode(["warm up the session"])
    c0 = _cpu()
    summ = R.summaries(doc)
    c1 = _cpu()
    texts = sorted(set(summ.values()), key=lambda t: (len(t), t))
    c2 = _cpu()
    pieces = [e.ids for e in encoder.tokenizer.encode_batch(texts)] if hasattr(encoder, "tokenizer") else []
    c3 = _cpu()
    for batch in length_batches([len(p) for p in pieces]):
        encoder._run([pieces[i] for i in batch])  # the model alone, one batch after the other
    c4 = _cpu()
    nlp.EMBEDDINGS.clear()
    vecs = nlp.embed_texts(texts, backend=related_backend())  # now cached in memory for scored_pairs
    c5 = _cpu()
    R._row_stats(vecs)
    c6 = _cpu()
    R.scored_pairs(doc, G, floor=R.THRESHOLD, min_deviations=R.required_deviations(len(summ)), summ=summ)
    c7 = _cpu()
    lengths = np.array([len(p) for p in pieces] or [0])
    units = len(doc.units)
    row: dict[str, Any] = {"file": path.name, "units": units, "embedded": len(texts), "pieces": int(lengths.sum()),
           "pieces_mean": round(float(lengths.mean()), 1), "pieces_p50": int(np.median(lengths)),
           "pieces_p90": int(np.percentile(lengths, 90)),
           "cpu_s": {"summaries": round(c1 - c0, 3), "tokenise": round(c3 - c2, 3), "model": round(c4 - c3, 3),
                     "encode_call": round(c5 - c4, 3), "statistics": round(c6 - c5, 3),
                     "search_and_filters": round(c7 - c6, 3)}}
    row["model_us_per_piece"] = round(1e6 * (c4 - c3) / max(1, int(lengths.sum())), 1)
    return row


def _truth(path: Path) -> dict[str, Any] | None:
    tp = path.with_suffix(".truth.json")
    return json.loads(tp.read_text(encoding="utf-8")) if tp.exists() else None


def _swap_encoder(backend: str, make: Callable[[], Any]) -> Callable[[], Callable[[], None]]:
    """A setup for :func:`_edge_rows`: put ``make()`` in place of ``backend``'s encoder, and the
    undo that puts the one before back."""
    from addin_backend.language import nlp

    def setup() -> Callable[[], None]:
        before = nlp._embedders.get(backend)
        nlp._embedders[backend] = make()

        def undo() -> None:
            if before is None:
                nlp._embedders.pop(backend, None)
            else:
                nlp._embedders[backend] = before
        return undo
    return setup


def _edge_rows(paths: Sequence[Path], variants: Sequence[tuple[str, Any, Callable[[], Any]]]) -> list[dict[str, Any]]:
    """For each document and variant ``(column, value, setup)`` (``setup()`` puts the variant in
    place and returns what undoes it): the RELATED pairs, word pieces, CPU s, Jaccard against the
    first variant's pairs, and precision / recall where a truth file exists."""
    from adapters import read_path
    from addin_backend.embeddings.encoders import tokenizer
    from addin_backend.graph import build_graph
    from addin_backend.graph import related as R
    from addin_backend.graph.edges import RELATED
    from addin_backend.language import nlp
    from benchmarks.embed_bench import jaccard

    nlp.configure_embedding_cache(None)
    rows: list[dict[str, Any]] = []
    docs = {path: read_path(str(path)) for path in paths}
    firsts: dict[Path, set] = {}
    for column, value, setup in variants:  # one variant at a time: one model loaded at a time
        undo = setup()
        try:
            for path, doc in docs.items():
                truth = _truth(path)
                G = build_graph(doc, semantic=False)
                nlp.EMBEDDINGS.clear()
                c0 = _cpu()
                R.add_related_edges(G, doc)
                cpu = _cpu() - c0
                texts = list(R.summaries(doc).values())
                pieces = sum(len(e.ids) for e in tokenizer().encode_batch(texts))
                pairs = {frozenset((u, v)) for u, v, k in G.edges(keys=True) if k == RELATED}
                first = firsts.setdefault(path, pairs)
                row: dict[str, Any] = {"file": path.name, column: value, "units": len(doc.units), "pieces": pieces,
                                       "cpu_s": round(cpu, 2), "pairs": len(pairs),
                                       "jaccard_vs_first": round(jaccard(pairs, first), 3)}
                if truth is not None:
                    from benchmarks.truth import align

                    key = {v: k for k, v in align(doc, truth).items()}
                    want = {frozenset((e["source"], e["target"])) for e in truth["edges"] if e["type"] == "RELATED"}
                    got = {frozenset(key.get(x, x) for x in p) for p in pairs}
                    hit = len(want & got)
                    row.update(truth_pairs=len(want), precision=round(hit / len(got), 3) if got else 1.0,
                               recall=round(hit / len(want), 3) if want else 1.0)
                rows.append(row)
                print(json.dumps(row), flush=True)
        finally:
            undo()
    return rows


def budgets(paths: Sequence[Path], sizes: Sequence[int]) -> list[dict[str, Any]]:
    """For each document and budget (word pieces per summary): the RELATED pairs, pieces, CPU s,
    Jaccard against the first budget's pairs, and precision / recall where a truth file exists."""
    from addin_backend.graph import related as R

    default = R.SUMMARY_PIECES

    def setting(size: int) -> Callable[[], Any]:
        def setup() -> Callable[[], None]:
            R.SUMMARY_PIECES = size

            def undo() -> None:
                R.SUMMARY_PIECES = default
            return undo
        return setup

    return _edge_rows(paths, [("budget", size, setting(size)) for size in sizes])


def layers(paths: Sequence[Path], counts: Sequence[int], folder: Path) -> list[dict[str, Any]]:
    """The same rows per count of the model's transformer layers kept (its first ones; a count
    of 6 or more is the whole MiniLM-L6): fewer layers cost proportionally less per word piece.
    The cut models are exported into ``folder`` (once) and used by this process alone."""
    from addin_backend.embeddings import encoders as E
    from addin_backend.language import nlp

    backend = E.related_backend()

    def setting(count: int) -> Callable[[], Any]:
        cut = None if count >= 6 else count
        return _swap_encoder(backend, lambda: E._OnnxEncoder(backend, layers=cut, folder=str(folder) if cut else None))

    return _edge_rows(paths, [("layers", count, setting(count)) for count in counts])


def _best_deviations(X: Any) -> Any:
    """Each row's strongest pair in deviations: for every other row, the cosine above both rows'
    means in their standard deviations (the smaller of the two), the same measure as RELATED's
    relative cut; the n x n matrix at once (a benchmark of documents of a few thousand units)."""
    import numpy as np

    S = X @ X.T
    np.fill_diagonal(S, np.nan)
    mu, sd = np.nanmean(S, axis=1), np.maximum(np.nanstd(S, axis=1), 1e-8)
    Z = (S - mu[:, None]) / sd[:, None]
    Z = np.fmin(Z, Z.T)
    np.fill_diagonal(Z, -np.inf)
    return np.nanmax(Z, axis=1)


def screen(paths: Sequence[Path], fractions: Sequence[float], kinds: dict[str, Any] | None = None) -> list[dict[str, Any]]:
    """Could a cheap first pass tell which units need the model (a cascade)? For each document,
    the RELATED pairs the stage finds today, and how many of them have both units among the top
    ``fraction`` of units ranked by a cheap screen's strongest pair: ``static``, the mean of the
    model's own input vectors of a summary's word pieces weighted by their idf in the document
    (mean-centred), and ``tfidf``, the summaries' word pieces by idf. A cascade that embeds only
    that fraction keeps at most that share of the pairs. ``kinds``: more screens, by name, each an
    encoder whose ``encode`` is given the document's summaries in one call (:func:`distilled_encoder`)."""
    import math

    import numpy as np
    from safetensors.numpy import load_file

    from adapters import read_path
    from addin_backend.embeddings.encoders import model_path, tokenizer
    from addin_backend.graph import build_graph
    from addin_backend.graph import related as R
    from addin_backend.graph.edges import RELATED
    from addin_backend.language import nlp

    nlp.configure_embedding_cache(None)
    weights = load_file(str(Path(model_path()) / "model.safetensors"))
    table = next(v for k, v in weights.items() if k.endswith("word_embeddings.weight")).astype(np.float32)
    rows: list[dict[str, Any]] = []
    for path in paths:
        doc = read_path(str(path))
        G = build_graph(doc, semantic=False)
        R.add_related_edges(G, doc)
        summ = R.summaries(doc)
        ids = [u.id for u in doc.units if u.id in summ]
        where = {i: k for k, i in enumerate(ids)}
        pairs = [(where[u], where[v]) for u, v, k in G.edges(keys=True) if k == RELATED and u < v]
        pieces = [e.ids[1:-1] for e in tokenizer().encode_batch([summ[i] for i in ids])]
        df: dict[int, int] = {}
        for p in pieces:
            for t in set(p):
                df[t] = df.get(t, 0) + 1
        idf = {t: math.log((len(ids) + 1) / (c + 0.5)) for t, c in df.items()}
        column = {t: k for k, t in enumerate(df)}
        static = np.zeros((len(ids), table.shape[1]), dtype=np.float32)
        tfidf = np.zeros((len(ids), len(column)), dtype=np.float32)
        for r, p in enumerate(pieces):
            for t in p:
                static[r] += idf[t] * table[t]
                tfidf[r, column[t]] += idf[t]
            static[r] /= max(1e-9, sum(idf[t] for t in p))  # a weighted mean: long texts weigh no more
        static -= static.mean(axis=0)
        row: dict[str, Any] = {"file": path.name, "embedded": len(ids), "pairs": len(pairs)}
        more = {name: enc.encode([summ[i] for i in ids]) for name, enc in (kinds or {}).items()}
        for name, X in (("static", static), ("tfidf", tfidf), *more.items()):
            X /= np.linalg.norm(X, axis=1, keepdims=True) + 1e-9
            rank = np.empty(len(ids), dtype=np.int64)
            rank[np.argsort(-_best_deviations(X), kind="stable")] = np.arange(len(ids))
            need = [max(rank[a], rank[b]) for a, b in pairs]
            row[name] = {f"{f:g}": round(sum(1 for x in need if x < int(f * len(ids))) / max(1, len(pairs)), 3)
                         for f in fractions}
        rows.append(row)
        print(json.dumps(row), flush=True)
    return rows


def _openvino_encoder(folder: Path, calibration: Sequence[str]) -> Any:
    """MiniLM's installed float32 export quantised to int8 by NNCF (static: activations calibrated
    on ``calibration``, at most 300 texts) and run by OpenVINO, one thread per batch as the ONNX
    encoders run: the same model on another runtime (needs ``openvino`` and ``nncf``, which the
    project does not install)."""
    import threading

    import nncf  # type: ignore[import-not-found]
    import numpy as np
    import openvino as ov  # type: ignore[import-not-found]

    from addin_backend.embeddings import encoders as E

    def feed(pieces: Sequence[Sequence[int]]) -> dict[str, Any]:
        width = max(len(p) for p in pieces)
        ids = np.zeros((len(pieces), width), dtype=np.int64)
        mask = np.zeros_like(ids)
        for row, p in enumerate(pieces):
            ids[row, : len(p)] = p
            mask[row, : len(p)] = 1
        return {"input_ids": ids, "attention_mask": mask, "token_type_ids": np.zeros_like(ids)}

    core = ov.Core()
    path = folder / "model-int8.xml"
    if not path.exists():
        pieces = [e.ids for e in E.tokenizer().encode_batch(list(calibration))]
        step = max(1, len(pieces) // 300)
        quantised = nncf.quantize(core.read_model(E.export_onnx("onnx")), nncf.Dataset([feed([p]) for p in pieces[::step][:300]]),
                                  model_type=nncf.ModelType.TRANSFORMER, subset_size=300)
        ov.save_model(quantised, str(path))

    class OpenVinoEncoder(E._OnnxEncoder):
        def __init__(self) -> None:  # the ONNX encoder's batching, OpenVINO's runs
            E.Encoder.__init__(self, E.related_backend())
            self.key = f"{self.key}/openvino-nncf-int8"  # another runtime's vectors: never another's in a cache
            self.tokenizer = E.tokenizer()
            self.threads = E._threads()
            self.compiled = core.compile_model(core.read_model(str(path)), "CPU", {
                "INFERENCE_NUM_THREADS": 1, "NUM_STREAMS": 1, "PERFORMANCE_HINT": "LATENCY"})
            self.local = threading.local()

        def _run(self, pieces: Sequence[Sequence[int]]) -> Any:
            request = getattr(self.local, "request", None)
            if request is None:
                request = self.local.request = self.compiled.create_infer_request()
            return next(iter(request.infer(feed(pieces)).values())).copy()

    return OpenVinoEncoder()


def openvino(paths: Sequence[Path], folder: Path) -> dict[str, Any]:
    """The RELATED encoder (onnxruntime, int8 weights, activations quantised per call) against
    the same model quantised statically by NNCF and run by OpenVINO: microseconds per word piece
    of the model alone on the documents' summaries (one thread, the two taking turns twice),
    cosine of each vector with the float32 export's, and the RELATED rows of :func:`_edge_rows`."""
    import numpy as np

    from adapters import read_path
    from addin_backend.embeddings import encoders as E
    from addin_backend.graph import related as R
    from addin_backend.language import nlp

    texts = sorted({t for path in paths for t in R.summaries(read_path(str(path))).values()}, key=lambda t: (len(t), t))
    ov_encoder = _openvino_encoder(folder, texts)
    encoders = {"onnxruntime-int8": E._OnnxEncoder("onnx-int8"), "openvino-int8": ov_encoder}
    reference = E._OnnxEncoder("onnx")
    pieces = [e.ids for e in E.tokenizer().encode_batch(texts)]
    batches = E.length_batches([len(p) for p in pieces])
    total = sum(len(p) for p in pieces)
    us: dict[str, list[float]] = {name: [] for name in encoders}
    vectors: dict[str, Any] = {}
    for name in [*encoders, *encoders]:
        encoders[name]._run([pieces[0]])
        out = np.zeros((len(pieces), E.DIMENSION), dtype=np.float32)
        c0 = _cpu()
        for batch in batches:
            out[batch] = encoders[name]._run([pieces[i] for i in batch])
        us[name].append(round(1e6 * (_cpu() - c0) / total, 1))
        vectors[name] = out
    fp32 = np.zeros((len(pieces), E.DIMENSION), dtype=np.float32)
    for batch in batches:
        fp32[batch] = reference._run([pieces[i] for i in batch])
    model = {name: {"us_per_piece": us[name], "cosine_to_fp32_min": round(float((vectors[name] * fp32).sum(1).min()), 4),
                    "cosine_to_fp32_mean": round(float((vectors[name] * fp32).sum(1).mean()), 4)}
             for name in encoders}
    print(json.dumps({"texts": len(texts), "pieces": total, "model": model}), flush=True)
    backend = E.related_backend()

    def setting(encoder: Any) -> Callable[[], Any]:
        return _swap_encoder(backend, lambda: encoder)

    rows = _edge_rows(paths, [("runtime", name, setting(enc)) for name, enc in encoders.items()])
    return {"texts": len(texts), "pieces": total, "model": model, "edges": rows}


def distilled_encoder(variant: str) -> Any:
    """The static encoder of ``variant`` (``WEIGHTING-DIMS``, e.g. ``sif-256``), its table
    distilled into the model home first when it is not there (once: about 24 CPU s)."""
    from benchmarks import static_encoder as S

    weighting, dims = variant.split("-")
    path = S.distill(S.distilled_file())
    return S.StaticEncoder(S.load_table(path, int(dims)), weighting)


def distilled(paths: Sequence[Path], variants: Sequence[str]) -> list[dict[str, Any]]:
    """The RELATED rows of :func:`_edge_rows` for today's encoder, then each distilled variant in
    its place. The static encoder weighs a piece by its frequency among the texts of one call, so
    the stage's texts go to it in one call (``embed_texts`` otherwise encodes 256 at a time)."""
    from addin_backend.embeddings import encoders as E
    from addin_backend.language import nlp

    backend = E.related_backend()

    def setting(variant: str) -> Callable[[], Any]:
        swap = _swap_encoder(backend, lambda: distilled_encoder(variant))

        def setup() -> Callable[[], None]:
            chunked = nlp.embed_texts
            undo = swap()
            # (``add_related_edges`` imports ``embed_texts`` when it runs: one call, every text)
            setattr(nlp, "embed_texts", functools.partial(chunked, batch_size=1 << 30))

            def both() -> None:
                setattr(nlp, "embed_texts", chunked)
                undo()
            return both
        return setup

    def today() -> Callable[[], None]:
        return lambda: None

    return _edge_rows(paths, [("encoder", "MiniLM " + backend, today),
                              *[("encoder", f"distilled {v}", setting(v)) for v in variants]])


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m benchmarks.semantic_profile", description=__doc__.split("\n")[0])
    p.add_argument("--files", nargs="+", type=Path)
    p.add_argument("--truth", nargs="*", type=Path, default=[], help="documents with a .truth.json beside them")
    p.add_argument("--budgets", default="", help="word-piece budgets per summary, widest first: 256,64,48,32")
    p.add_argument("--layers", default="", help="transformer layers kept, the whole model first: 6,4,3")
    p.add_argument("--screen", default="", help="fractions of units a cascade would embed: 0.2,0.3,0.4,0.5")
    p.add_argument("--openvino", action="store_true",
                   help="the encoder against the same model quantised by NNCF and run by OpenVINO (not installed)")
    p.add_argument("--distilled", default="",
                   help="static encoders distilled from MiniLM, WEIGHTING-DIMS: sif-384,sif-256,idf-256")
    p.add_argument("--json", type=Path)
    args = p.parse_args(argv)
    files = args.files or default_files()
    out: dict[str, Any] = {"profile": []}
    if args.openvino:
        import tempfile

        with tempfile.TemporaryDirectory(prefix="ledger-openvino-") as tmp:
            out["openvino"] = openvino([*files, *args.truth], Path(tmp))
    elif args.screen:
        kinds = {f"distilled {v}": distilled_encoder(v) for v in args.distilled.split(",") if v.strip()}
        out["screen"] = screen([*files, *args.truth], [float(x) for x in args.screen.split(",") if x.strip()], kinds)
    elif args.distilled:
        out["distilled"] = distilled([*files, *args.truth], [v for v in args.distilled.split(",") if v.strip()])
    elif args.layers:
        import tempfile

        with tempfile.TemporaryDirectory(prefix="ledger-layers-") as tmp:
            out["layers"] = layers([*files, *args.truth], [int(x) for x in args.layers.split(",") if x.strip()], Path(tmp))
    elif not args.budgets:
        for path in files:
            row = profile(path)
            out["profile"].append(row)
            cpu = row["cpu_s"]
            print(f"{row['file']}: {row['units']:,} units, {row['embedded']:,} texts embedded, {row['pieces']:,} word pieces "
                  f"(mean {row['pieces_mean']}, median {row['pieces_p50']}, p90 {row['pieces_p90']}); CPU s: "
                  + ", ".join(f"{k} {v}" for k, v in cpu.items())
                  + f"; model {row['model_us_per_piece']} us per piece", flush=True)
    else:
        out["budgets"] = budgets([*files, *args.truth], [int(x) for x in args.budgets.split(",") if x.strip()])
    if args.json:
        args.json.write_text(json.dumps(out, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())

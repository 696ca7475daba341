# One entry point for every routine job. Each target builds the virtualenv first if needed.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
PORT ?= 5000

.PHONY: run serve test lint bench simulate eval-vision train train-table-finder train-markers quantize clean uncompile lock

# The tested dependency tree, pinned with hashes in requirements.lock (`make lock` writes it),
# then the project itself on top of it without resolving anything again.
$(STAMP): pyproject.toml requirements.lock
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet --require-hashes -r requirements.lock
	$(BIN)/python -m pip install --quiet --no-deps -e .
	touch $(STAMP)

## Pin the dependency tree again (after a change to pyproject.toml's dependencies): versions
## already in requirements.lock are kept; `make lock UPGRADE=--upgrade` takes the newest of
## everything (then run make test). Linux x86_64, Python 3.11; the train extra is not locked.
lock:
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet uv
	$(BIN)/uv pip compile pyproject.toml --extra test --generate-hashes --python-version 3.11 \
		--python-platform x86_64-manylinux_2_28 --custom-compile-command "make lock" \
		$(UPGRADE) -o requirements.lock

# The rules engine compiled with mypyc: the same source, about 1.6 times the referee's speed.
# All of it but the command line, self-play and tiles (tiles.py says why). Python prefers the
# compiled modules while they are newer than their source (companion/__init__.py). If
# compiling fails (no C compiler), everything runs as plain Python, only slower. The shared
# library mypyc builds goes inside the package (tools/compile_rules.py), so the compiled engine
# loads whatever folder Python starts in; the root's *__mypyc*.so are older builds' leftovers.
RULES_COMPILED := $(filter-out %/__main__.py %/cli.py %/simulate.py %/tiles.py,\
	$(wildcard companion/rules/*.py companion/rules/referee/*.py))
COMPILED := build/rules-compiled
COMPILED_FILES = *__mypyc*.so companion/*__mypyc*.so companion/rules/*.so \
	companion/rules/referee/*.so

$(COMPILED): $(STAMP) $(RULES_COMPILED) tools/compile_rules.py
	mkdir -p build
	rm -f $(COMPILED_FILES)
	@echo "compiling the rules engine with mypyc (log in build/mypyc.log)"
	@$(BIN)/python tools/compile_rules.py $(RULES_COMPILED) > build/mypyc.log 2>&1 || { \
		rm -f $(COMPILED_FILES); \
		tail -5 build/mypyc.log; \
		echo "could not compile the rules engine: it runs as plain Python (slower)"; }
	touch $@

## Drop the compiled rules engine (plain Python from then on, until the next make).
uncompile:
	rm -f $(COMPILED) $(COMPILED_FILES)

## Start the app for the table: migrate the database, then serve on all interfaces.
run: $(COMPILED)
	PORT=$(PORT) $(BIN)/python -m companion

## Production: migrate, then gunicorn with threaded workers (slow clients can't stall it).
## SECRET_KEY from the environment (else instance/secret_key), port from PORT.
serve: $(COMPILED)
	PORT=$(PORT) $(BIN)/python -m companion.serve

## Every test (unit, API, vision, browser) on the compiled rules engine, then the rules tests
## again on its plain-Python source. With POSTGRES_TEST_URL set, the database tests run a
## second time against that PostgreSQL server.
test: $(COMPILED)
	$(BIN)/python -m pytest -q
	@echo "== rules tests again on the plain-Python engine"
	COMPANION_PURE_RULES=1 $(BIN)/python -m pytest -q tests/rules
	@if [ -n "$$POSTGRES_TEST_URL" ]; then \
		echo "== database tests again on PostgreSQL"; \
		TEST_DATABASE_URL="$$POSTGRES_TEST_URL" $(BIN)/python -m pytest -q tests/app tests/e2e; \
	fi

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy

bench: $(COMPILED)
	$(BIN)/python benchmarks/bench_rules.py
	$(BIN)/python benchmarks/bench_api.py
	$(BIN)/python benchmarks/bench_referee.py
	$(BIN)/python benchmarks/bench_vision.py
	$(BIN)/python benchmarks/bench_table.py
	$(BIN)/python benchmarks/bench_upload.py
	$(BIN)/python benchmarks/bench_slow_clients.py
	$(BIN)/python benchmarks/bench_photo_flood.py
	$(BIN)/python benchmarks/bench_record_book.py

## 100,000 seeded self-play rounds across every preset and random rule mixes.
simulate: $(COMPILED)
	$(BIN)/python -m companion.rules simulate --rounds 100000 --seed 1

eval-vision: $(COMPILED)
	$(BIN)/python -m training.evaluate

## Train the models (CPU only; never run in CI; about 4 h 30 min on 2 cores). Installs the CPU
## build of PyTorch. The close-up finder first, on the mix with the failing classes (renders
## 9,000 scenes, ~65 min), then the reader, which also learns from crops cut along the usual
## finder's outlines (renders ~20 min, trains 40), fine-tuned then with coloured sets and the
## app's finder's outlines (~33 min: READER_FINETUNE_ARGS), then the face-down check: a reader trained
## with printed backs among its face-down tiles (~60 min), then the outline fitter, on the usual
## finder's outlines of scenes weighted to low shots (renders ~13 min, trains 30). The usual
## finder, models/finder.onnx, came from the scene data before that mix (models/MODEL_CARD.md
## says which commit renders it).
train: $(STAMP)
	$(BIN)/python -m pip install --quiet -e ".[train]"
	$(BIN)/python -m training.train_finder --seed 0 --minutes 45 --out models/finder-close.onnx
	$(BIN)/python -m training.train_halves $(HALVES_ARGS) --out models/halves.onnx
	$(BIN)/python -m training.finetune_halves $(READER_FINETUNE_ARGS) --start models/halves.onnx \
		--out models/halves.onnx
	$(BIN)/python -m training.train_halves $(HALVES_ARGS) --usual-finder-crops --printed-backs \
		--out models/face-down.onnx
	$(BIN)/python -m training.train_fitter --seed 0 --minutes 30 --out models/outline-fitter.onnx
	$(MAKE) quantize

## Finder v6, models/finder.onnx: finder v3 (as committed before it, at f78e00e) trained on
## with 1,200 whole rendered tables mixed into 3,000 hand scenes (renders ~20 min on 2 cores,
## trains 40 min on one thread; models/MODEL_CARD.md, "Finder v6").
train-table-finder: $(STAMP)
	$(BIN)/python -m pip install --quiet -e ".[train]"
	mkdir -p build && git show f78e00e:models/finder.onnx > build/finder-v3.onnx
	$(BIN)/python -m training.train_finder --seed 0 --minutes 40 --scenes 3000 --table-scenes 1200 \
		--threads 1 --lr 5e-4 --start-from build/finder-v3.onnx --out models/finder.onnx
	$(MAKE) quantize

## The marker check, models/markers.onnx: views of train starts on 4 x 1,800 rendered tables (~100
## min on 2 cores) and 300 more to choose on; one check trained 16 min on the first half, one
## 32 min on all, joined into one answering the mean of their logits
## (models/MODEL_CARD.md, "Marker check v2").
train-markers: $(STAMP)
	$(BIN)/python -m pip install --quiet -e ".[train]"
	$(BIN)/python -m training.marker_data --first-seed 330000000 --tables 300 \
		--out training/data/marker_views_val.npz
	$(BIN)/python -m training.marker_data --first-seed 320000000 --tables 1800 \
		--out training/data/marker_views.npz
	$(BIN)/python -m training.marker_data --first-seed 321000000 --tables 1800 \
		--out training/data/marker_views_2.npz
	$(BIN)/python -m training.marker_data --first-seed 322000000 --tables 1800 \
		--out training/data/marker_views_3.npz
	$(BIN)/python -m training.marker_data --first-seed 323000000 --tables 1800 \
		--out training/data/marker_views_4.npz
	$(BIN)/python -m training.train_markers --minutes 16 --threads 2 \
		--out training/runs/markers_a.onnx \
		--data training/data/marker_views.npz training/data/marker_views_2.npz
	$(BIN)/python -m training.train_markers --minutes 32 --threads 2 \
		--out training/runs/markers_b.onnx \
		--data training/data/marker_views.npz training/data/marker_views_2.npz \
		training/data/marker_views_3.npz training/data/marker_views_4.npz
	$(BIN)/python -m training.mean_markers training/runs/markers_a.onnx \
		training/runs/markers_b.onnx --out models/markers.onnx

## The models the app runs in 8 bits, models/*-int8.onnx: the trained ones with their layers but the
## last in 8-bit integers, calibrated on rendered photos (a minute; never in CI).
quantize: $(STAMP)
	$(BIN)/python -m pip install --quiet -e ".[train]"
	$(BIN)/python -m training.quantize

HALVES_ARGS = --seed 0 --minutes 40 --val-count 1500 --train-count 30000 --render-workers 2 \
	--threads 2 --width 24 --batch 256
## Reader v12 (2026-11-27): the reader fine-tuned with sets moulded in a strong colour among its
## crops and crops cut along the app's finder's outlines, no real photo (renders ~8 min, trains 25).
READER_FINETUNE_ARGS = --coloured-bodies --real-share 0 --finder-scenes 1500 --finder-share 0.4 \
	--render-workers 2 --threads 2 --minutes 25 --lr 1e-4

clean: uncompile
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache

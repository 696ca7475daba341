# One entry point for every routine job. Each target builds the virtualenv first if needed.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
PORT ?= 5000

.PHONY: run serve test lint bench simulate eval-vision train clean

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e ".[test]"
	touch $(STAMP)

## Start the app for the table: migrate the database, then serve on all interfaces.
run: $(STAMP)
	PORT=$(PORT) $(BIN)/python -m companion

## Production: migrate, then gunicorn with threaded workers (slow clients can't stall it).
## SECRET_KEY from the environment (else instance/secret_key), port from PORT.
serve: $(STAMP)
	PORT=$(PORT) $(BIN)/python -m companion.serve

## Every test (unit, API, vision, browser). With POSTGRES_TEST_URL set, the database tests
## run a second time against that PostgreSQL server.
test: $(STAMP)
	$(BIN)/python -m pytest -q
	@if [ -n "$$POSTGRES_TEST_URL" ]; then \
		echo "== database tests again on PostgreSQL"; \
		TEST_DATABASE_URL="$$POSTGRES_TEST_URL" $(BIN)/python -m pytest -q tests/app tests/e2e; \
	fi

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy

bench: $(STAMP)
	$(BIN)/python benchmarks/bench_rules.py
	$(BIN)/python benchmarks/bench_api.py
	$(BIN)/python benchmarks/bench_referee.py
	$(BIN)/python benchmarks/bench_vision.py
	$(BIN)/python benchmarks/bench_upload.py

## 100,000 seeded self-play rounds across every preset and random rule mixes.
simulate: $(STAMP)
	$(BIN)/python -m companion.rules simulate --rounds 100000 --seed 1

eval-vision: $(STAMP)
	$(BIN)/python -m training.evaluate

## Train both models (CPU only; never run in CI; about 2 h 10 min on 2 cores). Installs the CPU
## build of PyTorch. The tile finder first (renders 9,000 scenes, ~65 min), then the reader,
## which also learns from crops cut along that finder's outlines (renders ~20 min, trains 40).
## It trains on the mix with the failing classes (models/MODEL_CARD.md: v4 and v7, not adopted).
train: $(STAMP)
	$(BIN)/python -m pip install --quiet -e ".[train]"
	$(BIN)/python -m training.train_finder --seed 0 --minutes 45 --out models/finder.onnx
	$(BIN)/python -m training.train_halves $(HALVES_ARGS) --out models/halves.onnx

HALVES_ARGS = --seed 0 --minutes 40 --val-count 1500 --train-count 30000 --render-workers 2 \
	--threads 2 --width 24 --batch 256

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache

# citewise — the two commands: `make demo` and `make test`. Both set everything up first.
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed-$(shell cat pyproject.toml | sha256sum | cut -c1-12)
DEMO_INDEX ?= .citewise-demo
SAMPLES := src/citewise/samples/corpus

.PHONY: install demo test lint typecheck unit bench clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip

$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/pip install --quiet -e '.[dev]'
	rm -f $(VENV)/.installed-*
	touch $(STAMP)

install: $(STAMP)

demo: install
	$(BIN)/citewise ingest --index $(DEMO_INDEX) $(SAMPLES)
	$(BIN)/citewise ls --index $(DEMO_INDEX)
	$(BIN)/citewise show --index $(DEMO_INDEX) "Harbourview" "Section 4.2"
	$(BIN)/citewise show --index $(DEMO_INDEX) "125/2024/QĐ-SH" "khoản 1 Điều 2"
	$(BIN)/citewise show --index $(DEMO_INDEX) "Regulation (FR) 2024/17"

lint: install
	$(BIN)/ruff check src tests bench scripts
	$(BIN)/ruff format --check src tests bench scripts

typecheck: install
	$(BIN)/mypy

unit: install
	$(BIN)/pytest -q

test: lint typecheck unit

bench: install
	$(BIN)/python bench/ingest.py

clean:
	rm -rf $(VENV) .citewise $(DEMO_INDEX) .pytest_cache .mypy_cache .ruff_cache

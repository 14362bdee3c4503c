# The two commands a new user needs:
#   make serve   set everything up, build both languages, serve on http://127.0.0.1:8000 with live reload
#   make test    set everything up and run every test (unit, doc blocks, parity, build, browser)
.PHONY: setup site serve test lint bench parity clean

PY := .venv/bin/python

setup:
	@bash scripts/setup.sh

site: setup
	$(PY) -m site_tools.site build

serve: setup
	$(PY) -m site_tools.site serve --host 127.0.0.1 --port $(or $(PORT),8000)

test: setup
	$(PY) -m pytest

lint: setup
	.venv/bin/ruff check .

parity: setup
	$(PY) -m site_tools.pages

bench: setup
	$(PY) benchmarks/bench_table.py

clean:
	rm -rf site .cache

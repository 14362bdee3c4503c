# The two commands a new user needs:
#   make serve   set everything up, build both languages, serve on http://127.0.0.1:8000 with live reload
#   make test    set everything up and run every test (unit, doc blocks, parity, build, browser)
# Publishing:
#   make site    strict build into site/ for the public address in mkdocs.yml;
#                `SITE_URL=https://example.org/some/path/ make site` builds for another address
#   make deploy  make site, then commit site/ to the gh-pages branch (ghp-import); `make deploy PUSH=1` pushes it
.PHONY: setup site serve test lint bench parity clean deploy

PY := .venv/bin/python

setup:
	@bash scripts/setup.sh

site: setup
	$(PY) -m site_tools.site build

deploy: site
	$(PY) -m site_tools.site deploy $(if $(PUSH),--push,)

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

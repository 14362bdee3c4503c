# The two commands a new user needs:
#   make serve   set everything up, build both languages, serve on http://127.0.0.1:8000 with live reload
#   make test    set everything up and run every test (unit, doc blocks, parity, build, browser), on every core
# The contributor's loop while writing a page:
#   make chapter NAME=<slug> a new chapter in both languages, from templates/ (SECTION=<nav section>, or it asks)
#   make check PAGE=<slug>   the tests of one page in both languages (blocks, numbers, parity, nav, Chinese, notebooks)
#   make sync PAGE=<slug>    the Chinese page's code blocks rewritten from the English page's, Chinese comments kept
# Publishing:
#   make site    strict build into site/ for the public address in mkdocs.yml (site_tools/build/site.py);
#                `SITE_URL=https://example.org/some/path/ make site` builds for another address
#   make deploy  make pdf (the site and its books), then commit site/ to the gh-pages branch (ghp-import);
#                `make deploy PUSH=1` pushes it
#   make pdf     make site, then each language's book as one PDF into it: site/pe-docs.en.pdf, site/zh/pe-docs.zh.pdf
.PHONY: setup site pdf serve test test-upstream check lint format chapter deploy bench bench-tests parity sync clean

PY := .venv/bin/python

setup:
	@bash scripts/setup.sh

site: setup
	$(PY) -m site_tools.build

# The book: each language's pages, in the nav's order, printed by Chromium into one PDF (site_tools/book/).
pdf: site
	$(PY) -m site_tools.book

deploy: pdf
	$(PY) -m site_tools.build.publish $(if $(PUSH),--push,)

serve: setup
	$(PY) -m site_tools.build.preview --host 127.0.0.1 --port $(or $(PORT),8000)

# Every test, spread over the machine's cores by pytest-xdist (JOBS=1 runs them in one process). The units and
# their order are set in tests/harness/scheduling.py: each worker runs whole modules (or a page's blocks, a slice
# of the browser tests), the longest first.
JOBS ?= logical
test: setup
	$(PY) -m pytest -n $(JOBS) --maxprocesses=4 --dist loadgroup --no-loadscope-reorder

# One page's tests (site_tools/pages/check.py): make check PAGE=formula
check: setup
	$(PY) -m site_tools.pages.check "$(PAGE)"

# The upstream tier: tests/upstream/ against the libraries the pages describe, from PyPI, pinned in
# requirements-upstream.txt and installed into their own .venv-upstream/ (`make test` never sees them);
# `make test-upstream LATEST=1` takes their newest releases instead (.venv-upstream-latest/, the weekly workflow).
test-upstream:
	bash scripts/test-upstream.sh $(if $(LATEST),--latest,)

# The pre-commit hooks (.pre-commit-config.yaml) over every file, new ones too (`git ls-files --others`: a page not
# yet added to git is checked): ruff check, ruff format --check, codespell, mypy. They only check: no file is changed.
LINT_FILES = $$(git ls-files --cached --others --exclude-standard)
lint: setup
	@$(PY) -m pre_commit run --files $(LINT_FILES) || { printf '%s\n' \
	  "make lint: failed, and changed no file (the hooks only check). To fix what they name:" \
	  "  ruff format, ruff check: make format rewrites the formatting and what ruff can fix; the rest by hand" \
	  "  codespell: correct the word; a word it wrongly flags goes in ignore-words-list under [tool.codespell] in pyproject.toml" \
	  "  mypy: correct the annotation or the code it names (configured under [tool.mypy] in pyproject.toml)"; \
	  exit 1; }

format: setup
	.venv/bin/ruff format .
	.venv/bin/ruff check --fix .

# A new chapter in both languages from templates/ (docs/en/NAME.md, docs/zh/NAME.md), added to both navs in a
# section: make chapter NAME=attention-scores SECTION='Deep dives' (without SECTION it asks which).
chapter: setup
	$(PY) -m site_tools.pages.chapter "$(NAME)" $(if $(SECTION),--section "$(SECTION)",)

parity: setup
	$(PY) -m site_tools.pages

# The Chinese page's code blocks rewritten from the English page's, keeping the Chinese comments of unchanged lines
# (site_tools/pages/sync.py): make sync PAGE=formula
sync: setup
	$(PY) -m site_tools.pages.sync "$(PAGE)"

bench: setup
	$(PY) benchmarks/bench_table.py

# The test suite's time, per test file and in total, wall and CPU (benchmarks/bench_tests.py): OUT=result.json
bench-tests: setup
	$(PY) benchmarks/bench_tests.py run $(if $(OUT),--out $(OUT),) -- -n $(JOBS) --maxprocesses=4 --dist loadgroup --no-loadscope-reorder

clean:
	rm -rf site .site.building .site.old .cache

#!/usr/bin/env bash
# Set up everything the site and the tests need, idempotently (fast when nothing changed):
#   1. system packages: Chromium (browser tests, the PDFs), a CJK font (Chinese in figures and pages) and poppler-utils
#      (pdftotext, pdffonts: tests/test_pdf.py reads the PDFs with them);
#   2. .venv/ with the pinned Python packages (requirements.txt) and pe_docs installed editable;
#   3. node_modules/ with the pinned KaTeX (package-lock.json; it typesets the math at build time, and the site
#      serves its stylesheet and fonts: no CDN) and axe-core (the accessibility checks of the browser tests).
set -euo pipefail
cd "$(dirname "$0")/.."

PYTHON=${PYTHON:-python3}
APT_PACKAGES=(chromium fonts-wqy-microhei poppler-utils)

need_apt=()
command -v chromium >/dev/null 2>&1 || need_apt+=(chromium)
fc-list :lang=zh family 2>/dev/null | grep -q . || need_apt+=(fonts-wqy-microhei)
command -v pdftotext >/dev/null 2>&1 || need_apt+=(poppler-utils)
if ((${#need_apt[@]})); then
  echo "setup: installing system packages: ${need_apt[*]}"
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  if ! command -v apt-get >/dev/null 2>&1; then
    echo "setup: apt-get not found; install these yourself: ${APT_PACKAGES[*]}" >&2
    exit 1
  fi
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${need_apt[@]}" >/dev/null
fi

# Python environment, re-synced whenever requirements.txt or pyproject.toml changes.
stamp=.venv/.requirements.sha256
want=$(cat requirements.txt pyproject.toml | sha256sum | cut -d' ' -f1)
if [ ! -x .venv/bin/python ]; then
  echo "setup: creating .venv"
  "$PYTHON" -m venv .venv
fi
if [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
  echo "setup: installing pinned Python packages into .venv"
  .venv/bin/python -m pip install --quiet --disable-pip-version-check -r requirements.txt
  .venv/bin/python -m pip install --quiet --disable-pip-version-check --no-deps --no-build-isolation -e .
  # PyPI's Linux torch is the CUDA build; the CPU one comes from PyTorch's CPU index (requirements.txt says how)
  torch_build=$(.venv/bin/python -c "import torch; print(torch.__version__)")
  case "$torch_build" in
    *+cpu) echo "setup: torch $torch_build (the CPU build)" ;;
    *) echo "setup: torch $torch_build is not the CPU build; for it, PIP_EXTRA_INDEX_URL=https://download.pytorch.org/whl/cpu" ;;
  esac
  echo "$want" > "$stamp"
fi

# KaTeX and axe-core from the npm registry, exactly as locked.
lock_stamp=node_modules/.lock.sha256
want_lock=$(sha256sum package-lock.json | cut -d' ' -f1)
if [ "$(cat "$lock_stamp" 2>/dev/null)" != "$want_lock" ]; then
  command -v npm >/dev/null 2>&1 || { echo "setup: npm not found; install Node.js (apt-get install nodejs npm)" >&2; exit 1; }
  echo "setup: installing KaTeX and axe-core (npm ci)"
  npm ci --no-audit --no-fund --loglevel=error >/dev/null
  echo "$want_lock" > "$lock_stamp"
fi

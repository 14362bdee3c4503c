#!/usr/bin/env bash
# The upstream test tier (`make test-upstream`): tests/upstream/ compares what the pages say about other libraries
# with those libraries themselves, installed from PyPI into their own environment:
#   pinned (default)  .venv-upstream/, exactly requirements-upstream.txt (--no-deps: the file is the whole
#                     environment), re-created whenever that file changes;
#   --latest          .venv-upstream-latest/, re-created on every run with the newest releases of the packages marked
#                     "tier" there (the weekly workflow). torch comes from PyTorch's CPU wheels when
#                     PIP_EXTRA_INDEX_URL names them (as the workflows set it), else stays at its pin: a bare
#                     `torch` from PyPI alone is a multi-GB CUDA build.
# Nothing is downloaded at run time: models are built from configs with random weights, and the Hugging Face
# libraries are told they are offline.
set -euo pipefail
cd "$(dirname "$0")/.."

PYTHON=${PYTHON:-python3}
mode=pinned
venv=.venv-upstream
if [ "${1:-}" = "--latest" ]; then
  mode=latest
  venv=.venv-upstream-latest
  shift
fi
# --no-compile: byte-compiling every module of torch, transformers & co. doubles the install time; Python compiles
# the few the tier imports when it first imports them.
install() { "$venv/bin/python" -m pip install --quiet --disable-pip-version-check --no-compile "$@"; }

stamp=$venv/.requirements.sha256
want=$(sha256sum requirements-upstream.txt | cut -d' ' -f1)
if [ "$mode" = latest ] || [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
  echo "test-upstream: creating $venv ($mode)"
  rm -rf "$venv"
  "$PYTHON" -m venv "$venv"
  if [ "$mode" = pinned ]; then
    install --no-deps -r requirements-upstream.txt
  else
    torch="torch==$(sed -n 's/^torch==\([^ #]*\).*/\1/p' requirements-upstream.txt)"
    case "${PIP_EXTRA_INDEX_URL:-}" in *download.pytorch.org/whl/cpu*) torch=torch ;; esac
    install "$torch"
    mapfile -t resolved < <("$venv/bin/python" -m site_tools.versions latest resolved)
    mapfile -t bare < <("$venv/bin/python" -m site_tools.versions latest no-deps)
    install "${resolved[@]}"
    install --no-deps "${bare[@]}"
    mapfile -t theirs < <("$venv/bin/python" -m site_tools.versions latest their-deps)
    install "${theirs[@]}"
    "$venv/bin/python" -m pip freeze --exclude-editable | sed 's/^/test-upstream: installed /'
  fi
  echo "$want" > "$stamp"
fi

export HF_HUB_OFFLINE=1 TRANSFORMERS_OFFLINE=1
export KERAS_BACKEND=torch PE_DOCS_UPSTREAM=$mode
export PYTHONPATH=$PWD${PYTHONPATH:+:$PYTHONPATH}
# Arguments go to pytest; without a test path among them, the whole tier runs.
paths=(tests/upstream)
for arg in "$@"; do
  [ -e "${arg%%::*}" ] && paths=()
done
exec "$venv/bin/python" -m pytest -c tests/upstream/pytest.ini --rootdir tests/upstream "$@" "${paths[@]}"

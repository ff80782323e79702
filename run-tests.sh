#!/usr/bin/env bash
# The whole test suite on a fresh machine: a venv with the test extras (bootstrap-venv.sh),
# then lit + pytest from it.
set -euo pipefail
cd "$(dirname "$0")"
bash bootstrap-venv.sh test
export PATH="$PWD/.venv/bin:$PATH"
lit -q --order=lexical test/lit
# One worker per core (at most 4: a worker peaks near 4 GB); a test file's tests share a worker,
# so module fixtures (the property runs) are computed once.
python -m pytest -n auto --maxprocesses 4 --dist loadfile --no-loadscope-reorder test/unit

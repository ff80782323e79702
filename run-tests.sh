#!/usr/bin/env bash
# The whole test suite on a fresh machine: a venv with the test extras (bootstrap-venv.sh),
# then lit + pytest from it.
set -euo pipefail
cd "$(dirname "$0")"
bash bootstrap-venv.sh test
export PATH="$PWD/.venv/bin:$PATH"
lit -q --order=lexical test/lit
python -m pytest test/unit

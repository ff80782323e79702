#!/usr/bin/env bash
# The whole test suite on a fresh machine: install (with test extras), then lit + pytest.
set -euo pipefail
cd "$(dirname "$0")"
python3 -m pip install --quiet -e '.[test]'
lit -q --order=lexical test/lit
python3 -m pytest test/unit

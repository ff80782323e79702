#!/usr/bin/env bash
# Create ./.venv (once) and install fusionopt into it, editable: `bash bootstrap-venv.sh [EXTRAS]`
# (e.g. `test` for the suite's tools: pytest, lit, IREE, onnxruntime).
# A stock Debian python3 has `venv` but not `ensurepip` (that is the python3-venv package), so
# where `python3 -m venv` fails the venv is made without pip and pip is installed from its own
# wheel, fetched from PyPI: nothing is installed outside ./.venv, and no root is needed.
set -euo pipefail
cd "$(dirname "$0")"
extras="${1:-}"
if [ ! -x .venv/bin/python ]; then
  python3 -m venv .venv >/dev/null 2>&1 || { rm -rf .venv; python3 -m venv --without-pip .venv; }
fi
if ! .venv/bin/python -m pip --version >/dev/null 2>&1; then
  wheel_dir=$(mktemp -d)
  .venv/bin/python - "$wheel_dir" <<'PY'
import json, sys, urllib.parse, urllib.request
index = "https://pypi.org/pypi/pip/json"
release = json.load(urllib.request.urlopen(index, timeout=60))
wheel = next(f for f in release["urls"] if f["filename"].endswith(".whl"))
url = urllib.parse.urljoin(index, wheel["url"])  # mirrors answer with relative links
urllib.request.urlretrieve(url, f"{sys.argv[1]}/{wheel['filename']}")
PY
  wheel=$(ls "$wheel_dir"/pip-*.whl)
  .venv/bin/python "$wheel/pip" install --quiet "$wheel"  # a pip wheel runs as its own installer
  rm -rf "$wheel_dir"
fi
.venv/bin/python -m pip install --quiet -e ".${extras:+[$extras]}"

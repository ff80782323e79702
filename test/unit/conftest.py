"""Makes `test/support` importable as `support` (test-only code stays out of the package)."""

import sys
from pathlib import Path

TEST_DIR = str(Path(__file__).resolve().parents[1])
if TEST_DIR not in sys.path:
    sys.path.insert(0, TEST_DIR)

"""Makes `test/support` importable as `support` (test-only code stays out of the package)."""

import sys
from pathlib import Path

TEST_DIR = str(Path(__file__).resolve().parents[1])
if TEST_DIR not in sys.path:
    sys.path.insert(0, TEST_DIR)

# Property tests are deterministic in the suite: the same examples on every run, so a CI run
# is never failed by a new draw (the randomised search is `bench/property_run.py`'s job, and
# `HYPOTHESIS_PROFILE=explore pytest ...` draws fresh examples here too).
import os  # noqa: E402

from hypothesis import settings  # noqa: E402

settings.register_profile("suite", derandomize=True, database=None)
settings.register_profile("explore", derandomize=False)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "suite"))

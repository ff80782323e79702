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


# The longest test files first. `run-tests.sh` hands whole files to the workers (`--dist
# loadfile`, so a file's module fixtures are computed once) in collection order
# (`--no-loadscope-reorder`); a long file handed out last runs alone while the other workers
# idle. Longest first is the classic list-scheduling remedy. Seconds from a full run
# (`pytest --durations=0`, 2-vCPU Xeon, 2026-12-03): property runs 240, block models 168, fewest
# CNNs 80, shipped models 65, attention raising 54, then 20-36 each.
LONGEST_FILES = (
    "test_property_run.py", "test_block_models_build.py", "transforms/dispatch/test_fewest_cnn.py",
    "test_shipped_models.py", "transforms/linalg/test_raise_attention.py",
    "transforms/dispatch/test_dispatch_passes.py", "test_iree_bench.py", "transforms/graph/test_attention_tail.py",
    "transforms/dispatch/test_matmul_cpu_tiles.py", "test_graph_to_dispatch_cuda.py",
    "transforms/dispatch/test_cnn_iree_agreement.py", "transforms/dispatch/test_padded_results.py",
    "transforms/graph/test_horizontal_unequal.py",
)
UNIT_DIR = Path(__file__).resolve().parent


def _file_rank(item) -> int:
    try:
        relative = item.path.resolve().relative_to(UNIT_DIR).as_posix()
    except ValueError:
        return len(LONGEST_FILES)
    return LONGEST_FILES.index(relative) if relative in LONGEST_FILES else len(LONGEST_FILES)


def pytest_collection_modifyitems(items):
    items.sort(key=_file_rank)  # stable: each file's tests keep their order

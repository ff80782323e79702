# lit configuration: FileCheck tests under test/lit, run with the installed console scripts.
import os

import lit.formats

config.name = "fusionopt"
config.test_format = lit.formats.ShTest()
config.suffixes = [".mlir", ".test"]
config.test_source_root = os.path.dirname(__file__)
config.excludes = ["Inputs", "examples", "bench", "build", "Output"]
config.environment["PYTHONUNBUFFERED"] = "1"
for var in ("PATH", "HOME", "PYTHONPATH"):
    if var in os.environ:
        config.environment[var] = os.environ[var]
shared = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "shared"))
if os.path.isdir(shared):
    config.available_features.add("shared")
import shutil  # noqa: E402

if shutil.which("iree-opt"):  # tests that feed our output to IREE's tools
    config.available_features.add("iree")
config.substitutions.append(("%shared", shared))
config.substitutions.append(("%data", os.path.join(os.path.dirname(__file__), "test", "data")))

"""Test-only passes (MLIR's `test/lib/Transforms`): registered in `fusionopt/registry.py` so lit
tests can drive them through `fusion-opt`, never part of a pipeline. They live in the package,
not under `test/`, because the installed `fusion-opt` must be able to import them."""

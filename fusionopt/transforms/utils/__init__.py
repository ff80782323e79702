"""Reusable analyses and rewrite helpers shared by the passes in `fusionopt.transforms`
(like MLIR's `lib/Transforms/Utils`): the pass files stay one pass each, named after the pass."""

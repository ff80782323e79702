"""Lowering the graph dialect to linalg on tensors (`convert-graph-to-linalg`) and its
per-op-family helpers (`graph_to_linalg_*`)."""

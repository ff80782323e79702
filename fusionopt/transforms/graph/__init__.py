"""Graph-dialect passes (graph -> graph): constant folding, canonicalization, dot-chain
reassociation, pointwise hoisting and horizontal fusion of sibling dots, with their helpers
(`graph_ir`: builders and constant access every pass here uses; `dot_chain*`,
`dot_scale_patterns`: reassociation; `horizontal_*`: horizontal fusion)."""

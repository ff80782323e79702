"""Test support shared by the unit tests and the bench scripts (never imported by fusionopt):
`graph_strategies` (hypothesis strategies for random graph programs; `graph_blocks` holds the
multi-op patterns they draw), `elementwise_cases` and
`graph_simplify_cases` (programs the tests and benchmarks share). `test/unit/conftest.py` puts
`test/` on `sys.path`; bench scripts insert it themselves."""

"""fusionopt's passes, one package per pipeline stage (see docs/architecture.md).

- `graph`: graph-dialect algebra and horizontal fusion (graph -> graph);
- `lowering`: graph dialect -> linalg on tensors;
- `linalg`: linalg-on-tensors rewrites that prepare dispatch formation (linalg -> linalg);
- `dispatch`: dispatch-region formation and conversion to flow (linalg -> flow);
- `common`: the structural linalg queries more than one stage (and `fusion-stats`) share;
- `testing`: test-only passes, registered for lit tests, never in a pipeline.

Each pass file is named after its pass and sits next to the helper modules only it uses; the
one list of passes and pipelines is `fusionopt/registry.py`.
"""

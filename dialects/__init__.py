"""fusionopt's dialects: our own (`graph`, `flow`) and the upstream ops xDSL 0.74 lacks.

Installed as `fusionopt.dialects` (see `package-dir` in pyproject.toml).
"""

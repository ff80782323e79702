from fusionopt import registry


def test_upstream_passes_registered():
    passes = registry.get_all_passes()
    for name in ("canonicalize", "cse", "dce"):
        assert passes[name]().name == name

"""Dispatch-region formation (linalg -> `flow.dispatch.region`) and conversion of what stays
outside regions to `flow.tensor.*` ops, with their helpers (`fusion_groups`: which ops share a
region; `region_cloning`: cheap producers copied into regions; `copy_as_generic`)."""

"""Helpers shared by more than one stage: only what two stages must decide identically."""

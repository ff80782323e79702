"""Linalg-on-tensors passes that prepare dispatch formation (linalg -> linalg): elementwise
fusion (`elementwise_fusion_*` are its helpers), unit-reshape and transpose folding, sibling
reduction merging, loop interchange for fusion."""

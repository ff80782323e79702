"""fusionopt: fuse tensor programs into fewer, bigger kernels."""

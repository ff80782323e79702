"""Importers: build fusionopt IR from other formats (ONNX)."""

"""IREE's `hal` runtime types (`!hal.buffer_view`, `!hal.fence`, ...), kept as opaque text
(dialects/opaque.py); hal.py builds the dialect, hal_tensor.py's ops use them."""

from __future__ import annotations

from fusionopt.dialects.opaque import opaque_attribute

HAL_TYPES = [opaque_attribute(f"hal.{name}", is_type=True)
             for name in ("buffer_view", "buffer", "fence", "device", "allocator", "command_buffer",
                          "element_type", "encoding_type")]
FENCE_TYPE = next(t for t in HAL_TYPES if t.name == "hal.fence")
BUFFER_VIEW_TYPE = next(t for t in HAL_TYPES if t.name == "hal.buffer_view")

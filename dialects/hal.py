"""The parts of IREE's `hal` dialect that appear in the IR fusionopt reads: the runtime types
at a module's boundary (`!hal.buffer_view`, `!hal.fence`, ...) and target/affinity attributes,
kept as opaque text (dialects/opaque.py), plus the `hal.tensor.*` ops (dialects/hal_tensor.py),
which turn a buffer view into a tensor and back, and `hal.buffer_view.dim`
(dialects/hal_buffer_view.py), which reads a buffer view's dimension.

    %t = hal.tensor.import %view "input0" : !hal.buffer_view -> tensor<4xf32>
    %v = hal.tensor.export %t "output0" : tensor<4xf32> -> !hal.buffer_view
"""

from __future__ import annotations

from xdsl.ir import Dialect

from fusionopt.dialects.hal_buffer_view import HAL_BUFFER_VIEW_OPS
from fusionopt.dialects.hal_tensor import HAL_TENSOR_OPS
from fusionopt.dialects.hal_types import HAL_TYPES
from fusionopt.dialects.opaque import opaque_attribute

# A device target carries the device type (`#hal.device.target<...> : !hal.device`) when it
# initializes a `util.global`.
HAL_ATTRIBUTES = [opaque_attribute("hal.device.target", typed=True)] + [
    opaque_attribute(f"hal.{name}")
    for name in ("executable.target", "device.affinity", "device.promise",
                               "device.alias", "device.optimal", "device.select", "device.fallback",
                               "pipeline.layout", "pipeline.binding", "descriptor_type", "memory_type",
                               "buffer_usage", "collective", "dispatch.entry")]

Hal = Dialect("hal", [*HAL_TENSOR_OPS, *HAL_BUFFER_VIEW_OPS], [*HAL_TYPES, *HAL_ATTRIBUTES])

"""IREE's `stream` dialect, as far as dispatch-creation inputs use it: a global's initial value
read from a parameter archive, `#stream.parameter.named<"scope"::"key"> : tensor<...>` (the
stream-level twin of `#flow.parameter.named`). Kept as opaque text (dialects/opaque.py): the
values live outside the module, so no pass or interpreter looks inside.

    util.global private mutable @w = #stream.parameter.named<"model"::"w"> : tensor<1x1x10xf32>
"""

from __future__ import annotations

from xdsl.ir import Dialect

from fusionopt.dialects.opaque import opaque_attribute

STREAM_ATTRIBUTES = [opaque_attribute("stream.parameter.named", typed=True)]

Stream = Dialect("stream", [], STREAM_ATTRIBUTES)

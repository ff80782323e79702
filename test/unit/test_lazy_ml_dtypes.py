"""ml_dtypes (about 0.6 s to import) loads only when a bf16 value is met, and bf16 then behaves
as before: `ml_dtypes.bfloat16` storage, a float dtype for the interpreter."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

SCRIPT = textwrap.dedent(
    """\
    import sys
    import numpy as np
    from xdsl.dialects.builtin import bf16, f32
    import fusionopt.graph_numpy as graph_numpy
    import fusionopt.interpreter
    from fusionopt.interpreter.values import element_dtype, is_bf16_dtype, is_float_dtype
    assert "ml_dtypes" not in sys.modules, "imported before any bf16"
    assert element_dtype(f32) == np.float32 and not is_bf16_dtype(np.dtype(np.float32))
    import ml_dtypes
    dtype = element_dtype(bf16)
    assert dtype == np.dtype(ml_dtypes.bfloat16) and is_bf16_dtype(dtype) and is_float_dtype(dtype)
    assert graph_numpy.numpy_dtype(bf16) == dtype
    from fusionopt.interpreter.values import BF16
    assert BF16 == dtype
    print("ok")
    """
)


def test_ml_dtypes_loads_on_first_bf16():
    pytest.importorskip("ml_dtypes")
    result = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0 and result.stdout.strip() == "ok", result.stderr

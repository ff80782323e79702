"""xDSL's linalg named ops with their operands checked before xDSL builds the hidden region.

xDSL 0.74 builds a named op's body (`get_hidden_region`) from its operands without checking
them: `linalg.fill outs(%t : ...)` (no input) dies with IndexError in `YieldOp(args[0])`, an
operand of element type `index` or `none` with an AssertionError in `body_arg_types`, and
`linalg.transpose` with a permutation entry past the rank with IndexError in its verifier;
`linalg.index` with a dim past the enclosing op's loops verifies (MLIR rejects it) and then
crashes passes that index loops by it (KeyError in `linalg-interchange-for-fusion`).
`checked_op(cls)` returns a subclass that raises a `VerifyException` with the real reason
first; the parser reports it at the op. Ops built by passes keep using xDSL's classes (the
subclasses only add checks; `isinstance(op, xdsl FillOp)` still holds for parsed ops).
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import AnyFloat, ComplexType, IndexType, IntegerType, MemRefType, TensorType, VectorType
from xdsl.dialects.linalg.ops import FillOp, IndexOp, TransposeOp, YieldOp
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.utils.exceptions import VerifyException

from fusionopt.dialects.subclass_verify import own_checks, verify_definition

# (inputs, outputs) each named op's hidden region reads; ops not listed are checked for
# element types only.
ARITY: dict[str, tuple[int, int]] = {
    "linalg.add": (2, 1), "linalg.sub": (2, 1), "linalg.mul": (2, 1), "linalg.max": (2, 1),
    "linalg.min": (2, 1), "linalg.exp": (1, 1), "linalg.log": (1, 1), "linalg.sqrt": (1, 1),
    "linalg.copy": (1, 1), "linalg.select": (3, 1), "linalg.fill": (1, 1),
    "linalg.matmul": (2, 1), "linalg.quantized_matmul": (4, 1), "linalg.pooling_nchw_max": (2, 1),
}


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def _element_type(value: SSAValue):
    return value.type.get_element_type() if isinstance(value.type, TensorType | MemRefType) else value.type


FILL_VALUE_TYPES = AnyFloat | IntegerType | IndexType | ComplexType | VectorType


def check_named_operands(name: str, inputs: Sequence[SSAValue], outputs: Sequence[SSAValue]) -> None:
    expected = ARITY.get(name)
    if name.startswith("linalg.conv_"):
        expected = (2, 1)
    if expected is not None and (len(inputs), len(outputs)) != expected:
        raise VerifyException(
            f"'{name}' op expects {_plural(expected[0], 'input')} and {_plural(expected[1], 'output')}, "
            f"but got {_plural(len(inputs), 'input')} and {_plural(len(outputs), 'output')}"
        )
    # MLIR's fill takes any scalar or vector value (a tensor or memref of vectors is filled with
    # it, `index` included: IREE fills arg_compare's index outputs); xDSL's builder only
    # numbers, so complex, index and vector values get their own body.
    allowed = FILL_VALUE_TYPES if name == "linalg.fill" else AnyFloat | IntegerType
    for index, value in enumerate((*inputs, *outputs)):
        if not isinstance(_element_type(value), allowed):
            raise VerifyException(
                f"'{name}' op operand #{index} must be an integer or floating-point scalar, or a "
                f"tensor or memref of them, but got '{value.type}'"
            )


def _checked_hidden_region(cls, inputs: Sequence[SSAValue], outputs: Sequence[SSAValue]):
    check_named_operands(cls.name, inputs, outputs)
    return super(cls, cls).get_hidden_region(inputs, outputs)  # type: ignore[misc]


def _fill_hidden_region(cls, inputs: Sequence[SSAValue], outputs: Sequence[SSAValue]) -> Region:
    """`linalg.fill`'s body, built without xDSL's number-only element-type assertion."""
    check_named_operands(cls.name, inputs, outputs)
    block = Block(arg_types=[_element_type(v) for v in (*inputs, *outputs)])
    block.add_op(YieldOp(block.args[0]))
    return Region(block)


def _fill_verify(self) -> None:
    verify_definition(self)
    check_named_operands(self.name, self.inputs, self.outputs)  # the region was built from them
    for value in self.inputs:
        if not isinstance(value.type, FILL_VALUE_TYPES):
            raise VerifyException(f"fill value must be a scalar, not {value.type}")  # or a vector of the output elements
        outputs = [_element_type(o) for o in self.outputs]
        if isinstance(value.type, IndexType) and outputs != [value.type]:  # MLIR's wording
            raise VerifyException(f"expected fill value type ('index') to match output element type "
                                  f"('{', '.join(map(str, outputs))}')")
        if isinstance(value.type, VectorType) and outputs != [value.type]:
            raise VerifyException(f"a vector fill value needs outputs of {value.type} elements, got {', '.join(map(str, outputs))}")


_TRANSPOSE_CHECKS = own_checks(TransposeOp)


def _checked_transpose_verify(self) -> None:
    verify_definition(self)
    rank = len(self.permutation.get_values())
    if sorted(self.permutation.get_values()) != list(range(rank)):
        raise VerifyException(
            f"permutation {list(self.permutation.get_values())} is not a permutation of 0..{rank - 1}"
        )
    _TRANSPOSE_CHECKS(self)


def _checked_index_verify(self) -> None:
    """MLIR's `linalg.index` verifier (xDSL has none; passes index loops by this number)."""
    IndexOp.verify_(self)
    parent = self.parent_op()
    iterators = parent.properties.get("iterator_types") if parent is not None else None
    if iterators is None:
        return
    dim, loops = self.dim.value.data, len(iterators.data)
    if not 0 <= dim < loops:
        raise VerifyException(
            f"expected dim ({dim}) to be lower than the number of loops ({loops}) of the enclosing LinalgOp"
        )


def checked_op(op: type[Operation]) -> type[Operation]:
    """`op`, or a subclass of it with the checks above (same name, syntax and printing)."""
    if op is FillOp:
        body = {"get_hidden_region": classmethod(_fill_hidden_region), "verify_": _fill_verify}
    elif hasattr(op, "get_hidden_region"):
        body = {"get_hidden_region": classmethod(_checked_hidden_region)}
    elif op is TransposeOp:
        body = {"verify_": _checked_transpose_verify}
    elif op is IndexOp:
        body = {"verify_": _checked_index_verify}
    else:
        return op
    body["__module__"] = __name__
    body["__doc__"] = op.__doc__
    return type(op.__name__, (op,), body)

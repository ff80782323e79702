"""`linalg.matmul`, `linalg.batch_matmul`, `linalg.batch_reduce_matmul` and `linalg.contract`
with MLIR's `indexing_maps = [...]` syntax.

xDSL 0.74 lacks `linalg.batch_matmul`, and its `linalg.matmul` crashes on explicit
`indexing_maps` (MLIR's way of spelling transposed operands). The decorated xDSL `MatmulOp`
cannot be subclassed, so both ops derive from xDSL's `NamedOperation` (the hidden-region
named-op base) through `ContractionOp`, which adds:

- custom syntax `linalg.matmul indexing_maps = [#a, #b, #c] ins(..) outs(..) -> T`, the maps
  printed only when they differ from the op's defaults (as MLIR does);
- the same structured-op accessors as xDSL's named ops: `get_indexing_maps()`,
  `get_iterator_types()` (derived from the maps: a loop that the output map does not use is a
  reduction), `get_num_loops()`, `get_static_loop_ranges()`;
- a hidden region identical to MLIR's (`mulf` then `addf %out, %mul`), so the generic form we
  print is the one `mlir-opt`/`iree-opt` print.
"""

from __future__ import annotations

from abc import ABC
from collections.abc import Sequence
from typing import ClassVar, cast

from xdsl.builder import Builder
from xdsl.dialects import arith
from xdsl.dialects.builtin import (
    AffineMapAttr,
    AnyFloat,
    ArrayAttr,
    IntegerType,
    ShapedType,
    TensorType,
)
from xdsl.dialects.linalg.abstract_ops import NamedOperation
from xdsl.dialects.linalg.attrs import IteratorTypeAttr
from xdsl.dialects.linalg.ops import YieldOp
from xdsl.ir import Attribute, BlockArgument, Region, SSAValue
from xdsl.ir.affine import AffineDimExpr, AffineMap
from xdsl.irdl import irdl_op_definition, prop_def
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException


def _maps_attr(maps: Sequence[AffineMap]) -> ArrayAttr[AffineMapAttr]:
    return ArrayAttr(AffineMapAttr(m) for m in maps)


MATMUL_MAPS = _maps_attr(
    (
        AffineMap.from_callable(lambda m, n, k: (m, k)),
        AffineMap.from_callable(lambda m, n, k: (k, n)),
        AffineMap.from_callable(lambda m, n, k: (m, n)),
    )
)

BATCH_MATMUL_MAPS = _maps_attr(
    (
        AffineMap.from_callable(lambda b, m, n, k: (b, m, k)),
        AffineMap.from_callable(lambda b, m, n, k: (b, k, n)),
        AffineMap.from_callable(lambda b, m, n, k: (b, m, n)),
    )
)

BATCH_REDUCE_MATMUL_MAPS = _maps_attr(
    (
        AffineMap.from_callable(lambda b, m, n, k: (b, m, k)),
        AffineMap.from_callable(lambda b, m, n, k: (b, k, n)),
        AffineMap.from_callable(lambda b, m, n, k: (m, n)),
    )
)


def _cast_to(value: SSAValue, target: Attribute) -> SSAValue:
    """Widen a scalar to the accumulator type, as MLIR's `cast_signed` type_fn does."""
    if value.type == target:
        return value
    if isinstance(target, AnyFloat):
        return arith.ExtFOp(value, target).result
    assert isinstance(target, IntegerType)
    return arith.ExtSIOp(value, target).result


def _parse_operand_list(parser: Parser, keyword: str) -> tuple[SSAValue, ...]:
    """`keyword(%a, %b : T, U)`, or () when the keyword is absent."""
    pos = parser.pos
    if not parser.parse_optional_characters(keyword):
        return ()
    parser.parse_punctuation("(")
    names = parser.parse_comma_separated_list(Parser.Delimiter.NONE, parser.parse_unresolved_operand)
    parser.parse_punctuation(":")
    types = parser.parse_comma_separated_list(Parser.Delimiter.NONE, parser.parse_type)
    parser.parse_punctuation(")")
    return tuple(parser.resolve_operands(names, types, pos))


def parse_named_op(cls: type[NamedOperation], parser: Parser) -> NamedOperation:
    """MLIR's named-op syntax: `{attrs}? ins(..) outs(..) {attrs}? (-> T)?`.

    Kept here because xDSL 0.74's `NamedOperation.parse` reads the attribute dictionary only in
    front of `ins`, while MLIR (parseNamedStructuredOp) also takes it after `outs`, where IREE's
    tests and tuner specs write `compilation_info`."""
    attrs = dict(parser.parse_optional_attr_dict())
    ins, outs = _parse_operand_list(parser, "ins"), _parse_operand_list(parser, "outs")
    attrs.update(parser.parse_optional_attr_dict())
    res_types: Sequence[Attribute] = ()
    if parser.parse_optional_punctuation("->"):
        res_types = parser.parse_optional_comma_separated_list(parser.Delimiter.PAREN, parser.parse_attribute)
        if res_types is None:
            res_types = [parser.parse_attribute()]
    prop_names = cls.get_irdl_definition().properties
    properties = {k: attrs.pop(k) for k in list(attrs) if k in prop_names}
    try:
        return cls.build(operands=(ins, outs), result_types=(res_types,), properties=properties,
                         attributes=attrs, regions=(cls.get_hidden_region(ins, outs),))
    except ValueError:
        parser.raise_error("Could not build linalg op")


class ContractionOp(NamedOperation, ABC):
    """Common base: a named contraction `out += lhs * rhs` over explicit indexing maps."""

    PRINT_ATTRS_IN_FRONT: ClassVar[bool] = True
    DEFAULT_MAPS: ClassVar[ArrayAttr[AffineMapAttr]]

    def __init__(
        self,
        inputs: Sequence[SSAValue],
        outputs: Sequence[SSAValue],
        res: Sequence[Attribute] | None = None,
        indexing_maps: ArrayAttr[AffineMapAttr] | None = None,
        attributes: dict[str, Attribute] | None = None,
    ):
        if res is None:
            res = tuple(o.type for o in outputs if isinstance(o.type, TensorType))
        super().__init__(
            ins=inputs,
            outs=outputs,
            result_types=res,
            properties={"indexing_maps": indexing_maps or self.DEFAULT_MAPS},
            attributes=attributes,
            hidden_region=self.get_hidden_region(inputs, outputs),
        )

    @property
    def lhs(self) -> SSAValue:
        return self.inputs[0]

    @property
    def rhs(self) -> SSAValue:
        return self.inputs[1]

    @property
    def init(self) -> SSAValue:
        return self.outputs[0]

    @classmethod
    def get_hidden_region(cls, inputs: Sequence[SSAValue], outputs: Sequence[SSAValue]) -> Region:
        if len(inputs) != 2 or len(outputs) != 1:  # the body below needs lhs, rhs and acc
            raise VerifyException(f"'{cls.name}' expects 2 inputs and 1 output")
        arg_types = cls.body_arg_types((*inputs, *outputs))
        acc_type = arg_types[-1]
        is_float = isinstance(acc_type, AnyFloat)
        mul, add = (arith.MulfOp, arith.AddfOp) if is_float else (arith.MuliOp, arith.AddiOp)

        @Builder.implicit_region(arg_types)
        def hidden_region(args: tuple[BlockArgument, ...]) -> None:
            product = mul(_cast_to(args[0], acc_type), _cast_to(args[1], acc_type))
            YieldOp(add(args[2], product))

        return hidden_region

    def get_default_indexing_maps(self) -> Sequence[AffineMap]:
        return tuple(m.data for m in self.indexing_maps.data)

    def get_indexing_maps(self) -> ArrayAttr[AffineMapAttr]:
        return self.indexing_maps

    def has_default_indexing_maps(self) -> bool:
        return self.indexing_maps == self.DEFAULT_MAPS

    def get_iterator_types(self) -> ArrayAttr[IteratorTypeAttr]:
        output_dims = self.indexing_maps.data[-1].data.used_dims()
        return ArrayAttr(
            IteratorTypeAttr.parallel() if d in output_dims else IteratorTypeAttr.reduction()
            for d in range(self.get_num_loops())
        )

    def reduction_dims(self) -> tuple[int, ...]:
        """Loop dimensions that are summed over (the `k` of a matmul)."""
        output_dims = self.indexing_maps.data[-1].data.used_dims()
        return tuple(d for d in range(self.get_num_loops()) if d not in output_dims)

    def verify_(self) -> None:
        if len(self.inputs) != 2 or len(self.outputs) != 1:
            raise VerifyException(f"'{self.name}' expects 2 inputs and 1 output")
        expected_loops = self.DEFAULT_MAPS.data[0].data.num_dims
        if self.get_num_loops() != expected_loops:
            raise VerifyException(
                f"'{self.name}' indexing maps must have {expected_loops} dims, "
                f"got {self.get_num_loops()}"
            )
        self.verify_extents()
        super().verify_()

    def verify_extents(self) -> None:
        """Every loop indexed by two operand dimensions sees the same static size (MLIR's
        "inferred input/output operand ... shape's dimension" rule)."""
        maps = [m.data for m in self.indexing_maps.data]
        operands = (*self.inputs, *self.outputs)
        if len(maps) != len(operands):
            raise VerifyException(
                f"'{self.name}' op expected {len(operands)} indexing maps, got {len(maps)}"
            )
        seen: dict[int, tuple[int, int, int]] = {}
        for index, (value, amap) in enumerate(zip(operands, maps)):
            shape = value.type.get_shape() if isinstance(value.type, ShapedType) else ()
            if len(shape) != len(amap.results):
                raise VerifyException(
                    f"'{self.name}' op expected operand #{index} of rank {len(amap.results)} "
                    f"(its indexing map), got {value.type}"
                )
            for dim, (size, expr) in enumerate(zip(shape, amap.results)):
                if not isinstance(expr, AffineDimExpr) or size < 0:
                    continue
                first = seen.setdefault(expr.position, (size, index, dim))
                if first[0] != size:
                    raise VerifyException(
                        f"'{self.name}' op inferred input/output operand #{index} has shape's dimension "
                        f"#{dim} to be {first[0]}, but found {size}"
                    )

    @classmethod
    def parse(cls, parser: Parser):
        maps = None
        if parser.parse_optional_keyword("indexing_maps"):
            parser.parse_punctuation("=")
            pos = parser.pos
            maps = parser.parse_attribute()
            if not isinstance(maps, ArrayAttr) or not all(
                isinstance(m, AffineMapAttr) for m in maps.data
            ):
                parser.raise_error("expected a list of affine maps", pos, parser.pos)
        op = cast(ContractionOp, parse_named_op(cls, parser))
        op.properties["indexing_maps"] = maps or cls.DEFAULT_MAPS
        return op

    def print(self, printer: Printer):
        if not self.has_default_indexing_maps():
            printer.print_string(" indexing_maps = ")
            printer.print_attribute(self.indexing_maps)
        super().print(printer)


@irdl_op_definition
class MatmulOp(ContractionOp):
    """`linalg.matmul`: C[m, n] += A[m, k] * B[k, n] (maps may transpose/broadcast operands)."""

    name = "linalg.matmul"
    DEFAULT_MAPS: ClassVar[ArrayAttr[AffineMapAttr]] = MATMUL_MAPS
    indexing_maps = prop_def(ArrayAttr[AffineMapAttr], default_value=MATMUL_MAPS)


@irdl_op_definition
class BatchMatmulOp(ContractionOp):
    """`linalg.batch_matmul`: C[b, m, n] += A[b, m, k] * B[b, k, n]."""

    name = "linalg.batch_matmul"
    DEFAULT_MAPS: ClassVar[ArrayAttr[AffineMapAttr]] = BATCH_MATMUL_MAPS
    indexing_maps = prop_def(ArrayAttr[AffineMapAttr], default_value=BATCH_MATMUL_MAPS)

    def verify_(self) -> None:
        super().verify_()
        for index, is_lhs in ((0, True), (1, False)):
            amap = self.indexing_maps.data[index].data
            if len(amap.results) < 3 and not valid_batch_broadcast(amap, is_lhs):
                raise VerifyException(f"'{self.name}' op Invalid broadcast requested.")


def valid_batch_broadcast(amap, is_lhs: bool) -> bool:
    """MLIR's `BatchMatmulOp::isValidLhsRhsBroadcastMap` (loops b, m, n, k = d0..d3): a 1-D
    operand is indexed by k; a 2-D LHS by (b or m, k), a 2-D RHS by (b, k) or (k, n). A
    transposed broadcast operand (RHS (n, k)) is rejected by MLIR's verifier, so by ours."""
    dims = [e.position if isinstance(e, AffineDimExpr) else None for e in amap.results]
    if len(dims) == 1:
        return dims == [3]
    if is_lhs:
        return dims[0] in (0, 1) and dims[1] == 3
    return dims in ([0, 3], [3, 2])


@irdl_op_definition
class BatchReduceMatmulOp(ContractionOp):
    """`linalg.batch_reduce_matmul`: C[m, n] += sum over b, k of A[b, m, k] * B[b, k, n]."""

    name = "linalg.batch_reduce_matmul"
    DEFAULT_MAPS: ClassVar[ArrayAttr[AffineMapAttr]] = BATCH_REDUCE_MATMUL_MAPS
    indexing_maps = prop_def(ArrayAttr[AffineMapAttr], default_value=BATCH_REDUCE_MATMUL_MAPS)


@irdl_op_definition
class ContractOp(ContractionOp):
    """`linalg.contract`: C[out map] += A[lhs map] * B[rhs map] over any number of loops; the
    three maps are required (MLIR prints them always); every loop must index some operand (a
    loop no operand uses has no extent)."""

    name = "linalg.contract"
    DEFAULT_MAPS: ClassVar[ArrayAttr[AffineMapAttr]] = ArrayAttr(())
    indexing_maps = prop_def(ArrayAttr[AffineMapAttr])

    @classmethod
    def parse(cls, parser: Parser):
        if not parser.parse_optional_keyword("indexing_maps"):
            parser.raise_error("'linalg.contract' expects 'indexing_maps = [...]'")
        parser.parse_punctuation("=")
        pos = parser.pos
        maps = parser.parse_attribute()
        if not isinstance(maps, ArrayAttr) or not all(isinstance(m, AffineMapAttr) for m in maps.data):
            parser.raise_error("expected a list of affine maps", pos, parser.pos)
        op = cast(ContractOp, super(ContractionOp, cls).parse(parser))
        op.properties["indexing_maps"] = maps
        return op

    def verify_(self) -> None:
        if len(self.inputs) != 2 or len(self.outputs) != 1:
            raise VerifyException(f"'{self.name}' expects 2 inputs and 1 output")
        maps = [m.data for m in self.indexing_maps.data]
        if len(maps) != 3 or len({m.num_dims for m in maps}) != 1:
            raise VerifyException(f"'{self.name}' op expects 3 indexing maps over the same loops")
        used = maps[0].used_dims() | maps[1].used_dims() | maps[2].used_dims()
        for d in range(maps[0].num_dims):
            if d not in used:
                raise VerifyException(f"'{self.name}' op iteration dimension d{d} is not used by any operand")
        self.verify_extents()
        NamedOperation.verify_(self)


def _named(class_name: str, op_name: str, maps: ArrayAttr[AffineMapAttr], doc: str) -> type[ContractionOp]:
    cls = type(class_name, (ContractionOp,), {
        "name": op_name,
        "DEFAULT_MAPS": maps,
        "indexing_maps": prop_def(ArrayAttr[AffineMapAttr], default_value=maps),
        "__doc__": doc,
        "__module__": __name__,
        "__annotations__": {"DEFAULT_MAPS": "ClassVar[ArrayAttr[AffineMapAttr]]"},
    })
    return irdl_op_definition(cls)


# Matrix-vector and dot products: the same `out += lhs * rhs` body over their default maps.
MatvecOp = _named("MatvecOp", "linalg.matvec", _maps_attr((
    AffineMap.from_callable(lambda m, k: (m, k)), AffineMap.from_callable(lambda m, k: (k,)),
    AffineMap.from_callable(lambda m, k: (m,)))), "`linalg.matvec`: y[m] += A[m, k] * x[k].")
VecmatOp = _named("VecmatOp", "linalg.vecmat", _maps_attr((
    AffineMap.from_callable(lambda n, k: (k,)), AffineMap.from_callable(lambda n, k: (k, n)),
    AffineMap.from_callable(lambda n, k: (n,)))), "`linalg.vecmat`: y[n] += x[k] * A[k, n].")
DotOp = _named("DotOp", "linalg.dot", _maps_attr((
    AffineMap.from_callable(lambda k: (k,)), AffineMap.from_callable(lambda k: (k,)),
    AffineMap(1, 0, ()))), "`linalg.dot`: s += x[k] * y[k].")
BatchMatvecOp = _named("BatchMatvecOp", "linalg.batch_matvec", _maps_attr((
    AffineMap.from_callable(lambda b, m, k: (b, m, k)), AffineMap.from_callable(lambda b, m, k: (b, k)),
    AffineMap.from_callable(lambda b, m, k: (b, m)))), "`linalg.batch_matvec`: y[b, m] += A[b, m, k] * x[b, k].")

BatchVecmatOp = _named("BatchVecmatOp", "linalg.batch_vecmat", _maps_attr((
    AffineMap.from_callable(lambda b, n, k: (b, k)), AffineMap.from_callable(lambda b, n, k: (b, k, n)),
    AffineMap.from_callable(lambda b, n, k: (b, n)))), "`linalg.batch_vecmat`: y[b, n] += x[b, k] * A[b, k, n].")

VECTOR_CONTRACTION_OPS = (MatvecOp, VecmatOp, DotOp, BatchMatvecOp, BatchVecmatOp)

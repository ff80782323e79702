"""The pass runner verifies after a pass only if the pass changed the module (as MLIR skips
the verifier after a pass that preserved all analyses); `IRSnapshot` tells the change."""

from __future__ import annotations

import dataclasses

import pytest
from xdsl.context import Context
from xdsl.dialects import arith
from xdsl.dialects.builtin import FloatAttr, FunctionType, ModuleOp, StringAttr, f32, i32
from xdsl.passes import ModulePass
from xdsl.rewriter import Rewriter

import fusionopt.pass_runner as pass_runner
from fusionopt.diagnostics import FusionError
from fusionopt.ir_io import parse_module, verify_module
from fusionopt.ir_snapshot import take_snapshot
from fusionopt.pass_runner import RunOptions, run_passes
from support.ir_test_passes import BreakIRPass, NoOpPass

TEXT = """\
func.func @f(%a: f32) -> f32 {
  %c = arith.constant 1.0 : f32
  %s = arith.addf %a, %c : f32
  %t = arith.mulf %s, %c : f32
  func.return %t : f32
}
"""


def ops_named(module: ModuleOp, name: str) -> list:
    return [op for op in module.walk() if op.name == name]


@pytest.fixture
def verify_calls(monkeypatch) -> list[str]:
    calls: list[str] = []
    verify = pass_runner._verify_after
    def counting(name, *rest):
        calls.append(name)
        verify(name, *rest)

    monkeypatch.setattr(pass_runner, "_verify_after", counting)
    return calls


def test_unchanged_module_is_verified_once(verify_calls):
    run_passes([NoOpPass(), NoOpPass(), NoOpPass()], Context(), parse_module(TEXT), RunOptions())
    assert verify_calls == ["test-no-op"]


def test_a_pass_that_breaks_the_ir_after_unchanged_ones_is_caught(verify_calls):
    with pytest.raises(FusionError) as err:
        run_passes([NoOpPass(), NoOpPass(), BreakIRPass()], Context(), parse_module(TEXT), RunOptions())
    assert "the IR does not verify after pass 'test-break-ir'" in err.value.format()
    assert verify_calls == ["test-no-op", "test-break-ir"]


def change_property(module: ModuleOp) -> None:
    ops_named(module, "arith.constant")[0].properties["value"] = FloatAttr(2.0, f32)


def change_attribute(module: ModuleOp) -> None:
    ops_named(module, "arith.addf")[0].attributes["tag"] = StringAttr("x")


def change_operand(module: ModuleOp) -> None:
    mul = ops_named(module, "arith.mulf")[0]
    mul.operands = [mul.operands[1], mul.operands[0]]


def move_op(module: ModuleOp) -> None:
    add, mul = ops_named(module, "arith.addf")[0], ops_named(module, "arith.mulf")[0]
    constant = ops_named(module, "arith.constant")[0]
    constant.detach()
    mul.parent_block().insert_op_after(constant, add)


def replace_op(module: ModuleOp) -> None:
    constant = ops_named(module, "arith.constant")[0]
    Rewriter.replace_op(constant, arith.ConstantOp(FloatAttr(1.0, f32)))


def erase_op(module: ModuleOp) -> None:
    add, mul = ops_named(module, "arith.addf")[0], ops_named(module, "arith.mulf")[0]
    Rewriter.replace_op(mul, [], [add.results[0]])


def add_block_argument(module: ModuleOp) -> None:
    ops_named(module, "func.func")[0].body.block.insert_arg(f32, 1)


CHANGES = [
    change_property, change_attribute, change_operand, move_op, replace_op, erase_op, add_block_argument
]


@pytest.mark.parametrize("change", CHANGES)
def test_snapshot_sees_each_kind_of_change(change):
    module = parse_module(TEXT)
    before = take_snapshot(module)
    assert take_snapshot(module).same_as(before)
    change(module)
    assert not take_snapshot(module).same_as(before)


# After a change, the runner verifies only `ops_to_verify`: a pass that breaks the IR through
# an op it did not touch must still fail, with full verification's message and location.


def erase_terminator(module: ModuleOp) -> None:
    ops_named(module, "func.return")[0].detach()


def empty_body(module: ModuleOp) -> None:
    for op in list(ops_named(module, "func.func")[0].body.block.ops)[::-1]:
        op.detach()


def op_after_terminator(module: ModuleOp) -> None:
    ret = ops_named(module, "func.return")[0]
    ret.parent_block().insert_op_after(arith.ConstantOp(FloatAttr(3.0, f32)), ret)


def use_before_definition(module: ModuleOp) -> None:
    add, mul = ops_named(module, "arith.addf")[0], ops_named(module, "arith.mulf")[0]
    mul.detach()
    add.parent_block().insert_op_before(mul, add)


def change_function_type(module: ModuleOp) -> None:
    func = ops_named(module, "func.func")[0]
    func.function_type = FunctionType.from_lists([f32], [i32])  # its return is now wrong


def break_new_op(module: ModuleOp) -> None:
    BreakIRPass().apply(Context(), module)


BREAKS = [erase_terminator, empty_body, op_after_terminator, use_before_definition, change_function_type, break_new_op]


@dataclasses.dataclass(frozen=True)
class MutatePass(ModulePass):
    name = "test-mutate"
    change: object = None

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        self.change(op)


@pytest.mark.parametrize("change", BREAKS)
def test_verifying_the_changed_ops_fails_as_verifying_everything(change):
    expected = parse_module(TEXT)
    change(expected)
    with pytest.raises(FusionError) as full:
        verify_module(expected)
    with pytest.raises(FusionError) as err:
        run_passes([NoOpPass(), MutatePass(change)], Context(), parse_module(TEXT), RunOptions())
    assert err.value.message == full.value.message and err.value.location == full.value.location


def test_a_local_change_verifies_its_op_neighbours_and_ancestors_only():
    """The addf, its operand's definer (the constant), its user (the mulf), func and module:
    not the return."""
    module = parse_module(TEXT)
    before = take_snapshot(module)
    change_attribute(module)
    ops = take_snapshot(module).ops_to_verify(before)
    assert sorted(op.name for op in ops) == [
        "arith.addf", "arith.constant", "arith.mulf", "builtin.module", "func.func"
    ]


@pytest.mark.parametrize("change", [change_function_type, add_block_argument])
def test_a_changed_symbol_verifies_everything(change):
    module = parse_module(TEXT)
    before = take_snapshot(module)
    change(module)
    assert take_snapshot(module).ops_to_verify(before) is None


# Deferred verification (`fusion-opt`'s default): the result is verified once; a failure is
# replayed from a fresh input with verification after every pass, which names the pass.


@dataclasses.dataclass(frozen=True)
class EraseInvalidPass(ModulePass):
    """Erases the ops BreakIRPass adds: the addi with an f32 result, then its unused constant."""

    name = "test-erase-invalid"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for bad in ops_named(op, "arith.addi"):
            Rewriter.erase_op(bad)
        for const in ops_named(op, "arith.constant"):
            if not const.results[0].uses:
                Rewriter.erase_op(const)


@dataclasses.dataclass(frozen=True)
class CrashOnInvalidPass(ModulePass):
    """Crashes (a bug of its own) on the f32 addi BreakIRPass leaves."""

    name = "test-crash-on-invalid"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        if ops_named(op, "arith.addi"):
            raise ValueError("unexpected addi")


def deferred(passes: list[ModulePass], reloads: list[int]) -> None:
    def reload() -> ModuleOp:
        reloads.append(1)
        return parse_module(TEXT)

    run_passes(passes, Context(), parse_module(TEXT), RunOptions(defer_verification=True), reload)


def test_deferred_verification_verifies_the_result_once_and_never_replays_a_valid_run(verify_calls):
    reloads: list[int] = []
    deferred([NoOpPass(), MutatePass(change_attribute), NoOpPass()], reloads)
    assert verify_calls == ["test-no-op"] and reloads == []


def test_deferred_verification_replays_to_name_the_pass_that_broke_the_ir():
    reloads: list[int] = []
    with pytest.raises(FusionError) as err:
        deferred([NoOpPass(), BreakIRPass(), NoOpPass(), NoOpPass()], reloads)
    assert "the IR does not verify after pass 'test-break-ir'" in err.value.format()
    assert reloads == [1]


VALID_ADDI = "func.func @g(%a: i32) -> i32 {\n  %s = arith.addi %a, %a : i32\n  func.return %s : i32\n}\n"


def test_a_crash_on_invalid_ir_is_blamed_on_the_pass_that_made_it():
    with pytest.raises(FusionError) as err:
        deferred([BreakIRPass(), CrashOnInvalidPass()], [])
    assert "the IR does not verify after pass 'test-break-ir'" in err.value.format()
    with pytest.raises(pass_runner.InternalError, match="test-crash-on-invalid"):  # valid IR: its own bug
        run_passes([NoOpPass(), CrashOnInvalidPass()], Context(), parse_module(VALID_ADDI),
                   RunOptions(defer_verification=True), lambda: parse_module(VALID_ADDI))


def test_invalid_ir_a_later_pass_removes_is_seen_only_verifying_each_pass():
    module = parse_module(TEXT)
    run_passes([BreakIRPass(), EraseInvalidPass()], Context(), module, RunOptions(defer_verification=True),
               lambda: parse_module(TEXT))
    verify_module(module)
    with pytest.raises(FusionError, match="test-break-ir"):
        run_passes([BreakIRPass(), EraseInvalidPass()], Context(), parse_module(TEXT), RunOptions())

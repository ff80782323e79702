"""The `graph` dialect: every op evaluates through `fusionopt.graph_numpy.evaluate_graph_op`,
the same function constant folding uses, so folded and executed programs agree bit for bit."""

from __future__ import annotations

from typing import Any

from xdsl.ir import Operation

from fusionopt.interpreter.common import functions_from_table


def _evaluate(op: Operation, args: tuple[Any, ...]) -> tuple[Any, ...]:
    from fusionopt.graph_numpy import evaluate_graph_op

    return (evaluate_graph_op(op, list(args)),)


def _graph_op_classes() -> list[type[Operation]]:
    from fusionopt.dialects.graph import Graph

    return list(Graph.operations)


GraphFunctions = functions_from_table("GraphFunctions", {cls: _evaluate for cls in _graph_op_classes()})

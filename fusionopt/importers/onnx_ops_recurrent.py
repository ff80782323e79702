"""ONNX LSTM and GRU, their time steps unrolled at import.

The graph dialect has no loops, and every shape here is static, so each step becomes its own
ops: IREE's ONNX importer lowers these ops to an `scf.for` that issues the same dispatches once
a step, which the unrolled form matches while leaving every step visible to the passes. As
onnxruntime does, the input projection of all steps is one contraction before the recurrence
(`X [T*B, I] . W^T + Wb (+ Rb)`), and only `H_{t-1} . R^T` stays in a step.

ONNX's equations (gate order i, o, f, c for LSTM; z, r, h for GRU), `f`, `g`, `h` the
activations (default Sigmoid, Tanh, Tanh):

    LSTM  i = f(Xi + H Ri + Pi * C + Wbi + Rbi)      GRU  z = f(Xz + H Rz + Wbz + Rbz)
          f = f(Xf + H Rf + Pf * C + Wbf + Rbf)           r = f(Xr + H Rr + Wbr + Rbr)
          c = g(Xc + H Rc + Wbc + Rbc)                    h = g(Xh + (r * H) Rh + Rbh + Wbh)
          C' = f * C + i * c                                  (linear_before_reset = 0)
          o = f(Xo + H Ro + Po * C' + Wbo + Rbo)          h = g(Xh + r * (H Rh + Rbh) + Wbh)
          H' = o * h(C')                                      (linear_before_reset = 1, torch's)
                                                          H' = (1 - z) * h + z * H

Supported: directions forward, reverse and bidirectional, both layouts, optional biases,
initial states and peepholes, activations Sigmoid, Tanh and Relu. Refused plainly:
`sequence_lens` other than the full length for every batch row (a padded batch), other
activations, `clip` (runtimes differ on which inputs it bounds), LSTM's `input_forget`.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from xdsl.ir import Attribute

from fusionopt.dialects import graph
from fusionopt.importers.onnx_builders import binary, broadcast_to, reshape, slice_value, transpose
from fusionopt.importers.onnx_context import ImportContext, Value, element, numpy_dtype_of, shape

ACTIVATIONS = {"Sigmoid": graph.SigmoidOp, "Tanh": graph.TanhOp, "Relu": graph.ReluOp}
DEFAULT_ACTIVATIONS = ("Sigmoid", "Tanh", "Tanh")


@dataclass
class Recurrence:
    """What a step needs: sizes, the element type and activations of one direction."""
    ctx: ImportContext
    hidden: int
    batch: int
    elem: Attribute
    activations: tuple[str, ...]

    def activate(self, which: int, value: Value) -> Value:
        return self.ctx.emit(ACTIVATIONS[self.activations[which]](self.ctx.ssa(value, self.elem)))

    def gate(self, gates: Value, index: int) -> Value:
        """Gate `index`'s [B, H] columns of a [B, G*H] value."""
        return slice_value(self.ctx, gates, [1], [index * self.hidden], [(index + 1) * self.hidden])

    def add(self, a: Value, b: Value) -> Value:
        if isinstance(a, np.ndarray) and isinstance(b, np.ndarray):
            return a + b
        return binary(self.ctx, graph.AddOp, a, b)

    def mul(self, a: Value, b: Value) -> Value:
        return binary(self.ctx, graph.MulOp, a, b)

    def dot(self, h: Value, weight_t: Value) -> Value:
        return self.ctx.emit(graph.DotOp(self.ctx.ssa(h, self.elem), self.ctx.ssa(weight_t, self.elem)))


def _attributes(ctx: ImportContext, activations: int) -> tuple[int, list[str], tuple[str, ...]]:
    direction = ctx.attr("direction", b"forward")
    direction = direction.decode() if isinstance(direction, bytes) else direction
    directions = {"forward": ["forward"], "reverse": ["reverse"],
                  "bidirectional": ["forward", "reverse"]}.get(direction)
    if directions is None:
        raise ctx.error(f"unknown direction '{direction}'")
    defaults = DEFAULT_ACTIVATIONS[:activations]
    names = tuple(a.decode() if isinstance(a, bytes) else a
                  for a in ctx.attr("activations", list(defaults) * len(directions)))
    unknown = sorted(set(names) - set(ACTIVATIONS))
    if unknown or len(names) != activations * len(directions):
        raise ctx.error(f"activations {list(names)} are not supported (have: {', '.join(ACTIVATIONS)})")
    if ctx.attr("activation_alpha") or ctx.attr("activation_beta") or ctx.attr("clip") is not None:
        raise ctx.error("activation_alpha, activation_beta and clip are not supported")
    return int(ctx.attr("hidden_size")), directions, names


def _check_full_lengths(ctx: ImportContext, lengths: Value | None, steps: int) -> None:
    if lengths is None:
        return
    if not isinstance(lengths, np.ndarray) or not np.all(lengths == steps):
        raise ctx.error("sequence_lens shorter than the sequence (a padded batch) is not supported")


def _time_major(ctx: ImportContext, x: Value) -> Value:
    """X as [T, B, I] (layout 1 gives [B, T, I])."""
    return transpose(ctx, x, [1, 0, 2]) if ctx.attr("layout", 0) else x


def _input_projection(rec: Recurrence, x: Value, w: Value, bias: Value | None) -> Value:
    """`X . W^T + bias` for every step at once, as [T, B, G*H]."""
    steps, batch, features = shape(x)
    rows = reshape(rec.ctx, x, [steps * batch, features])
    projected = rec.dot(rows, transpose(rec.ctx, w, [1, 0]))
    if bias is not None:
        projected = rec.add(projected, bias)
    return reshape(rec.ctx, projected, [steps, batch, shape(w)[0]])


def _step_input(rec: Recurrence, projected: Value, t: int) -> Value:
    step = slice_value(rec.ctx, projected, [0], [t], [t + 1])
    return reshape(rec.ctx, step, [rec.batch, shape(projected)[2]])


def _initial(rec: Recurrence, state: Value | None, direction: int) -> Value:
    """Direction `direction`'s initial state as [B, H] (layout 1 gives [B, D, H])."""
    if state is None:
        return rec.ctx.splat(0.0, (rec.batch, rec.hidden), rec.elem)
    if rec.ctx.attr("layout", 0):
        state = transpose(rec.ctx, state, [1, 0, 2])
    state = slice_value(rec.ctx, state, [0], [direction], [direction + 1])
    return reshape(rec.ctx, state, [rec.batch, rec.hidden])


def _direction_weights(ctx: ImportContext, ins: list[Value | None], d: int) -> tuple[Value, Value, Value | None]:
    w, r, b = ins[1], ins[2], ins[3] if len(ins) > 3 else None
    pick = [0], [d], [d + 1]
    w_d = reshape(ctx, slice_value(ctx, w, *pick), shape(w)[1:])
    r_d = reshape(ctx, slice_value(ctx, r, *pick), shape(r)[1:])
    b_d = None if b is None else reshape(ctx, slice_value(ctx, b, *pick), shape(b)[1:])
    return w_d, r_d, b_d


def _stacked(ctx: ImportContext, per_direction: list[list[Value]], rec: Recurrence) -> Value:
    """Y as [T, D, B, H] (layout 1: [B, T, D, H]) from each direction's states in time order."""
    steps = len(per_direction[0])
    rows = [reshape(ctx, h, [1, 1, rec.batch, rec.hidden]) for states in per_direction for h in states]
    by_direction = [ctx.emit(graph.ConcatOp([ctx.ssa(v) for v in rows[i * steps:(i + 1) * steps]], 0))
                    if steps > 1 else ctx.ssa(rows[i * steps]) for i in range(len(per_direction))]
    y = by_direction[0] if len(by_direction) == 1 else ctx.emit(graph.ConcatOp(by_direction, 1))
    return transpose(ctx, y, [2, 0, 1, 3]) if ctx.attr("layout", 0) else y


def _final(ctx: ImportContext, states: list[Value], rec: Recurrence) -> Value:
    """Y_h / Y_c as [D, B, H] (layout 1: [B, D, H])."""
    rows = [ctx.ssa(reshape(ctx, s, [1, rec.batch, rec.hidden])) for s in states]
    y = rows[0] if len(rows) == 1 else ctx.emit(graph.ConcatOp(rows, 0))
    return transpose(ctx, y, [1, 0, 2]) if ctx.attr("layout", 0) else y


def _check_shapes(ctx: ImportContext, ins: list[Value | None], gates: int, directions: int, hidden: int,
                  steps: int, batch: int) -> None:
    """ONNX's shapes for W, R, B, the initial states and P (an export that disagrees, such as
    torch's LSTM with `proj_size`, is refused rather than misread)."""
    d, features = directions, shape(ins[0])[2]
    states = (batch, d, hidden) if ctx.attr("layout", 0) else (d, batch, hidden)
    expected = {1: (d, gates * hidden, features), 2: (d, gates * hidden, hidden), 3: (d, 2 * gates * hidden),
                5: states, 6: states, 7: (d, 3 * hidden)}
    names = {1: "W", 2: "R", 3: "B", 5: "initial_h", 6: "initial_c", 7: "P"}
    for index, want in expected.items():
        if index < len(ins) and ins[index] is not None and shape(ins[index]) != want:
            raise ctx.error(f"{names[index]} has shape {list(shape(ins[index]))}, expected {list(want)} "
                            f"(hidden_size {hidden}, {steps} steps)")


def _recurrence(ctx: ImportContext, ins: list[Value | None], activations: int, gates: int):
    """X time-major, its step count, one `Recurrence` per direction and each one's step order."""
    hidden, directions, names = _attributes(ctx, activations)
    x = _time_major(ctx, ins[0])
    steps, batch, _ = shape(x)
    _check_full_lengths(ctx, ins[4] if len(ins) > 4 else None, steps)
    _check_shapes(ctx, ins, gates, len(directions), hidden, steps, batch)
    elem = element(ins[0])
    recs = [Recurrence(ctx, hidden, batch, elem, names[i * activations:(i + 1) * activations])
            for i in range(len(directions))]
    order = {"forward": list(range(steps)), "reverse": list(range(steps - 1, -1, -1))}
    return x, steps, recs, [order[d] for d in directions]


def _lstm_step(rec: Recurrence, x_t: Value, h: Value, c: Value, r_t: Value,
               peep: list[Value] | None) -> tuple[Value, Value]:
    gates = rec.add(x_t, rec.dot(h, r_t))
    i_in, o_in, f_in, c_in = (rec.gate(gates, k) for k in range(4))
    if peep is not None:
        i_in, f_in = rec.add(i_in, rec.mul(peep[0], c)), rec.add(f_in, rec.mul(peep[2], c))
    i, f = rec.activate(0, i_in), rec.activate(0, f_in)
    c_new = rec.add(rec.mul(f, c), rec.mul(i, rec.activate(1, c_in)))
    if peep is not None:
        o_in = rec.add(o_in, rec.mul(peep[1], c_new))
    return rec.mul(rec.activate(0, o_in), rec.activate(2, c_new)), c_new


def _peepholes(ctx: ImportContext, p: Value | None, d: int, rec: Recurrence) -> list[Value] | None:
    if p is None:
        return None
    row = reshape(ctx, slice_value(ctx, p, [0], [d], [d + 1]), [3 * rec.hidden])
    return [broadcast_to(ctx, slice_value(ctx, row, [0], [k * rec.hidden], [(k + 1) * rec.hidden]),
                         (rec.batch, rec.hidden), rec.elem) for k in range(3)]


def lstm(ctx: ImportContext, ins: list[Value | None]) -> list[Value]:
    if ctx.attr("input_forget", 0):
        raise ctx.error("LSTM input_forget = 1 is not supported")
    x, steps, recs, orders = _recurrence(ctx, ins, activations=3, gates=4)
    ins = ins + [None] * (8 - len(ins))
    ys, hs, cs = [], [], []
    for d, (rec, order) in enumerate(zip(recs, orders)):
        w, r, b = _direction_weights(ctx, ins, d)
        bias = None if b is None else rec.add(slice_value(ctx, b, [0], [0], [4 * rec.hidden]),
                                               slice_value(ctx, b, [0], [4 * rec.hidden], [8 * rec.hidden]))
        projected = _input_projection(rec, x, w, bias)
        r_t, peep = transpose(ctx, r, [1, 0]), _peepholes(ctx, ins[7], d, rec)
        h, c, states = _initial(rec, ins[5], d), _initial(rec, ins[6], d), {}
        for t in order:
            h, c = _lstm_step(rec, _step_input(rec, projected, t), h, c, r_t, peep)
            states[t] = h
        ys.append([states[t] for t in range(steps)])
        hs.append(h)
        cs.append(c)
    return [_stacked(ctx, ys, recs[0]), _final(ctx, hs, recs[0]), _final(ctx, cs, recs[0])]


def _gru_step(rec: Recurrence, x_t: Value, h: Value, r_t: Value, rbh: Value | None,
              linear_before_reset: bool) -> Value:
    hidden = rec.hidden
    if linear_before_reset:
        hr = rec.dot(h, r_t)
        zr = rec.add(slice_value(rec.ctx, x_t, [1], [0], [2 * hidden]), slice_value(rec.ctx, hr, [1], [0], [2 * hidden]))
        recurrent_h = rec.gate(hr, 2) if rbh is None else rec.add(rec.gate(hr, 2), rbh)
    else:
        zr = rec.add(slice_value(rec.ctx, x_t, [1], [0], [2 * hidden]),
                     rec.dot(h, slice_value(rec.ctx, r_t, [1], [0], [2 * hidden])))
    z, r = rec.activate(0, rec.gate(zr, 0)), rec.activate(0, rec.gate(zr, 1))
    if linear_before_reset:
        candidate_in = rec.add(rec.gate(x_t, 2), rec.mul(r, recurrent_h))
    else:
        candidate_in = rec.add(rec.gate(x_t, 2), rec.dot(rec.mul(r, h), rec.gate(r_t, 2)))
    candidate = rec.activate(1, candidate_in)
    one = np.array(1.0, dtype=numpy_dtype_of(rec.elem))
    keep_new = binary(rec.ctx, graph.SubOp, one, z)
    return rec.add(rec.mul(keep_new, candidate), rec.mul(z, h))


def _gru_biases(rec: Recurrence, b: Value | None, linear_before_reset: bool) -> tuple[Value | None, Value | None]:
    """The bias added to the input projection, and Rbh where it stays inside the reset."""
    if b is None:
        return None, None
    hidden, ctx = rec.hidden, rec.ctx
    wb, rb = slice_value(ctx, b, [0], [0], [3 * hidden]), slice_value(ctx, b, [0], [3 * hidden], [6 * hidden])
    if not linear_before_reset:
        return rec.add(wb, rb), None
    rb_zr = slice_value(ctx, rb, [0], [0], [2 * hidden])
    zero_h = np.zeros(hidden, dtype=numpy_dtype_of(rec.elem))
    rb_zr0 = ctx.emit(graph.ConcatOp([ctx.ssa(rb_zr, rec.elem), ctx.ssa(zero_h, rec.elem)], 0)) \
        if not isinstance(rb_zr, np.ndarray) else np.concatenate([rb_zr, zero_h])
    rbh = slice_value(ctx, rb, [0], [2 * hidden], [3 * hidden])
    return rec.add(wb, rb_zr0), broadcast_to(ctx, rbh, (rec.batch, hidden), rec.elem)


def gru(ctx: ImportContext, ins: list[Value | None]) -> list[Value]:
    x, steps, recs, orders = _recurrence(ctx, ins, activations=2, gates=3)
    ins = ins + [None] * (6 - len(ins))
    linear_before_reset = bool(ctx.attr("linear_before_reset", 0))
    ys, hs = [], []
    for d, (rec, order) in enumerate(zip(recs, orders)):
        w, r, b = _direction_weights(ctx, ins, d)
        bias, rbh = _gru_biases(rec, b, linear_before_reset)
        projected = _input_projection(rec, x, w, bias)
        r_t, h, states = transpose(ctx, r, [1, 0]), _initial(rec, ins[5], d), {}
        for t in order:
            h = _gru_step(rec, _step_input(rec, projected, t), h, r_t, rbh, linear_before_reset)
            states[t] = h
        ys.append([states[t] for t in range(steps)])
        hs.append(h)
    return [_stacked(ctx, ys, recs[0]), _final(ctx, hs, recs[0])]


HANDLERS = {"LSTM": lstm, "GRU": gru}

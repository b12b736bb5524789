"""An unrolled LSTM, as TVM 0.19's ``relay.testing.lstm``.

``lstm_cell`` is a Relay function of ``(inputs, states, i2h_weight, i2h_bias, h2h_weight,
h2h_bias)`` returning ``(next_h, (next_h, next_c))``: gates = dense_add_bias(inputs) +
dense_add_bias(states[0]) split in 4 (in, forget, transform, out). ``get_net`` lets
``iterations`` copies of the cell be called in sequence from zero states; each iteration
has its own input variable, all named ``data`` as in TVM, and its own
``i2h_I_weight/_bias``, ``h2h_I_weight/_bias``; the result is the last ``next_h``.

    >>> mod, params = get_workload(2, 4)
    >>> list(params)
    ['i2h_0_weight', 'i2h_0_bias', 'h2h_0_weight', 'h2h_0_bias', 'i2h_1_weight', 'i2h_1_bias', 'h2h_1_weight', 'h2h_1_bias']
"""
import relay_mlir as relay

from . import layers
from .init import create_workload

__all__ = ["lstm_cell", "get_net", "get_workload"]


def _types(num_hidden, batch_size, dtype):
    tensor = relay.TensorType((batch_size, num_hidden), dtype)
    return dict(input=tensor, weight=relay.TensorType((4 * num_hidden, num_hidden), dtype),
                bias=relay.TensorType((4 * num_hidden,), dtype),
                dense=relay.TensorType((batch_size, 4 * num_hidden), dtype),
                state=relay.TupleType([tensor, tensor]))


def lstm_cell(num_hidden, batch_size=1, dtype="float32", name=""):
    """The LSTM cell as a relay Function (let-bound steps, typed as TVM types them)."""
    t = _types(num_hidden, batch_size, dtype)
    ret_type = relay.TupleType([t["input"], t["state"]])
    builder = relay.ScopeBuilder()
    inputs, states = relay.Var("inputs", t["input"]), relay.Var("states", t["state"])
    weights = [relay.Var(n, t[kind]) for n, kind in
               (("i2h_weight", "weight"), ("i2h_bias", "bias"), ("h2h_weight", "weight"), ("h2h_bias", "bias"))]
    i2h = builder.let(("i2h", t["dense"]), layers.dense_add_bias(
        data=inputs, units=num_hidden * 4, weight=weights[0], bias=weights[1], name=f"{name}i2h"))
    h2h = builder.let(("h2h", t["dense"]), layers.dense_add_bias(
        data=relay.TupleGetItem(states, 0), units=num_hidden * 4, weight=weights[2], bias=weights[3],
        name=f"{name}h2h"))
    gates = builder.let(("gates", t["dense"]), relay.add(i2h, h2h))
    slices = builder.let(("slice_gates", relay.TupleType([t["input"]] * 4)),
                         relay.split(gates, indices_or_sections=4, axis=1).astuple())
    gate = {}
    for k, (gname, act) in enumerate((("in_gate", relay.sigmoid), ("forget_gate", relay.sigmoid),
                                      ("in_transform", relay.tanh), ("out_gate", relay.sigmoid))):
        gate[gname] = builder.let((gname, t["input"]), act(relay.TupleGetItem(slices, k)))
    next_c = builder.let(("next_c", t["input"]), relay.add(
        relay.multiply(gate["forget_gate"], relay.TupleGetItem(states, 1)),
        relay.multiply(gate["in_gate"], gate["in_transform"])))
    next_h = builder.let(("next_h", t["input"]), relay.multiply(gate["out_gate"], relay.tanh(next_c)))
    ret = builder.let(("ret", ret_type), relay.Tuple([next_h, relay.Tuple([next_h, next_c])]))
    builder.ret(ret)
    return relay.Function([inputs, states] + weights, builder.get(), ret_type)


def get_net(iterations, num_hidden, batch_size=1, dtype="float32"):
    """``iterations`` cells unrolled as a relay Function returning the last hidden state."""
    t = _types(num_hidden, batch_size, dtype)
    cell_type = relay.TupleType([t["input"], t["state"]])
    builder = relay.ScopeBuilder()
    zeros = builder.let(("zeros", t["input"]), relay.zeros((batch_size, num_hidden), dtype))
    states = builder.let(("init_states", t["state"]), relay.Tuple([zeros, zeros]))
    out = None
    for i in range(iterations):
        args = [relay.Var("data", t["input"]), states] + [
            relay.Var(f"{kind}_{i}_{part}", t[part]) for kind in ("i2h", "h2h") for part in ("weight", "bias")]
        call = builder.let((f"call_{i}", cell_type),
                           relay.Call(lstm_cell(num_hidden, batch_size, dtype, f"lstm_{i}"), args))
        out = builder.let((f"out_{i}", t["input"]), relay.TupleGetItem(call, 0))
        states = builder.let((f"states_{i}", t["state"]), relay.TupleGetItem(call, 1))
    builder.ret(out)
    body = builder.get()
    return relay.Function(relay.analysis.free_vars(body), body, t["input"])


def get_workload(iterations, num_hidden, batch_size=1, dtype="float32"):
    """``(mod, params)`` of the unrolled LSTM (Xavier weights, seed 0)."""
    return create_workload(get_net(iterations, num_hidden, batch_size, dtype))

#!/usr/bin/env python3
"""Writes test/data/gradients/: Relay programs and what TVM 0.19's ``relay.transform.gradient``
computes for them.

Runs in the TVM 0.19 side venv (relay-mlir never depends on TVM)::

    TOPHUB_LOCATION=NONE /path/to/tvm-venv/bin/python scripts/tvm_gradients.py

For each program (Relay text, parsed by both systems) it writes
``<name>.relay`` and ``<name>.npz`` with the inputs (``in_0``, ...), TVM's
result ``value`` and gradients ``grad_0``, ... and the ``mode`` used.
test/python/test_autodiff.py parses the same text with ``relay_mlir.fromtext``,
differentiates it with ``relay_mlir.transform.gradient`` and compares.

TVM needs InferType before ``gradient``; ``first_order`` is used for
programs it accepts (no let/if/closures; it seeds every field of a tuple
result, as relay-mlir does), ``higher_order`` for the others (scalar
results only: higher_order seeds only a tuple's first field).

Not here because TVM 0.19 fails on them (test_autodiff.py checks relay-mlir
on them against numpy): a comparison on the differentiated path (no
gradient for `greater`), a let-bound closure called twice ("type checker is
unable to show ... (Tensor, ref(Tensor)) does not match Tensor"), conv2d
with groups > 1 ("Incompatible broadcast type TensorType([2, 4, 5, 5]) and
TensorType([2, 2, 5, 5])"; test_gradient_rules.py checks it against finite
differences), conv2d in NHWC ("only support NCHW data layout").
"""
from __future__ import annotations

import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "..", "test", "data", "gradients")

IF_PROGRAM = """
fn (%x: Tensor[(3), float32], %w: Tensor[(3), float32], %c: bool) {
  let %y = multiply(%x, %w);
  if (%c) {
    sum(multiply(%y, %x))
  } else {
    sum(tanh(%y))
  }
}"""

PROGRAMS = {
    # name: (mode, text of main)
    "mlp": ("first_order", """
fn (%x: Tensor[(4, 3), float32], %w: Tensor[(5, 3), float32], %b: Tensor[(5), float32]) {
  sum(nn.relu(nn.bias_add(nn.dense(%x, %w, units=None), %b)))
}"""),
    "softmax_cross_entropy": ("first_order", """
fn (%x: Tensor[(2, 4), float32], %y: Tensor[(2, 4), float32]) {
  negative(mean(sum(multiply(%y, nn.log_softmax(%x)), axis=[1])))
}"""),
    "tuple_result": ("first_order", """
fn (%x: Tensor[(3), float32], %w: Tensor[(3), float32]) {
  (sum(multiply(%x, %w)), sum(exp(%x)))
}"""),
    "broadcast": ("first_order", """
fn (%a: Tensor[(2, 3), float32], %b: Tensor[(3), float32], %c: Tensor[(2, 1), float32]) {
  sum(divide(subtract(multiply(%a, %b), %c), add(%c, 3f)))
}"""),
    "conv_pool": ("first_order", """
fn (%x: Tensor[(1, 2, 6, 6), float32], %w: Tensor[(3, 2, 3, 3), float32]) {
  sum(nn.avg_pool2d(nn.relu(nn.conv2d(%x, %w, padding=[1, 1, 1, 1])), pool_size=[2, 2], strides=[2, 2]))
}"""),
    # TVM 0.19 differentiates conv2d in NCHW only (an assertion), pools in NHWC too
    "nhwc_pools": ("first_order", """
fn (%x: Tensor[(1, 6, 6, 2), float32]) {
  %0 = nn.max_pool2d(tanh(%x), pool_size=[2, 2], strides=[2, 1], padding=[0, 1, 0, 0], layout="NHWC");
  sum(nn.avg_pool2d(%0, pool_size=[2, 2], strides=[1, 1], padding=[1, 0, 0, 0], layout="NHWC", count_include_pad=True))
}"""),
    # integer parameters get random indices in [0, 2)
    "gather_nd": ("first_order", """
fn (%x: Tensor[(3, 4, 2), float32], %i: Tensor[(2, 5), int64]) {
  sum(multiply(gather_nd(%x, %i), tanh(gather_nd(%x, %i))))
}"""),
    "one_hot": ("first_order", """
fn (%i: Tensor[(3, 2), int32], %on: Tensor[(), float32], %off: Tensor[(), float32], %w: Tensor[(3, 2, 4), float32]) {
  sum(multiply(one_hot(%i, %on, %off, depth=4, axis=-1, dtype="float32"), %w))
}"""),
    "shared_let": ("higher_order", """
fn (%x: Tensor[(3), float32]) {
  let %y = exp(%x);
  let %z = multiply(%y, %y);
  sum(add(%z, %y))
}"""),
    # TVM has no gradient for comparisons: the condition is a parameter
    # (true for if_then, false for if_else)
    "if_then": ("higher_order", IF_PROGRAM),
    "if_else": ("higher_order", IF_PROGRAM),
}


def main() -> None:
    import tvm
    from tvm import relay

    os.makedirs(OUT, exist_ok=True)
    for name, (mode, body) in PROGRAMS.items():
        text = '#[version = "0.0.5"]\ndef @main' + body.strip()[2:] + "\n"
        mod = tvm.relay.transform.InferType()(relay.fromtext(text))
        fn = mod["main"]
        rng = np.random.RandomState(sum(map(ord, name)))
        def draw(p):
            shape = [int(d) for d in p.checked_type.shape]
            if p.checked_type.dtype == "bool":
                return np.array(name == "if_then")
            if p.checked_type.dtype.startswith("int"):
                return rng.randint(0, 2, shape).astype(p.checked_type.dtype)
            return rng.uniform(-1, 1, shape).astype(p.checked_type.dtype)
        inputs = [draw(p) for p in fn.params]
        grad = relay.transform.gradient(fn, mod=None if mode == "first_order" else mod, mode=mode)
        gmod = tvm.IRModule.from_expr(grad)
        gmod = relay.transform.InferType()(gmod)
        # the VM legalizes conv2d_backward_weight; the interpreter runs the refs of higher_order
        kind = "vm" if mode == "first_order" else "debug"
        res = relay.create_executor(kind, mod=gmod, target="llvm").evaluate()(*inputs)
        value, grads = res[0], res[1]
        values = [v.numpy() for v in value] if isinstance(value, tvm.runtime.container.ADT) else [value.numpy()]
        data = {f"in_{i}": x for i, x in enumerate(inputs)}
        data.update({f"value_{i}": v for i, v in enumerate(values)})
        data.update({f"grad_{i}": g.numpy() for i, g in enumerate(grads)})
        data["mode"] = np.array(mode)
        with open(os.path.join(OUT, f"{name}.relay"), "w") as f:
            f.write(text)
        np.savez(os.path.join(OUT, f"{name}.npz"), **data)
        print(name, mode, "value", [v.tolist() for v in values], "grads", len(grads))


if __name__ == "__main__":
    sys.exit(main())

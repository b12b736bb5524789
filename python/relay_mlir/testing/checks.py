"""The helpers at the top of TVM 0.19's ``relay.testing``: ``run_opt_pass``,
``run_infer_type``, ``check_grad``, ``rand``, ``count_ops``, ``enabled_targets``.

    >>> import relay_mlir as relay
    >>> x = relay.var("x", shape=(3,))
    >>> run_infer_type(relay.exp(x) * x).checked_type
    TensorType([3], float32)
    >>> sorted(count_ops(relay.Function([x], relay.exp(relay.exp(x)) + x)).items())
    [('add', 1), ('exp', 2)]
"""
from __future__ import annotations

import collections
from typing import List, Optional, Sequence, Tuple

import numpy as np

from ..autodiff import gradient
from ..executor import create_executor
from ..expr import Call, Expr, Function
from ..expr_functor import ExprVisitor
from ..module import IRModule
from ..pass_infra import Pass
from ..prelude import Prelude
from ..transform import InferType

__all__ = ["run_opt_pass", "run_infer_type", "check_grad", "rand", "count_ops", "enabled_targets"]


def run_opt_pass(expr: Expr, opt_pass: Pass, import_prelude: bool = False) -> Expr:
    """Runs InferType then ``opt_pass`` on a module whose ``main`` is ``expr`` (wrapped in a
    function of its free variables unless it is one); returns ``main`` for a Function,
    else ``main``'s body, as TVM does (InferType types the untyped weights that
    ``testing.layers`` makes from their operators, as TVM's)."""
    if not isinstance(opt_pass, Pass):
        raise TypeError(f"run_opt_pass expects a pass (relay_mlir.transform.*), got {type(opt_pass).__name__}")
    mod = IRModule.from_expr(expr)
    if import_prelude:
        Prelude(mod)
    mod = opt_pass(InferType()(mod))
    entry = mod["main"]
    return entry if isinstance(expr, Function) else entry.body


def run_infer_type(expr: Expr) -> Expr:
    """``run_opt_pass(expr, InferType())``: ``expr`` typed (``.checked_type``)."""
    return run_opt_pass(expr, InferType())


def enabled_targets() -> List[Tuple[str, object]]:
    """The (target, device) pairs tests run on: here the CPU (``llvm``), as TVM's pip build."""
    from ..tvm.runtime.device import cpu
    return [("llvm", cpu(0))]


def rand(dtype: str, *shape: int):
    """An NDArray of ``shape`` with uniform [0, 1) values of ``dtype`` (numpy's global RNG)."""
    from ..tvm.runtime.ndarray import array
    return array(np.random.rand(*shape).astype(dtype))


class _OpCounter(ExprVisitor):
    def __init__(self) -> None:
        super().__init__()
        self.counts: collections.Counter = collections.Counter()

    def visit_call(self, call: Call) -> None:
        name = getattr(call.op, "name", None)
        if isinstance(name, str):
            self.counts[name] += 1
        super().visit_call(call)


def count_ops(expr: Expr) -> collections.Counter:
    """How many times each operator is called in ``expr`` (nested functions included)."""
    counter = _OpCounter()
    counter.visit(expr)
    return counter.counts


def _randn_like(ty, scale: float, mean: float) -> np.ndarray:
    return np.asarray(mean + scale * np.random.randn(*(int(d) for d in ty.shape))).astype(ty.dtype)


def check_grad(func: Function, inputs: Optional[Sequence[np.ndarray]] = None,
               test_inputs: Optional[Sequence[np.ndarray]] = None, eps: float = 1e-6, atol: float = 1e-5,
               rtol: float = 1e-3, scale: Optional[float] = None, mean: float = 0, mode: str = "higher_order",
               target_devices=None, executor_kind: str = "debug") -> None:
    """Checks ``gradient(func)`` against two-sided finite differences of ``func`` (the sum of
    its output), as TVM 0.19 does: random normal inputs of scale ``10 * eps`` unless given,
    only ``test_inputs`` (by identity) checked, ``assert_allclose(atol, rtol)``."""
    fwd = run_infer_type(func)
    bwd = run_infer_type(gradient(fwd, mode=mode))
    scale = 10 * eps if scale is None else scale
    if inputs is None:
        inputs = [_randn_like(p.checked_type, scale, mean) for p in fwd.params]
    test_inputs = inputs if test_inputs is None else test_inputs
    for target, dev in (target_devices or enabled_targets()):
        run_bwd = create_executor(executor_kind, device=dev, target=target).evaluate(bwd)
        run_fwd = create_executor(executor_kind, device=dev, target=target).evaluate(fwd)
        _, grads = run_bwd(*inputs)
        grads = [np.asarray(g).astype("float64") for g in grads]
        picked = [grads[next(i for i, x in enumerate(inputs) if x is t)] for t in test_inputs]
        assert picked, "You must test at least one gradient."
        for x, grad in zip(test_inputs, picked):
            approx = np.zeros(x.shape)
            for i in np.ndindex(*x.shape):
                keep = x[i]
                x[i] = keep + eps
                plus = np.asarray(run_fwd(*inputs)).astype("float64")
                x[i] = keep - eps
                minus = np.asarray(run_fwd(*inputs)).astype("float64")
                x[i] = keep
                approx[i] = np.sum((plus - minus) / (2 * eps))
            np.testing.assert_allclose(grad, approx, atol=atol, rtol=rtol)

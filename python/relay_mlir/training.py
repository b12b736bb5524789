"""Training as Relay programs: optimizers as update functions and a training loop that runs
N steps inside one compiled module.

``training_loop(loss, n_params, optimizer, steps, batch_size)`` builds an
``IRModule`` whose ``main`` takes the initial parameters, the optimizer's
state and the whole data set, and returns the trained parameters, the
final state and the loss of every step. Inside it:

* ``@loss_grad`` is ``relay.transform.gradient(loss, wrt=params)``;
* ``@train_step`` takes one mini-batch (rows ``(i*B + k) mod N`` of every
  data input, picked with ``take``), calls ``@loss_grad`` and applies the
  optimizer's update;
* ``@train_loop`` is a tail-recursive Relay function over the step
  number, recording the loss in a history vector. relay-eliminate-recursion
  turns it into a loop, so the whole run is one call of the ``.vmfb``.

Example::

    >>> import numpy as np
    >>> import relay_mlir as relay
    >>> from relay_mlir.training import sgd, training_loop
    >>> w = relay.var("w", shape=(2,))
    >>> x = relay.var("x", shape=(4, 2))
    >>> y = relay.var("y", shape=(4,))
    >>> err = relay.subtract(relay.sum(x * w, axis=1), y)
    >>> loss = relay.Function([w, x, y], relay.mean(err * err))
    >>> mod = training_loop(loss, n_params=1, optimizer=sgd(0.1), steps=300, batch_size=4)
    >>> run = relay.create_executor("debug", mod=mod).evaluate()
    >>> X = np.array([[1, 0], [0, 1], [1, 1], [2, 1]], dtype="float32")
    >>> (w_out,), state, history = run(np.zeros(2, "float32"), X, X @ np.array([2, -1], "float32"))
    >>> np.round(w_out, 2).tolist(), bool(history[-1] < history[0])
    ([2.0, -1.0], True)
"""
from __future__ import annotations

from typing import List, Optional, Sequence, Tuple

import numpy as np

from . import op
from .autodiff import gradient
from .errors import CompileError
from .expr import Call, Expr, Function, GlobalVar, If, Tuple as TupleExpr, TupleGetItem, Var, const
from .module import IRModule
from .ty import Any, TensorType

__all__ = ["Optimizer", "sgd", "sgd_momentum", "adam", "training_loop"]


class Optimizer:
    """An update rule: ``slots`` state tensors per parameter (shaped like it, zeros
    at the start) and ``update(param, grad, slots, step) -> (param', slots')`` built
    from Relay expressions (``step`` is the 1-based step number, a float32 scalar)."""

    slots = 0

    def update(self, param: Expr, grad: Expr, slots: Sequence[Expr],
               step: Expr) -> Tuple[Expr, List[Expr]]:
        raise NotImplementedError

    def init_state(self, params: Sequence[np.ndarray]) -> List[np.ndarray]:
        """The optimizer's initial state for ``params``: its slots, zeros."""
        return [np.zeros_like(p) for p in params for _ in range(self.slots)]


def _c(value: float, like_dtype: str) -> Expr:
    return const(value, like_dtype)


class _SGD(Optimizer):
    def __init__(self, lr: float, momentum: float = 0.0) -> None:
        self.lr, self.momentum = lr, momentum
        self.slots = 1 if momentum else 0

    def update(self, param, grad, slots, step):
        dt = _dtype(param)
        if not self.momentum:
            return op.subtract(param, op.multiply(_c(self.lr, dt), grad)), []
        # PyTorch's form: v = momentum v + g; p = p - lr v
        v = op.add(op.multiply(_c(self.momentum, dt), slots[0]), grad)
        return op.subtract(param, op.multiply(_c(self.lr, dt), v)), [v]


class _Adam(Optimizer):
    slots = 2

    def __init__(self, lr: float, beta1: float, beta2: float, eps: float) -> None:
        self.lr, self.beta1, self.beta2, self.eps = lr, beta1, beta2, eps

    def update(self, param, grad, slots, step):
        dt = _dtype(param)
        m = op.add(op.multiply(_c(self.beta1, dt), slots[0]), op.multiply(_c(1 - self.beta1, dt), grad))
        v = op.add(op.multiply(_c(self.beta2, dt), slots[1]),
                   op.multiply(_c(1 - self.beta2, dt), op.multiply(grad, grad)))
        t = op.cast(step, dt)
        m_hat = op.divide(m, op.subtract(_c(1.0, dt), op.power(_c(self.beta1, dt), t)))
        v_hat = op.divide(v, op.subtract(_c(1.0, dt), op.power(_c(self.beta2, dt), t)))
        delta = op.divide(op.multiply(_c(self.lr, dt), m_hat), op.add(op.sqrt(v_hat), _c(self.eps, dt)))
        return op.subtract(param, delta), [m, v]


def sgd(lr: float) -> Optimizer:
    """Plain SGD: ``p -= lr g``."""
    return _SGD(lr)


def sgd_momentum(lr: float, momentum: float = 0.9) -> Optimizer:
    """SGD with momentum as PyTorch's ``torch.optim.SGD``: ``v = momentum v + g; p -= lr v``."""
    return _SGD(lr, momentum)


def adam(lr: float = 1e-3, beta1: float = 0.9, beta2: float = 0.999, eps: float = 1e-8) -> Optimizer:
    """Adam as ``torch.optim.Adam`` (bias-corrected moments, ``eps`` added to ``sqrt(v_hat)``)."""
    return _Adam(lr, beta1, beta2, eps)


def _dtype(e: Expr) -> str:
    t = e.type_annotation if isinstance(e, Var) else None
    return t.dtype if isinstance(t, TensorType) else "float32"


def _tensor_type(v: Var) -> TensorType:
    t = v.type_annotation
    if not isinstance(t, TensorType) or any(not isinstance(d, int) for d in t.shape):
        raise CompileError(f"training_loop: parameter '{v.name_hint}' needs a static tensor type")
    return t


def _copy(v: Var, name: str) -> Var:
    return Var(name, v.type_annotation)


def training_loop(loss: Function, n_params: int, optimizer: Optimizer, steps: int,
                  batch_size: int, dataset_rows: Optional[int] = None) -> IRModule:
    """A module running ``steps`` optimizer steps of ``loss`` on mini-batches.

    ``loss``'s first ``n_params`` parameters are trained; the others are data
    (every one of them batched along axis 0: its declared first dim is the
    batch size; the data set passed to ``main`` has ``dataset_rows`` rows, or
    any number when that is None).
    ``main(params..., state..., data...)`` returns ``((params'...), (state'...),
    history)`` with ``history[i]`` the loss of step ``i``.
    """
    if not isinstance(loss, Function):
        raise CompileError("training_loop: expected a relay.Function loss")
    if not 0 < n_params <= len(loss.params):
        raise CompileError(f"training_loop: n_params={n_params} but the loss has {len(loss.params)} parameters")
    if steps < 1 or batch_size < 1:
        raise CompileError("training_loop: steps and batch_size must be positive")
    params = loss.params[:n_params]
    data = loss.params[n_params:]
    for v in data:
        t = _tensor_type(v)
        if not t.shape or t.shape[0] != batch_size:
            raise CompileError(f"training_loop: data input '{v.name_hint}' must have batch_size={batch_size} "
                               f"rows (axis 0), got shape {tuple(t.shape)}")
    for v in params:
        _tensor_type(v)

    mod = IRModule()
    grad_gv = GlobalVar("loss_grad")
    mod[grad_gv] = gradient(loss, wrt=list(range(n_params)))

    # ---- @train_step(params, slots, i, data sets) -> (params', slots', loss)
    p = [_copy(v, v.name_hint) for v in params]
    s = [_copy(v, f"{v.name_hint}_slot{k}") for v in params for k in range(optimizer.slots)]
    i = Var("i", TensorType([], "int32"))
    sets = [Var(v.name_hint, TensorType([dataset_rows or Any()] + list(_tensor_type(v).shape[1:]), _tensor_type(v).dtype))
            for v in data]
    rows = const(np.arange(batch_size, dtype="int32"))
    batch_rows = [op.mod(op.add(op.multiply(i, const(np.array(batch_size, "int32"))), rows),
                         op.cast(op.take(op.shape_of(d, "int32"), const(np.array(0, "int32"))), "int32"))
                  for d in sets]
    batches = [op.take(d, r, axis=0) for d, r in zip(sets, batch_rows)]
    result = Call(grad_gv, p + batches)
    value, grads = TupleGetItem(result, 0), TupleGetItem(result, 1)
    step = op.add(op.cast(i, "float32"), const(np.array(1.0, "float32")))
    new_p, new_s = [], []
    for k, param in enumerate(p):
        slots = s[k * optimizer.slots:(k + 1) * optimizer.slots]
        np_, ns = optimizer.update(param, TupleGetItem(grads, k), slots, step)
        new_p.append(np_)
        new_s.extend(ns)
    step_gv = GlobalVar("train_step")
    mod[step_gv] = Function(p + s + [i] + sets,
                            TupleExpr([TupleExpr(new_p), TupleExpr(new_s), value]))

    # ---- @train_loop(i, params, slots, history, data sets): tail recursion over i
    lp = [_copy(v, v.name_hint) for v in p]
    ls = [_copy(v, v.name_hint) for v in s]
    li = Var("i", TensorType([], "int32"))
    hist_dtype = "float32"
    history = Var("history", TensorType([steps], hist_dtype))
    lsets = [_copy(v, v.name_hint) for v in sets]
    loop_gv = GlobalVar("train_loop")
    out = Call(step_gv, lp + ls + [li] + lsets)
    after_p = [TupleGetItem(TupleGetItem(out, 0), k) for k in range(len(lp))]
    after_s = [TupleGetItem(TupleGetItem(out, 1), k) for k in range(len(ls))]
    step_loss = op.cast(TupleGetItem(out, 2), hist_dtype)
    mark = op.one_hot(li, const(1.0, hist_dtype), const(0.0, hist_dtype),
                      steps, -1, hist_dtype)
    new_history = op.add(history, op.multiply(mark, step_loss))
    recurse = Call(loop_gv, [op.add(li, const(np.array(1, "int32")))] + after_p + after_s
                   + [new_history] + lsets)
    done = op.greater_equal(li, const(np.array(steps, "int32")))
    mod[loop_gv] = Function([li] + lp + ls + [history] + lsets,
                            If(done, TupleExpr([TupleExpr(lp), TupleExpr(ls), history]), recurse))

    # ---- @main(params, slots, data sets)
    mp = [_copy(v, v.name_hint) for v in p]
    ms = [_copy(v, v.name_hint) for v in s]
    msets = [_copy(v, v.name_hint) for v in sets]
    start = Call(loop_gv, [const(np.array(0, "int32"))] + mp + ms
                 + [const(np.zeros(steps), hist_dtype)] + msets)
    mod["main"] = Function(mp + ms + msets, start)
    return mod

"""Binding params to a function's parameters: ``bind_params_by_name`` (TVM 0.19's
``relay.build_module.bind_params_by_name(func, params)``, which BYOC flows call before
partitioning) and the check ``relay.build`` applies to its ``params``.

TVM 0.19 replaces each parameter named in ``params`` by a constant of the value and drops it
from the function's parameters; names that are not parameters are ignored; a name two
parameters share is an error ("Multiple args in the function have name x"). It binds a value
of another shape or dtype as it is, which types the program differently; here the value must
fit the parameter's type as ``GraphModule.set_input`` values must (``ndarray.coerce``).

    >>> import numpy as np, relay_mlir as relay
    >>> x, w = relay.var("x", shape=(1, 3)), relay.var("w", shape=(2, 3))
    >>> f = bind_params_by_name(relay.Function([x, w], relay.nn.dense(x, w)),
    ...                         {"w": np.ones((2, 3), "float32"), "other": np.zeros(1)})
    >>> [p.name_hint for p in f.params], type(f.body.args[1]).__name__
    (['x'], 'Constant')
"""
from __future__ import annotations

from typing import Mapping

import numpy as np

from ...expr import Constant, Function, Var
from ...expr_functor import Substitute
from ...ty import TensorType
from ..runtime.graph_factory import spec_dims
from ..runtime.ndarray import NDArray, coerce

__all__ = ["bind_params_by_name", "param_value"]


def param_value(var: Var, value: object) -> np.ndarray:
    """``value`` (numpy-like or NDArray) for parameter ``var``, checked against its type
    annotation (``ValueError`` naming the expected shape or dtype)."""
    t = var.type_annotation
    if isinstance(t, TensorType):
        return coerce(value, spec_dims(t.shape), t.dtype, f"param '{var.name_hint}'")
    return np.asarray(value._data if isinstance(value, NDArray) else value)


def bind_params_by_name(func: Function, params: Mapping[str, object]) -> Function:
    """``func`` with the parameters named in ``params`` replaced by constants."""
    if not isinstance(func, Function):
        raise ValueError(f"bind_params_by_name expects a relay Function, got {type(func).__name__}")
    names = [p.name_hint for p in func.params]
    for name in params:
        if names.count(name) > 1:
            raise ValueError(f"Multiple args in the function have name {name}")
    values = {p: Constant(param_value(p, params[p.name_hint])) for p in func.params
              if p.name_hint in params}
    if not values:
        return func
    body = Substitute(values).visit(func.body)
    return Function([p for p in func.params if p not in values], body, func.ret_type,
                    func.type_params, func.attrs)

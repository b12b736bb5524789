"""The Relay expression tree (``Var``, ``Constant``, ``Call``, ``Function``, ...).

A small Python mirror of ``tvm.relay.expr``: building a program only builds
this tree. ``relay_mlir.emit`` turns it into ``relay`` dialect MLIR and the
C++ ``relay-infer-type`` pass computes every type; after inference each
expression's ``checked_type`` holds the result.

Example::

    >>> import relay_mlir as relay
    >>> x = relay.var("x", shape=(2, 3))
    >>> y = relay.var("y", shape=(3,))
    >>> f = relay.Function([x, y], relay.nn.relu(x + y))
    >>> f.params[0].name_hint
    'x'
"""
from __future__ import annotations

import itertools
import os
import sys
from typing import Dict, Iterator, Optional, Sequence, Union

import numpy as np

from .ty import TensorType, Type, TypeVar

__all__ = [
    "Span", "Expr", "Var", "Constant", "Op", "Call", "Tuple", "TupleGetItem",
    "TupleWrapper", "Function", "If", "Let", "GlobalVar", "RefCreate", "RefRead", "RefWrite", "var", "const",
]

_PKG_DIR = os.path.dirname(os.path.abspath(__file__))
_TESTING_DIR = os.path.join(_PKG_DIR, "testing")


class Span:
    """Where an expression was built: ``file:line:col`` of the user's code."""

    __slots__ = ("filename", "line", "col")

    def __init__(self, filename: str, line: int, col: int) -> None:
        self.filename, self.line, self.col = filename, line, col

    def __repr__(self) -> str:
        return f"{self.filename}:{self.line}:{self.col}"


def _is_internal(filename: str) -> bool:
    f = os.path.abspath(filename)
    return f.startswith(_PKG_DIR + os.sep) and not f.startswith(_TESTING_DIR + os.sep)


def _capture_span() -> Optional[Span]:
    """The first stack frame outside relay_mlir's own modules."""
    try:
        frame = sys._getframe(2)
    except ValueError:  # pragma: no cover
        return None
    while frame is not None and _is_internal(frame.f_code.co_filename):
        frame = frame.f_back
    if frame is None:
        return None
    line, col = frame.f_lineno, 1
    try:
        pos = next(itertools.islice(frame.f_code.co_positions(), frame.f_lasti // 2, None), None)
        if pos and pos[0] == line and pos[2] is not None:
            col = pos[2] + 1
    except Exception:  # pragma: no cover - positions are best effort
        pass
    return Span(frame.f_code.co_filename, line or 0, col)


class Expr:
    """Base class of Relay expressions.

    Supports Relay's operator overloads: ``a + b``, ``a - b``, ``a * b``,
    ``a / b``, ``-a`` (both operands must be expressions; use ``const`` for
    numbers, as in Relay) and calling a function-valued expression.
    """

    def __init__(self) -> None:
        self.span: Optional[Span] = _capture_span()
        self._checked_type: Optional[Type] = None

    # -- typing ------------------------------------------------------------
    @property
    def checked_type(self) -> Type:
        """The type computed by type inference (``relay_mlir.transform.InferType``).

        Raises ``ValueError`` before inference, like Relay.
        """
        if self._checked_type is None:
            raise ValueError(
                "the type checker has not populated the checked_type for this node; "
                "run relay_mlir.transform.InferType() on a module containing it")
        return self._checked_type

    # -- operators -------------------------------------------------------
    def _binary(self, other: object, name: str, reverse: bool = False) -> "Call":
        if not isinstance(other, Expr):
            if isinstance(other, (int, float, np.number, np.ndarray, bool)):
                raise TypeError(f'convert "{other!r}" with `const` first')
            return NotImplemented  # type: ignore[return-value]
        a, b = (other, self) if reverse else (self, other)
        return Call(Op.get(name), [a, b])

    def __add__(self, other: object) -> "Call":
        return self._binary(other, "add")

    def __radd__(self, other: object) -> "Call":
        return self._binary(other, "add", reverse=True)

    def __sub__(self, other: object) -> "Call":
        return self._binary(other, "subtract")

    def __rsub__(self, other: object) -> "Call":
        return self._binary(other, "subtract", reverse=True)

    def __mul__(self, other: object) -> "Call":
        return self._binary(other, "multiply")

    def __rmul__(self, other: object) -> "Call":
        return self._binary(other, "multiply", reverse=True)

    def __truediv__(self, other: object) -> "Call":
        return self._binary(other, "divide")

    def __rtruediv__(self, other: object) -> "Call":
        return self._binary(other, "divide", reverse=True)

    def __neg__(self) -> "Call":
        return Call(Op.get("negative"), [self])

    def __call__(self, *args: "Expr") -> "Call":
        """Applies a function-valued expression: ``f(x, y)``."""
        return Call(self, list(args))

    # identity semantics, like Relay's ObjectRef
    __hash__ = object.__hash__

    def __bool__(self) -> bool:
        return True

    # ``astext()`` (the MLIR of a module whose ``main`` is this expression)
    # needs the emitter, which builds on this module: relay_mlir/module.py
    # adds it to Expr and TupleWrapper.


def _as_type(t: Union[Type, str, None]) -> Optional[Type]:
    if t is None or isinstance(t, Type):
        return t
    raise TypeError(f"expected a relay_mlir type, got {t!r}")


class Var(Expr):
    """A variable, ``relay.Var(name_hint, type_annotation=None)``.

    >>> Var("x", TensorType([4])).type_annotation
    TensorType([4], float32)
    """

    def __init__(self, name_hint: str, type_annotation: Optional[Type] = None) -> None:
        super().__init__()
        self.name_hint = name_hint
        self.type_annotation = _as_type(type_annotation)

    def __repr__(self) -> str:
        return f"Var({self.name_hint!r}, {self.type_annotation!r})"


class ConstantData(np.ndarray):
    """A constant's array: a numpy array that also reads as TVM 0.19's ``NDArray``
    (``constant.data.numpy()``, ``.asnumpy()``: a copy as a plain ndarray, as TVM's), so pattern
    callbacks written for TVM run. Arithmetic on it gives plain ndarrays.

    >>> d = Constant(np.ones(2, "float32")).data
    >>> type(d.numpy()).__name__, type(d + 1).__name__
    ('ndarray', 'ndarray')
    """

    def numpy(self) -> np.ndarray:
        return np.array(self.view(np.ndarray), copy=True)

    asnumpy = numpy

    def __array_wrap__(self, arr, context=None, return_scalar=False):
        arr = arr.view(np.ndarray)
        return arr[()] if return_scalar else arr


class Constant(Expr):
    """A tensor constant, ``relay.Constant(data)`` with ``data`` a numpy array (``ConstantData``)."""

    def __init__(self, data: np.ndarray) -> None:
        super().__init__()
        # (ascontiguousarray would make 0-d 1-d)
        self.data = np.asarray(data, order="C").view(ConstantData)

    def __repr__(self) -> str:
        return f"Constant({self.data.shape}, {self.data.dtype})"


class Op(Expr):
    """A primitive operator, named as in Relay (``"nn.conv2d"``)."""

    _registry: Dict[str, "Op"] = {}

    def __init__(self, name: str) -> None:
        super().__init__()
        self.name = name

    @staticmethod
    def get(name: str) -> "Op":
        """The operator called ``name``, like ``tvm.relay.op.get``.

        >>> Op.get("nn.relu").name
        'nn.relu'
        """
        op = Op._registry.get(name)
        if op is None:
            op = Op._registry[name] = Op(name)
            op.span = None
        return op

    def __repr__(self) -> str:
        return f"Op({self.name})"


class CallAttrs(dict):
    """A call's attributes: a dict that also reads as TVM's ``Attrs`` (``call.attrs.padding``)."""

    def __getattr__(self, name: str) -> object:
        try:
            return self[name]
        except KeyError:
            raise AttributeError(f"the call has no attribute '{name}' (it has: "
                                 f"{', '.join(self) or 'none'})") from None


class Call(Expr):
    """``relay.Call(op, args, attrs=None)``: an operator, closure or global call."""

    def __init__(self, op: Expr, args: Sequence[Expr], attrs: Optional[Dict[str, object]] = None) -> None:
        super().__init__()
        if not isinstance(op, Expr):
            raise TypeError(f"Call target must be an expression, got {op!r}")
        for a in args:
            if not isinstance(a, Expr):
                raise TypeError(f"Call argument must be an expression, got {a!r}; "
                                "wrap numbers with relay_mlir.const")
        self.op = op
        self.args = list(args)
        self.attrs = CallAttrs(attrs or {})

    def __repr__(self) -> str:
        return f"Call({self.op!r}, {len(self.args)} args)"


class Tuple(Expr):
    """``relay.Tuple(fields)``.

    >>> t = Tuple([const(1.0), const(2.0)])
    >>> len(t)
    2
    """

    def __init__(self, fields: Sequence[Expr]) -> None:
        super().__init__()
        for f in fields:
            if not isinstance(f, Expr):
                raise TypeError(f"Tuple field must be an expression, got {f!r}")
        self.fields = list(fields)

    def __getitem__(self, index: int) -> Expr:
        return self.fields[index]

    def __len__(self) -> int:
        return len(self.fields)

    def astuple(self) -> "Tuple":
        return self


class TupleGetItem(Expr):
    """``relay.TupleGetItem(tuple_value, index)``."""

    def __init__(self, tuple_value: Expr, index: int) -> None:
        super().__init__()
        self.tuple_value = tuple_value
        self.index = int(index)


class TupleWrapper:
    """A tuple-valued call with ``size`` fields; ``tw[i]`` projects one.

    Like Relay's ``TupleWrapper`` (returned by ``nn.batch_norm``).
    """

    def __init__(self, tuple_value: Expr, size: int) -> None:
        self.tuple_value = tuple_value
        self.size = size

    def astuple(self) -> Expr:
        """The underlying tuple-valued expression."""
        return self.tuple_value

    def __getitem__(self, index: int) -> TupleGetItem:
        if index >= self.size or index < -self.size:
            raise IndexError("Tuple index out of range")
        return TupleGetItem(self.tuple_value, index % self.size)

    def __len__(self) -> int:
        return self.size

    def __iter__(self) -> Iterator[TupleGetItem]:
        return (self[i] for i in range(self.size))


class Function(Expr):
    """``relay.Function(params, body, ret_type=None, type_params=None, attrs=None)``.

    At module level a function becomes ``func.func``; nested inside another
    expression it is a closure (``relay.fn``) capturing its free variables.
    """

    def __init__(self, params: Sequence[Var], body: Expr, ret_type: Optional[Type] = None,
                 type_params: Optional[list] = None, attrs: Optional[dict] = None) -> None:
        super().__init__()
        for p in params:
            if not isinstance(p, Var):
                raise TypeError(f"Function parameters must be Vars, got {p!r}")
        if isinstance(body, TupleWrapper):
            body = body.astuple()
        if not isinstance(body, Expr):
            raise TypeError(f"Function body must be an expression, got {body!r}")
        self.params = list(params)
        self.body = body
        self.ret_type = _as_type(ret_type)
        self.type_params = list(type_params or [])
        for tp in self.type_params:
            if not isinstance(tp, TypeVar):
                raise TypeError(f"Function type_params must be TypeVars, got {tp!r}")
        self.attrs = dict(attrs or {})

    def with_attr(self, attr_key_or_dict, attr_value=None) -> "Function":
        """A copy with the attribute set (TVM 0.19's ``Function.with_attr(key, value)`` or
        ``with_attr({key: value, ...})``), e.g. ``Inline=1`` (relay.transform.Inline) or
        ``Primitive=1``; module functions keep them through passes (``relay.attrs`` in MLIR)."""
        new = dict(attr_key_or_dict) if isinstance(attr_key_or_dict, dict) \
            else {attr_key_or_dict: attr_value}
        for k, v in new.items():
            if not isinstance(k, str) or isinstance(v, bool) or not isinstance(v, (int, str)):
                raise TypeError(f"Function.with_attr: a str key and an int or str value, got "
                                f"{k!r}: {v!r}")
        return Function(self.params, self.body, self.ret_type, self.type_params,
                        {**self.attrs, **new})


class If(Expr):
    """``relay.If(cond, true_branch, false_branch)``; ``cond`` is a bool scalar."""

    def __init__(self, cond: Expr, true_branch: Expr, false_branch: Expr) -> None:
        super().__init__()
        self.cond, self.true_branch, self.false_branch = cond, true_branch, false_branch


class Let(Expr):
    """``relay.Let(var, value, body)``: binds ``var`` to ``value`` in ``body``."""

    def __init__(self, variable: Var, value: Expr, body: Expr) -> None:
        super().__init__()
        if not isinstance(variable, Var):
            raise TypeError("Let binds a Var")
        self.var, self.value, self.body = variable, value, body


class RefCreate(Expr):
    """``relay.RefCreate(value)``: a new mutable reference cell holding ``value``."""

    def __init__(self, value: Expr) -> None:
        super().__init__()
        self.value = _expr_arg(value, "RefCreate value")


class RefRead(Expr):
    """``relay.RefRead(ref)``: the value a reference cell holds."""

    def __init__(self, ref: Expr) -> None:
        super().__init__()
        self.ref = _expr_arg(ref, "RefRead ref")


class RefWrite(Expr):
    """``relay.RefWrite(ref, value)``: stores ``value`` in ``ref``; its own value is ``()``."""

    def __init__(self, ref: Expr, value: Expr) -> None:
        super().__init__()
        self.ref = _expr_arg(ref, "RefWrite ref")
        self.value = _expr_arg(value, "RefWrite value")


def _expr_arg(e: object, what: str) -> Expr:
    if isinstance(e, TupleWrapper):
        e = e.astuple()
    if not isinstance(e, Expr):
        raise TypeError(f"{what} must be an expression, got {e!r}")
    return e


class GlobalVar(Expr):
    """``relay.GlobalVar(name_hint)``: names a module-level function.

    Calling it (``gv(x)``) is a direct call; using it as a value gives the
    function as a closure value.
    """

    def __init__(self, name_hint: str) -> None:
        super().__init__()
        self.name_hint = name_hint

    def __repr__(self) -> str:
        return f"GlobalVar({self.name_hint!r})"


def var(name_hint: str, type_annotation: Optional[Type] = None,
        shape: Optional[Sequence[object]] = None, dtype: str = "float32") -> Var:
    """Creates a Var, ``relay.var(name_hint, type_annotation=None, shape=None, dtype="float32")``.

    Without ``type_annotation`` or ``shape`` the type is left to inference.

    >>> import relay_mlir as relay
    >>> relay.var("x", shape=(1, relay.Any()), dtype="float32").type_annotation
    TensorType([1, ?], float32)
    """
    if type_annotation is not None and shape is not None:
        raise ValueError("Can only specify either type_annotation or shape.")
    if shape is not None:
        type_annotation = TensorType(shape, dtype)
    elif isinstance(type_annotation, str):
        type_annotation = TensorType((), type_annotation)
    return Var(name_hint, type_annotation)


def const(value: object, dtype: Optional[str] = None) -> Constant:
    """Creates a constant tensor, ``relay.const(value, dtype=None)``, as TVM 0.19 does.

    Without ``dtype``, numpy's default types become Relay's: Python and numpy ints
    (int64) become int32 and floats (float64) float32, arrays included
    (``relay.const(np.random.rand(2, 2))`` is float32); other numpy dtypes and
    NDArrays keep theirs, and so does ``relay.Constant(array)``.

    >>> import relay_mlir as relay, numpy as np
    >>> relay.const(1.0).data.dtype
    dtype('float32')
    >>> relay.const(np.arange(3)).data.dtype
    dtype('int32')
    >>> relay.const([1, 2], "int64").data.shape
    (2,)
    """
    if not isinstance(value, (np.ndarray, np.generic)) and hasattr(value, "numpy"):
        arr = value.numpy()  # an NDArray keeps its dtype, as in TVM
        return Constant(arr if dtype is None else arr.astype(dtype))
    arr = np.asarray(value)
    if dtype is not None:
        arr = arr.astype(dtype)
    elif arr.dtype == np.float64:
        arr = arr.astype("float32")
    elif arr.dtype == np.int64:
        arr = arr.astype("int32")
    return Constant(arr)

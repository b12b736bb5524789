"""The pattern nodes of Relay's dataflow pattern language (``tvm.relay.dataflow_pattern``).

A pattern is a small graph of ``DFPattern`` nodes that describes a piece of dataflow:
``is_op("nn.relu")(is_op("add")(wildcard(), is_constant()))``. Patterns compare by identity:
a pattern node used twice in one pattern must match one and the same expression node, as in
TVM 0.19. The constructors and operators mirror TVM's:

>>> from relay_mlir.dataflow_pattern import is_op, wildcard
>>> p = is_op("nn.relu")(wildcard() + wildcard())
>>> type(p).__name__, type(p.args[0]).__name__
('CallPattern', 'CallPattern')
"""
from __future__ import annotations

from typing import Callable, Dict, List, Optional, Sequence

from .. import op as _op_package
from ..expr import Expr, Op
from ..op.op_attr import op_has_attrs
from ..ty import Type

__all__ = [
    "DFPattern", "ExprPattern", "VarPattern", "ConstantPattern", "CallPattern", "FunctionPattern",
    "IfPattern", "LetPattern", "TuplePattern", "TupleGetItemPattern", "AltPattern",
    "WildcardPattern", "TypePattern", "DataTypePattern", "ShapePattern", "AttrPattern",
    "DominatorPattern",
    "is_var", "is_constant", "is_expr", "is_op", "is_tuple", "is_tuple_get_item", "is_if", "is_let",
    "wildcard", "has_type", "has_dtype", "has_shape", "has_attr", "dominates",
]


def _pattern_arg(p: object, what: str) -> "DFPattern":
    if not isinstance(p, DFPattern):
        raise TypeError(f"{what} must be a dataflow pattern (DFPattern), got {p!r}; "
                        "use is_expr(e) to match an expression")
    return p


def _pattern_list(ps: Optional[Sequence[object]], what: str) -> Optional[List["DFPattern"]]:
    if ps is None:
        return None
    return [_pattern_arg(p, what) for p in ps]


class DFPattern:
    """Base class of patterns: call one (``p(a, b)``) to match a call of it, ``p | q`` for
    either, ``p + q`` / ``-`` / ``*`` / ``/`` for the arithmetic operators' calls.
    ``p.match(expr)`` and ``p.partition(expr, attrs, check)`` are added by matcher.py and
    partition.py (they build on this module)."""

    __hash__ = object.__hash__

    def __call__(self, *args: "DFPattern") -> "CallPattern":
        """A call of this pattern; ``p(None)`` matches any arguments (TVM 0.19)."""
        arg_list: Optional[List[DFPattern]] = list(args)
        if len(args) == 1 and args[0] is None:
            arg_list = None
        return CallPattern(self, arg_list)

    def __or__(self, other: "DFPattern") -> "AltPattern":
        return AltPattern(self, other)

    def __add__(self, other: "DFPattern") -> "CallPattern":
        return is_op("add")(self, other)

    def __sub__(self, other: "DFPattern") -> "CallPattern":
        return is_op("subtract")(self, other)

    def __mul__(self, other: "DFPattern") -> "CallPattern":
        return is_op("multiply")(self, other)

    def __truediv__(self, other: "DFPattern") -> "CallPattern":
        return is_op("divide")(self, other)

    def has_attr(self, attrs: Dict[str, object]) -> "AttrPattern":
        """Constrains the matched call's (or operator's, or function's) attributes."""
        return AttrPattern(self, attrs)

    def has_type(self, ttype: Type) -> "TypePattern":
        return has_type(ttype, self)

    def has_dtype(self, dtype: str) -> "DataTypePattern":
        return has_dtype(dtype, self)

    def has_shape(self, shape: Sequence[int]) -> "ShapePattern":
        return has_shape(shape, self)

    def dominates(self, parent: "DFPattern", path: Optional["DFPattern"] = None) -> "DominatorPattern":
        """This pattern (the child) dominates ``parent`` through nodes matching ``path``."""
        return DominatorPattern(parent, wildcard() if path is None else path, self)

    def optional(self, option_constructor: Callable[["DFPattern"], "DFPattern"]) -> "AltPattern":
        """This pattern, or ``option_constructor(self)``: ``p.optional(is_op("nn.relu"))``."""
        return self | option_constructor(self)

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"


class ExprPattern(DFPattern):
    """Matches an expression structurally equal to ``expr`` (an operator, usually)."""

    def __init__(self, expr: Expr) -> None:
        if not isinstance(expr, Expr):
            raise TypeError(f"is_expr expects a relay expression, got {expr!r}")
        self.expr = expr

    def __repr__(self) -> str:
        return f"ExprPattern({self.expr!r})"


class VarPattern(DFPattern):
    """Matches a ``Var`` (named ``name_hint`` unless that is empty)."""

    def __init__(self, name_hint: str = "") -> None:
        self.name_hint = str(name_hint)


class ConstantPattern(DFPattern):
    """Matches any ``Constant``."""


class CallPattern(DFPattern):
    """Matches a call whose callee matches ``op`` and arguments ``args`` (None: any)."""

    def __init__(self, op: DFPattern, args: Optional[Sequence[DFPattern]]) -> None:
        self.op = _pattern_arg(op, "the callee of a call pattern")
        self.args = _pattern_list(args, "a call pattern argument")


class FunctionPattern(DFPattern):
    """Matches a function literal with parameters ``params`` (None: any) and ``body``."""

    def __init__(self, params: Optional[Sequence[DFPattern]], body: DFPattern) -> None:
        self.params = _pattern_list(params, "a function pattern parameter")
        self.body = _pattern_arg(body, "a function pattern body")


class IfPattern(DFPattern):
    def __init__(self, cond: DFPattern, true_branch: DFPattern, false_branch: DFPattern) -> None:
        self.cond = _pattern_arg(cond, "is_if's condition")
        self.true_branch = _pattern_arg(true_branch, "is_if's true branch")
        self.false_branch = _pattern_arg(false_branch, "is_if's false branch")


class LetPattern(DFPattern):
    def __init__(self, var: DFPattern, value: DFPattern, body: DFPattern) -> None:
        self.var = _pattern_arg(var, "is_let's variable")
        self.value = _pattern_arg(value, "is_let's value")
        self.body = _pattern_arg(body, "is_let's body")


class TuplePattern(DFPattern):
    """Matches a tuple whose fields match ``fields`` (None: any number of any fields)."""

    def __init__(self, fields: Optional[Sequence[DFPattern]]) -> None:
        self.fields = _pattern_list(fields, "a tuple pattern field")

    def __getitem__(self, index: int) -> DFPattern:
        if self.fields is None or index >= len(self.fields):
            raise IndexError("TuplePattern index out of range")
        return self.fields[index]

    def __len__(self) -> int:
        return len(self.fields or [])


class TupleGetItemPattern(DFPattern):
    """Matches ``t.index`` of a tuple matching ``tuple_value``; ``index=None`` any index."""

    def __init__(self, tuple_value: DFPattern, index: Optional[int] = None) -> None:
        self.tuple_value = _pattern_arg(tuple_value, "the tuple of is_tuple_get_item")
        self.index = -1 if index is None else int(index)


class AltPattern(DFPattern):
    """Matches ``left``, else ``right``."""

    def __init__(self, left: DFPattern, right: DFPattern) -> None:
        self.left = _pattern_arg(left, "the left side of '|'")
        self.right = _pattern_arg(right, "the right side of '|'")


class WildcardPattern(DFPattern):
    """Matches anything (or, after ``redirect_to(p)``, what ``p`` matches)."""

    def __init__(self) -> None:
        self.redirect: Optional[DFPattern] = None

    def redirect_to(self, pat: DFPattern) -> None:
        """Makes this wildcard stand for ``pat`` (recursive patterns, as in TVM 0.19)."""
        self.redirect = _pattern_arg(pat, "redirect_to's pattern")


class TypePattern(DFPattern):
    def __init__(self, pattern: DFPattern, ttype: Type) -> None:
        if not isinstance(ttype, Type):
            raise TypeError(f"has_type expects a relay type, got {ttype!r}")
        self.pattern = _pattern_arg(pattern, "has_type's pattern")
        self.type = ttype


class DataTypePattern(DFPattern):
    def __init__(self, pattern: DFPattern, dtype: str) -> None:
        if not isinstance(dtype, str):
            raise TypeError(f"has_dtype expects a dtype name such as 'float32', got {dtype!r}")
        self.pattern = _pattern_arg(pattern, "has_dtype's pattern")
        self.dtype = dtype


class ShapePattern(DFPattern):
    def __init__(self, pattern: DFPattern, shape: Sequence[int]) -> None:
        try:
            self.shape = [int(d) for d in shape]
        except (TypeError, ValueError):
            raise TypeError(f"has_shape expects a list of integers, got {shape!r}") from None
        self.pattern = _pattern_arg(pattern, "has_shape's pattern")


class AttrPattern(DFPattern):
    """Matches what ``pattern`` matches if its attributes include ``attrs``."""

    def __init__(self, pattern: DFPattern, attrs: Dict[str, object]) -> None:
        if not isinstance(attrs, dict):
            raise TypeError(f"has_attr expects a dict of attribute values, got {attrs!r}")
        self.pattern = _pattern_arg(pattern, "has_attr's pattern")
        self.attrs = dict(attrs)


class DominatorPattern(DFPattern):
    """``child`` dominates ``parent``: every path from ``parent`` to ``child`` goes through
    nodes matching ``path``."""

    def __init__(self, parent: DFPattern, path: DFPattern, child: DFPattern) -> None:
        self.parent = _pattern_arg(parent, "dominates' parent")
        self.path = _pattern_arg(path, "dominates' path")
        self.child = _pattern_arg(child, "dominates' child")


# -- TVM's constructors ---------------------------------------------------------------------------
def is_var(name: str = "") -> VarPattern:
    """A variable named ``name`` (any variable when empty)."""
    return VarPattern(name)


def is_constant() -> ConstantPattern:
    return ConstantPattern()


def is_expr(expr: Expr) -> ExprPattern:
    return ExprPattern(expr)


def _has_builder(op_name: str) -> bool:
    ns = _op_package
    *path, leaf = op_name.split(".")
    for part in path:
        ns = getattr(ns, part, None)
        if ns is None:
            return False
    return callable(getattr(ns, leaf, None))


def is_op(op_name: str) -> ExprPattern:
    """The operator called ``op_name``: ``is_op("nn.conv2d")(wildcard(), wildcard())``.

    As in TVM, the name must be an operator's (one relay-mlir builds, one TVM 0.19 registers,
    or one given attributes with ``register_op_attr``): a misspelt name is an error, not a
    pattern that never matches.
    """
    if not isinstance(op_name, str):
        raise TypeError(f"is_op expects an operator name, got {op_name!r}")
    if not (op_has_attrs(op_name) or _has_builder(op_name)):
        raise ValueError(f"is_op: operator {op_name} is not registered (no relay-mlir builder "
                         "and no TVM 0.19 operator of that name)")
    return ExprPattern(Op.get(op_name))


def is_tuple(fields: Optional[Sequence[DFPattern]]) -> TuplePattern:
    return TuplePattern(fields)


def is_tuple_get_item(tuple_value: DFPattern, index: Optional[int] = None) -> TupleGetItemPattern:
    return TupleGetItemPattern(tuple_value, index)


def is_if(cond: DFPattern, true_branch: DFPattern, false_branch: DFPattern) -> IfPattern:
    return IfPattern(cond, true_branch, false_branch)


def is_let(var: DFPattern, value: DFPattern, body: DFPattern) -> LetPattern:
    return LetPattern(var, value, body)


def wildcard() -> WildcardPattern:
    return WildcardPattern()


def has_type(ttype: Type, pattern: Optional[DFPattern] = None) -> TypePattern:
    return TypePattern(wildcard() if pattern is None else pattern, ttype)


def has_dtype(dtype: str, pattern: Optional[DFPattern] = None) -> DataTypePattern:
    return DataTypePattern(wildcard() if pattern is None else pattern, dtype)


def has_shape(shape: Sequence[int], pattern: Optional[DFPattern] = None) -> ShapePattern:
    return ShapePattern(wildcard() if pattern is None else pattern, shape)


def has_attr(attrs: Dict[str, object], pattern: Optional[DFPattern] = None) -> AttrPattern:
    return AttrPattern(wildcard() if pattern is None else pattern, attrs)


def dominates(parent: DFPattern, path: DFPattern, child: DFPattern) -> DominatorPattern:
    return DominatorPattern(parent, path, child)

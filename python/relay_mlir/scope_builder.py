"""``ScopeBuilder``: builds nested ``let``/``if`` code imperatively, as ``tvm.relay.ScopeBuilder``.

    >>> import relay_mlir as relay
    >>> sb = relay.ScopeBuilder()
    >>> x = relay.var("x", shape=(2,))
    >>> y = sb.let("y", relay.exp(x))
    >>> c = relay.var("c", shape=(), dtype="bool")
    >>> with sb.if_scope(c):
    ...     sb.ret(y)
    >>> with sb.else_scope():
    ...     sb.ret(relay.negative(y))
    >>> body = sb.get()
    >>> type(body).__name__, type(body.body).__name__
    ('Let', 'If')
"""
from __future__ import annotations

from contextlib import contextmanager
from typing import Iterator, List, Optional, Tuple as PyTuple, Union

from .expr import Expr, If, Let, TupleWrapper, Var
from .ty import Type

__all__ = ["ScopeBuilder"]


class _Scope:
    def __init__(self) -> None:
        self.bindings: List[PyTuple[Var, Expr]] = []
        self.ret: Optional[Expr] = None


class ScopeBuilder:
    """Accumulates ``let`` bindings per scope; ``if_scope``/``else_scope`` open branches."""

    def __init__(self) -> None:
        self._scopes: List[_Scope] = [_Scope()]
        self._pending_if: List[PyTuple[Expr, Expr]] = []  # (cond, then-expression) awaiting else

    def let(self, var: Union[str, Var, PyTuple[str, Type]], value: Expr) -> Var:
        """Binds ``value`` to ``var`` (a Var, a name, or ``(name, type)``); returns the Var."""
        if isinstance(value, TupleWrapper):
            value = value.astuple()
        if isinstance(var, str):
            var = Var(var)
        elif isinstance(var, tuple):
            var = Var(var[0], var[1])
        if not isinstance(var, Var):
            raise TypeError(f"ScopeBuilder.let binds a Var or a name, got {var!r}")
        self._check_open()
        self._scopes[-1].bindings.append((var, value))
        return var

    def ret(self, value: Expr) -> None:
        """Sets the value of the current scope (once)."""
        if isinstance(value, TupleWrapper):
            value = value.astuple()
        scope = self._scopes[-1]
        if scope.ret is not None:
            raise RuntimeError("ret was called twice in one scope")
        scope.ret = value

    def _check_open(self) -> None:
        if self._scopes[-1].ret is not None:
            raise RuntimeError("cannot add bindings after ret in this scope")

    @contextmanager
    def if_scope(self, cond: Expr) -> Iterator[None]:
        """The true branch of ``if (cond)``; an ``else_scope`` must follow."""
        self._check_open()
        self._scopes.append(_Scope())
        yield
        then = self._close()
        self._pending_if.append((cond, then))

    @contextmanager
    def else_scope(self) -> Iterator[None]:
        """The false branch; the ``If`` becomes the value of the enclosing scope."""
        if not self._pending_if:
            raise RuntimeError("else_scope without a preceding if_scope")
        cond, then = self._pending_if.pop()
        self._scopes.append(_Scope())
        yield
        other = self._close()
        self.ret(If(cond, then, other))

    def _close(self) -> Expr:
        scope = self._scopes.pop()
        if scope.ret is None:
            raise RuntimeError("a scope ended without ret")
        return self._wrap(scope)

    @staticmethod
    def _wrap(scope: _Scope) -> Expr:
        body = scope.ret
        for var, value in reversed(scope.bindings):
            body = Let(var, value, body)
        return body

    def get(self) -> Expr:
        """The built expression (the outermost scope must have a ``ret``)."""
        if len(self._scopes) != 1:
            raise RuntimeError("get() inside an open if/else scope")
        if self._pending_if:
            raise RuntimeError("an if_scope has no else_scope")
        scope = self._scopes[0]
        if scope.ret is None:
            raise RuntimeError("ScopeBuilder.get() before ret()")
        return self._wrap(scope)

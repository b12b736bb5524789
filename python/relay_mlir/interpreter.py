"""The reference interpreter: a direct evaluator of the Relay expression tree.

This is the oracle the language tests (and later fuzzing) compare compiled
code against, so it is written to be obviously correct and shares nothing
with the MLIR lowering: it walks the Python ``Expr`` tree and computes
tensor operators with numpy (``relay_mlir.interpreter_ops``). It needs no
type inference, so it runs generic (polymorphic) programs as they are.

Semantics (those of TVM 0.19's ``src/relay/backend/interpreter.cc``):

* strict evaluation; a call evaluates its arguments left to right, then the
  callee (a closure, a global function, a constructor or an operator);
* ``Let`` evaluates its value, then its body; a ``Let`` whose value is a
  ``Function`` is a recursive binding (the closure sees itself);
* ``If`` needs a 0-d bool tensor;
* ``Match`` tries its clauses in order; no matching clause raises
  ``RelayRuntimeError("match failed: no clause matches value ...")``;
* ``RefWrite`` evaluates the reference, then the value, stores it and
  returns the empty tuple.

Values:

* tensors: ``numpy.ndarray`` with the Relay dtype (0-d arrays for scalars);
* tuples: plain Python ``tuple``;
* functions: ``Closure`` (a ``Function`` and the values of its free
  variables); a ``Closure`` is callable from Python. An uncalled
  ``Constructor`` or ``Op`` is a function value too;
* references: ``RefValue`` (a mutable cell, ``.value``);
* ADT values: ``ConstructorValue`` with ``.tag``, ``.constructor`` (the
  ``Constructor``), ``.name`` and ``.fields`` (a list).

The evaluator is a CEK-style machine with an explicit work stack and value
stack: neither deep recursion nor long loops in the program use Python's
stack, and calls in tail position do not grow the work stack.

An expression node with several parents (a DAG) is evaluated once per
function activation, at its first use, like TVM's interpreter and the
compiler. Variables are assumed bound once (Relay's well-formedness); a
binding that shadows a variable already bound in the same activation is
undone when its scope ends.

Example::

    >>> import numpy as np, relay_mlir as relay
    >>> from relay_mlir.interpreter import Interpreter
    >>> x = relay.var("x", shape=(2,))
    >>> mod = relay.IRModule.from_expr(relay.Function([x], x + x))
    >>> Interpreter(mod).run_main(np.array([1, 2], "float32"))
    array([2., 4.], dtype=float32)
"""
from __future__ import annotations

from typing import Any as PyAny, Dict, List, Optional, Sequence

import numpy as np

from .adt import (Constructor, Match, PatternConstructor, PatternTuple, PatternVar,
                  PatternWildcard)
from .analysis import free_vars
from .errors import RelayRuntimeError
from .expr import (Call, Constant, Expr, Function, GlobalVar, If, Let, Op, RefCreate, RefRead,
                   RefWrite, Tuple, TupleGetItem, TupleWrapper, Var)
from .interpreter_ops import get_kernel
from .ty import TensorType

__all__ = ["Interpreter", "Closure", "RefValue", "ConstructorValue", "RelayRuntimeError",
           "to_value", "assert_values_close"]


class Closure:
    """A function value: ``fn`` with ``env`` (its free variables' values)."""

    __slots__ = ("fn", "env", "interp", "name")

    def __init__(self, fn: Function, env: Dict[Var, PyAny], interp: "Interpreter",
                 name: Optional[str] = None) -> None:
        self.fn, self.env, self.interp, self.name = fn, env, interp, name

    def __call__(self, *args: PyAny) -> PyAny:
        """Applies the closure to Python/numpy values (runs the interpreter)."""
        return self.interp.call_closure(self, args, {})

    def __repr__(self) -> str:
        return f"Closure({self.name or 'fn'}/{len(self.fn.params)})"


class RefValue:
    """A mutable reference cell (``RefCreate``); ``.value`` is its content."""

    __slots__ = ("value",)

    def __init__(self, value: PyAny) -> None:
        self.value = value

    def __repr__(self) -> str:
        return f"RefValue({_show(self.value)})"


class ConstructorValue:
    """An ADT value: ``constructor`` applied to ``fields``.

    ``.tag`` is the constructor's tag in its module, ``.constructor`` the
    ``Constructor`` (``.name`` its name), ``.fields`` a list of values; the
    same attributes as the ``ADT`` values returned by compiled code.
    """

    __slots__ = ("constructor", "fields")

    def __init__(self, constructor: Constructor, fields: Sequence[PyAny]) -> None:
        self.constructor = constructor
        self.fields = list(fields)

    @property
    def tag(self) -> int:
        return self.constructor.tag

    @property
    def name(self) -> str:
        return self.constructor.name_hint

    def __repr__(self) -> str:
        return _show(self)


def _show(v: PyAny, limit: int = 200) -> str:
    """A short description of a value for error messages (iterative)."""
    out: List[str] = []
    stack: List[PyAny] = [v]
    while stack and sum(map(len, out)) < limit:
        cur = stack.pop()
        if isinstance(cur, str):
            out.append(cur)
        elif isinstance(cur, ConstructorValue):
            out.append(cur.name + "(")
            stack.append(")")
            for i in range(len(cur.fields) - 1, -1, -1):
                stack.append(cur.fields[i])
                if i:
                    stack.append(", ")
        elif isinstance(cur, tuple):
            out.append("(")
            stack.append(",)" if len(cur) == 1 else ")")
            for i in range(len(cur) - 1, -1, -1):
                stack.append(cur[i])
                if i:
                    stack.append(", ")
        elif isinstance(cur, np.ndarray):
            if cur.size <= 4:
                out.append(f"{cur.tolist()!r}:{cur.dtype}")
            else:
                out.append(f"tensor{list(cur.shape)}:{cur.dtype}")
        else:
            out.append(repr(cur))
    s = "".join(out)
    return s if not stack else s + "..."


def to_value(x: PyAny, annotation: Optional[object] = None) -> PyAny:
    """A Python input as an interpreter value: numbers and lists become numpy
    arrays (of the annotated dtype when the parameter has a tensor type),
    tuples stay tuples; arrays, closures, refs and ADT values pass through."""
    if isinstance(x, np.ndarray):
        return x
    if isinstance(x, np.generic):
        return np.asarray(x)
    if isinstance(x, (bool, int, float, list)):
        dtype = getattr(annotation, "dtype", None) if isinstance(annotation, TensorType) else None
        if dtype is None:
            arr = np.asarray(x)
            if arr.dtype == np.float64:
                arr = arr.astype("float32")
            elif arr.dtype == np.int64:
                arr = arr.astype("int32")
            return arr
        return np.asarray(x, dtype=dtype)
    if isinstance(x, tuple):
        fields = getattr(annotation, "fields", None)
        return tuple(to_value(f, fields[i] if fields and i < len(fields) else None)
                     for i, f in enumerate(x))
    return x


def assert_values_close(got: PyAny, want: PyAny, rtol: float = 0.0, atol: float = 0.0) -> None:
    """Asserts two values agree: tensors in shape, dtype and value (exactly for
    integer/bool tensors, within ``rtol``/``atol`` for floats, NaN equal to
    NaN), tuples and ADT values field by field (an ADT value's constructor
    compared by name, so interpreter ``ConstructorValue``s and compiled
    code's ``ADT`` values compare). Iterative: deep lists are fine.

    >>> import numpy as np
    >>> assert_values_close((np.float32(1.0), np.array([1, 2])), (np.float32(1.0), np.array([1, 2])))
    """
    stack = [(got, want, "value")]
    while stack:
        g, w, path = stack.pop()
        if isinstance(w, (np.ndarray, np.generic)) or isinstance(g, (np.ndarray, np.generic)):
            g, w = np.asarray(g), np.asarray(w)
            assert g.shape == w.shape, f"{path}: shape {g.shape} != {w.shape}"
            assert g.dtype == w.dtype, f"{path}: dtype {g.dtype} != {w.dtype}"
            if g.dtype.kind == "f":
                np.testing.assert_allclose(g, w, rtol=rtol, atol=atol, equal_nan=True, err_msg=path)
            else:
                np.testing.assert_array_equal(g, w, err_msg=path)
        elif isinstance(w, (tuple, list)) or isinstance(g, (tuple, list)):
            assert isinstance(g, (tuple, list)) and isinstance(w, (tuple, list)), f"{path}: {g!r} vs {w!r}"
            assert len(g) == len(w), f"{path}: {len(g)} != {len(w)} fields"
            stack.extend((a, b, f"{path}[{i}]") for i, (a, b) in enumerate(zip(g, w)))
        elif hasattr(w, "fields") and hasattr(g, "fields"):
            gn = getattr(getattr(g, "constructor", None), "name_hint", getattr(g, "constructor", None))
            wn = getattr(getattr(w, "constructor", None), "name_hint", getattr(w, "constructor", None))
            assert gn == wn, f"{path}: constructor {gn} != {wn}"
            assert len(g.fields) == len(w.fields), f"{path}: {len(g.fields)} != {len(w.fields)} fields"
            stack.extend((a, b, f"{path}.{gn}[{i}]") for i, (a, b) in enumerate(zip(g.fields, w.fields)))
        else:
            assert g is w or g == w, f"{path}: {g!r} != {w!r}"


_MISSING = object()

# work-stack frame kinds
(_EVAL, _CALL, _APPLY, _LET, _IF, _TUPLE, _TGI, _MATCH, _REFNEW, _REFREAD, _REFWRITE,
 _RESTORE, _MEMO) = range(13)


def _read(forms, env: dict, got) -> List[PyAny]:
    """The operand values of a call: simple forms (``Interpreter._simple``) computed here,
    complex ones taken in order from ``got`` (their values, already evaluated)."""
    out = []
    j = 0
    for f in forms:
        if f is None:
            out.append(got[j])
            j += 1
            continue
        c = f[0]
        if c == 0:
            out.append(_lookup(env, f[1]))
        elif c == 1:
            out.append(f[1])
        else:
            out.append(f[1]([_lookup(env, g[1]) if g[0] == 0 else g[1] for g in f[2]], f[3]))
    return out


def _lookup(env: dict, var: Var) -> PyAny:
    v = env.get(var, _MISSING)
    if v is _MISSING:
        raise RelayRuntimeError(f"unbound variable '{var.name_hint}'")
    return v


def _bind(env: dict, var: Var, value: PyAny, push) -> None:
    """``env[var] = value``, pushing a frame that restores an older binding of ``var``."""
    old = env.get(var, _MISSING)
    if old is not _MISSING:
        push((_RESTORE, env, var, old))
    env[var] = value


def _constant_value(c: Constant) -> np.ndarray:
    """A constant's array as a value: a plain ndarray (``Constant.data`` is a ``ConstantData``,
    which also reads as TVM's NDArray; values are checked by ``type(v) is np.ndarray``)."""
    return c.data.view(np.ndarray)


def _condition(c: PyAny) -> bool:
    """An If's condition value, which must be a 0-d bool tensor (TVM's interpreter checks it)."""
    if type(c) is not np.ndarray or c.shape != () or c.dtype != np.bool_:
        raise RelayRuntimeError(f"If: the condition must be a 0-d bool tensor, got {_show(c)}")
    return bool(c)


def _pop_values(vals: List[PyAny], n: int) -> List[PyAny]:
    """The top ``n`` values of the value stack, removed, in push order."""
    if not n:
        return []
    got = vals[-n:]
    del vals[-n:]
    return got


def _resume_ref(k: int, vals: List[PyAny]) -> None:
    """RefCreate, RefRead and RefWrite with their operands' values on the value stack."""
    if k == _REFNEW:
        vals.append(RefValue(vals.pop()))
        return
    if k == _REFREAD:
        r = vals.pop()
        if type(r) is not RefValue:
            raise RelayRuntimeError(f"RefRead of a non-reference value {_show(r)}")
        vals.append(r.value)
        return
    v = vals.pop()
    r = vals.pop()
    if type(r) is not RefValue:
        raise RelayRuntimeError(f"RefWrite to a non-reference value {_show(r)}")
    r.value = v
    vals.append(())


def _children(e: Expr) -> List[Expr]:
    """The sub-expressions of ``e`` (for the sharing analysis)."""
    te = type(e)
    if te is Call:
        return ([] if type(e.op) in (Op, Constructor, GlobalVar) else [e.op]) + list(e.args)
    if te is Tuple:
        return list(e.fields)
    if te is TupleGetItem:
        return [e.tuple_value]
    if te is Let:
        return [e.value, e.body]
    if te is If:
        return [e.cond, e.true_branch, e.false_branch]
    if te is Function:
        return [e.body]
    if te is Match:
        return [e.data] + [c.rhs for c in e.clauses]
    if te is RefCreate:
        return [e.value]
    if te is RefRead:
        return [e.ref]
    if te is RefWrite:
        return [e.ref, e.value]
    return []


class Interpreter:
    """Evaluates expressions of ``mod`` (an ``IRModule``, or None)."""

    def __init__(self, mod=None) -> None:
        self.mod = mod
        self._globals: Dict[GlobalVar, Closure] = {}
        self._free: Dict[Function, List[Var]] = {}
        self._infos: Dict[Call, tuple] = {}  # per Call node: how to evaluate its operands
        self._simple_forms: Dict[Expr, Optional[tuple]] = {}
        self._memo_nodes: set = set()  # nodes with several parents: evaluated once per activation
        self._analysed: set = set()
        self.steps = 0  # work-stack steps run so far (for speed measurements)

    # -- entry points -----------------------------------------------------------------
    def evaluate(self, expr: Expr, env: Optional[Dict[Var, PyAny]] = None) -> PyAny:
        """The value of ``expr`` (its free variables bound by ``env``)."""
        if isinstance(expr, TupleWrapper):
            expr = expr.astuple()
        self._find_shared(expr)
        return self._run([(_EVAL, expr, dict(env or {}))])

    def apply(self, fn_value: PyAny, args: Sequence[PyAny]) -> PyAny:
        """Applies a function value (closure, constructor, operator) to values."""
        args = list(args)
        return self._run([(_APPLY, len(args))], args + [fn_value])

    def global_closure(self, gv: GlobalVar) -> Closure:
        """The closure of global function ``gv`` (looked up by identity, then by name)."""
        clo = self._globals.get(gv)
        if clo is None:
            found = self.mod.lookup(gv) if self.mod is not None else None
            if found is None:
                raise RelayRuntimeError(f"unknown global function '{gv.name_hint}'")
            clo = Closure(found[1], {}, self, gv.name_hint)
            self._find_shared(found[1])
            self._globals[gv] = clo
        return clo

    def run_main(self, *args: PyAny, **kwargs: PyAny) -> PyAny:
        """Runs the module's ``main`` on Python/numpy inputs."""
        if self.mod is None or "main" not in self.mod:
            raise RelayRuntimeError("the module has no 'main' function")
        clo = self.global_closure(self.mod.get_global_var("main"))
        return self.call_closure(clo, args, kwargs)

    def call_closure(self, clo: Closure, args: Sequence[PyAny], kwargs: Dict[str, PyAny]) -> PyAny:
        """Applies ``clo`` to positional and keyword (by parameter name) Python inputs."""
        params = clo.fn.params
        values: List[PyAny] = list(args)
        if kwargs:
            names = [p.name_hint for p in params]
            for name in kwargs:
                if name not in names:
                    raise TypeError(f"unexpected argument '{name}' (parameters: {names})")
            for p in params[len(values):]:
                if p.name_hint not in kwargs:
                    raise TypeError(f"missing argument '{p.name_hint}'")
                values.append(kwargs[p.name_hint])
        if len(values) != len(params):
            raise TypeError(f"the function takes {len(params)} arguments, got {len(values)}")
        return self.apply(clo, [self._adt_in(to_value(v, p.type_annotation)) for v, p in zip(values, params)])

    def _adt_in(self, v: PyAny) -> PyAny:
        """ADT values from elsewhere (the ``ADT`` values compiled code returns:
        ``.tag``, ``.fields``, ``.constructor`` a name) as ``ConstructorValue``s
        of this module's constructors, looked up by tag; iterative."""
        def foreign(x):
            return (type(x) is not ConstructorValue and hasattr(x, "tag") and hasattr(x, "fields")
                    and not isinstance(x, np.ndarray))
        if not (foreign(v) or isinstance(v, tuple)):
            return v
        # post-order rebuild over (value, done) pairs
        out: List[PyAny] = []
        stack: List[tuple] = [(v, False)]
        while stack:
            x, done = stack.pop()
            if done:
                n = len(x.fields) if foreign(x) else len(x)
                kids = out[len(out) - n:] if n else []
                del out[len(out) - n:]
                if isinstance(x, tuple):
                    out.append(tuple(kids))
                    continue
                if self.mod is None:
                    raise RelayRuntimeError("an ADT input needs the module of its constructors")
                try:
                    c = self.mod.get_constructor(int(x.tag))
                except ValueError:
                    raise RelayRuntimeError(f"ADT input with unknown constructor tag {x.tag}") from None
                name = getattr(x, "constructor", None)
                name = getattr(name, "name_hint", name)
                if isinstance(name, str) and name != c.name_hint:
                    raise RelayRuntimeError(f"ADT input tag {x.tag} is '{c.name_hint}' in the module, "
                                            f"not '{name}'")
                out.append(ConstructorValue(c, kids))
            elif foreign(x) or isinstance(x, tuple):
                stack.append((x, True))
                for f in reversed(list(x.fields if foreign(x) else x)):
                    stack.append((f, False))
            else:
                out.append(to_value(x))
        return out[0]

    # -- sharing ---------------------------------------------------------------------------
    def _find_shared(self, root: Expr) -> None:
        """Marks the nodes of ``root`` with several parents (a DAG in
        dataflow form): such a node is evaluated once per activation, at its
        first use, and its value stored in the activation's environment
        (keyed by the node). TVM 0.19's interpreter does the same (an
        expression shared by two calls of ``tick()`` runs ``tick`` once), as
        does the compiler (one SSA value); it also keeps a DAG from costing
        time exponential in its depth. Variables, constants, functions and
        operator/constructor/global references are not marked (they are
        cheap and have no effect)."""
        if root in self._analysed:
            return
        self._analysed.add(root)
        parents: Dict[Expr, int] = {}
        stack: List[Expr] = [root]
        while stack:
            e = stack.pop()
            for c in _children(e):
                n = parents.get(c, 0)
                parents[c] = n + 1
                if n == 0:
                    stack.append(c)
        skip = (Var, Constant, Function, Op, Constructor, GlobalVar)
        for e, n in parents.items():
            if n > 1 and type(e) not in skip:
                self._memo_nodes.add(e)

    # -- helpers -------------------------------------------------------------------------
    def _closure(self, fn: Function, env: Dict[Var, PyAny], rec: Optional[Var] = None) -> Closure:
        fvs = self._free.get(fn)
        if fvs is None:
            fvs = self._free[fn] = free_vars(fn)
        captured: Dict[Var, PyAny] = {}
        for v in fvs:
            if v is rec:
                continue
            val = env.get(v, _MISSING)
            if val is _MISSING:
                raise RelayRuntimeError(f"unbound variable '{v.name_hint}' captured by a function")
            captured[v] = val
        clo = Closure(fn, captured, self, rec.name_hint if rec is not None else None)
        if rec is not None:
            captured[rec] = clo
        return clo

    @staticmethod
    def _match(pattern: object, value: PyAny, binds: List[PyAny]) -> bool:
        stack = [(pattern, value)]
        while stack:
            p, v = stack.pop()
            tp = type(p)
            if tp is PatternWildcard:
                continue
            if tp is PatternVar:
                binds.append((p.var, v))
            elif tp is PatternConstructor:
                if type(v) is not ConstructorValue:
                    if isinstance(v, (np.ndarray, tuple, Closure, RefValue)):
                        raise RelayRuntimeError(f"match: a constructor pattern "
                                                f"'{p.constructor.name_hint}' met a non-ADT value {_show(v)}")
                    return False
                c = v.constructor
                if c is not p.constructor and not (c.tag == p.constructor.tag and c.tag != -1
                                                   and c.name_hint == p.constructor.name_hint):
                    return False
                if len(v.fields) != len(p.patterns):
                    raise RelayRuntimeError(f"match: value of '{c.name_hint}' has {len(v.fields)} fields, "
                                            f"the pattern {len(p.patterns)}")
                stack.extend(zip(p.patterns, v.fields))
            elif tp is PatternTuple:
                if type(v) is not tuple:
                    raise RelayRuntimeError(f"match: a tuple pattern met a non-tuple value {_show(v)}")
                if len(v) != len(p.patterns):
                    raise RelayRuntimeError(f"match: a {len(p.patterns)}-tuple pattern met a "
                                            f"{len(v)}-tuple")
                stack.extend(zip(p.patterns, v))
            else:
                raise RelayRuntimeError(f"unknown pattern {p!r}")
        return True

    # -- the machine ------------------------------------------------------------------------
    # Operands are "simple" when they can be evaluated on the spot, without
    # the work stack: a variable, a constant, or an operator call whose
    # arguments are variables or constants. A call's info (cached per Call
    # node) lists its operands (the arguments, then the callee if it is an
    # expression) with their simple-forms; the complex ones go through the
    # work stack, left to right, and the simple ones are read when the call
    # is made (they are pure, so reading them then is the same).
    def _simple(self, e: Expr) -> Optional[tuple]:
        te = type(e)
        if te is Var:
            return (0, e)
        if te is Constant:
            return (1, _constant_value(e))
        if te is Call and type(e.op) is Op and all(type(a) is Var or type(a) is Constant for a in e.args):
            return (2, get_kernel(e.op.name),
                    [(0, a) if type(a) is Var else (1, _constant_value(a)) for a in e.args], e.attrs)
        return None

    def _call_info(self, e: Call) -> tuple:
        op = e.op
        top = type(op)
        operands = list(e.args)
        if top is Op:
            kind, target = 0, (get_kernel(op.name), e.attrs)
        elif top is Constructor:
            kind, target = 1, op
        elif top is GlobalVar:
            kind, target = 2, op
        else:
            kind, target = 3, None
            operands.append(op)  # the callee is evaluated after the arguments, as in TVM
        forms = [self._simple(a) for a in operands]
        complex_ = [a for a, f in zip(operands, forms) if f is None]
        return (kind, target, forms, complex_)

    def _run(self, tasks: List[tuple], vals: Optional[List[PyAny]] = None) -> PyAny:
        with np.errstate(all="ignore"):
            return self._machine(tasks, [] if vals is None else vals)

    def _machine(self, tasks: List[tuple], vals: List[PyAny]) -> PyAny:
        """Runs the work stack ``tasks`` until it is empty; the value stack ``vals`` then holds
        the result. An ``_EVAL`` frame evaluates an expression (``_eval``); every other frame
        continues a node whose operands are on the value stack (``_resume``)."""
        pop = tasks.pop
        evaluate, resume = self._eval, self._resume
        steps = 0
        try:
            while tasks:
                t = pop()
                steps += 1
                if t[0] == _EVAL:
                    steps += evaluate(t[1], t[2], tasks, vals)
                else:
                    resume(t, tasks, vals)
        finally:
            self.steps += steps
        if len(vals) != 1:  # pragma: no cover - a bug in the machine
            raise AssertionError(f"the value stack ends with {len(vals)} values")
        return vals[0]

    def _eval(self, e: Expr, env: dict, tasks: List[tuple], vals: List[PyAny]) -> int:
        """Evaluates ``e`` in ``env``: pushes its value, or the frames that compute it.
        Expressions in tail position (a let body, an if branch, a closure's body) continue here,
        without the stack; returns how many such steps it took."""
        push, vpush = tasks.append, vals.append
        memo_nodes = self._memo_nodes
        steps = 0
        while True:
            if e in memo_nodes:
                v = env.get(e, _MISSING)
                if v is not _MISSING:
                    vpush(v)
                    return steps
                push((_MEMO, env, e))
            te = type(e)
            if te is Var:
                v = env.get(e, _MISSING)
                if v is _MISSING:
                    raise RelayRuntimeError(f"unbound variable '{e.name_hint}'")
                vpush(v)
                return steps
            if te is Constant:
                vpush(_constant_value(e))
                return steps
            if te is Call:
                info = self._infos.get(e)
                if info is None:
                    info = self._infos[e] = self._call_info(e)
                cplx = info[3]
                if cplx:
                    push((_CALL, info, env))
                    for i in range(len(cplx) - 1, -1, -1):
                        push((_EVAL, cplx[i], env))
                    return steps
                nxt = self._dispatch(info, _read(info[2], env, ()), vpush)
                if nxt is None:
                    return steps
                e, env = nxt
            elif te is Let:
                val = e.value
                if type(val) is Function:  # a recursive binding
                    v = self._closure(val, env, e.var)
                else:
                    f = self._simple_form(val)
                    if f is None:
                        push((_LET, e, env))
                        e = val
                        continue
                    v = _read((f,), env, ())[0]
                _bind(env, e.var, v, push)
                e = e.body
            elif te is If:
                f = self._simple_form(e.cond)
                if f is None:
                    push((_IF, e, env))
                    e = e.cond
                    continue
                e = e.true_branch if _condition(_read((f,), env, ())[0]) else e.false_branch
            else:
                e = self._eval_structure(e, env, push, vpush)
                if e is None:
                    return steps
                continue
            steps += 1

    def _simple_form(self, e: Expr) -> Optional[tuple]:
        """``_simple(e)``, memoised."""
        f = self._simple_forms.get(e, _MISSING)
        if f is _MISSING:
            f = self._simple_forms[e] = self._simple(e)
        return f

    def _eval_structure(self, e: Expr, env: dict, push, vpush) -> Optional[Expr]:
        """Tuples, projections, matches, functions and references: pushes the value or the
        frames that finish the node, and returns the sub-expression to evaluate next (None when
        there is none)."""
        te = type(e)
        if te is Tuple:
            fields = e.fields
            push((_TUPLE, len(fields)))
            for i in range(len(fields) - 1, -1, -1):
                push((_EVAL, fields[i], env))
            return None
        if te is TupleGetItem:
            push((_TGI, e.index))
            return e.tuple_value
        if te is Match:
            push((_MATCH, e, env))
            return e.data
        if te is Function:
            vpush(self._closure(e, env))
            return None
        if te is GlobalVar:
            vpush(self.global_closure(e))
            return None
        if te is RefCreate:
            push((_REFNEW,))
            return e.value
        if te is RefRead:
            push((_REFREAD,))
            return e.ref
        if te is RefWrite:
            push((_REFWRITE,))
            push((_EVAL, e.value, env))
            return e.ref
        if te is Constructor or te is Op:
            vpush(e)  # an uncalled constructor or operator: a function value
            return None
        raise RelayRuntimeError(f"the debug interpreter cannot evaluate {e!r}")

    def _resume(self, t: tuple, tasks: List[tuple], vals: List[PyAny]) -> None:
        """Continues the node of frame ``t`` (any kind but ``_EVAL``) with the values its
        operands left on the value stack."""
        push, vpush, vpop = tasks.append, vals.append, vals.pop
        k = t[0]
        if k == _CALL:
            info = t[1]
            nxt = self._dispatch(info, _read(info[2], t[2], _pop_values(vals, len(info[3]))), vpush)
            if nxt is not None:
                push((_EVAL, nxt[0], nxt[1]))
        elif k == _APPLY:
            f = vpop()
            nxt = self._dispatch((3, None), _pop_values(vals, t[1]) + [f], vpush)
            if nxt is not None:
                push((_EVAL, nxt[0], nxt[1]))
        elif k == _LET:
            e, env = t[1], t[2]
            _bind(env, e.var, vpop(), push)
            push((_EVAL, e.body, env))
        elif k == _IF:
            e = t[1]
            push((_EVAL, e.true_branch if _condition(vpop()) else e.false_branch, t[2]))
        elif k == _TUPLE:
            vpush(tuple(_pop_values(vals, t[1])))
        elif k == _TGI:
            tup = vpop()
            if type(tup) is not tuple:
                raise RelayRuntimeError(f"TupleGetItem of a non-tuple value {_show(tup)}")
            i = t[1]
            if not -len(tup) <= i < len(tup):
                raise RelayRuntimeError(f"TupleGetItem index {i} out of range for a "
                                        f"{len(tup)}-tuple")
            vpush(tup[i])
        elif k == _MATCH:
            self._resume_match(t[1], t[2], vpop(), push)
        elif k in (_REFNEW, _REFREAD, _REFWRITE):
            _resume_ref(k, vals)
        elif k == _RESTORE:
            t[1][t[2]] = t[3]
        elif k == _MEMO:
            t[1][t[2]] = vals[-1]
        else:  # pragma: no cover
            raise AssertionError(f"bad frame {t!r}")

    def _resume_match(self, e: Match, env: dict, data: PyAny, push) -> None:
        """Binds the first clause whose pattern matches ``data`` and evaluates its body next."""
        for clause in e.clauses:
            binds: List[PyAny] = []
            if self._match(clause.lhs, data, binds):
                for var, v in binds:
                    _bind(env, var, v, push)
                push((_EVAL, clause.rhs, env))
                return
        raise RelayRuntimeError(f"match failed: no clause matches value {_show(data)}")

    def _dispatch(self, info: tuple, args: List[PyAny], vpush) -> Optional[tuple]:
        """Makes a call with its operand values. Pushes the result of an
        operator or constructor and returns None; for a closure returns
        ``(body, env)`` to evaluate next (a tail call)."""
        kind = info[0]
        if kind == 0:
            kern, attrs = info[1]
            vpush(kern(args, attrs))
            return None
        if kind == 1:
            c = info[1]
            if len(c.inputs) != len(args):
                raise RelayRuntimeError(f"constructor '{c.name_hint}' takes {len(c.inputs)} "
                                        f"fields, called with {len(args)}")
            vpush(ConstructorValue(c, args))
            return None
        f = self.global_closure(info[1]) if kind == 2 else args.pop()
        tf = type(f)
        if tf is Closure:
            fn = f.fn
            params = fn.params
            if len(params) != len(args):
                raise RelayRuntimeError(f"{f!r} takes {len(params)} arguments, called with {len(args)}")
            env = dict(f.env)
            for p, a in zip(params, args):
                env[p] = a
            return fn.body, env
        if tf is Constructor:
            if len(f.inputs) != len(args):
                raise RelayRuntimeError(f"constructor '{f.name_hint}' takes {len(f.inputs)} "
                                        f"fields, called with {len(args)}")
            vpush(ConstructorValue(f, args))
            return None
        if tf is Op:
            vpush(get_kernel(f.name)(args, {}))
            return None
        raise RelayRuntimeError(f"calling a value that is not a function: {_show(f)}")

"""ADT values a compiled program returns, as Python objects.

A compiled ``main`` returns an algebraic data type value as IREE's run-time
list ``[tag, field0, field1, ...]`` (docs/design.md, "ADT values and
references"); the ``Executable`` turns it into an :class:`ADT` (like TVM's
``tvm.runtime.container.ADT`` / ``ConstructorValue``) with the relay type of
``main``'s result, known from the relay module before lowering:

* ``.tag``: the constructor's index in its ``relay.adt``;
* ``.constructor``: the constructor's name (``"Cons"``);
* ``.adt``: the ADT's name (``"List"``);
* ``.fields``: a tuple of the fields, decoded by their types: tensors as
  numpy arrays, ADTs as ``ADT``, tuples as Python tuples, references as
  :class:`RefValue`.

Example::

    >>> nil = ADT(0, "Nil", (), adt="List")
    >>> ADT(1, "Cons", (1.0, nil), adt="List")
    Cons(1.0, Nil)
"""
from __future__ import annotations

import functools
from typing import Callable, Dict, List, Optional, Sequence, Tuple

import numpy as np

from .narrow_dtypes import NARROW_DTYPES, from_storage, to_storage
from .ty import Any, RefType, TensorType, TupleType, Type, TypeCall, TypeVar, from_mlir

__all__ = ["ADT", "RefValue", "ADTDef", "ResultLayout", "adt_defs_from_mlir"]


class ADT:
    """A value of an algebraic data type: a constructor applied to fields."""

    __slots__ = ("tag", "constructor", "fields", "adt")

    def __init__(self, tag: int, constructor: str, fields: Sequence[object] = (),
                 adt: Optional[str] = None) -> None:
        self.tag = int(tag)
        self.constructor = constructor
        self.fields = tuple(fields)
        self.adt = adt

    def __len__(self) -> int:
        return len(self.fields)

    def __getitem__(self, i: int) -> object:
        return self.fields[i]

    def __iter__(self):
        return iter(self.fields)

    def __repr__(self) -> str:
        if not self.fields:
            return self.constructor
        return f"{self.constructor}({', '.join(repr(f) for f in self.fields)})"


class RefValue:
    """A reference cell returned by a program (``!relay.ref<T>``); ``.value`` is its content."""

    __slots__ = ("value",)

    def __init__(self, value: object) -> None:
        self.value = value

    def __repr__(self) -> str:
        return f"RefValue({self.value!r})"


class ADTDef:
    """A ``relay.adt``: its type parameters and constructors (name, field types) in tag order."""

    def __init__(self, name: str, type_params: Sequence[str],
                 constructors: Sequence[Tuple[str, Sequence[Type]]]) -> None:
        self.name = name
        self.type_params = list(type_params)
        self.constructors = [(c, list(fields)) for c, fields in constructors]
        self.tags = {c: tag for tag, (c, _) in enumerate(self.constructors)}
        # (tag, ids of args) -> (args, result): a recursive field (a List's tail) has
        # the very same argument objects as its parent, so encoding a long list
        # substitutes once per constructor, not once per element
        self._memo: Dict[Tuple[int, Tuple[int, ...]], Tuple[Sequence[Type], Tuple[str, List[Type]]]] = {}

    def field_types(self, tag: int, args: Sequence[Type]) -> Tuple[str, List[Type]]:
        """Constructor ``tag``'s name and field types with the type parameters set to ``args``."""
        key = (tag, tuple(map(id, args)))
        hit = self._memo.get(key)
        if hit is not None:
            return hit[1]
        name, fields = self.constructors[tag]
        subst = dict(zip(self.type_params, args))
        result = name, [_substitute(f, subst) for f in fields]
        self._memo[key] = (list(args), result)  # keeps the args alive: their ids stay theirs
        return result

    def __repr__(self) -> str:
        return f"ADTDef({self.name!r}, {[c for c, _ in self.constructors]!r})"


def _checked_tensor(v: object, t: TensorType, where) -> np.ndarray:
    """A tensor field as numpy, its dtype and static dims checked: a boxed tensor is only
    unboxed (and checked by IREE) where it is computed with, so a wrong one could
    otherwise travel through the program and come back as it was given."""
    want = _np_dtype(t.dtype)
    arr = v if isinstance(v, np.ndarray) else np.asarray(v, dtype=want)
    if want is not None and arr.dtype != want:
        raise TypeError(f"{_where(where)}: expected {t.to_mlir()}, got a {arr.dtype} array")
    if arr.ndim != len(t.shape) or any(not isinstance(d, Any) and int(d) != n
                                       for d, n in zip(t.shape, arr.shape)):
        raise ValueError(f"{_where(where)}: expected {t.to_mlir()}, got shape {arr.shape}")
    return np.ascontiguousarray(arr) if arr.ndim else arr


@functools.lru_cache(maxsize=None)
def _np_dtype(dtype: str) -> Optional[np.dtype]:
    try:
        return np.dtype(dtype)
    except TypeError:  # bfloat16 without ml_dtypes: IREE checks what it can
        return None


def _where(where) -> str:
    """A location in an argument: a string or a chain of (parent, text, name, index or
    None) tuples, spelt out only for an error message."""
    parts = []
    while isinstance(where, tuple):
        where, text, name, i = where
        parts.append(f"{text}{name}" + ("" if i is None else f"[{i}]"))
    return where + "".join(reversed(parts))


def _substitute(t: Type, subst: Dict[str, Type]) -> Type:
    if isinstance(t, TypeVar):
        return subst.get(t.name_hint, t)
    if isinstance(t, TupleType):
        return TupleType([_substitute(f, subst) for f in t.fields])
    if isinstance(t, TypeCall):
        return TypeCall(t.func, [_substitute(a, subst) for a in t.args])
    if isinstance(t, RefType):
        return RefType(_substitute(t.value, subst))
    return t


def adt_defs_from_mlir(module) -> Dict[str, ADTDef]:
    """The ``relay.adt`` definitions of an MLIR module operation, by name."""
    from . import ir

    defs: Dict[str, ADTDef] = {}
    for op in module.regions[0].blocks[0].operations:
        op = op.operation
        if op.name != "relay.adt":
            continue
        name = ir.StringAttr(op.attributes["sym_name"]).value
        params = [ir.StringAttr(p).value for p in ir.ArrayAttr(op.attributes["type_params"])]
        ctors = []
        for c in op.regions[0].blocks[0].operations:
            c = c.operation
            if c.name != "relay.constructor":
                continue
            fields = [from_mlir(ir.TypeAttr(f).value) for f in ir.ArrayAttr(c.attributes["fields"])]
            ctors.append((ir.StringAttr(c.attributes["sym_name"]).value, fields))
        defs[name] = ADTDef(name, params, ctors)
    return defs


def _contains(t: Type, kinds) -> bool:
    if isinstance(t, kinds):
        return True
    if isinstance(t, TupleType):
        return any(_contains(f, kinds) for f in t.fields)
    return False


def _leaves(t: Type) -> List[Type]:
    """``t`` split as the lowering splits function results: tuples flattened."""
    if isinstance(t, TupleType):
        return [leaf for f in t.fields for leaf in _leaves(f)]
    return [t]


def _as_dtype(arr, t: Type):
    """``arr`` with the dtype of tensor type ``t`` (the lowering makes integers signless)."""
    if not isinstance(t, TensorType) or not isinstance(arr, np.ndarray):
        return arr
    if t.dtype in NARROW_DTYPES:
        return from_storage(arr, t.dtype)
    want = np.dtype("bool" if t.dtype == "bool" else t.dtype)
    if arr.dtype == want:
        return arr
    if want == np.bool_:
        return arr.astype(bool)
    if arr.dtype.itemsize == want.itemsize and arr.dtype.kind in "iub" and want.kind in "iu":
        return arr.view(want)
    return arr


class ResultLayout:
    """The relay types of ``main``'s parameters and result, to decode what it returns.

    ``tensor(value)`` given to :meth:`decode` turns an IREE ``DeviceArray`` or
    ``HalBufferView`` into a numpy array.
    """

    def __init__(self, params: Sequence[Type], result: Type, adts: Dict[str, ADTDef]) -> None:
        self.params = list(params)
        self.result = result
        self.adts = dict(adts)

    @property
    def has_values(self) -> bool:
        """True if the result holds ADT values or references (needs decoding)."""
        return _contains(self.result, (TypeCall, RefType))

    def param_dtypes(self) -> List[Optional[str]]:
        """The relay dtype of each flattened parameter leaf of ``main`` (None if not a tensor)."""
        return [leaf.dtype if isinstance(leaf, TensorType) else None
                for p in self.params for leaf in _leaves(p)]

    def encode_inputs(self, inputs: Sequence[object]) -> Optional[List[object]]:
        """``main``'s arguments for IREE when it takes ADT values or references, else None.

        An ADT argument (an :class:`ADT`, its constructor named by
        ``.constructor``) becomes the nested Python list ``[tag, fields...]``
        IREE's function invoker turns into the run-time list; a reference
        (a :class:`RefValue`) a one-slot list. Arguments are given per
        flattened leaf of ``main``'s parameters, as for tensors.
        """
        leaves = [leaf for p in self.params for leaf in _leaves(p)]
        if not any(isinstance(t, (TypeCall, RefType)) for t in leaves):
            return None
        if len(inputs) != len(leaves):
            raise TypeError(f"main takes {len(leaves)} argument(s), got {len(inputs)}")
        return [self._encode(v, t, f"argument #{i}") if isinstance(t, (TypeCall, RefType))
                else to_storage(np.asarray(v, order="C")) for i, (v, t) in enumerate(zip(inputs, leaves))]

    def _encode(self, v: object, t: Type, where: str) -> object:
        """``v`` as nested lists, iteratively: a List of 100,000 elements is as deep."""
        root: List[object] = [None]
        work = [(v, t, where, root, 0)]
        while work:
            v, t, where, parent, idx = work.pop()
            parent[idx] = self._encode_node(v, t, where, work)
        return root[0]

    def _encode_node(self, v: object, t: Type, where, work: list) -> object:
        """One node; its children go on ``work`` as (value, type, where, list, index)."""
        if isinstance(t, TypeCall):
            adt = self.adts.get(t.func.name_hint)
            if adt is None:
                raise ValueError(f"no relay.adt @{t.func.name_hint} in the module")
            if not isinstance(v, ADT):
                raise TypeError(f"{_where(where)}: expected a value of {t.to_mlir()} (an adt_value.ADT), "
                                f"got {type(v).__name__}")
            tag = adt.tags.get(v.constructor)
            if tag is None:
                raise TypeError(f"{_where(where)}: @{t.func.name_hint} has no constructor "
                                f"'{v.constructor}' (it has {', '.join(adt.tags) or 'none'})")
            _, fields = adt.field_types(tag, t.args)
            if len(v.fields) != len(fields):
                raise TypeError(f"{_where(where)}: {v.constructor} takes {len(fields)} field(s), "
                                f"got {len(v.fields)}")
            node: List[object] = [tag] + [None] * len(fields)
            for i, (f, ft) in enumerate(zip(v.fields, fields)):
                work.append((f, ft, (where, ".", v.constructor, i), node, i + 1))
            return node
        if isinstance(t, RefType):
            if not isinstance(v, RefValue):
                raise TypeError(f"{_where(where)}: expected a reference (an adt_value.RefValue), "
                                f"got {type(v).__name__}")
            node = [None]
            work.append((v.value, t.value, (where, ".value", "", None), node, 0))
            return node
        if isinstance(t, TupleType):
            if not isinstance(v, (tuple, list)) or len(v) != len(t.fields):
                raise TypeError(f"{_where(where)}: expected a tuple of {len(t.fields)} field(s)")
            node = [None] * len(t.fields)
            for i, (f, ft) in enumerate(zip(v, t.fields)):
                work.append((f, ft, (where, "", "", i), node, i))
            return node
        if isinstance(t, TensorType):
            return _checked_tensor(v, t, where)
        raise TypeError(f"{_where(where)}: cannot pass a value of type {t.to_mlir()}")

    def decode(self, results: object, tensor: Callable[[object], object]) -> object:
        """``main``'s raw IREE results as Python values: the lowering flattens tuple results
        into leaves; they come back nested as ``main``'s result type says, each with its
        relay dtype (unsigned and bool included)."""
        leaves = _leaves(self.result)
        if len(leaves) == 1 and not isinstance(self.result, TupleType):
            return self._top(results, leaves[0], tensor)
        if not isinstance(results, (tuple, list)):
            results = (results,)
        values = iter([self._top(r, t, tensor) for r, t in zip(results, leaves)])

        def nest(t: Type) -> object:
            if isinstance(t, TupleType):
                return tuple(nest(f) for f in t.fields)
            return next(values)
        return nest(self.result)

    def _top(self, value: object, t: Type, tensor) -> object:
        if isinstance(t, (TypeCall, RefType, TupleType)):
            import iree.runtime as rt

            return self._boxed(value.deref(rt.VmVariantList), t, tensor)
        return _as_dtype(tensor(value), t)

    def _boxed(self, value: object, t: Type, tensor) -> object:
        """A boxed value (a ``VmVariantList``), decoded iteratively: a returned List of
        100,000 elements is as deep. Nodes are made first and filled afterwards,
        children before parents."""
        root: List[object] = [None]
        made: list = []  # (node, slots, parent, index) in creation order
        work = [(value, None, t, root, 0)]  # (list, its slot or None for the list itself, type, ...)
        while work:
            lst, i, t, parent, idx = work.pop()
            if i is not None:
                if isinstance(t, TensorType):
                    parent[idx] = _as_dtype(tensor(_buffer_view(lst, i)), t)
                    continue
                lst = lst.get_as_list(i)
            parent[idx] = self._boxed_node(lst, t, tensor, work, made, parent, idx)
        for node, slots, parent, idx in reversed(made):
            if isinstance(node, ADT):
                node.fields = tuple(slots)
            elif isinstance(node, RefValue):
                node.value = slots[0]
            else:  # a tuple
                parent[idx] = tuple(slots)
        return root[0]

    def _boxed_node(self, value, t: Type, tensor, work: list, made: list, parent, idx) -> object:
        """One node (its fields empty); its slots go on ``work``."""
        if isinstance(t, TypeCall):
            adt = self.adts.get(t.func.name_hint)
            if adt is None:
                raise ValueError(f"no relay.adt @{t.func.name_hint} in the module")
            tag = value.get_variant(0)
            if not 0 <= tag < len(adt.constructors):
                raise ValueError(f"tag {tag} is not a constructor of @{t.func.name_hint}")
            name, fields = adt.field_types(tag, t.args)
            node: object = ADT(tag, name, (), adt=t.func.name_hint)
            offset = 1
        elif isinstance(t, RefType):
            node, fields, offset = RefValue(None), [t.value], 0
        elif isinstance(t, TupleType):
            node, fields, offset = None, list(t.fields), 0
        elif isinstance(t, TensorType):
            return _as_dtype(tensor(value), t)
        else:
            raise TypeError(f"cannot decode a value of type {t.to_mlir()}")
        slots: List[object] = [None] * len(fields)
        made.append((node, slots, parent, idx))
        for i, f in enumerate(fields):
            work.append((value, i + offset, f, slots, i))
        return node


def _buffer_view(lst, i: int):
    import iree.runtime as rt

    return lst.get_as_object(i, rt.HalBufferView)

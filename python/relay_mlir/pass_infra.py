"""TVM's pass infrastructure: ``PassContext``, ``PassInfo``, ``Pass``, ``ModulePass``,
``FunctionPass``, ``Sequential``, the ``module_pass`` / ``function_pass`` decorators and the pass
instruments, with TVM 0.19's semantics (docs/passes.md).

A ``Sequential`` runs passes in order under the current ``PassContext``, which decides by opt
level, ``required_pass`` and ``disabled_pass`` which of them run; a pass called directly always
runs. The passes themselves are in ``relay_mlir.transform``. ``TRANSFORM`` and ``INSTRUMENT``
list what TVM keeps in ``tvm.transform`` and ``tvm.instrument``.
"""
from __future__ import annotations

import copy
import functools
import inspect
import operator
import warnings
import threading
import time
from types import MappingProxyType
from typing import Callable, Dict, List, Mapping, Optional, Tuple

from .expr import Function
from .module import IRModule

#: ``tvm.transform``'s names here.
TRANSFORM = ["ModulePass", "Pass", "PassContext", "PassInfo", "Sequential", "module_pass"]
#: ``tvm.instrument``'s names here.
INSTRUMENT = ["PassInstrument", "PassPrintingInstrument", "PassTimingInstrument", "PrintAfterAll",
              "PrintBeforeAll", "pass_instrument"]

__all__ = TRANSFORM + INSTRUMENT

# -- helpers -------------------------------------------------------------------------------------
def _int(value, what: str) -> int:
    try:
        return operator.index(value)
    except TypeError:
        raise TypeError(f"{what} is an int, got {type(value).__name__} {value!r}") from None


def _names(value, what: str, kinds: tuple = (list, tuple)) -> Tuple[str, ...]:
    """A tuple of pass names from None or a list/tuple (or set, where TVM accepts one)."""
    if value is None:
        return ()
    if not isinstance(value, kinds):
        expected = "/".join(k.__name__ for k in kinds)
        raise TypeError(f"{what} is a {expected} of pass names, got {type(value).__name__} {value!r}")
    names = tuple(value)
    for n in names:
        if not isinstance(n, str):
            raise TypeError(f"{what} holds pass names (str), got {type(n).__name__} {n!r}")
    return names


def _fmt_names(names) -> str:
    return "[" + ", ".join(f'"{n}"' for n in names) + "]"


# -- TVM's relay.transform names not implemented yet -----------------------------------------------
# TVM 0.19's tvm.relay.transform names (dir(), less the modules it imports) that relay-mlir does
# not have yet: reading one is an AttributeError that says so, never a pass doing nothing.
_NOT_YET = frozenset("""
    AnnotateSpans BatchingOps
    CapturePostDfsIndexInSpans ChangeBatch CollagePartition
    Conv2dToSparse Conv2dToSparse2 Defunctionalization
    DenseToSparse FakeQuantizationToInteger
    FirstOrderGradient FlexibleShapeDispatch FoldConstantExpr
    InferTypeLocal
    InlineCompilerFunctionsBoundTo LayoutConfig LazyGradientInit
    ManifestLifetimes MarkCompilerFunctionsAsExtern
    OutlineCompilerFunctionsWithExistingGlobalSymbols PlanDevices
    SimplifyFCTranspose SplitArgs
    ToANormalFormExpr ToCPS
    build_config fake_quantization_to_integer flexible_shape
    mangle_module_name memory_plan mixed_precision recast to_cps un_cps""".split())


# -- PassInfo ------------------------------------------------------------------------------------
class PassInfo:
    """``tvm.transform.PassInfo(opt_level, name, required=None, traceable=False)``: what the pass
    context needs to know of a pass.

    ``name`` is what ``disabled_pass``/``required_pass`` match; ``required`` names the passes a
    ``Sequential`` runs before this one (resolved by name among the passes relay-mlir provides).

    >>> info = PassInfo(3, "MyPass", ["InferType"])
    >>> info.name, info.opt_level, info.required, info.traceable
    ('MyPass', 3, ('InferType',), False)
    """

    __slots__ = ("_opt_level", "_name", "_required", "_traceable")

    def __init__(self, opt_level: int, name: str, required=None, traceable: bool = False) -> None:
        if not isinstance(name, str):
            raise TypeError(f"PassInfo: name is a str, got {type(name).__name__} {name!r}")
        self._opt_level = _int(opt_level, f"PassInfo {name!r}: opt_level")
        self._name = name
        self._required = _names(required, f"PassInfo {name!r}: required", (list, tuple))
        self._traceable = bool(traceable)

    opt_level = property(lambda self: self._opt_level, doc="The pass's optimization level.")
    name = property(lambda self: self._name, doc="The pass's name.")
    required = property(lambda self: self._required,
                        doc="Names of the passes a Sequential runs first (a tuple; TVM: an Array).")
    traceable = property(lambda self: self._traceable, doc="TVM's trace flag (kept, unused).")

    def __repr__(self) -> str:
        return (f"The meta data of the pass - pass name: {self._name}, opt_level: {self._opt_level}, "
                f"required passes: [{', '.join(self._required)}]")


# -- configuration options -----------------------------------------------------------------------
# name -> kind ("bool", "int", "str") of the PassContext config options relay-mlir accepts. TVM 0.19
# types all of these as IntImm (list_configs says so too).
_CONFIGS: Dict[str, str] = {
    "relay.FuseOps.max_depth": "int",
    "relay.ToMixedPrecision.keep_orig_output_dtype": "bool",
    # TVM's tuning switches: accepted (TVM scripts set them) and ignored, IREE compiles here.
    "relay.backend.use_auto_scheduler": "bool",
    "relay.backend.use_meta_schedule": "bool",
}

# The other options TVM 0.19 accepts (PassContext.list_configs() there): unknown here, but the
# error says they are TVM's.
_TVM_CONFIGS = frozenset("""
    ir.enable_si_builder relax.FuseOps.max_depth relax.backend.use_cuda_graph
    relax.fallback_device_type relax.lift_transform_params.consume_params
    relax.transform.apply_legalize_ops relay.FuseOps.link_params relay.backend.tir_converter
    relay.backend.use_meta_schedule_dispatch relay.collage.byoc_fusion_style
    relay.collage.byoc_max_depth relay.collage.tvm_max_depth relay.fallback_device_type
    relay.frontend.fill_span relay.remove_standalone_reshapes.enable te.keep_schedule_record
    testing.immutable_module tir.HoistExpression tir.HoistIfThenElse tir.InjectDoubleBuffer
    tir.LoopPartition tir.ReduceBranchingThroughOvercompute tir.RemoveNoOp tir.Simplify
    tir.UnrollLoop tir.add_lower_pass tir.debug_keep_trivial_loop tir.detect_global_barrier
    tir.disable_assert tir.disable_cse_tir tir.disable_storage_rewrite tir.disable_vectorize
    tir.enable_buffer_level_predication tir.enable_debug tir.enable_equiv_terms_in_cse_tir
    tir.experimental_dma_bypass_cache tir.instr_siblings tir.instrument_bound_checkers
    tir.instrument_lwp tir.is_entry_func tir.lwp_disable_func_prof tir.lwp_max_depth
    tir.lwp_min_height tir.merge_static_smem tir.noalias tir.ptx_ldg32 tir.reset_start_id
    tir.use_async_copy tir.usmp.algorithm tir.usmp.custom_algorithm tir.usmp.enable
    tir.usmp.use_workspace_io tir.vtcm_capacity""".split())

_TVM_TYPE = {"bool": "IntImm", "int": "IntImm", "str": "runtime.String"}


def _register_config(name: str, kind: str) -> None:
    """Lets a pass add the PassContext config option ``name`` (kind "bool", "int" or "str")."""
    if kind not in _TVM_TYPE:
        raise ValueError(f"config option kind is one of {sorted(_TVM_TYPE)}, got {kind!r}")
    _CONFIGS[name] = kind


# Of _TVM_CONFIGS, the options that only tune how TVM generates code (TIR lowering, TE
# scheduling, parameter linking, spans in its frontends): a ported script that sets one runs
# the same program here, so they are accepted with a warning that they have no effect. The
# others (relax.*, collage, device fallback) change what a TVM build does and stay errors.
_IGNORED_PREFIXES = ("tir.", "te.")
_IGNORED_CONFIGS = frozenset({"relay.FuseOps.link_params", "relay.frontend.fill_span",
                              "relay.backend.tir_converter", "relay.remove_standalone_reshapes.enable"})


def _ignored_tvm_option(key: str) -> bool:
    return key in _TVM_CONFIGS and (key.startswith(_IGNORED_PREFIXES) or key in _IGNORED_CONFIGS)


def _check_config(config) -> Dict[str, object]:
    if not config:
        return {}
    if not isinstance(config, Mapping):
        raise TypeError(f"PassContext: config is a dict of option name -> value, got {type(config).__name__}")
    out = {}
    for key, value in config.items():
        if not isinstance(key, str):
            raise TypeError(f"PassContext: config option names are str, got {type(key).__name__} {key!r}")
        kind = _CONFIGS.get(key)
        if kind is None and _ignored_tvm_option(key):
            warnings.warn(f"PassContext: config option '{key}' tunes TVM's own code generation; "
                          "it has no effect in relay-mlir (IREE generates the code)", UserWarning,
                          stacklevel=3)
            out[key] = value
            continue
        if kind is None:
            why = (" (a TVM 0.19 option relay-mlir does not use)" if key in _TVM_CONFIGS else "")
            # AttributeError, as TVM raises for an unknown option.
            raise AttributeError(f"Invalid config option '{key}'{why}; relay-mlir's options are: "
                                 + ", ".join(sorted(_CONFIGS)))
        if kind == "str":
            if not isinstance(value, str):
                raise TypeError(f"config option '{key}' takes a str, got {type(value).__name__} {value!r}")
        else:
            try:
                number = operator.index(value)
            except TypeError:
                raise TypeError(f"config option '{key}' takes {'a bool' if kind == 'bool' else 'an int'}, "
                                f"got {type(value).__name__} {value!r}") from None
            value = bool(number) if kind == "bool" else int(number)
        out[key] = value
    return out


# -- PassContext ---------------------------------------------------------------------------------
class _ThreadState(threading.local):
    def __init__(self) -> None:
        self.stack: List["PassContext"] = []
        self.default: Optional["PassContext"] = None
        self.profile: Optional[_Profile] = None       # PassTimingInstrument's record
        self.profile_stack: List[_Profile] = []


_STATE = _ThreadState()


class PassContext:
    """``tvm.transform.PassContext(opt_level=2, required_pass=None, disabled_pass=None,
    instruments=None, config=None)``: the settings passes run under.

    ``with PassContext(...):`` makes it current (``PassContext.current()``) until the block
    ends, when the enclosing one is current again; outside any, a default context (opt level
    2) is. Inside a ``Sequential`` a pass runs if its name is not in ``disabled_pass`` and
    either it is in ``required_pass`` or ``opt_level`` is at least its own. Unknown names are
    accepted. ``instruments`` (``PassInstrument``\\ s) observe, and may skip, every pass run in
    the context; ``config`` sets the options of ``list_configs()`` (an unknown one is an
    ``AttributeError``, as in TVM).

    >>> with PassContext(opt_level=3, disabled_pass=["FoldConstant"]) as ctx:
    ...     PassContext.current() is ctx, ctx.opt_level, ctx.disabled_pass
    (True, 3, ('FoldConstant',))
    >>> PassContext.current().opt_level
    2
    """

    def __init__(self, opt_level: int = 2, required_pass=None, disabled_pass=None,
                 instruments=None, config=None) -> None:
        self._opt_level = _int(opt_level, "PassContext: opt_level")
        self._required_pass = _names(required_pass, "PassContext: required_pass", (list, tuple, set, frozenset))
        self._disabled_pass = _names(disabled_pass, "PassContext: disabled_pass", (list, tuple, set, frozenset))
        self._instruments = _check_instruments(instruments)
        self._config = MappingProxyType(_check_config(config))

    opt_level = property(lambda self: self._opt_level, doc="The optimization level (int).")
    required_pass = property(lambda self: self._required_pass,
                             doc="Names of passes a Sequential runs whatever their opt level (tuple).")
    disabled_pass = property(lambda self: self._disabled_pass,
                             doc="Names of passes a Sequential skips (tuple).")
    instruments = property(lambda self: self._instruments, doc="The PassInstruments (tuple).")
    config = property(lambda self: self._config, doc="The config options (a read-only mapping).")

    # -- scope ---------------------------------------------------------------------------------
    def __enter__(self) -> "PassContext":
        self._enter_instruments()
        _STATE.stack.append(self)
        return self

    def __exit__(self, ptype, value, trace) -> None:
        if not _STATE.stack or _STATE.stack[-1] is not self:
            raise RuntimeError("PassContext.__exit__: this context is not the current one "
                               "(exit contexts in the reverse order of entering them)")
        _STATE.stack.pop()
        self._exit_instruments()

    @staticmethod
    def current() -> "PassContext":
        """The innermost entered context, or the default one (opt level 2) outside any."""
        if _STATE.stack:
            return _STATE.stack[-1]
        if _STATE.default is None:
            _STATE.default = PassContext()
        return _STATE.default

    @staticmethod
    def list_configs() -> Dict[str, Dict[str, str]]:
        """The config option names accepted, each with ``{"type": ...}`` as TVM lists them.

        >>> PassContext.list_configs()["relay.FuseOps.max_depth"]
        {'type': 'IntImm'}
        """
        return {k: {"type": _TVM_TYPE[kind]} for k, kind in sorted(_CONFIGS.items())}

    def override_instruments(self, instruments) -> None:
        """Replaces the instruments. In a context that is in use (entered, or the default one)
        the old instruments' ``exit_pass_ctx`` run first and the new ones' ``enter_pass_ctx``
        after. (TVM 0.19 also runs them for a context not entered, which then enters the new
        instruments twice.)"""
        new = _check_instruments(instruments)
        active = any(c is self for c in _STATE.stack) or self is _STATE.default
        if active:
            self._exit_instruments()
        self._instruments = new
        if active:
            self._enter_instruments()

    def _enter_instruments(self) -> None:
        entered = []
        try:
            for pi in self._instruments:
                _hook(pi, "enter_pass_ctx")
                entered.append(pi)
        except BaseException:
            for pi in entered:  # as TVM: undo, and drop the instruments
                try:
                    _hook(pi, "exit_pass_ctx")
                except Exception:  # noqa: BLE001 - the first error is the one reported
                    pass
            self._instruments = ()
            raise

    def _exit_instruments(self) -> None:
        try:
            for pi in self._instruments:
                _hook(pi, "exit_pass_ctx")
        except BaseException:
            self._instruments = ()
            raise

    # -- what passes consult -------------------------------------------------------------------
    def _pass_enabled(self, info: PassInfo) -> bool:
        if info.name in self._disabled_pass:
            return False
        if info.name in self._required_pass:
            return True
        return self._opt_level >= info.opt_level

    def _before_pass(self, mod: IRModule, info: PassInfo) -> bool:
        """Every instrument's should_run (all are asked), then, if all say yes, run_before_pass."""
        run = True
        for pi in self._instruments:
            if _overrides(pi, "should_run"):
                answer = pi.should_run(mod, info)
                if answer is None:
                    raise TypeError(f"{type(pi).__name__}.should_run returned None for pass "
                                    f"'{info.name}'; it returns True (run) or False (skip)")
                run = bool(answer) and run
        if run:
            for pi in self._instruments:
                _hook(pi, "run_before_pass", mod, info)
        return run

    def _after_pass(self, mod: IRModule, info: PassInfo) -> None:
        for pi in self._instruments:
            _hook(pi, "run_after_pass", mod, info)

    def __repr__(self) -> str:
        config = ", ".join(f'"{k}": {v}' for k, v in self._config.items())
        return ("Pass context information: \n"
                f"\topt_level: {self._opt_level}\n"
                f"\trequired passes: {_fmt_names(self._required_pass)}\n"
                f"\tdisabled passes: {_fmt_names(self._disabled_pass)}\n"
                f"\tinstruments: [{', '.join(type(i).__name__ for i in self._instruments)}]\n"
                f"\tconfig: {{{config}}}")


# -- passes --------------------------------------------------------------------------------------
# The passes a PassInfo's `required` may name: name -> constructor without arguments.
_PASSES: Dict[str, Callable[[], "Pass"]] = {}


def _register_pass(cls):
    """Class decorator: the pass named ``cls._info.name`` can be required by name."""
    _PASSES[cls._info.name] = cls
    return cls


def _required_pass(name: str, requester: str) -> "Pass":
    key = name[len("relay._transform."):] if name.startswith("relay._transform.") else name
    make = _PASSES.get(key)
    if make is None:
        why = ("a TVM pass not implemented yet in relay-mlir" if key in _NOT_YET
               else "which is not a pass relay-mlir knows")
        raise ValueError(f"pass '{requester}' requires '{name}', {why} "
                         f"(passes that can be required: {', '.join(sorted(_PASSES))})")
    return make()


def _run_pass(p: "Pass", mod, ctx: PassContext) -> IRModule:
    """TVM's ``Pass::operator()(mod, ctx)``: instruments around the pass, checks of its input
    and output."""
    info = p.info
    if not isinstance(mod, IRModule):
        raise TypeError(f"pass '{info.name}' applies to an IRModule, got {type(mod).__name__}")
    if not ctx._before_pass(mod, info):
        return mod
    out = p._apply(mod, ctx)
    if not isinstance(out, IRModule):
        raise TypeError(f"pass '{info.name}' returned {type(out).__name__}, not an IRModule")
    ctx._after_pass(out, info)
    return out


class Pass:
    """``tvm.transform.Pass``: called on an ``IRModule``, returns an ``IRModule``.

    A pass called directly always runs (whatever the context's opt level or
    ``disabled_pass``) and does not run its ``required`` passes; the context's instruments
    still see it and may skip it.
    """

    _info: PassInfo
    _kind = "Module"

    @property
    def info(self) -> PassInfo:
        """The pass's ``PassInfo`` (``.name``, ``.opt_level``, ``.required``)."""
        return self._info

    def __call__(self, mod: IRModule) -> IRModule:
        return _run_pass(self, mod, PassContext.current())

    def _apply(self, mod: IRModule, ctx: PassContext) -> IRModule:
        raise NotImplementedError

    def __repr__(self) -> str:
        return f"Run {self._kind} pass: {self._info.name} at the optimization level {self._info.opt_level}"


class ModulePass(Pass):
    """``tvm.transform.ModulePass``: a pass on the whole module; made by ``module_pass``."""

    def __init__(self, pass_func: Callable, info: PassInfo) -> None:
        self._pass_func = pass_func
        self._info = info

    def _apply(self, mod: IRModule, ctx: PassContext) -> IRModule:
        return self._pass_func(mod, ctx)


def _skip_function(fn: Function) -> bool:
    """TVM skips external functions (``Compiler`` attribute) and ``SkipOptimization`` ones."""
    attrs = getattr(fn, "attrs", None) or {}
    return attrs.get("Compiler") is not None or bool(attrs.get("SkipOptimization", 0))


def _shallow_copy(mod: IRModule) -> IRModule:
    new = copy.copy(mod)
    new.functions = dict(mod.functions)
    new.type_definitions = dict(mod.type_definitions)
    new._constructors = dict(mod._constructors)
    new._emitted = None
    return new


class FunctionPass(Pass):
    """``tvm.relay.transform.FunctionPass``: a pass applied to each function of the module;
    made by ``function_pass``.

    As in TVM, it maps every ``relay.Function`` except external ones (a ``Compiler``
    attribute) and ``SkipOptimization`` ones, on a copy of the module (the input is left as
    it was, and each call sees the functions as they were), then runs ``InferType`` (a pass
    instruments see) on the result, which is thus typed.
    """

    _kind = "Function"

    def __init__(self, pass_func: Callable, info: PassInfo) -> None:
        self._pass_func = pass_func
        self._info = info

    def _apply(self, mod: IRModule, ctx: PassContext) -> IRModule:
        out = self._transform_functions(mod, ctx)
        return _run_pass(_required_pass("InferType", self._info.name), out, ctx)

    def _transform_functions(self, mod: IRModule, ctx: PassContext) -> IRModule:
        new = _shallow_copy(mod)
        updates = []
        for gv, fn in mod.functions.items():
            if not isinstance(fn, Function) or _skip_function(fn):
                continue
            out = self._pass_func(fn, new, ctx)
            if not isinstance(out, Function):
                raise TypeError(f"function pass '{self._info.name}' returned {type(out).__name__} "
                                f"for @{gv.name_hint}, not a relay.Function")
            updates.append((gv, out))
        for gv, out in updates:
            new[gv] = out
        return new


class Sequential(Pass):
    """``tvm.transform.Sequential(passes=None, opt_level=0, name="sequential", required=None,
    traceable=False)``: runs ``passes`` in order.

    Under the current ``PassContext``, each pass runs if the context enables it (its name is
    not in ``disabled_pass``, and it is in ``required_pass`` or its opt level is at most the
    context's), after the passes its ``PassInfo.required`` names (which run whatever the
    context says). A Sequential inside a Sequential is a pass like the others (its own
    ``opt_level``, ``name`` and ``required`` count there); called directly, it always runs.

    >>> import relay_mlir as relay
    >>> seq = Sequential([relay.transform.InferType(), relay.transform.FoldConstant()])
    >>> [p.info.name for p in seq.passes], seq.info.name, seq.info.opt_level
    (['InferType', 'FoldConstant'], 'sequential', 0)
    """

    _kind = "Sequential"

    def __init__(self, passes=None, opt_level: int = 0, name: str = "sequential", required=None,
                 traceable: bool = False) -> None:
        passes = passes if passes else []
        if not isinstance(passes, (list, tuple)):
            raise TypeError("passes must be a list of Pass objects.")
        for i, p in enumerate(passes):
            if not isinstance(p, Pass):
                hint = (f" (call it: {p.__name__}())" if inspect.isclass(p) and issubclass(p, Pass) else "")
                raise TypeError(f"Sequential {name!r}: passes[{i}] is {type(p).__name__} {p!r}, "
                                f"not a Pass{hint}")
        required = required if required else []
        if not isinstance(required, (list, tuple)):
            raise TypeError("Required is expected to be the type of list/tuple.")
        self._passes = tuple(passes)
        self._info = PassInfo(opt_level, name, required, traceable)

    @property
    def passes(self) -> Tuple[Pass, ...]:
        """The passes, in order."""
        return self._passes

    @property
    def pass_info(self) -> PassInfo:
        """Same as ``info`` (TVM has both)."""
        return self._info

    def _apply(self, mod: IRModule, ctx: PassContext) -> IRModule:
        for p in self._passes:
            info = p.info
            if not ctx._pass_enabled(info):
                continue
            for name in info.required:
                mod = _run_pass(_required_pass(name, info.name), mod, ctx)
            mod = _run_pass(p, mod, ctx)
        return mod

    def __repr__(self) -> str:
        names = "".join(p.info.name + " " for p in self._passes)
        return (f"Run Sequential pass: {self._info.name} at the optimization level "
                f"{self._info.opt_level}. The passes will be executed are: [{names}]")


def _wrap_class(pass_cls, info: PassInfo, base, method: str):
    """TVM's ``_wrap_class_module_pass``/``_wrap_class_function_pass``: a ``base`` subclass
    whose instances hold a ``pass_cls`` instance (made from the same arguments) and run its
    ``method``; other attributes are read from that instance."""
    if not callable(getattr(pass_cls, method, None)):
        raise TypeError(f"{base.__name__} class {pass_cls.__name__} has no method {method}")

    class PyPass(base):
        def __init__(self, *args, **kwargs):
            inst = pass_cls(*args, **kwargs)
            base.__init__(self, getattr(inst, method), info)
            self._inst = inst

        def __getattr__(self, name):
            inst = self.__dict__.get("_inst")
            if inst is None:
                raise AttributeError(name)
            return getattr(inst, name)

    functools.update_wrapper(PyPass.__init__, pass_cls.__init__)
    PyPass.__name__ = pass_cls.__name__
    PyPass.__qualname__ = pass_cls.__qualname__
    PyPass.__doc__ = pass_cls.__doc__
    PyPass.__module__ = pass_cls.__module__
    return PyPass


def _pass_decorator(what: str, base, method: str, pass_func, opt_level, name, required, traceable):
    if opt_level is None:
        raise ValueError(f"Please provide opt_level for the {what} pass.")
    if required and not isinstance(required, (list, tuple)):
        raise TypeError("Required is expected to be the type of list/tuple.")

    def create(pass_arg):
        if not callable(pass_arg):
            raise TypeError(f"pass_func must be a callable for {what} pass, got {type(pass_arg).__name__}")
        info = PassInfo(opt_level, name if name else pass_arg.__name__, required, traceable)
        if inspect.isclass(pass_arg):
            return _wrap_class(pass_arg, info, base, method)
        return base(pass_arg, info)

    if pass_func:
        return create(pass_func)
    return create


def module_pass(pass_func=None, opt_level=None, name=None, required=None, traceable=False):
    """``tvm.transform.module_pass``: a ``ModulePass`` from ``pass_func(mod, ctx) -> IRModule``,
    or, on a class with ``transform_module(self, mod, ctx)``, a ``ModulePass`` class whose
    constructor takes the class's arguments. ``name`` defaults to the function's or class's
    name; ``opt_level`` must be given (a ``ValueError`` otherwise, as in TVM). Without
    ``pass_func`` it is a decorator.

    >>> @module_pass(opt_level=1)
    ... def count_functions(mod, ctx):
    ...     print(len(mod.functions), "function(s) at opt level", ctx.opt_level)
    ...     return mod
    >>> import relay_mlir as relay
    >>> mod = count_functions(relay.IRModule.from_expr(relay.const(1.0)))
    1 function(s) at opt level 2
    >>> count_functions.info.name, isinstance(count_functions, ModulePass)
    ('count_functions', True)
    """
    return _pass_decorator("module", ModulePass, "transform_module", pass_func, opt_level, name,
                           required, traceable)


def function_pass(pass_func=None, opt_level=None, name=None, required=None):
    """``tvm.relay.transform.function_pass``: a ``FunctionPass`` from
    ``pass_func(func, mod, ctx) -> Function``, or, on a class with
    ``transform_function(self, func, mod, ctx)``, a ``FunctionPass`` class. See ``FunctionPass``
    for which functions it maps; the result is typed (InferType runs after).

    >>> import relay_mlir as relay
    >>> @function_pass(opt_level=1)
    ... class Negate:
    ...     def transform_function(self, func, mod, ctx):
    ...         return relay.Function(func.params, relay.negative(func.body))
    >>> x = relay.var("x", shape=(2,))
    >>> mod = Negate()(relay.IRModule.from_expr(relay.Function([x], relay.exp(x))))
    >>> mod["main"].body.op.name, mod["main"].body.checked_type
    ('negative', TensorType([2], float32))
    """
    return _pass_decorator("function", FunctionPass, "transform_function", pass_func, opt_level,
                           name, required, False)


# -- instruments ---------------------------------------------------------------------------------
class _ClassName:
    """``instrument.name``: the class's name unless the instance sets its own."""

    def __get__(self, obj, cls=None):
        return (cls if obj is None else type(obj)).__name__


class PassInstrument:
    """``tvm.instrument.PassInstrument``: observes the passes run in a ``PassContext`` that has
    it among its ``instruments``. Subclass it, or decorate a class with ``pass_instrument``, and
    define any of the hooks:

    - ``enter_pass_ctx()`` / ``exit_pass_ctx()``: the context is entered / exited;
    - ``should_run(mod, info) -> bool``: asked of every instrument before each pass runs
      (directly called passes, Sequentials, their members and required passes); if one says
      False the pass is skipped (its input is its result) and no hook below runs for it;
    - ``run_before_pass(mod, info)`` / ``run_after_pass(mod, info)``: around each pass run.

    Passes running inside a pass are seen nested (a ``FunctionPass`` runs ``InferType`` after
    mapping the functions; TVM 0.19's C++ passes also show the InferType runs they do inside).
    """

    name = _ClassName()

    def enter_pass_ctx(self) -> None:
        """Called when the instrumented context is entered."""

    def exit_pass_ctx(self) -> None:
        """Called when the instrumented context is exited."""

    def should_run(self, mod: IRModule, info: PassInfo) -> bool:
        """True to run the pass, False to skip it."""
        return True

    def run_before_pass(self, mod: IRModule, info: PassInfo) -> None:
        """Called before a pass runs."""

    def run_after_pass(self, mod: IRModule, info: PassInfo) -> None:
        """Called after a pass ran, with its result."""


def _overrides(pi: PassInstrument, hook: str) -> bool:
    return getattr(type(pi), hook, None) is not getattr(PassInstrument, hook)


def _hook(pi: PassInstrument, hook: str, *args) -> None:
    if _overrides(pi, hook):
        getattr(pi, hook)(*args)


def _check_instruments(instruments) -> Tuple[PassInstrument, ...]:
    if not instruments:
        return ()
    if not isinstance(instruments, (list, tuple, set, frozenset)):
        raise TypeError(f"instruments is a list of PassInstruments, got {type(instruments).__name__}")
    for pi in instruments:
        if not isinstance(pi, PassInstrument):
            hint = (" (decorate its class with pass_instrument)" if not inspect.isclass(pi) else
                    " (instantiate it)")
            raise TypeError(f"instruments holds PassInstruments, got {type(pi).__name__} {pi!r}{hint}")
    return tuple(instruments)


def pass_instrument(pi_cls=None):
    """``tvm.instrument.pass_instrument``: makes a class with some of ``PassInstrument``'s hooks
    a ``PassInstrument`` subclass (a class already one is returned as it is).

    >>> import relay_mlir as relay
    >>> @pass_instrument
    ... class Log:
    ...     def run_after_pass(self, mod, info):
    ...         print("ran", info.name)
    >>> with PassContext(instruments=[Log()]):
    ...     mod = relay.transform.InferType()(relay.IRModule.from_expr(relay.const(1.0)))
    ran InferType
    """

    def create(cls):
        if not inspect.isclass(cls):
            raise TypeError("pi_cls must be a class")
        if issubclass(cls, PassInstrument):
            return cls

        class PyPassInstrument(cls, PassInstrument):
            pass

        PyPassInstrument.__name__ = cls.__name__
        PyPassInstrument.__qualname__ = cls.__qualname__
        PyPassInstrument.__doc__ = cls.__doc__
        PyPassInstrument.__module__ = cls.__module__
        return PyPassInstrument

    if pi_cls:
        return create(pi_cls)
    return create


class _Profile:
    __slots__ = ("name", "start", "duration", "children")

    def __init__(self, name: str) -> None:
        self.name, self.start, self.duration, self.children = name, time.perf_counter(), 0.0, []


class PassTimingInstrument(PassInstrument):
    """``tvm.instrument.PassTimingInstrument``: times the passes run in its context;
    ``render()`` (inside the context: leaving it drops the record) gives TVM's table, one line
    per pass run, nested runs indented by a tab::

        name: <total>us [<self>us] (<% of all>; <% of parent>)
    """

    def enter_pass_ctx(self) -> None:
        _STATE.profile = _Profile("")
        _STATE.profile_stack = [_STATE.profile]

    def exit_pass_ctx(self) -> None:
        _STATE.profile = None
        _STATE.profile_stack = []

    def run_before_pass(self, mod: IRModule, info: PassInfo) -> None:
        if _STATE.profile_stack:
            node = _Profile(info.name)
            _STATE.profile_stack[-1].children.append(node)
            _STATE.profile_stack.append(node)

    def run_after_pass(self, mod: IRModule, info: PassInfo) -> None:
        if len(_STATE.profile_stack) > 1:
            node = _STATE.profile_stack.pop()
            node.duration = (time.perf_counter() - node.start) * 1e6

    @staticmethod
    def render() -> str:
        """The timing table ("" when nothing was timed)."""
        root = _STATE.profile
        if root is None or not root.children:
            return ""
        top = sum(c.duration for c in root.children) or 1.0
        lines = []

        def emit(node: _Profile, depth: int, parent: float) -> None:
            self_time = node.duration - sum(c.duration for c in node.children)
            lines.append("\t" * depth + f"{node.name}: {node.duration:.0f}us [{self_time:.0f}us] "
                         f"({node.duration / top * 100:.2f}%; {node.duration / (parent or 1.0) * 100:.2f}%)")
            for c in node.children:
                emit(c, depth + 1, node.duration)

        for c in root.children:
            emit(c, 0, top)
        return "\n".join(lines) + "\n"


@pass_instrument
class PassPrintingInstrument:
    """``tvm.instrument.PassPrintingInstrument(print_before_pass_names, print_after_pass_names)``:
    prints the module before / after the passes named."""

    def __init__(self, print_before_pass_names, print_after_pass_names):
        self.print_before_pass_names = print_before_pass_names
        self.print_after_pass_names = print_after_pass_names

    def run_before_pass(self, mod, pass_info):
        if pass_info.name in self.print_before_pass_names:
            print(f"Print IR before: {pass_info.name}\n{mod}\n\n")

    def run_after_pass(self, mod, pass_info):
        if pass_info.name in self.print_after_pass_names:
            print(f"Print IR after: {pass_info.name}\n{mod}\n\n")


@pass_instrument
class PrintAfterAll:
    """``tvm.instrument.PrintAfterAll``: prints the pass's info and the module after each pass."""

    def run_after_pass(self, mod, info):
        print(f"After Running Pass: {info}")
        print(mod)


@pass_instrument
class PrintBeforeAll:
    """``tvm.instrument.PrintBeforeAll``: prints the pass's info and the module before each pass."""

    def run_before_pass(self, mod, info):
        print(f"Before Running Pass: {info}")
        print(mod)

"""``Executable``: a compiled ``.vmfb`` and the IREE runtime calls to run it.

Example::

    >>> import numpy as np, relay_mlir as relay
    >>> x = relay.var("x", shape=(2,))
    >>> exe = relay.compile(relay.IRModule.from_expr(relay.negative(x)))   # doctest: +SKIP
    >>> exe(np.array([1, 2], "float32"))                                   # doctest: +SKIP
    array([-1., -2.], dtype=float32)
    >>> exe.save("neg.vmfb")     # runs with: iree-run-module --module=neg.vmfb ...  # doctest: +SKIP
"""
from __future__ import annotations

import os
import re
import statistics
import time
from typing import Callable, Dict, List, Mapping, Optional, Sequence, Tuple, Union

import numpy as np

from .adt_value import ResultLayout
from .errors import InputShapeError, RelayRuntimeError
from .narrow_dtypes import NARROW_DTYPES, check_narrow_inputs, from_storage, to_storage

__all__ = ["Executable", "to_numpy", "as_dtype", "AUTO_DRIVER", "CPU_DRIVERS", "choose_cpu_driver"]

_CONFIGS: Dict[str, object] = {}

# ``driver="auto"``: llvm-cpu code runs on IREE's ``local-task`` (a pool of one worker per core)
# or ``local-sync`` (the calling thread), whichever the first call measures faster on this
# machine. Each dispatch handed to the pool costs a wake-up and a barrier; programs of many
# small dispatches (an LSTM step's GEMV, DQN) run faster on one thread than on two (2-core
# machine, session 27: LSTM LM 0.23 vs 0.47 ms, DQN 0.27 vs 0.36 ms; BERT-tiny 0.59 vs 0.42 ms
# and every CNN the other way).
AUTO_DRIVER = "auto"
CPU_DRIVERS = ("local-task", "local-sync")
# Choosing: each driver warms up for _CHOICE_WARM_S, then a round times _CHOICE_CALLS calls
# of each, or as many as fill _CHOICE_ROUND_S per driver (DQN's first calls, 0.3 ms each once
# warm, took 0.4-0.6 ms on both drivers: five of each chose by the warming, session 31); at
# most _CHOICE_MOST_CALLS per warm-up and per round, so that a program called once (most of
# the test suite) pays a few milliseconds, not 0.1 s.
_CHOICE_CALLS = 5
_CHOICE_WARM_S = 0.01
_CHOICE_ROUND_S = 0.02
_CHOICE_MOST_CALLS = 50
# A first call slower than this already amortizes the pool's per-dispatch costs (a few
# microseconds each, at most a few hundred dispatches): no calibration, local-task.
_CHOOSE_BELOW_S = 0.05


def _config(driver: str):
    """One runtime ``Config`` (device) per driver for the whole process."""
    import iree.runtime as rt

    cfg = _CONFIGS.get(driver)
    if cfg is None:
        if driver.startswith("local"):
            # A program with run-time shapes allocates its transient buffers
            # per call; from the system allocator each call's large buffers
            # are fresh pages (page faults: ResNet-18 with a run-time image
            # size spent a third of its time in the kernel). The caching
            # allocator keeps freed buffers for the next call.
            device = rt.get_driver(driver).create_default_device(allocators=["caching"])
            cfg = rt.Config(device=device)
        else:
            cfg = rt.Config(driver)
        _CONFIGS[driver] = cfg
    return cfg


def choose_cpu_driver(calls: Mapping[str, Callable[[], object]], first_call_s: Optional[float] = None,
                      calls_each: int = _CHOICE_CALLS, warm_s: float = _CHOICE_WARM_S,
                      round_s: float = _CHOICE_ROUND_S) -> Tuple[str, Dict[str, float]]:
    """The faster of ``calls`` (``{driver: zero-argument callable}``, each running the same
    function with the same inputs on that driver, the default driver first); returns
    ``(driver, {driver: median seconds})``.

    ``first_call_s`` is how long a first call on the first driver took (timed here when not
    given); from 50 ms up the first driver is kept without measuring (``{}``). Otherwise each
    driver is called until ``warm_s`` has passed (once at least, 50 times at most), then a
    round of interleaved timed calls, ``calls_each`` of each or as many as fill ``round_s``
    per driver (at most 50), gives each a median; the lower wins, ties to the first driver. Another driver wins only if a second
    such round agrees: another process busy on one core slows the pool (whose every dispatch
    waits for all of its workers), not the calling thread, and a choice made then would keep,
    say, ResNet-18 on one thread for good (bench/PARTIAL.md, session 31: 27.9 ms instead of
    17). The medians returned are the lower of the rounds'."""
    first = next(iter(calls))
    if first_call_s is None:
        t = time.perf_counter()
        calls[first]()
        first_call_s = time.perf_counter() - t
    if first_call_s >= _CHOOSE_BELOW_S:
        return first, {}
    per_call = max(max(_warm_up(call, warm_s) for call in calls.values()), 1e-6)
    n = max(calls_each, min(_CHOICE_MOST_CALLS, round(round_s / per_call)))
    order = list(calls)

    def fastest(medians: Dict[str, float]) -> str:
        return min(medians, key=lambda d: (medians[d], order.index(d)))

    medians = _timed_round(calls, n)
    best = fastest(medians)
    if best != first:
        again = _timed_round(calls, n)
        if fastest(again) != best:
            best = first
        medians = {d: min(m, again[d]) for d, m in medians.items()}
    return best, medians


def _warm_up(call: Callable[[], object], warm_s: float) -> float:
    """Calls ``call`` until ``warm_s`` has passed (once at least, _CHOICE_MOST_CALLS times at
    most); returns its last call's seconds."""
    start = time.perf_counter()
    for _ in range(_CHOICE_MOST_CALLS):
        t = time.perf_counter()
        call()
        last = time.perf_counter() - t
        if t + last - start >= warm_s:
            break
    return last


def _timed_round(calls: Mapping[str, Callable[[], object]], calls_each: int) -> Dict[str, float]:
    """``calls_each`` interleaved timed calls of each driver: {driver: median seconds}."""
    times: Dict[str, List[float]] = {d: [] for d in calls}
    for _ in range(calls_each):
        for d, call in calls.items():
            t = time.perf_counter()
            call()
            times[d].append(time.perf_counter() - t)
    return {d: statistics.median(ts) for d, ts in times.items()}


def to_numpy(device, arr) -> np.ndarray:
    """Copies an IREE ``DeviceArray`` to a numpy array.

    Devices whose memory the host cannot import (lavapipe Vulkan: host
    pointer alignment 4096) go through a host-visible staging buffer filled
    by a queue copy.
    """
    import iree.runtime as rt

    if not isinstance(arr, rt.DeviceArray):
        return np.asarray(arr)
    try:
        return np.array(arr.to_host(), copy=True)
    except Exception:
        pass
    bv = arr._buffer_view
    n = bv.byte_length
    staging = device.allocator.allocate_buffer(
        memory_type=rt.MemoryType.HOST_LOCAL | rt.MemoryType.DEVICE_VISIBLE,
        allowed_usage=rt.BufferUsage.TRANSFER_TARGET | rt.BufferUsage.MAPPING,
        allocation_size=max(n, 1))
    if n:
        sem = device.create_semaphore(0)
        device.queue_copy(bv.get_buffer(), staging, [], [(sem, 1)])
        sem.wait(1)
    shape = tuple(bv.shape)
    mapped = staging.map()
    out = np.array(mapped.asarray(shape, np.dtype(arr.dtype)), copy=True)
    return out


def _tensor_to_numpy(device, value) -> np.ndarray:
    """A ``DeviceArray`` result or a ``HalBufferView`` read from a list, as numpy."""
    import iree.runtime as rt

    if isinstance(value, rt.HalBufferView):
        value = rt.DeviceArray(device, value, implicit_host_transfer=True)
    return to_numpy(device, value)


def _raw_to_python(device, value):
    """A result without relay type information: a list stays a ``VmVariantList``."""
    import iree.runtime as rt

    if isinstance(value, rt.VmRef) and value.isinstance(rt.VmVariantList):
        return value.deref(rt.VmVariantList)
    return to_numpy(device, value)


#: the ``iree.reflection`` key holding a function's result dtypes (``emit.RESULT_DTYPES_KEY``)
_RESULT_DTYPES_KEY = "relay_mlir.result_dtypes"


def as_dtype(arr: np.ndarray, dtype: str) -> np.ndarray:
    """``arr`` (as the IREE runtime returned it) with the relay result dtype ``dtype``.

    IREE's integers are signless and come back as *signed* numpy arrays, so
    an unsigned result is reinterpreted (``view``: the bits are the value);
    a bool result stored as bytes becomes ``arr != 0``; a result a target
    narrowed (f64 kept as f32) is widened. Anything else is returned as is.
    """
    if dtype in NARROW_DTYPES:
        return from_storage(arr, dtype)
    want = np.dtype(dtype) if dtype != "bfloat16" else None
    if want is None or arr.dtype == want:
        return arr
    if want.kind in "iu" and arr.dtype.kind in "iu" and arr.dtype.itemsize == want.itemsize:
        return arr.view(want)
    if want.kind == "b" and arr.dtype.kind in "iu":
        return arr != 0
    if np.can_cast(arr.dtype, want, "safe"):
        return arr.astype(want)
    return arr


class Executable:
    """A compiled module; call it like a function: ``exe(*numpy_arrays)``.

    Attributes: ``vmfb`` (bytes), ``target``, ``driver``, ``compile_time_s``.
    A single result is returned as a numpy array, several (a tuple-valued
    ``main``, nested tuples flattened in order) as a tuple of arrays, each
    with its relay dtype: ``result_dtypes`` (``{function: [dtype, ...]}``,
    from the compiler, else read from the module's ``iree.reflection``
    ``relay_mlir.result_dtypes`` entries) says which, since IREE itself returns
    unsigned integers as signed arrays. With ``result_layout`` (``main``'s
    relay types, recorded by ``compile``) ``main``'s results come back nested
    as its result type says, an ADT value as a ``relay_mlir.adt_value.ADT``
    (``.tag``, ``.constructor``, ``.fields``) and a reference as a
    ``RefValue``; without it (a ``.vmfb`` ``load``-ed) such a value is the raw
    ``iree.runtime.VmVariantList`` ``[tag, fields...]``. ``main`` also takes
    ``ADT``/``RefValue`` arguments for its ADT and reference parameters.

    ``driver`` is an IREE driver (``local-task``, ``local-sync``, ``vulkan``, ...) or
    ``"auto"`` (what ``compile`` gives llvm-cpu code without loops): the first call runs on
    ``local-task`` and, if it took less than 50 ms, times the function on both CPU drivers
    with that call's inputs and keeps the faster, local-sync only if a second timing agrees
    (``driver`` then names it and ``driver_timings`` holds the two medians in seconds).
    """

    def __init__(self, vmfb: bytes, driver: str = "local-task", target: Optional[str] = None,
                 result_dtypes: Optional[Dict[str, Sequence[str]]] = None,
                 result_layout: Optional[ResultLayout] = None) -> None:
        self.vmfb = vmfb
        self.driver = driver
        self.requested_driver = driver  # "auto" stays here once ``driver`` is resolved
        self.target = target or (CPU_DRIVERS[0] if driver == AUTO_DRIVER else driver)
        self.result_dtypes: Dict[str, List[str]] = {k: list(v) for k, v in (result_dtypes or {}).items()}
        self.result_layout = result_layout
        self.compile_time_s = 0.0
        self.lower_time_s = 0.0
        self.iree_time_s = 0.0
        #: the speed flags iree-compile took (the target's first set unless it refused them,
        #: see compiler.IreeOutput) and the first error of each set it refused
        self.speed_flags: List[str] = []
        self.speed_flags_refused: List[str] = []
        self.iree_input: Optional[str] = None
        self.driver_timings: Dict[str, float] = {}
        self._contexts: Dict[str, object] = {}
        # (driver, function) -> IREE's FunctionInvoker: made once, as IREE parses the
        # function's ABI (JSON) each time one is made (~2 us of every call before)
        self._invokers: Dict[Tuple[str, str], object] = {}
        self._module_name: Optional[str] = None

    @classmethod
    def load(cls, path: Union[str, "os.PathLike[str]"], driver: str = "local-task") -> "Executable":
        """Loads a ``.vmfb`` written by ``save`` (or ``iree-compile``)."""
        with open(path, "rb") as f:
            return cls(f.read(), driver=driver)

    def save(self, path: Union[str, "os.PathLike[str]"]) -> None:
        """Writes the ``.vmfb``; ``iree-run-module --module=PATH --function=main`` runs it."""
        with open(path, "wb") as f:
            f.write(self.vmfb)

    @property
    def _run_driver(self) -> str:
        """The driver calls run on: ``local-task`` until ``"auto"`` is resolved."""
        return CPU_DRIVERS[0] if self.driver == AUTO_DRIVER else self.driver

    def _load(self, driver: Optional[str] = None):
        """The runtime context of ``driver`` (default: the one calls run on), loaded once."""
        driver = driver or self._run_driver
        ctx = self._contexts.get(driver)
        if ctx is None:
            import iree.runtime as rt

            ctx = rt.SystemContext(config=_config(driver))
            vm_module = rt.VmModule.copy_buffer(ctx.instance, self.vmfb)
            ctx.add_vm_module(vm_module)
            self._module_name = vm_module.name
            self._contexts[driver] = ctx
        return ctx

    def _choose_driver(self, function: str, args: Sequence[object], first_call_s: float) -> None:
        """Resolves ``driver="auto"`` after a first call of ``first_call_s`` seconds. Only calls
        whose arguments are all tensors are repeated to measure: an ADT or reference argument
        (a list the function may write into) keeps the first driver."""
        if not all(isinstance(a, np.ndarray) for a in args):
            first_call_s = float("inf")
        # lazily: a first call of 50 ms or more keeps local-task without loading local-sync
        calls = {d: (lambda d=d: self._invoker(function, d)(*args)) for d in CPU_DRIVERS}
        self.driver, self.driver_timings = choose_cpu_driver(calls, first_call_s)
        for d in [d for d in self._contexts if d != self.driver]:
            del self._contexts[d]
        self._invokers = {k: v for k, v in self._invokers.items() if k[0] == self.driver}

    def _invoker(self, function: str, driver: Optional[str] = None):
        """IREE's callable for exported ``function`` on ``driver`` (default: the one calls
        run on), made once."""
        driver = driver or self._run_driver
        fn = self._invokers.get((driver, function))
        if fn is None:
            ctx = self._load(driver)
            fn = self._invokers[(driver, function)] = ctx.modules[self._module_name][function]
        return fn

    @property
    def device(self):
        """The IREE HAL device the module runs on."""
        return self._load().config.device

    def run(self, function: str, *inputs: object) -> Union[np.ndarray, Tuple[np.ndarray, ...], None]:
        """Runs exported ``function`` on numpy inputs."""
        fn = self._invoker(function)
        dev = self._load().config.device  # the results' device (the driver may change below)
        layout = self.result_layout if function == "main" else None
        if layout is not None:
            check_narrow_inputs(inputs, layout.param_dtypes(), function)
        args = layout.encode_inputs(inputs) if layout is not None else None
        if args is None:
            args = [to_storage(np.asarray(a, order="C")) for a in inputs]  # (ascontiguousarray makes 0-d 1-d)
        try:
            t = time.perf_counter()
            res = fn(*args)
            if self.driver == AUTO_DRIVER:
                self._choose_driver(function, args, time.perf_counter() - t)
        except ValueError as e:
            # IREE's check of the inputs against the signature (hal.buffer_view.assert)
            m = re.search(r"INVALID_ARGUMENT; (input\d+ [^;]*mismatch[^;]*(?:; [^;]*)*?); while invoking", str(e))
            n = re.search(r"expected (\d+) arguments but passed (\d+)", str(e))
            if n is not None:
                raise InputShapeError(f"{function} takes {n.group(1)} inputs, {n.group(2)} were given") from None
            if m is None:
                raise
            raise InputShapeError(f"{function}: {m.group(1)}") from None
        except RuntimeError as e:
            # the program stopped itself (util.status.check_ok / cf.assert of the
            # lowering: an incomplete match, a run-time shape that does not fit,
            # a loop that never exits)
            msg = str(e)
            if "relay." in msg or "relay-mlir:" in msg:
                raise RelayRuntimeError(msg.replace("Error invoking function: ", "").strip()) from None
            raise
        if res is None:
            return None
        if layout is not None:
            return layout.decode(res, lambda v: _tensor_to_numpy(dev, v))
        dtypes = self._dtypes(function, fn)

        def typed(value, dtype):
            return as_dtype(value, dtype) if isinstance(value, np.ndarray) else value
        if isinstance(res, (tuple, list)):
            outs = [_raw_to_python(dev, r) for r in res]
            if dtypes is not None and len(dtypes) == len(outs):
                outs = [typed(o, d) for o, d in zip(outs, dtypes)]
            return tuple(outs)
        out = _raw_to_python(dev, res)
        return typed(out, dtypes[0]) if dtypes is not None and len(dtypes) == 1 else out

    def _dtypes(self, function: str, fn) -> Optional[List[str]]:
        """The relay dtypes of ``function``'s flattened results, if known."""
        if function not in self.result_dtypes:
            try:
                refl = fn.vm_function.reflection
            except Exception:  # pragma: no cover - older runtimes
                refl = {}
            text = refl.get(_RESULT_DTYPES_KEY)
            if text is None:
                return None
            self.result_dtypes[function] = text.split(",") if text else []
        return self.result_dtypes[function]

    def __call__(self, *inputs: object) -> Union[np.ndarray, Tuple[np.ndarray, ...], None]:
        """Runs ``main``: ``exe(x, y)`` -> numpy array (or tuple of arrays)."""
        return self.run("main", *inputs)

    def benchmark(self, *inputs: object, runs: int = 10, warmup: int = 1) -> List[float]:
        """Wall-clock seconds of ``runs`` calls of ``main`` (results copied to host)."""
        for _ in range(warmup):
            self(*inputs)
        times = []
        for _ in range(runs):
            t = time.perf_counter()
            self(*inputs)
            times.append(time.perf_counter() - t)
        return times

    def median_latency_s(self, *inputs: object, runs: int = 10) -> float:
        """Median wall-clock seconds of one call of ``main``."""
        return statistics.median(self.benchmark(*inputs, runs=runs))

    def __repr__(self) -> str:
        return f"Executable(target={self.target!r}, {len(self.vmfb)} bytes)"

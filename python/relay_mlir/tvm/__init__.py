"""``relay_mlir.tvm``: the parts of TVM 0.19 that Relay scripts use, so a script ports by
changing its imports::

    import relay_mlir.tvm as tvm                        # was: import tvm
    from relay_mlir.tvm import relay                    # was: from tvm import relay
    from relay_mlir.tvm.contrib import graph_executor   # was: from tvm.contrib import graph_executor
    from relay_mlir.tvm.runtime import vm as vm_rt      # was: from tvm.runtime import vm as vm_rt
    from relay_mlir.tvm.relay import testing            # was: from tvm.relay import testing

Provided: ``relay``, ``transform`` (``PassContext``, ``Sequential``), ``IRModule``, ``ir``,
``cpu``/``cuda``/``vulkan``/``rocm``/``device``, ``nd`` (``array``, ``empty``,
``NDArray``), ``target`` (``Target``), ``runtime`` (``load_module``, ``vm``,
``Device``, ``NDArray``), ``contrib`` (``graph_executor``, ``utils``),
``testing.assert_allclose``, ``parser`` (deprecated aliases of ``relay.parse``, ...),
``register_func``/``get_global_func`` (for BYOC codegens,
``"relay.ext.<compiler>"``). The parts of
TVM that make kernels, tune them or deploy them remotely (te, topi, tir, autotvm,
auto_scheduler, meta_schedule, rpc, micro, relax, ...) are refused with an
``ImportError``/``AttributeError`` saying what to use instead (``_modules``).
docs/porting-from-tvm.md has the whole table.

    >>> import relay_mlir.tvm as tvm
    >>> tvm.cpu(0), tvm.nd.array([1, 2]).shape
    (cpu(0), (2,))
    >>> tvm.te
    Traceback (most recent call last):
    ...
    AttributeError: tvm.te is not part of relay-mlir: ...
"""
from __future__ import annotations

from ._modules import install as _install, refusal as _refusal

_install()

from . import runtime  # noqa: E402
from .runtime.device import Device, cpu, cuda, device, gpu, rocm, vulkan  # noqa: E402
from .runtime import ndarray as nd  # noqa: E402
from . import target, transform, instrument, ir, contrib, testing  # noqa: E402
from .ir import IRModule  # noqa: E402
from .global_funcs import get_global_func, register_func  # noqa: E402  (BYOC's relay.ext.<name>)
from . import relay  # noqa: E402
from . import parser  # noqa: E402  (TVM's deprecated tvm.parser)
from ..errors import CompileError, RelayRuntimeError  # noqa: E402

#: what ``except tvm.TVMError`` catches: relay-mlir's compile and run-time errors (TVM has one
#: class for both; relay-mlir has two, so this is a tuple: it works in ``except`` and
#: ``isinstance`` and ``pytest.raises``, not in ``raise``)
TVMError = (CompileError, RelayRuntimeError)

__version__ = "0.19.0-relay-mlir"

__all__ = ["relay", "transform", "IRModule", "ir", "nd", "target", "runtime", "contrib", "testing",
           "Device", "cpu", "cuda", "gpu", "vulkan", "rocm", "device", "TVMError", "register_func",
           "get_global_func", "instrument", "parser"]


def __getattr__(name: str):
    why = _refusal(name)
    if why is not None:
        raise AttributeError(why)
    raise AttributeError(f"module 'relay_mlir.tvm' has no attribute '{name}'")

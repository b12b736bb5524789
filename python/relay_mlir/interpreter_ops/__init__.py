"""numpy kernels of the Relay operators for the debug interpreter.

``KERNELS`` maps a Relay op name (``"add"``, ``"nn.conv2d"``, ...) to
``kernel(args, attrs) -> value``: ``args`` a list of numpy arrays (the
call's arguments), ``attrs`` the call's attribute dict as the builders in
``relay_mlir.op`` store it (Relay's names and defaults). A kernel returns a
numpy array with the Relay result dtype, or a Python tuple of arrays for
tuple-valued ops (``nn.batch_norm``, ``split``, ``topk``, ``nn.dropout``).

Kernels run with numpy's floating-point warnings off (the interpreter sets
``numpy.errstate(all="ignore")``): NaN/inf results are values, not errors.

The kernels are written from Relay's operator definitions, independently of
the linalg lowering. Float arithmetic that accumulates (matmul, conv,
reductions, normalisations, softmax) is done in float64 and rounded to the
result dtype once; integer accumulation in int64.

One module per op family, named as the family's ODS file
(``dialect/relay/Relay<Family>Ops.td``), its typing rules and its lowering are
(``elementwise``, ``reduce``, ``nn``, ``norm``, ``conv``, ``pool``,
``transform``, ``index``, ``image``, ``dynamic``); the registry is
``_registry``, the helpers shared by families ``_common``, ``_layout`` and
``_run_time``. Importing this package registers every family's kernels;
``relay_mlir.qnn`` (and a few passes' own ops) register more into the same
``KERNELS``.

An op without a kernel raises ``RelayRuntimeError("the debug interpreter has
no kernel for '<op>'")`` (``get_kernel``), never a wrong result.

    >>> import numpy as np
    >>> get_kernel("add")([np.array([1, 2], "int32"), np.array(3, "int32")], {})
    array([4, 5], dtype=int32)
"""
from __future__ import annotations

# Importing a family module registers its kernels.
from . import elementwise, nn, reduce, norm, conv, pool, transform, index, image, dynamic  # noqa: F401
# _reg and Kernel: for the kernels registered outside this package (relay_mlir.qnn, ...)
from ._registry import KERNELS, Kernel, _reg, get_kernel, kernel_names  # noqa: F401

__all__ = ["KERNELS", "get_kernel", "kernel_names"]

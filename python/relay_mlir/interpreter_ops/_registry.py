"""The kernel registry: ``KERNELS`` (op name -> kernel), ``get_kernel`` and ``_reg``."""
from __future__ import annotations

from typing import Callable, Dict, List

import numpy as np

from ..errors import RelayRuntimeError


Kernel = Callable[[List[np.ndarray], dict], object]
KERNELS: Dict[str, Kernel] = {}


def get_kernel(name: str) -> Kernel:
    """The kernel of op ``name``; a clear error if there is none."""
    k = KERNELS.get(name)
    if k is None:
        raise RelayRuntimeError(f"the debug interpreter has no kernel for '{name}'")
    return k


def kernel_names() -> List[str]:
    return sorted(KERNELS)


def _reg(*names: str):
    def deco(fn: Kernel) -> Kernel:
        for n in names:
            KERNELS[n] = fn
        return fn
    return deco

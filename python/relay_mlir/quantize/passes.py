"""The quantizer's stages as TVM 0.19's passes: ``partition()``, ``annotate()``,
``realize()`` (module passes named QuantizePartition, QuantizeAnnotate, QuantizeRealize,
opt level 1, rewriting ``main``) and ``calibrate(dataset)`` (a ``(mod, ctx) -> mod``
function, which TVM wraps as the module pass QuantizeCalibrate).

Between annotate and realize ``main`` holds the quantizer's own operators
(``simulated_quantize``, ``cast_hint``, ``stop_fusion``: see hints.py), so unlike TVM no
``InferType`` runs there; ``quantize`` runs the stages in this order.
"""
from __future__ import annotations

from typing import Callable

from ..module import IRModule
from ..pass_infra import ModulePass, PassContext, module_pass
from .annotation import annotate as _annotate
from .calibration import calibrate as _calibrate
from .config import current_qconfig
from .hints import drop_hints, simulate
from .partitioning import partition as _partition
from .realization import realize as _realize

__all__ = ["partition", "annotate", "calibrate", "realize", "realize_or_simulate"]


def _on_main(name: str, rewrite: Callable) -> ModulePass:
    def run(mod: IRModule, ctx: PassContext) -> IRModule:
        return IRModule.from_expr(rewrite(mod["main"]))
    return module_pass(run, opt_level=1, name=name)


def partition() -> ModulePass:
    """Marks where quantized sections end (``stop_fusion(cast_hint(x, dtype_input))``)."""
    return _on_main("QuantizePartition", _partition)


def annotate() -> ModulePass:
    """Places simulated quantizations (scales still to calibrate)."""
    return _on_main("QuantizeAnnotate", _annotate)


def calibrate(dataset: object = None) -> Callable[[IRModule, PassContext], IRModule]:
    """``(mod, ctx) -> mod`` binding every quantization point's scale and clip bounds."""
    def run(mod: IRModule, ctx: PassContext) -> IRModule:
        return IRModule.from_expr(_calibrate(mod["main"], dataset))
    return run


def realize() -> ModulePass:
    """Turns the calibrated simulated graph into integer arithmetic; fusion hints dropped."""
    return _on_main("QuantizeRealize", lambda fn: drop_hints(_realize(fn)))


def realize_or_simulate() -> ModulePass:
    """``realize()``, or with ``do_simulation`` the float simulation of the quantization."""
    if current_qconfig().do_simulation:
        return _on_main("QuantizeSimulate", lambda fn: drop_hints(simulate(fn)))
    return realize()

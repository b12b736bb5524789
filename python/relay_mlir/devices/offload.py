"""``offload_calls``: send calls of chosen global functions to another device — the
mechanism behind a BYOC code generator of kind (c) (``byoc.codegen.Device``: "run this
external function on vulkan").

Each call of a named global in ``main`` is wrapped in ``on_device(call, device)``; compiling
the result with a target dict that has ``device`` (``compile(mod, target={"cpu": "llvm-cpu",
"vulkan": "vulkan-spirv"})``) runs those calls on it and the rest on the default device, with
``PlanDevices`` inserting the copies. The external function itself is lowered by relay-mlir
for that device.

>>> import relay_mlir as relay
>>> x = relay.var("x", shape=(2,))
>>> mod = relay.IRModule()
>>> f = relay.GlobalVar("ext")
>>> mod[f] = relay.Function([x], relay.exp(x))
>>> y = relay.var("y", shape=(2,))
>>> mod["main"] = relay.Function([y], relay.log(relay.Call(f, [y])))
>>> out = offload_calls(mod, {"ext": "vulkan"})
>>> call = out["main"].body.args[0].args[0]           # on_device(log(on_device(ext(y))), "cpu")
>>> call.op.name, call.attrs["virtual_device"]
('on_device', 'vulkan')
"""
from __future__ import annotations

from typing import Mapping

from ..annotation import device_name, on_device
from ..expr import Call, Expr, GlobalVar
from ..expr_functor import ExprMutator
from ..module import IRModule
from ..pass_infra import _shallow_copy

__all__ = ["offload_calls"]


class _Wrap(ExprMutator):
    def __init__(self, placements: Mapping[str, str]) -> None:
        super().__init__()
        self.placements = placements
        self.found = set()

    def visit_call(self, call: Call) -> Expr:
        new = super().visit_call(call)
        if isinstance(call.op, GlobalVar) and call.op.name_hint in self.placements:
            self.found.add(call.op.name_hint)
            return on_device(new, self.placements[call.op.name_hint])
        return new


def offload_calls(mod: IRModule, placements: Mapping[str, object], rest: object = "cpu") -> IRModule:
    """``mod`` with ``main``'s calls of each global ``name`` in ``placements`` placed on
    ``placements[name]`` and ``main``'s result on ``rest`` (else, as TVM places unconstrained
    neighbours, the whole of ``main`` would join the offloaded device); a name that is no
    global of ``mod`` is an error."""
    names = {gv.name_hint for gv in mod.functions}
    missing = sorted(set(placements) - names)
    if missing:
        raise ValueError(f"offload_calls: no global function {', '.join(missing)} in the module "
                         f"(its globals: {', '.join(sorted(names))})")
    wanted = {k: device_name(v, f"offload_calls('{k}')") for k, v in placements.items()}
    out = _shallow_copy(mod)
    main = mod["main"]
    body = on_device(_Wrap(wanted).visit(main.body), device_name(rest, "offload_calls rest"))
    out["main"] = type(main)(main.params, body, main.ret_type, main.type_params, main.attrs)
    return out

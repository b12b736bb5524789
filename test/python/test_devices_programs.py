"""Device-placement programs written once against the API TVM 0.19 and relay-mlir share.

Run with TVM 0.19's Python to record TVM's plans as data:
``TOPHUB_LOCATION=NONE /work/tvmvenv/bin/python test/python/test_devices_programs.py``
writes ``test_devices_tvm019.json``; ``test_devices.py`` plans the same programs with
relay-mlir and compares. A plan is dumped as: the parameters' and the result's devices and
the body in post order (``device_copy[src->dst]``, ``on_device[device,constrain_result]``).
"""
import json
import os
import sys

# TVM's DLDeviceType numbers, to name TVM's VirtualDevices
_TVM_DEVICES = {1: "cpu", 2: "cuda"}


def _dev(v):
    if v is None or isinstance(v, str):
        return v
    kind = int(v.device_type_int)
    return _TVM_DEVICES.get(kind) if kind > 0 else None


def dump(relay, fn):
    """``{"params", "result", "body"}`` of a planned function (TVM's or relay-mlir's)."""
    names, out = {}, []
    stack = [(fn.body, False)]
    while stack:  # post order, arguments left to right
        e, ready = stack.pop()
        if e in names:
            continue
        if isinstance(e, relay.Var):
            names[e] = "%" + e.name_hint
            continue
        if isinstance(e, relay.Constant):
            names[e] = "const"
            continue
        kids = (list(e.args) if isinstance(e, relay.Call) else list(e.fields)
                if isinstance(e, relay.Tuple) else [e.value, e.body] if isinstance(e, relay.Let)
                else [e.cond, e.true_branch, e.false_branch] if isinstance(e, relay.If)
                else [e.tuple_value])
        if not ready:
            stack.append((e, True))
            stack.extend((k, False) for k in reversed(kids))
            continue
        args = ", ".join(names[k] for k in kids)
        if isinstance(e, relay.Call):
            op, a = e.op.name, e.attrs
            if op == "device_copy":
                op += f"[{_dev(a['src_virtual_device'])}->{_dev(a['dst_virtual_device'])}]"
            elif op == "on_device":
                op += f"[{_dev(a['virtual_device'])},{int(a['constrain_result'])}]"
            line = f"{op}({args})"
        elif isinstance(e, relay.Tuple):
            line = f"({args})"
        elif isinstance(e, relay.Let):
            line = f"let %{e.var.name_hint} = {names[kids[0]]} in {names[kids[1]]}"
        elif isinstance(e, relay.If):
            line = f"if({args})"
        else:
            line = f"{args}.{e.index}"
        names[e] = f"%{len(out)}"
        out.append(f"%{len(out)} = {line}")
    params = [_dev(getattr(p, "virtual_device_", None)) for p in fn.params]
    return {"params": params, "result": _dev(getattr(fn, "virtual_device_", None)),
            "body": out, "ret": names[fn.body]}


def cases(relay):
    """name -> a Function to plan for {"cpu", "cuda"} with default device cpu."""
    on = relay.annotation.on_device
    x = relay.var("x", shape=(2, 2))
    y = relay.var("y", shape=(2, 2))
    out = {}
    # unconstrained neighbours join the annotated device: everything on cuda
    b = on(relay.exp(relay.add(x, y)), "cuda")
    out["join_neighbours"] = relay.Function([x, y], relay.subtract(b, y))
    # y is read on cuda (add) and on cpu (subtract): one copy on the add edge
    b = on(relay.exp(relay.add(x, y)), "cuda")
    out["cross_edges"] = relay.Function([x, y], on(relay.subtract(b, y), "cpu"))
    # an explicit copy
    out["explicit_copy"] = relay.Function(
        [x, y], relay.add(relay.device_copy(relay.exp(x), "cpu", "cuda"), y))
    # wholly unconstrained: the default device
    out["unconstrained"] = relay.Function([x, y], relay.multiply(x, y))
    # a cpu value used twice on cuda: copied once per edge
    a = on(relay.exp(x), "cpu", constrain_result=True)
    out["used_twice"] = relay.Function(
        [x], on(relay.add(relay.device_copy(a, "cpu", "cuda"),
                          relay.device_copy(a, "cpu", "cuda")), "cuda"))
    # a tuple across devices
    t = relay.Tuple([on(relay.exp(x), "cuda"), relay.log(y)])
    out["tuple"] = relay.Function([x, y], on(relay.add(relay.TupleGetItem(t, 0),
                                                       relay.TupleGetItem(t, 1)), "cpu"))
    # a let-bound value on cuda read on cpu
    v = relay.var("v", shape=(2, 2))
    out["let"] = relay.Function([x, y], relay.Let(v, on(relay.exp(x), "cuda"),
                                                 on(relay.subtract(v, y), "cpu")))
    # an if on cpu whose branches read a cuda value
    p = relay.var("p", shape=(), dtype="bool")
    e = on(relay.exp(x), "cuda")
    out["if"] = relay.Function([p, x, y], on(relay.If(p, relay.add(e, y), relay.subtract(e, y)),
                                             "cpu"))
    # an annotated parameter and a constant operand
    out["param_annotated"] = relay.Function(
        [x, y], relay.add(on(x, "cuda"), relay.multiply(y, relay.const(2.0))))
    # a constrained result feeding an unconstrained chain
    s = on(relay.sigmoid(x), "cuda", constrain_result=True)
    out["constrained_result"] = relay.Function([x], relay.tanh(relay.negative(s)))
    # two independent cuda computations joined on cpu
    u = on(relay.exp(x), "cuda")
    w = on(relay.log(y), "cuda")
    out["two_sources"] = relay.Function([x, y], on(relay.add(u, w), "cpu"))
    return out


def _record() -> None:
    import tvm
    from tvm import relay

    ctx = tvm.transform.PassContext(config={"relay.fallback_device_type": 1})
    config = tvm.target.make_compilation_config(ctx, {"cpu": "llvm", "cuda": "cuda"})
    got = {}
    for name, fn in cases(relay).items():
        mod = relay.transform.InferType()(tvm.IRModule.from_expr(fn))
        try:
            planned = relay.transform.PlanDevices(config)(mod)["main"]
        except tvm.TVMError as e:  # TVM refuses it: recorded, not compared
            lines = [ln for ln in str(e).splitlines() if ln.startswith("TVMError:")]
            got[name] = {"tvm_error": (lines or [str(e).strip()])[-1]}
            continue
        got[name] = dump(relay, planned)
        got[name]["params"] = [_dev(p.virtual_device_) for p in planned.params]
        got[name]["result"] = _dev(planned.virtual_device_)
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "test_devices_tvm019.json")
    with open(path, "w") as f:
        json.dump({"tvm": tvm.__version__, "plans": got}, f, indent=1, sort_keys=True)
        f.write("\n")
    print(f"wrote {path}")


if __name__ == "__main__":
    sys.exit(_record())

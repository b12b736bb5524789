"""The ``relay-mlir`` command line.

::

    relay-mlir compile model.mlir -o model.vmfb --target llvm-cpu
    relay-mlir run model.mlir --input x=x.npy --output out.npz
    relay-mlir run model.vmfb --input x.npy
    relay-mlir demo --runs 20

Errors print located diagnostics (``file:line:col: error: ...``) on stderr
and exit with status 1, without a Python traceback.
"""
from __future__ import annotations

import argparse
import os
import re
import statistics
import sys
import time
from pathlib import Path
from typing import Dict, List, Optional, Sequence, Tuple

import numpy as np

from .compiler import TARGETS, compile as compile_program, get_target, lower_to_iree_input
from .errors import CompileError

__all__ = ["main"]


class CLIError(Exception):
    """A usage error reported as ``relay-mlir: error: ...``."""


def _read_text(path: str) -> str:
    try:
        with open(path, encoding="utf-8") as f:
            return f.read()
    except OSError as e:
        raise CLIError(f"cannot read '{path}': {e.strerror}") from None


def _main_arg_names(text: str) -> List[str]:
    m = re.search(r"func\.func\s+(?:public\s+)?@main\s*\(([^)]*)\)", text)
    if not m:
        return []
    return re.findall(r"%([A-Za-z_][\w$.-]*)\s*:", m.group(1))


def _load_inputs(specs: Sequence[str], names: List[str]) -> List[np.ndarray]:
    named: Dict[str, np.ndarray] = {}
    ordered: List[Tuple[Optional[str], np.ndarray]] = []
    for spec in specs:
        name, path = (spec.split("=", 1) if "=" in spec else (None, spec))
        try:
            arr = np.load(path, allow_pickle=False)
        except (OSError, ValueError) as e:
            raise CLIError(f"cannot load input '{path}': {e}") from None
        if isinstance(arr, np.lib.npyio.NpzFile):
            raise CLIError(f"input '{path}' is an .npz archive; give one .npy per input")
        ordered.append((name, arr))
        if name is not None:
            if name in named:
                raise CLIError(f"input '{name}' given twice")
            named[name] = arr
    if names and named and len(named) == len(ordered) and set(named) == set(names):
        return [named[n] for n in names]
    if names and named and set(named) - set(names):
        unknown = ", ".join(sorted(set(named) - set(names)))
        raise CLIError(f"unknown input name(s) {unknown}; @main takes {', '.join(names)}")
    return [a for _, a in ordered]


def _checksum(a: np.ndarray) -> str:
    a = np.asarray(a)
    if a.dtype == np.bool_:
        return str(int(a.sum()))
    return f"{float(np.asarray(a, np.float64).sum()):.6e}"


def _print_outputs(outs: Tuple[np.ndarray, ...]) -> None:
    for i, o in enumerate(outs):
        print(f"output {i}: shape={tuple(o.shape)} dtype={o.dtype} checksum(sum)={_checksum(o)}")


def cmd_compile(args: argparse.Namespace) -> int:
    _read_text(args.input)  # a readable file, or a clean error
    if args.emit_iree_input:
        lowered = lower_to_iree_input(Path(args.input))
        with open(args.emit_iree_input, "w", encoding="utf-8") as f:
            f.write(lowered)
    exe = compile_program(Path(args.input), target=args.target, extra_args=args.iree_flag)
    out = args.output or os.path.splitext(args.input)[0] + ".vmfb"
    exe.save(out)
    print(f"wrote {out} ({len(exe.vmfb)} bytes, target {exe.target}, "
          f"compile {exe.compile_time_s:.3f} s)")
    return 0


def cmd_run(args: argparse.Namespace) -> int:
    from .runtime import Executable

    target = get_target(args.target)
    if args.input.endswith(".vmfb"):
        try:
            exe = Executable.load(args.input, driver=target.driver)
        except OSError as e:
            raise CLIError(f"cannot read '{args.input}': {e.strerror}") from None
        names: List[str] = []
    else:
        text = _read_text(args.input)
        names = _main_arg_names(text)
    inputs = _load_inputs(args.inputs or [], names)  # check inputs before compiling
    if names and len(inputs) != len(names):
        raise CLIError(f"@main takes {len(names)} input(s) ({', '.join(names)}), got {len(inputs)}")
    if not args.input.endswith(".vmfb"):
        exe = compile_program(Path(args.input), target=target, extra_args=args.iree_flag)
        print(f"compiled {args.input} for {exe.target} in {exe.compile_time_s:.3f} s")
    try:
        result = exe(*inputs)
        times = []
        for _ in range(max(args.runs, 1)):
            t = time.perf_counter()
            exe(*inputs)
            times.append(time.perf_counter() - t)
    except CompileError:
        raise
    except Exception as e:  # IREE runtime errors (wrong shapes/dtypes, ...)
        raise CLIError(f"running @main failed: {str(e).strip().splitlines()[0] if str(e).strip() else e}") from None
    outs = result if isinstance(result, tuple) else (() if result is None else (result,))
    _print_outputs(outs)
    print(f"latency: median {statistics.median(times) * 1e3:.3f} ms over {len(times)} run(s)")
    if args.output:
        np.savez(args.output, **{f"output_{i}": o for i, o in enumerate(outs)})
        print(f"wrote {args.output}")
    return 0


def cmd_demo(args: argparse.Namespace) -> int:
    from .module import IRModule  # noqa: F401
    from .testing import numpy_ref, resnet
    from .transform import InferType

    image = (3, args.image_size, args.image_size)
    mod, params = resnet.get_workload(batch_size=args.batch, image_shape=image, seed=args.seed)
    mod = InferType()(mod)
    main_fn = mod["main"]
    print(f"model: small ResNet (conv2d, batch_norm, relu, residual add, max/avg pool, "
          f"global_avg_pool2d, batch_flatten, dense, bias_add, softmax), "
          f"{len(params)} weight tensors, {sum(p.size for p in params.values())} weights")
    data_t = main_fn.params[0].checked_type.to_mlir()
    print(f"inferred type: main(data: {data_t}, {len(main_fn.params) - 1} weight params) -> "
          f"{main_fn.body.checked_type.to_mlir()}")
    exe = compile_program(mod, target=args.target, params=params)
    print(f"compiled for {exe.target} in {exe.compile_time_s:.3f} s "
          f"(relay->linalg {exe.lower_time_s:.3f} s, iree-compile {exe.iree_time_s:.3f} s)")
    data = np.random.default_rng(args.seed + 1).standard_normal((args.batch,) + image).astype("float32")
    out = exe(data)
    ref = numpy_ref.resnet_forward(params, data)
    err = float(np.max(np.abs(out.astype(np.float64) - ref.astype(np.float64))))
    times = exe.benchmark(data, runs=args.runs)
    print(f"output shape {tuple(out.shape)}, argmax {out.argmax(-1).tolist()} (numpy {ref.argmax(-1).tolist()})")
    print(f"max abs error vs numpy reference: {err:.3e} (tolerance {args.tolerance:.1e})")
    print(f"median latency: {statistics.median(times) * 1e3:.3f} ms over {args.runs} runs")
    if err > args.tolerance or not np.isfinite(err):
        print(f"relay-mlir: error: demo output differs from the numpy reference by {err:.3e} "
              f"> {args.tolerance:.1e}", file=sys.stderr)
        return 1
    print("OK")
    return 0


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="relay-mlir", description="Compile and run Relay (MLIR) programs with IREE.")
    sub = p.add_subparsers(dest="command", required=True)
    targets = sorted(set(TARGETS) | {"vulkan"})

    c = sub.add_parser("compile", help="compile a relay .mlir file to an IREE .vmfb")
    c.add_argument("input", help="relay MLIR file")
    c.add_argument("-o", "--output", help="output .vmfb (default: INPUT with .vmfb)")
    c.add_argument("--target", default="llvm-cpu", choices=targets)
    c.add_argument("--emit-iree-input", metavar="FILE", help="also write the lowered MLIR given to iree-compile")
    c.add_argument("--iree-flag", action="append", default=[], metavar="FLAG", help="extra iree-compile flag")
    c.set_defaults(func=cmd_compile)

    r = sub.add_parser("run", help="run a relay .mlir (compiled first) or a .vmfb")
    r.add_argument("input", help="relay MLIR file or compiled .vmfb")
    r.add_argument("--input", dest="inputs", action="append", metavar="[NAME=]FILE.npy",
                   help="an input array (repeat; NAME matches @main's argument names in .mlir)")
    r.add_argument("--output", metavar="OUT.npz", help="save the outputs")
    r.add_argument("--target", default="llvm-cpu", choices=targets)
    r.add_argument("--runs", type=int, default=10, help="timed runs for the latency (default 10)")
    r.add_argument("--iree-flag", action="append", default=[], metavar="FLAG", help="extra iree-compile flag")
    r.set_defaults(func=cmd_run)

    d = sub.add_parser("demo", help="build, compile and check a small ResNet-style CNN against numpy")
    d.add_argument("--target", default="llvm-cpu", choices=targets)
    d.add_argument("--runs", type=int, default=20, help="timed runs (default 20)")
    d.add_argument("--batch", type=int, default=1)
    d.add_argument("--image-size", type=int, default=32)
    d.add_argument("--seed", type=int, default=0)
    d.add_argument("--tolerance", type=float, default=1e-4, help="max abs error allowed (default 1e-4)")
    d.set_defaults(func=cmd_demo)
    return p


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Entry point of the ``relay-mlir`` console script; returns the exit status."""
    args = _parser().parse_args(argv)
    try:
        return args.func(args)
    except CompileError as e:
        if e.diagnostics:
            for d in e.diagnostics:
                print(str(d), file=sys.stderr)
        print(f"relay-mlir: error: {e.message}", file=sys.stderr)
        return 1
    except CLIError as e:
        print(f"relay-mlir: error: {e}", file=sys.stderr)
        return 1
    except ValueError as e:
        print(f"relay-mlir: error: {e}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())

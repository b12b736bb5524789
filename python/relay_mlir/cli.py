"""The ``relay-mlir`` command line.

::

    relay-mlir compile model.onnx -o model.vmfb --target llvm-cpu
    relay-mlir compile model.mlir -o model.vmfb --target llvm-cpu
    relay-mlir compile model.relay -o model.vmfb
    relay-mlir run model.onnx --input x=x.npy --output out.npz
    relay-mlir convert model.relay -o model.mlir      (and back, .mlir -> .relay)
    relay-mlir graph model.onnx -o model.svg          (.png, .pdf; .dot without Graphviz)
    relay-mlir run model.vmfb --input x.npy
    relay-mlir demo --runs 20
    relay-mlir transform model.relay -p AnnotateTarget=refacc -p PartitionGraph   (cli_transform)

``.onnx`` models are imported with ``relay_mlir.frontend.from_onnx``; ``.mlir``
files hold relay MLIR; ``.relay``/``.rly`` files hold Relay's text format
(``relay_mlir.fromtext``). While compiling, a progress line on stderr shows the
stage (import, infer, lower, iree-compile) and the elapsed time; it is off
when stderr is not a terminal or with ``--quiet``.

Errors print located diagnostics (``file:line:col: error: ...``) on stderr
and exit with status 1, without a Python traceback.
"""
from __future__ import annotations

import argparse
import os
import re
import statistics
import sys
import threading
import time
import warnings
from contextlib import contextmanager
from pathlib import Path
from typing import Dict, Iterator, List, Mapping, Optional, Sequence, TextIO, Tuple

import numpy as np

from . import cli_transform, compiler, cpu_kernels, transform
from .compiler import TARGETS, Target, compile as compile_program, get_target
from .errors import CompileError
from .runtime import Executable
from .mlir_import import from_mlir_text
from .parser import fromtext
from .visualize import output_format

__all__ = ["main", "Progress"]


class CLIError(Exception):
    """A usage error reported as ``relay-mlir: error: ...``."""


# -- progress ------------------------------------------------------------------
_SPINNER = "|/-\\"


class Progress:
    """Compile stages and their elapsed times, redrawn in place on a terminal.

    Disabled (``enabled=False``) it only records the stage times. Example::

        >>> p = Progress(enabled=False)
        >>> with p.stage("import"):
        ...     pass
        >>> [name for name, _ in p.times]
        ['import']
    """

    def __init__(self, enabled: bool, stream: Optional[TextIO] = None, interval: float = 0.1) -> None:
        self.enabled = enabled
        self.stream = stream if stream is not None else sys.stderr
        self.interval = interval
        self.times: List[Tuple[str, float]] = []
        self._current: Optional[Tuple[str, float]] = None
        self._start = time.perf_counter()
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread: Optional[threading.Thread] = None
        self._spin = 0

    @classmethod
    def for_stderr(cls, quiet: bool) -> "Progress":
        """Enabled iff stderr is a terminal and not ``quiet``."""
        try:
            tty = sys.stderr.isatty()
        except (AttributeError, ValueError):
            tty = False
        return cls(enabled=tty and not quiet)

    def line(self) -> str:
        """The status line: finished stages with their times, then the running one."""
        now = time.perf_counter()
        parts = [f"{name} {dt:.1f}s" for name, dt in self.times]
        if self._current is not None:
            name, t0 = self._current
            parts.append(f"{_SPINNER[self._spin % 4]} {name} {now - t0:.1f}s")
        return f"relay-mlir: {' > '.join(parts)}  (total {now - self._start:.1f}s)"

    def _draw(self, final: bool = False) -> None:
        text = self.line()
        try:
            width = os.get_terminal_size(self.stream.fileno()).columns
        except (AttributeError, OSError, ValueError):
            width = 0
        if width > 10 and len(text) >= width:  # a wrapped line could not be redrawn in place
            text = text[:width - 2] + "…"
        with self._lock:
            self.stream.write("\r\x1b[K" + text + ("\n" if final else ""))
            self.stream.flush()

    def _loop(self) -> None:
        while not self._stop.wait(self.interval):
            self._spin += 1
            self._draw()

    @contextmanager
    def stage(self, name: str) -> Iterator[None]:
        """Times the enclosed block as stage ``name``."""
        t0 = time.perf_counter()
        self._current = (name, t0)
        if self.enabled:
            if self._thread is None:
                self._thread = threading.Thread(target=self._loop, daemon=True)
                self._thread.start()
            self._draw()
        try:
            yield
        finally:
            self._current = None
            self.times.append((name, time.perf_counter() - t0))

    def close(self) -> None:
        """Stops redrawing; leaves the last line (with every stage time) on the terminal."""
        if self._thread is not None:
            self._stop.set()
            self._thread.join()
            self._thread = None
            self._draw(final=True)

    def __enter__(self) -> "Progress":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


# -- inputs --------------------------------------------------------------------
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


def _is_onnx(path: str) -> bool:
    return path.lower().endswith(".onnx")


def _is_relay_text(path: str) -> bool:
    return path.lower().endswith((".relay", ".rly"))


def _load_relay_text(path: str):
    return fromtext(_read_text(path), source_name=path)


def _onnx_io_names(path: str) -> Tuple[List[str], List[str]]:
    """(graph input names that are not initializers, graph output names) of an ONNX file."""
    try:
        import onnx
    except ImportError:
        raise CLIError("reading .onnx models needs the 'onnx' package (pip install onnx)") from None
    if not os.path.isfile(path):
        raise CLIError(f"cannot read '{path}': No such file or directory")
    try:
        model = onnx.load(path, load_external_data=False)
    except Exception as e:  # DecodeError, ...
        raise CLIError(f"cannot read ONNX model '{path}': {e}") from None
    inits = {t.name for t in model.graph.initializer}
    return ([vi.name for vi in model.graph.input if vi.name not in inits],
            [vi.name for vi in model.graph.output])


def _load_inputs(specs: Sequence[str], names: List[str], what: str = "@main") -> List[np.ndarray]:
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
        raise CLIError(f"unknown input name(s) {unknown}; {what} takes {', '.join(names)}")
    return [a for _, a in ordered]


def _parse_shapes(specs: Sequence[str]) -> Dict[str, List[Optional[int]]]:
    """``NAME=1,3,224,224`` (``?`` for an unknown dim) -> {NAME: [1, 3, 224, 224]}."""
    shapes: Dict[str, List[Optional[int]]] = {}
    for spec in specs:
        name, sep, dims = spec.rpartition("=")
        if not sep or not name:
            raise CLIError(f"--shape takes NAME=D0,D1,... (got '{spec}')")
        try:
            shapes[name] = [None if d.strip() in ("?", "-1") else int(d) for d in dims.split(",") if d.strip()]
        except ValueError:
            raise CLIError(f"--shape {spec}: dims are integers or '?'") from None
    return shapes


# -- compiling -----------------------------------------------------------------
def compile_file(path: str, target: Target, extra_args: Sequence[str] = (),
                 shapes: Optional[Mapping[str, Sequence[Optional[int]]]] = None,
                 progress: Optional[Progress] = None, inline_weights: bool = False):
    """Compiles a ``.onnx`` or relay ``.mlir`` file to an ``Executable`` (``iree_input``: the lowered MLIR).

    ``progress`` times the stages: import, infer, lower, iree-compile for ONNX;
    infer+lower (one pipeline) and iree-compile for relay MLIR. Large weights reach
    iree-compile in a parameter archive, as ``relay.compile`` sends them
    (``weight_parameters``), unless ``inline_weights``: then ``iree_input`` is the whole
    program, every constant in its text (``--emit-iree-input``).
    """
    prog = progress or Progress(enabled=False)
    t0 = time.perf_counter()
    parameters = not inline_weights
    kernels = cpu_kernels.for_target(target.name, extra_args)
    if _is_relay_text(path):
        if shapes:
            raise CLIError("--shape applies to .onnx models only")
        with prog.stage("parse"):
            mod = _load_relay_text(path)
        with prog.stage("infer+lower"):
            low = compiler._lower_source(mod, source_name=path, parameters=parameters, kernels=kernels)
    elif _is_onnx(path):
        from .frontend import from_onnx

        with prog.stage("import"):
            mod = from_onnx(path, shapes=dict(shapes or {}))
        with prog.stage("infer"):
            em = mod.to_mlir(infer=True)
        with prog.stage("lower"):
            low = compiler.lower_parsed_module(em.ctx, em.operation, typed=True, parameters=parameters,
                                               kernels=kernels)
    else:
        if shapes:
            raise CLIError("--shape applies to .onnx models only")
        _read_text(path)  # a readable file, or a clean error
        with prog.stage("infer+lower"):
            low = compiler._lower_source(Path(path), parameters=parameters, kernels=kernels)
    t1 = time.perf_counter()
    with prog.stage("iree-compile"):
        out = compiler._iree_compile(low, target, extra_args)
    t2 = time.perf_counter()
    exe = Executable(bytes(out.vmfb), driver=compiler.default_driver(target, low),
                     target=target.name, result_dtypes=low.result_dtypes, result_layout=low.layout)
    exe.speed_flags, exe.speed_flags_refused = out.speed_flags, out.refused
    exe.compile_time_s, exe.lower_time_s, exe.iree_time_s = t2 - t0, t1 - t0, t2 - t1
    exe.iree_input = low.text()
    if low.workdir is not None:
        low.workdir.cleanup()
    return exe


def _stage_summary(progress: Progress) -> str:
    return ", ".join(f"{name} {dt:.3f} s" for name, dt in progress.times)


def cmd_compile(args: argparse.Namespace) -> int:
    target = get_target(args.target)
    if _is_onnx(args.input):
        _onnx_io_names(args.input)  # a readable ONNX model, or a clean error
    with Progress.for_stderr(args.quiet) as prog:
        exe = compile_file(args.input, target, args.iree_flag, _parse_shapes(args.shape), prog,
                           inline_weights=bool(args.emit_iree_input))
    if args.emit_iree_input:
        with open(args.emit_iree_input, "w", encoding="utf-8") as f:
            f.write(exe.iree_input)
    out = args.output or os.path.splitext(args.input)[0] + ".vmfb"
    exe.save(out)
    print(f"wrote {out} ({len(exe.vmfb)} bytes, target {exe.target}, "
          f"compile {exe.compile_time_s:.3f} s: {_stage_summary(prog)})")
    return 0


def _checksum(a: np.ndarray) -> str:
    a = np.asarray(a)
    if a.dtype == np.bool_:
        return str(int(a.sum()))
    return f"{float(np.asarray(a, np.float64).sum()):.6e}"


def _print_outputs(outs: Tuple[np.ndarray, ...], names: Sequence[str]) -> None:
    for i, o in enumerate(outs):
        label = f"output {i}" + (f" ({names[i]})" if i < len(names) else "")
        if not isinstance(o, np.ndarray):  # an ADT value or reference (relay_mlir.adt_value)
            text = " ".join(repr(o).split())
            print(f"{label}: {text if len(text) <= 200 else text[:197] + '...'}")
            continue
        print(f"{label}: shape={tuple(o.shape)} dtype={o.dtype} checksum(sum)={_checksum(o)}")


def cmd_run(args: argparse.Namespace) -> int:
    target = get_target(args.target)
    out_names: List[str] = []
    shapes: Dict[str, List[Optional[int]]] = _parse_shapes(args.shape)
    if args.input.endswith(".vmfb"):
        if shapes:
            raise CLIError("--shape applies to .onnx models only")
        try:
            exe = Executable.load(args.input, driver=target.driver)
        except OSError as e:
            raise CLIError(f"cannot read '{args.input}': {e.strerror}") from None
        names: List[str] = []
        what = "the module"
    elif _is_onnx(args.input):
        names, out_names = _onnx_io_names(args.input)
        what = "the model"
    elif _is_relay_text(args.input):
        names = [p.name_hint for p in _load_relay_text(args.input)["main"].params]
        what = "@main"
    else:
        names = _main_arg_names(_read_text(args.input))
        what = "@main"
    inputs = _load_inputs(args.inputs or [], names, what)  # check inputs before compiling
    if names and len(inputs) != len(names):
        raise CLIError(f"{what} takes {len(names)} input(s) ({', '.join(names)}), got {len(inputs)}")
    if not args.input.endswith(".vmfb"):
        if _is_onnx(args.input):
            # the arrays fix symbolic dims; --shape wins
            shapes = {**{n: list(a.shape) for n, a in zip(names, inputs)}, **shapes}
        with Progress.for_stderr(args.quiet) as prog:
            exe = compile_file(args.input, target, args.iree_flag, shapes, prog)
        print(f"compiled {args.input} for {exe.target} in {exe.compile_time_s:.3f} s "
              f"({_stage_summary(prog)})")
    try:
        result = exe(*inputs)
        times = exe.benchmark(*inputs, runs=max(args.runs, 1), warmup=0)
    except CompileError:
        raise
    except Exception as e:  # IREE runtime errors (wrong shapes/dtypes, ...)
        raise CLIError(f"running @main failed: {str(e).strip().splitlines()[0] if str(e).strip() else e}") from None
    outs = result if isinstance(result, tuple) else (() if result is None else (result,))
    _print_outputs(outs, out_names)
    print(f"latency: median {statistics.median(times) * 1e3:.3f} ms over {len(times)} run(s)")
    if args.output:
        if not all(isinstance(o, np.ndarray) for o in outs):
            raise CLIError("--output saves arrays only, and @main returns an ADT value or a reference")
        keys = out_names if (len(out_names) == len(outs) == len(set(out_names))
                             and not {"file", "allow_pickle"} & set(out_names)) else \
            [f"output_{i}" for i in range(len(outs))]
        np.savez(args.output, **dict(zip(keys, outs)))
        print(f"wrote {args.output} (arrays {', '.join(keys)})")
    return 0


def cmd_demo(args: argparse.Namespace) -> int:
    from .testing import numpy_ref
    from .models import resnet  # model zoo: only the demo needs it

    image = (3, args.image_size, args.image_size)
    mod, params = resnet.get_workload(batch_size=args.batch, image_shape=image, seed=args.seed)
    mod = transform.InferType()(mod)
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


def _load_module(src: str, shape_specs: Sequence[str]):
    """The IRModule of a ``.relay``/``.rly``, ``.onnx`` or relay ``.mlir`` file."""
    if _is_relay_text(src):
        return _load_relay_text(src)
    if _is_onnx(src):
        from .frontend import from_onnx

        _onnx_io_names(src)
        return from_onnx(src, shapes=_parse_shapes(shape_specs))
    return from_mlir_text(_read_text(src), source_name=src)


def cmd_convert(args: argparse.Namespace) -> int:
    """``.relay`` <-> ``.mlir`` (and ``.onnx`` -> either)."""
    src, out = args.input, args.output
    out_kind = "relay" if _is_relay_text(out) else "mlir" if out.lower().endswith(".mlir") else None
    if out_kind is None:
        raise CLIError(f"cannot tell the output format of '{out}' (use .relay, .rly or .mlir)")
    mod = _load_module(src, args.shape)
    if out_kind == "relay":
        text = mod.astext()
    else:
        text = mod.to_mlir(infer=not args.no_infer).text()
    with open(out, "w", encoding="utf-8") as f:
        f.write(text)
    print(f"wrote {out}")
    return 0


def cmd_graph(args: argparse.Namespace) -> int:
    """Draws a module's dataflow (``IRModule.visualize``)."""
    src = args.input
    if args.shape and not _is_onnx(src):
        raise CLIError("--shape applies to .onnx models only")
    out = args.output or os.path.splitext(src)[0] + ".svg"
    output_format(out)  # a known extension and Graphviz if needed, before any work
    mod = _load_module(src, args.shape)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        mod.visualize(out, functions=args.function or None, infer=not args.no_infer,
                      all_attrs=args.all_attrs)
    for w in caught:
        print(f"relay-mlir: warning: {w.message}", file=sys.stderr)
    print(f"wrote {out}")
    return 0


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="relay-mlir", description="Compile and run Relay (MLIR) programs with IREE.")
    sub = p.add_subparsers(dest="command", required=True)
    targets = sorted(set(TARGETS) | {"vulkan"})

    c = sub.add_parser("compile", help="compile an ONNX model or a relay .mlir file to an IREE .vmfb")
    c.add_argument("input", help="model.onnx, model.relay (Relay text) or relay MLIR file")
    c.add_argument("-o", "--output", help="output .vmfb (default: INPUT with .vmfb)")
    c.add_argument("--target", default="llvm-cpu", choices=targets)
    c.add_argument("--shape", action="append", default=[], metavar="NAME=D0,D1,...",
                   help="fix an ONNX input's shape ('?' keeps a dim dynamic; repeat)")
    c.add_argument("--emit-iree-input", metavar="FILE", help="also write the lowered MLIR given to iree-compile")
    c.add_argument("--iree-flag", action="append", default=[], metavar="FLAG", help="extra iree-compile flag")
    c.add_argument("-q", "--quiet", action="store_true", help="no progress display on stderr")
    c.set_defaults(func=cmd_compile)

    r = sub.add_parser("run", help="run an ONNX model or relay .mlir (compiled first) or a .vmfb")
    r.add_argument("input", help="model.onnx, relay MLIR file or compiled .vmfb")
    r.add_argument("--input", dest="inputs", action="append", metavar="[NAME=]FILE.npy",
                   help="an input array (repeat; NAME matches the ONNX input names or @main's "
                        "argument names in .mlir)")
    r.add_argument("--output", metavar="OUT.npz",
                   help="save the outputs (keys: the ONNX output names, else output_0, output_1, ...)")
    r.add_argument("--target", default="llvm-cpu", choices=targets)
    r.add_argument("--shape", action="append", default=[], metavar="NAME=D0,D1,...",
                   help="fix an ONNX input's shape (default: the shapes of the given arrays)")
    r.add_argument("--runs", type=int, default=10, help="timed runs for the latency (default 10)")
    r.add_argument("--iree-flag", action="append", default=[], metavar="FLAG", help="extra iree-compile flag")
    r.add_argument("-q", "--quiet", action="store_true", help="no progress display on stderr")
    r.set_defaults(func=cmd_run)

    v = sub.add_parser("convert", help="convert between Relay text (.relay), relay MLIR (.mlir) "
                                       "and ONNX (input only)")
    v.add_argument("input", help="model.relay, model.mlir or model.onnx")
    v.add_argument("-o", "--output", required=True, help="output .relay or .mlir")
    v.add_argument("--no-infer", action="store_true", help="write .mlir without running type inference")
    v.add_argument("--shape", action="append", default=[], metavar="NAME=D0,D1,...",
                   help="fix an ONNX input's shape")
    v.set_defaults(func=cmd_convert)

    g = sub.add_parser("graph", help="draw a module's dataflow with Graphviz (.svg, .png, .pdf; "
                                     ".dot/.gv text needs no Graphviz)")
    g.add_argument("input", help="model.relay, model.mlir or model.onnx")
    g.add_argument("-o", "--output", help="model.svg, .png, .pdf, .dot or .gv (default: INPUT with .svg)")
    g.add_argument("--function", action="append", default=[], metavar="NAME",
                   help="draw only this global function (repeat; default: all)")
    g.add_argument("--all-attrs", action="store_true",
                   help="show every operator attribute (default: the informative ones)")
    g.add_argument("--no-infer", action="store_true", help="draw without running type inference")
    g.add_argument("--shape", action="append", default=[], metavar="NAME=D0,D1,...",
                   help="fix an ONNX input's shape")
    g.set_defaults(func=cmd_graph)

    d = sub.add_parser("demo", help="build, compile and check a small ResNet-style CNN against numpy")
    d.add_argument("--target", default="llvm-cpu", choices=targets)
    d.add_argument("--runs", type=int, default=20, help="timed runs (default 20)")
    d.add_argument("--batch", type=int, default=1)
    d.add_argument("--image-size", type=int, default=32)
    d.add_argument("--seed", type=int, default=0)
    d.add_argument("--tolerance", type=float, default=1e-4, help="max abs error allowed (default 1e-4)")
    d.set_defaults(func=cmd_demo)
    cli_transform.add_parser(sub)
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

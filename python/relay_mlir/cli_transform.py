"""``relay-mlir transform``: apply named ``relay.transform`` passes to a file and print the result.

The BYOC and device passes (``MergeComposite``, ``AnnotateTarget``, ``MergeCompilerRegions``,
``PartitionGraph``, ``PlanDevices``) are Python passes over the expression tree, so
``relay-mlir-opt`` cannot run them; this subcommand is their command line (and the lit tests'
tool, test/lit/byoc)::

    relay-mlir transform model.relay -p MergeComposite=refacc -p AnnotateTarget=refacc \\
        -p MergeCompilerRegions -p PartitionGraph
    relay-mlir transform model.relay -p PlanDevices=cpu:llvm,vulkan:vulkan
    relay-mlir transform cases.relay --split-input-file --load my_targets.py -p AnnotateTarget=a,b

Passes run in the order given, as one ``relay.transform.Sequential``:

- ``MergeComposite=T1[,T2..]``: the pattern tables registered under those names
  (``register_pattern_table``; ``refacc``'s is always there), concatenated in order;
- ``AnnotateTarget=A[,B..]``: TVM's ``AnnotateTarget([A, B])`` (first target wins). A target
  that nothing is registered for (no ``target.<A>`` operator attribute, pattern table or code
  generator) is an error here, since TVM's pass would silently annotate nothing;
- ``PlanDevices=DEV:TARGET[,DEV:TARGET..]``: ``PlanDevices(make_compilation_config(ctx,
  {DEV: TARGET, ..}))``; ``--fallback-device`` sets ``relay.fallback_device_type``;
- any other pass of ``relay_mlir.transform`` that takes no arguments (``InferType``,
  ``FoldConstant``, ``MergeCompilerRegions``, ``PartitionGraph``, ...).

``--load`` imports a Python module or file first (the place to register operator attributes,
pattern tables and code generators). The input is Relay text (``.relay``/``.rly``) or relay
MLIR; the output is Relay text (``--emit mlir``: relay MLIR), with a ``// @f: ...`` comment per
function ``PlanDevices`` placed, giving the devices of its parameters and result (what TVM
prints as ``virtual_device=``). With ``--split-input-file`` each chunk between ``// -----``
lines is read and transformed alone (line numbers stay the file's); a chunk's error is printed
and the next chunk runs; the exit status is 1 if any chunk failed.
"""
from __future__ import annotations

import argparse
import importlib
import importlib.util
import os
import sys
from typing import Callable, Dict, List, Optional, Sequence, Tuple

from . import transform
from .annotation import device_name
from .byoc import refacc  # noqa: F401  (registers the reference accelerator's table and codegen)
from .byoc.codegen import registered_codegens
from .devices.config import make_compilation_config
from .devices.plan import param_devices, result_device
from .errors import CompileError
from .expr import Function
from .mlir_import import from_mlir_text
from .module import IRModule
from .op.contrib.register import get_pattern_table, registered_pattern_tables
from .op.op_attr import has_op_attr_key
from .parser import fromtext
from .pass_infra import PassContext

__all__ = ["add_parser", "cmd_transform", "make_pass", "SPLIT_MARKER"]

SPLIT_MARKER = "// -----"


class TransformError(ValueError):
    """A bad pass spec or an unknown name (the CLI prints ``relay-mlir: error: ...``)."""


# -- pass specs ---------------------------------------------------------------------------------
def _names(arg: Optional[str], spec: str) -> List[str]:
    names = [n.strip() for n in (arg or "").split(",") if n.strip()]
    if not names:
        raise TransformError(f"pass '{spec}': give its names after '=' (e.g. {spec.split('=')[0]}=refacc)")
    return names


def _merge_composite(arg: Optional[str], spec: str):
    entries: list = []
    for name in _names(arg, spec):
        table = get_pattern_table(name)
        if table is None:
            known = ", ".join(registered_pattern_tables()) or "none"
            raise TransformError(f"MergeComposite: no pattern table '{name}' is registered "
                                 f"(registered: {known}; --load a module that registers it)")
        entries += list(table)
    return transform.MergeComposite(entries)


def _target_known(name: str) -> bool:
    return (name == "default" or has_op_attr_key(f"target.{name}")
            or get_pattern_table(name) is not None or name in registered_codegens())


def _annotate_target(arg: Optional[str], spec: str):
    targets = _names(arg, spec)
    for name in targets:
        if not _target_known(name):
            raise TransformError(f"AnnotateTarget: nothing is registered for target '{name}' (no "
                                 f"operator attribute 'target.{name}', pattern table or code "
                                 "generator; --load a module that registers them)")
    return transform.AnnotateTarget(targets)


def _device_targets(arg: Optional[str], spec: str) -> Dict[str, str]:
    targets: Dict[str, str] = {}
    for item in _names(arg, spec):
        dev, sep, target = item.partition(":")
        if not sep or not dev.strip() or not target.strip():
            raise TransformError(f"PlanDevices: expected DEVICE:TARGET (e.g. vulkan:vulkan), got '{item}'")
        targets[dev.strip()] = target.strip()
    return targets


def _plan_devices(arg: Optional[str], spec: str):
    config = make_compilation_config(PassContext.current(), _device_targets(arg, spec))
    return transform.PlanDevices(config)


_WITH_ARGS: Dict[str, Callable[[Optional[str], str], object]] = {
    "MergeComposite": _merge_composite,
    "AnnotateTarget": _annotate_target,
    "PlanDevices": _plan_devices,
}


def make_pass(spec: str):
    """The pass a ``-p`` spec names (``NAME`` or ``NAME=ARGS``; see the module doc)."""
    name, sep, arg = spec.partition("=")
    name = name.strip()
    if name in _WITH_ARGS:
        return _WITH_ARGS[name](arg if sep else None, spec)
    factory = getattr(transform, name, None)
    if not name or not callable(factory) or not name[:1].isupper():
        raise TransformError(f"unknown pass '{name}' (relay_mlir.transform has no such pass)")
    if sep:
        raise TransformError(f"pass '{name}' takes no arguments here (got '={arg}')")
    try:
        return factory()
    except TypeError as e:
        raise TransformError(f"pass '{name}' needs arguments this command line cannot give: {e}") from None


# -- input and output ---------------------------------------------------------------------------
def load_plugin(spec: str) -> None:
    """Imports a module (``pkg.mod``) or runs a ``.py`` file (``--load``)."""
    if spec.endswith(".py"):
        if not os.path.isfile(spec):
            raise TransformError(f"--load: cannot read '{spec}'")
        name = "relay_mlir_load_" + os.path.splitext(os.path.basename(spec))[0]
        mod_spec = importlib.util.spec_from_file_location(name, spec)
        module = importlib.util.module_from_spec(mod_spec)
        mod_spec.loader.exec_module(module)
        return
    try:
        importlib.import_module(spec)
    except ImportError as e:
        raise TransformError(f"--load: cannot import '{spec}': {e}") from None


def _chunks(text: str, split: bool) -> List[Tuple[int, str]]:
    """(first line number - 1, text) per chunk; a chunk is padded to keep the file's line numbers."""
    if not split:
        return [(0, text)]
    out, start, lines = [], 0, []
    for i, line in enumerate(text.splitlines(keepends=True)):
        if line.strip() == SPLIT_MARKER:
            out.append((start, "\n" * start + "".join(lines)))
            start, lines = i + 1, []
        else:
            lines.append(line)
    out.append((start, "\n" * start + "".join(lines)))
    return out


def _read(text: str, path: str, relay_text: bool) -> IRModule:
    if relay_text:
        return fromtext(text, source_name=path)
    return from_mlir_text(text, source_name=path)


def _placement_comments(mod: IRModule) -> List[str]:
    lines = []
    for gv, fn in mod.functions.items():
        if not isinstance(fn, Function) or result_device(fn) is None:
            continue
        params = ", ".join(f"%{p.name_hint} on {d}" for p, d in zip(fn.params, param_devices(fn)))
        lines.append(f"// @{gv.name_hint}: {params}{'; ' if params else ''}result on {result_device(fn)}")
    return lines


def render(mod: IRModule, emit: str) -> str:
    """``mod`` as Relay text (with PlanDevices' placements as comments) or relay MLIR."""
    if emit == "mlir":
        return mod.to_mlir(infer=True).text().rstrip("\n")
    return "\n".join([mod.astext().rstrip("\n")] + _placement_comments(mod))


def _report(e: Exception) -> None:
    if isinstance(e, CompileError):
        for d in e.diagnostics or ():
            print(str(d), file=sys.stderr)
        print(f"relay-mlir: error: {e.message}", file=sys.stderr)
    else:
        print(f"relay-mlir: error: {e}", file=sys.stderr)


def transform_text(text: str, path: str, specs: Sequence[str], emit: str = "relay") -> str:
    """Reads ``text`` (Relay text if ``path`` ends in .relay/.rly, else relay MLIR), runs the
    passes of ``specs`` and returns the result rendered as ``emit``."""
    relay_text = path.lower().endswith((".relay", ".rly"))
    mod = _read(text, path, relay_text)
    seq = transform.Sequential([make_pass(s) for s in specs])
    return render(seq(mod), emit)


def cmd_transform(args: argparse.Namespace) -> int:
    for spec in args.load:
        load_plugin(spec)
    try:
        with open(args.input, encoding="utf-8") as f:
            text = f.read()
    except OSError as e:
        raise TransformError(f"cannot read '{args.input}': {e.strerror}") from None
    config = {}
    if args.fallback_device:
        kind = device_name(args.fallback_device, "--fallback-device").device_type
        if kind < 0:
            raise TransformError(f"--fallback-device: TVM has no device type for '{args.fallback_device}'")
        config["relay.fallback_device_type"] = kind
    outputs, failed = [], False
    with PassContext(config=config):
        for _, chunk in _chunks(text, args.split_input_file):
            try:
                outputs.append(transform_text(chunk, args.input, args.passes, args.emit))
            except (CompileError, ValueError, TypeError) as e:
                if not args.split_input_file:
                    raise
                _report(e)
                failed = True
    out = ("\n" + SPLIT_MARKER + "\n").join(outputs) + "\n"
    if args.output:
        with open(args.output, "w", encoding="utf-8") as f:
            f.write(out)
    else:
        sys.stdout.write(out)
    return 1 if failed else 0


def add_parser(sub) -> None:
    """Adds the ``transform`` subcommand to the CLI's subparsers."""
    t = sub.add_parser("transform", help="apply relay.transform passes (BYOC partitioning, "
                                         "PlanDevices, ...) to Relay text or relay MLIR and print it")
    t.add_argument("input", help="model.relay (Relay text) or relay MLIR file")
    t.add_argument("-p", "--pass", dest="passes", action="append", default=[], metavar="NAME[=ARGS]",
                   help="a pass, in order (repeat): MergeComposite=TABLE, AnnotateTarget=T1,T2, "
                        "MergeCompilerRegions, PartitionGraph, PlanDevices=DEV:TARGET,..., "
                        "or any argument-free relay_mlir.transform pass")
    t.add_argument("--load", action="append", default=[], metavar="MODULE|FILE.py",
                   help="import a module or file that registers operator attributes, pattern "
                        "tables or code generators (repeat)")
    t.add_argument("--fallback-device", metavar="DEVICE",
                   help="PlanDevices' default device (relay.fallback_device_type; default cpu)")
    t.add_argument("--emit", choices=("relay", "mlir"), default="relay", help="output form (default relay)")
    t.add_argument("--split-input-file", action="store_true",
                   help=f"transform each chunk between '{SPLIT_MARKER}' lines on its own")
    t.add_argument("-o", "--output", help="write here instead of stdout")
    t.set_defaults(func=cmd_transform)

#!/usr/bin/env python3
"""Generates docs/status.md, the per-operator status page, from the repository.

For every op of the dialect (``dialect/relay/*Ops.td`` through
``llvm-tblgen --dump-json``, as ``scripts/gen_ops_doc.py`` reads them) the
page says where each piece lives, found by looking at the code:

* typing rule: the ``infer*`` function its ODS ``typeRule`` names, located
  by its definition ``relay::infer*(`` in ``lib/Relations/*.cpp``; for the
  language ops, an ``<Op>::typeRule`` / ``buildTypeEquations`` /
  ``inferReturnTypes`` definition there;
* lowering: the ``lib/Conversion/RelayToLinalg/*.cpp`` files that root a
  pattern at the op's C++ class (``OpConversionPattern<C>``,
  ``MapPattern<C>``, ``ReportUnsupported<C>``, ``SomePattern<C, ...>``) or
  name it in a pattern table (``C::getOperationName()``);
* gradient: the rule table (``lib/Gradient/*Gradients.cpp``: the op names
  registered in each ``add*Gradients`` function; the test suite checks them
  against ``relay-mlir-opt --list-gradient-rules``); language ops are
  handled by the reverse sweep (files naming the op's C++ class);
* interpreter kernel: ``relay_mlir.interpreter_ops.KERNELS``;
* lit: the ``test/lit`` directories with a non-comment line using the op;
* numeric tests: ``test/python/ops/test_*.py`` and ``test/python/test_ops.py``
  files referring to the op (the rule of ``test/python/test_op_coverage.py``);
* ONNX / torch converters: the registered converters
  (``relay_mlir.frontend.onnx_ops.registry``, ``relay_mlir.frontend.torch._CONVERTERS``)
  whose code, followed into closures, nested functions and the functions
  of their own module, names the op: a string constant equal to the op's
  name (``n.op("nn.conv2d")``) or a builder reached through the
  ``relay_mlir.op`` modules (``op.nn.conv2d``).

The known gaps at the end are written here (``KNOWN_GAPS``); everything
else is derived. ``--check`` (run by the test suite) fails when
docs/status.md is stale.

Usage::

    python scripts/gen_status.py           # rewrite docs/status.md
    python scripts/gen_status.py --check   # exit 1 if docs/status.md is stale
"""
from __future__ import annotations

import argparse
import dis
import importlib
import re
import sys
import types
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Dict, Iterable, List, Optional, Set, Tuple

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))
import gen_ops_doc  # noqa: E402  (the ODS reader and the family order)

OUT = ROOT / "docs" / "status.md"
RELATIONS = ROOT / "lib" / "Relations"
LOWERING = ROOT / "lib" / "Conversion" / "RelayToLinalg"
GRADIENT = ROOT / "lib" / "Gradient"
LIT = ROOT / "test" / "lit"
NUMERIC_FILES = sorted((ROOT / "test" / "python" / "ops").glob("test_*.py")) + [
    ROOT / "test" / "python" / "test_ops.py"]

LANGUAGE_FILES = ("RelayLanguageOps.td", "RelayADTOps.td")
# test/lit directories, in the order a cell lists them, with their letters.
LIT_DIRS = [("ops", "O"), ("relations", "R"), ("infer", "I"), ("conversion", "C"),
            ("transforms", "T"), ("pipeline", "P")]
# The reverse-sweep files (language constructs are differentiated there).
SWEEP_FILES = ("ReverseSweep.cpp", "AdtAdjoints.cpp", "Pullbacks.cpp", "PromoteRefs.cpp",
               "InlineCalls.cpp")
MAX_NAMES = 4  # converter names listed per cell before "+N"

# (issue, one line, the doc tracking it or ""). From `issues list` and the
# "Next:" paragraphs of the former status log (docs/history.md). A gap that
# outlived its (resolved) issue is listed under "Known limits".
KNOWN_GAPS: List[Tuple[str, str, str]] = [
    ("Known limits (issue 29, resolved)",
     "Wrong at run time: loops IREE 3.13 miscompiles or never finishes compiling (worked "
     "around in the pipeline and in IREE's VM module, one root cause at a time; loop-fuzzer "
         "campaigns go on); float16/bfloat16 programs on vulkan-spirv compute wrong values with "
         "IREE's default Vulkan target on lavapipe (reproduced with IREE alone; see passes.md, "
         "ToMixedPrecision); float64 `mod` / `trunc_mod` do not compile for llvm-cpu (IREE 3.13 "
         "cannot link the fmod its remainder becomes: a located compile error)",
     "fuzzing_programs.md"),
    ("Issue 30", "Speed on CPU (median latency vs the fastest peer, 2 threads). Session 39 "
         "(RESULTS-f32-kernels.md at f702928, relay-mlir vs onnxruntime on the Intel Xeon): "
         "Winograd's products and attention's P.V on our GEMM kernel, a row-softmax kernel, "
         "small 3x3 convolutions direct: ResNet-18, VGG-16, BERT-tiny, LSTM LM and ViT-Tiny "
         "ahead of onnxruntime; ResNet-50 1.09x, MobileNetV2 1.29x, resnet_demo 1.23x, DQN "
         "1.66x (IREE's hand-offs between dispatches on two threads). Session 38: "
         "f32 matmuls, convolutions and depthwise convolutions with constant weights run on "
         "our own AVX-512 kernels (relay-vnni-matmul's f32 form: no activation-pack dispatches, "
         "windows read in place, epilogues fused); on the Intel Xeon (RESULTS-f32-kernels.md, "
         "relay-mlir vs onnxruntime) MobileNetV2 1.98x -> 1.33x, ViT-Tiny 1.35x -> 1.11x, LSTM "
         "LM and BERT-tiny ahead, resnet_demo 1.16x, ResNet-18 1.43x, DQN 2.11x. Batch 1 "
         "(RESULTS.md, session 31's run at 5e80d5c): ResNet-18, VGG-16 and BERT-tiny a relay-mlir "
         "system the fastest, ResNet-50 1.07x, ViT-Tiny 1.18x, MobileNetV2 1.32x, LSTM 1.45x, "
         "DQN 1.46x, resnet_demo 2.02x (onnxruntime fastest; session 30's quiet run had "
         "MobileNetV2 1.62x, DQN 1.79x, LSTM 1.08x: runs differ by 10-40 % on the small models). "
         "Batch 8 (RESULTS-batch8.md, session 30): ResNet-18 and BERT-tiny the "
         "fastest, VGG-16 1.07x, ViT-Tiny 1.10x, ResNet-50 1.29x, LSTM 1.31x, MobileNetV2 1.31x, "
         "DQN 1.57x, resnet_demo 1.81x. Session 32: small kernels (<= 128 KB) as direct "
         "convolutions, resnet_demo 1.64x and DQN 1.85x in a run of the two (57 -> 24 and 32 "
         "-> 14 dispatches). On one thread our kernels are at or near onnxruntime's "
         "(DQN 0.283 vs 0.281 ms, MobileNetV2 1.04-1.1x): the two-thread losses are IREE's "
         "hand-offs between dispatches (DQN: ~17 us each on local-task; "
         "MobileNetV2: 37 activation packs), ViT's softmax packing (bench/PARTIAL.md). Compile "
         "time against IREE's ONNX path (session 31: Winograd chunks one set of executables, "
         "VGG-16 138 -> 63): every model within 1.5x at batch 1 (at most ResNet-18 1.39x, "
         "VGG-16 1.38x) with a lower peak; at batch 8 ResNet-18 2.40x (peak 1.23x), ResNet-50 "
         "1.69x, VGG-16 1.66x: IREE's whole-program passes over the unrolled chunks' ops",
     "../bench/RESULTS.md"),
    ("Issue 31", "Relay's optimizer: every pass of the issue is in (SimplifyExprPostAlterOp since "
         "session 24); AlterOpLayout, FlattenAtrousConv and qnn Legalize are MLIR pattern passes "
         "(the Target's answers handed to them as options); FlattenAtrousConv and (under a CPU "
         "tvm Target) qnn.Legalize run in compile() at TVM's places; on IREE the optimizer "
         "changes no run time measurably: O3 within 2 % of O0 on the zoo in session 25's rerun, "
         "which ran under load and whose noise bound is 5 % (bench/OPTIMIZER.md)", "optimizer.md"),
    ("Issue 33", "Quantization: qnn (with fixed_point_multiply and the simulated ops), "
         "relay.quantize, quantized ONNX, TFLite (54 builtins) and the int4/float8 element types "
         "are in; int8 speed: since session 33 8-bit contractions with constant weights run on "
         "our own AVX-512 VNNI kernel (relay-vnni-matmul: vpdpbusd, u8 x s8, an MLIR GEMM in an "
         "IREE custom dispatch; convolutions read their windows in place, any channel count), "
         "which IREE 3.13's kernels (vpdpwssd, half the rate) do not use; since session 34 the "
         "requantize / residual ops after each contraction run in its epilogue (it stores int8); "
         "since session 35 depthwise convolutions have a VNNI kernel too (zero-point padding "
         "done in the kernel), uint8 tensors are read as they are, and qnn.conv2d with a kernel "
         "zero point of 0 is an int8 x int8 contraction; since session 36 the weights are "
         "packed at compile time and float functions of one byte are tables; since session 37 "
         "the kernel pads convolutions itself (quantized ResNet-18: 48 -> 25 dispatches) and QDQ "
         "Gemm is QGemm. bench/QUANT.md's table at bb68961 on an Intel Xeon (2 threads, 8 "
         "rounds, medians; earlier tables ran on an AMD EPYC): ResNet-18 1.08x onnxruntime int8 "
         "(p10 1.00x), MobileNetV2 0.97x, BERT-tiny 0.57x; int8 over our f32 2.44x / 2.05x / "
         "1.56x (our f32 got faster in sessions 38-39; 4.66x / 3.30x / 1.63x at session 37) "
         "(compile() records and the benches list any model compiled on fallback "
         "flags). Outputs equal onnxruntime's on the bench's QDQ u8s8 ResNet-18; "
         "MobileNetV2 within QLinearAdd's rounding: QLinearAdd rounds one step differently in 1-2 "
         "of 65536 input pairs (an exact form cost IREE's first flags); QLinearAveragePool one "
         "step apart in 1 of 50 random pools (float sum order); qnn ops bit-exact with TVM 0.19 "
         "in a 420-op differential fuzz (session 29); TFLite hybrid and 16x8 CONV_2D / "
         "FULLY_CONNECTED import bit-exact against TFLite's reference kernels",
     "quantization.md"),
]


@dataclass
class Op:
    name: str                 # relay.nn.conv2d
    cpp: str                  # Conv2DOp
    family: str               # section title
    language: bool
    rule: Optional[str]       # inferConv, or None
    cells: Dict[str, str] = field(default_factory=dict)
    has: Dict[str, bool] = field(default_factory=dict)

    @property
    def short(self) -> str:
        return self.name[len("relay."):]


def _link(path: Path, text: Optional[str] = None) -> str:
    rel = Path("..") / path.relative_to(ROOT)
    return f"[{text or path.name}]({rel.as_posix()})"


def read_ops() -> List[Op]:
    ops: List[Op] = []
    for file, title in gen_ops_doc.FAMILIES:
        td = gen_ops_doc.DIALECT / "relay" / file
        if not td.exists():
            continue
        records = gen_ops_doc._records(td)
        for rec_name in sorted(records["!instanceof"].get("Op", []),
                               key=lambda n: records[n]["opName"]):
            rec = records[rec_name]
            if rec.get("opDialect", {}).get("def") != "Relay_Dialect":
                continue
            rule = rec.get("typeRule")
            m = re.search(r"\b(infer\w+)\(", rule) if isinstance(rule, str) else None
            cpp = rec_name[len("Relay_"):] if rec_name.startswith("Relay_") else rec_name
            ops.append(Op("relay." + rec["opName"], cpp, title.split(":")[0].split(" (")[0],
                          file in LANGUAGE_FILES, m.group(1) if m else None))
    return ops


def _texts(paths: Iterable[Path]) -> Dict[Path, str]:
    return {p: p.read_text() for p in sorted(paths)}


# -- typing rule -----------------------------------------------------------------------------
def typing_cell(op: Op, relations: Dict[Path, str]) -> Tuple[str, bool]:
    if op.rule:
        for pattern in (r"\brelay::" + op.rule + r"\s*\(", r"(?m)^\S.*\b" + op.rule + r"\s*\("):
            for path, text in relations.items():
                if re.search(pattern, text):
                    return _link(path, f"`{op.rule}`"), True
        return f"`{op.rule}` (definition not found)", True
    for path, text in relations.items():
        m = re.search(r"(?<![\w:])" + op.cpp
                      + r"::(typeRule|buildTypeEquations|inferReturnTypes)\b", text)
        if m:
            what = "equations" if m.group(1) != "inferReturnTypes" else "inferReturnTypes"
            return _link(path, what), True
    return "—", False


# -- lowering ----------------------------------------------------------------------------------
def lowering_cell(op: Op, lowering: Dict[Path, str]) -> Tuple[str, bool]:
    c = re.escape(op.cpp)
    root = re.compile(r"(?:Pattern|Unsupported)<\s*" + c + r"\b"          # Pattern<C ...>
                      r"|Patterns<[^<>;(){}]*(?<![\w:])" + c + r"\b"     # addXPatterns<C, ...>
                      r"|(?<![\w:])" + c + r"::getOperationName\(\)")     # table rows
    # (a template parameter of the same name, `template <typename MaxOp>`, is not the op)
    files = [p for p, text in lowering.items()
             if root.search(text) and not re.search(r"typename\s+" + c + r"\b", text)]
    if not files:
        return "—", False
    return ", ".join(_link(p, p.stem) for p in files), True


# -- gradient ----------------------------------------------------------------------------------
def gradient_table() -> Dict[str, Path]:
    """Op name -> the file whose ``add*Gradients`` registers its rule (from the source)."""
    table: Dict[str, Path] = {}
    for path in sorted(GRADIENT.glob("*.cpp")):
        text = path.read_text()
        for m in re.finditer(r"(?m)^void gradient::add\w+Gradients\([^)]*\)\s*\{(.*?)^\}", text,
                             re.S):
            body = m.group(1)
            prefixed = 'Twine("relay.")' in body
            for lit in re.findall(r'"([a-z0-9_.]+)"', body):
                if lit == "relay.":
                    continue
                name = lit if lit.startswith("relay.") else ("relay." + lit if prefixed else None)
                if name:
                    table[name] = path
    return table


def gradient_cell(op: Op, table: Dict[str, Path], sweep: Dict[Path, str]) -> Tuple[str, bool]:
    if op.name in table:
        path = table[op.name]
        return _link(path, path.stem.replace("Gradients", "")), True
    if op.language:
        pat = re.compile(r"(?<![\w:])" + re.escape(op.cpp) + r"\b")
        files = [p for p, t in sweep.items() if pat.search(t)]
        if files:
            return "sweep: " + ", ".join(_link(p, p.stem) for p in files), True
    return "—", False


# -- lit and numeric tests -------------------------------------------------------------------
def lit_op_re(op: str) -> re.Pattern:
    return re.compile(r"(?<![\w.])" + re.escape(op) + r"(?![\w.])")


def numeric_op_re(op: str) -> re.Pattern:
    short = op[len("relay."):]
    alts = [r"\brelay\." + re.escape(short) + r"\b",
            r"(?<![\w])" + re.escape(short) + r"\b(?!\.)" if "." in short else None,
            r"""["']""" + re.escape(op) + r"""["']""",
            r"""["']""" + re.escape(short) + r"""["']"""]
    return re.compile("|".join(a for a in alts if a))


def lit_texts() -> Dict[str, str]:
    out = {}
    for d, _ in LIT_DIRS:
        lines = []
        for p in sorted((LIT / d).glob("*.mlir")):
            lines += [ln for ln in p.read_text().splitlines() if not ln.lstrip().startswith("//")]
        out[d] = "\n".join(lines)
    return out


# -- converters --------------------------------------------------------------------------------
def _op_module_prefix(mod: types.ModuleType) -> Optional[str]:
    """The op-name prefix of a ``relay_mlir.op`` module (``nn.`` for ``relay_mlir.op.nn``)."""
    name = mod.__name__
    if name == "relay_mlir.op" or name.startswith("relay_mlir.op."):
        tail = name[len("relay_mlir.op"):].lstrip(".")
        return tail + "." if tail in ("nn", "image", "dyn") else ""
    return None


def _builder_name(fn: types.FunctionType) -> Optional[str]:
    """``nn.conv2d`` for ``relay_mlir.op.nn.conv2d``; None outside ``relay_mlir.op``."""
    mod = sys.modules.get(fn.__module__)
    prefix = _op_module_prefix(mod) if mod is not None else None
    return None if prefix is None else prefix + fn.__name__


def _code_objects(code: types.CodeType) -> Iterable[types.CodeType]:
    yield code
    for c in code.co_consts:
        if isinstance(c, types.CodeType):
            yield from _code_objects(c)


def referenced_ops(fn: Callable, names: Set[str], seen: Optional[Set[int]] = None) -> Set[str]:
    """Relay op names (``nn.conv2d``) that ``fn`` names: string constants, ``relay_mlir.op``
    builders reached through module attributes; followed into closures, nested functions
    and functions of ``fn``'s own module."""
    seen = set() if seen is None else seen
    found: Set[str] = set()
    fn = getattr(fn, "__wrapped__", fn)
    code = getattr(fn, "__code__", None)
    if code is None or id(code) in seen:
        return found
    seen.add(id(code))
    glb = getattr(fn, "__globals__", {})
    module = glb.get("__name__")
    follow: List[Callable] = []
    for cell in getattr(fn, "__closure__", None) or ():
        try:
            v = cell.cell_contents
        except ValueError:
            continue
        if isinstance(v, str) and v in names:
            found.add(v)
        elif isinstance(v, types.FunctionType):
            builder = _builder_name(v)
            if builder in names:
                found.add(builder)
            elif v.__module__ == module:
                follow.append(v)
    for co in _code_objects(code):
        found |= {c for c in co.co_consts if isinstance(c, str) and c in names}
        chain: Optional[object] = None
        prefix = ""
        for ins in dis.get_instructions(co):
            if ins.opname in ("LOAD_GLOBAL", "LOAD_NAME"):
                v = glb.get(ins.argval)
                if isinstance(v, types.ModuleType) and _op_module_prefix(v) is not None:
                    chain, prefix = v, _op_module_prefix(v)
                    continue
                if isinstance(v, types.FunctionType) and v.__module__ == module:
                    follow.append(v)
                elif isinstance(v, types.FunctionType) and _builder_name(v) in names:
                    found.add(_builder_name(v))
                chain = None
            elif ins.opname in ("LOAD_ATTR", "LOAD_METHOD") and chain is not None:
                v = getattr(chain, ins.argval, None)
                if isinstance(v, types.ModuleType) and _op_module_prefix(v) is not None:
                    chain, prefix = v, _op_module_prefix(v)
                    continue
                if prefix + ins.argval in names:
                    found.add(prefix + ins.argval)
                chain = None
            else:
                chain = None
    for f in follow:
        found |= referenced_ops(f, names, seen)
    return found


def converter_index(registry: Dict[str, List[Callable]], names: Set[str]) -> Dict[str, List[str]]:
    """Relay op name -> the converter keys (ONNX op types, ATen names) whose code names it."""
    index: Dict[str, List[str]] = {}
    for key in sorted(registry):
        ops: Set[str] = set()
        for fn in registry[key]:
            ops |= referenced_ops(fn, names)
        for o in ops:
            index.setdefault(o, []).append(key)
    return index


def _names_cell(keys: List[str]) -> str:
    if not keys:
        return "—"
    shown = ", ".join(keys[:MAX_NAMES])
    return shown + (f" +{len(keys) - MAX_NAMES}" if len(keys) > MAX_NAMES else "")


def frontend_indexes(names: Set[str]) -> Tuple[Dict[str, List[str]], Dict[str, List[str]]]:
    onnx_ops = importlib.import_module("relay_mlir.frontend.onnx_ops")
    torch_fe = importlib.import_module("relay_mlir.frontend.torch")
    onnx_reg = {t: [c for _, c in onnx_ops._base._REGISTRY[t]] for t in onnx_ops._base._REGISTRY}
    torch_reg = {k: [v] for k, v in torch_fe._CONVERTERS.items()}
    return converter_index(onnx_reg, names), converter_index(torch_reg, names)


# -- the page ----------------------------------------------------------------------------------
COLUMNS = [("typing", "typing rule"), ("lowering", "lowering"), ("gradient", "gradient"),
           ("kernel", "interpreter"), ("lit", "lit"), ("numeric", "numeric tests"),
           ("onnx", "ONNX converters"), ("torch", "torch converters")]


def fill(ops: List[Op]) -> None:
    relations = _texts(RELATIONS.glob("*.cpp"))
    lowering = _texts(LOWERING.glob("*.cpp"))
    sweep = _texts(GRADIENT / f for f in SWEEP_FILES if (GRADIENT / f).exists())
    grads = gradient_table()
    kernels = importlib.import_module("relay_mlir.interpreter_ops").KERNELS
    lits = lit_texts()
    numeric = {p: p.read_text() for p in NUMERIC_FILES}
    onnx_index, torch_index = frontend_indexes({o.short for o in ops if not o.language})
    for op in ops:
        c, h = op.cells, op.has
        c["typing"], h["typing"] = typing_cell(op, relations)
        c["lowering"], h["lowering"] = lowering_cell(op, lowering)
        c["gradient"], h["gradient"] = gradient_cell(op, grads, sweep)
        if op.language:
            c["kernel"], h["kernel"] = "·", False
        else:
            k = kernels.get(op.short)
            h["kernel"] = k is not None
            c["kernel"] = "—" if k is None else (
                "✓" if k.__module__.startswith("relay_mlir.interpreter_ops.") else f"✓ ({k.__module__})")
        pat = lit_op_re(op.name)
        dirs = [letter for d, letter in LIT_DIRS if pat.search(lits[d])]
        c["lit"], h["lit"] = (" ".join(dirs) or "—"), bool(dirs)
        h["lit_conversion"] = "C" in dirs
        if op.language:
            c["numeric"], h["numeric"] = "·", False
        else:
            npat = numeric_op_re(op.name)
            files = [p.stem.replace("test_", "") for p, t in numeric.items() if npat.search(t)]
            c["numeric"], h["numeric"] = (", ".join(files) or "—"), bool(files)
        for col, index in (("onnx", onnx_index), ("torch", torch_index)):
            if op.language:
                c[col], h[col] = "·", False
            else:
                keys = index.get(op.short, [])
                c[col], h[col] = _names_cell(keys), bool(keys)


NOT_LANGUAGE = ("kernel", "numeric", "onnx", "torch")  # columns shown `·` for language ops

HEADER = """\
# Status

Generated by `scripts/gen_status.py` (do not edit; the test suite checks it
is current: `python scripts/gen_status.py` rewrites it). What was done
when is in [history.md](history.md); how it works in [design.md](design.md);
each op's operands, attributes and examples in [ops.md](ops.md).

One row per op of the dialect (`dialect/relay/*Ops.td`). Every cell is found
by looking at the code; how, and where that is a heuristic:

- **typing rule**: the `infer*` function the op's ODS `typeRule` names,
  linked to the `lib/Relations/` file defining it; language ops: the file
  defining their type equations (`<Op>::typeRule`/`buildTypeEquations`) or
  `inferReturnTypes`. Exact.
- **lowering**: the `lib/Conversion/RelayToLinalg/` files rooting a
  conversion pattern at the op's C++ class (`OpConversionPattern<C>`,
  `MapPattern<C>`, `XPattern<C, ...>`, `ReportUnsupported<C>`) or naming it
  in a pattern table (`C::getOperationName()`), or instantiating a pattern
  template with it (`addPoolPatterns<C, ...>`). *Heuristic* (a regex over
  the C++ source; a file using the class name as a template parameter
  name is skipped).
- **gradient**: the `lib/Gradient/*Gradients.cpp` file whose `add*Gradients`
  registers the op's rule (read from the source; the test suite checks the
  set equals `relay-mlir-opt --list-gradient-rules`). Language ops:
  `sweep:` the reverse-sweep files naming the op's class (*heuristic*).
- **interpreter**: a kernel in `relay_mlir.interpreter_ops.KERNELS`
  (registry). `·`: a language construct, evaluated by `interpreter.py`'s
  machine itself.
- **lit**: `test/lit` directories with a non-comment line using the op:
  O ops (parse/print/verify), R relations (type errors), I infer,
  C conversion (lowering), T transforms, P pipeline.
- **numeric tests**: `test/python/ops/test_<name>.py` (and `ops` =
  `test/python/test_ops.py`) referring to the op by name (the rule of
  `test/python/test_op_coverage.py`; *heuristic*: a reference is not
  proof the op's numerics are checked there). `·`: a language construct
  (tested by `test/python/test_language_*.py`, `test_adt_*.py`, ...).
- **ONNX / torch converters**: the ONNX op types
  (`relay_mlir.frontend.onnx_ops` registry) and ATen ops
  (`relay_mlir.frontend.torch`) whose converter names the op: a string
  constant equal to its name (`n.op("nn.conv2d")`) or a `relay_mlir.op`
  builder (`op.nn.conv2d`), followed into closures and the converter's own
  module's functions, not into shared helpers (`_base`, `_symshape`).
  *Heuristic*: an op named on a path the converter rarely takes is listed
  too; one built by a shared helper, or named by a string built at run
  time (`f"nn.{kind}_pool3d"`), is missed. At most four names, then
  `+N`. `·`: a language construct.
"""


def generate() -> str:
    ops = read_ops()
    fill(ops)
    operators = [o for o in ops if not o.language]
    language = [o for o in ops if o.language]
    lines = [HEADER, "## Summary", "",
             f"{len(ops)} ops: {len(operators)} operators, {len(language)} language and ADT "
             "constructs.", "",
             "| | " + " | ".join(t for _, t in COLUMNS) + " |",
             "|---|" + "---|" * len(COLUMNS)]
    for title, group in (("operators", operators), ("language + ADT", language)):
        row = []
        for key, _ in COLUMNS:
            n = sum(o.has[key] for o in group)
            row.append("·" if key in NOT_LANGUAGE and group is language
                       else f"{n} / {len(group)}")
        lines.append(f"| {title} | " + " | ".join(row) + " |")
    lines += ["", f"Operators with a lowering lit test (C): "
              f"{sum(o.has['lit_conversion'] for o in operators)} / {len(operators)}.", ""]

    lines += ["## Known gaps", "",
              "Open issues (`issues show N`), and what the table shows missing:", ""]
    for label, text, where in KNOWN_GAPS:
        doc = f" ([{where.split('#')[0].split('/')[-1]}]({where}))" if where else ""
        lines.append(f"- **{label}**: {text}{doc}.")
    for key, what in (("lowering", "no lowering"), ("gradient", "no gradient rule"),
                      ("kernel", "no interpreter kernel"), ("numeric", "no numeric test"),
                      ("onnx", "no ONNX converter found"), ("torch", "no torch converter found")):
        missing = [o.name for o in operators if not o.has[key]]
        if not missing:
            continue
        shown = ", ".join(f"`{m}`" for m in missing) if len(missing) <= 12 else (
            ", ".join(f"`{m}`" for m in missing[:12]) + f", ... ({len(missing) - 12} more)")
        lines.append(f"- Operators with {what} ({len(missing)}): {shown}.")
    lines.append("")

    lines += ["## Operators by family", ""]
    for family in dict.fromkeys(o.family for o in ops):
        group = [o for o in ops if o.family == family]
        lines += [f"### {family} ({len(group)})", "",
                  "| op | " + " | ".join(t for _, t in COLUMNS) + " |",
                  "|---|" + "---|" * len(COLUMNS)]
        for o in group:
            lines.append(f"| `{o.name}` | " + " | ".join(o.cells[k] for k, _ in COLUMNS) + " |")
        lines.append("")
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="fail if docs/status.md is stale")
    args = parser.parse_args()
    # the registries are read from this tree's sources, not an installed copy (importing
    # relay_mlir's interpreter and frontends needs no MLIR bindings)
    sys.path.insert(0, str(ROOT / "python"))
    text = generate()
    if args.check:
        if not OUT.exists() or OUT.read_text() != text:
            print(f"{OUT} is stale: run python scripts/gen_status.py", file=sys.stderr)
            return 1
        return 0
    OUT.write_text(text)
    print(f"wrote {OUT}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

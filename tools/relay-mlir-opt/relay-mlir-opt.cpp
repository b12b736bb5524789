//===- relay-mlir-opt.cpp - the relay optimizer driver --------------------===//
//
// MlirOptMain with the relay dialect, every relay pass and pipeline, the
// dialects relay lowers to, and the upstream general-purpose passes.
//
// `relay-mlir-opt --list-gradient-rules` prints the operators that have a
// gradient rule (relay-gradient), one per line.
//
// The input is first scanned for text MLIR's parser would abort on
// (relay/Utils/ParserHazards.h), which is reported as an error instead.
// The work then runs in a child process (as clang's driver runs cc1): if an
// assertion or a signal ends it, the driver reports a located error naming
// the signal and exits with status 1 instead of dying with the child (the
// child's stack dump stays on stderr for the bug report).
//
//===----------------------------------------------------------------------===//
#include "relay/RelayGradient.h"
#include "relay/RelayPasses.h"
#include "relay/Utils/ParserHazards.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Func/Extensions/InlinerExtension.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/ToolOutputFile.h"

#if defined(__unix__) || defined(__APPLE__)
#include <cerrno>
#include <csignal>
#include <cstring>
#include <sys/wait.h>
#include <unistd.h>
#define RELAY_MLIR_OPT_FORKS 1
#endif

using namespace mlir;

/// Runs the rest of main in a child process; returns in the child (true), or
/// in the parent with the child's exit status in `status` (false). Without
/// fork (or if it fails) everything runs in this process.
static bool continueInChild(StringRef inputFilename, int &status) {
#ifdef RELAY_MLIR_OPT_FORKS
  if (std::getenv("RELAY_MLIR_OPT_NO_FORK"))
    return true;
  llvm::outs().flush();
  llvm::errs().flush();
  pid_t pid = fork();
  if (pid <= 0)
    return true; // the child, or no child: run here
  int wstatus = 0;
  while (waitpid(pid, &wstatus, 0) < 0)
    if (errno != EINTR)
      return status = EXIT_FAILURE, false;
  if (WIFEXITED(wstatus))
    return status = WEXITSTATUS(wstatus), false;
  int sig = WIFSIGNALED(wstatus) ? WTERMSIG(wstatus) : 0;
  llvm::errs() << (inputFilename == "-" ? StringRef("<stdin>") : inputFilename)
               << ":1:1: error: relay-mlir-opt crashed (signal " << sig << ", "
               << strsignal(sig)
               << ") while compiling this input: an internal error of "
                  "relay-mlir, please report it with the input\n";
  status = EXIT_FAILURE;
  return false;
#else
  (void)inputFilename;
  (void)status;
  return true;
#endif
}

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  if (argc == 2 && StringRef(argv[1]) == "--list-gradient-rules") {
    for (const std::string &name : relay::gradient::gradientRuleNames())
      llvm::outs() << name << "\n";
    return EXIT_SUCCESS;
  }
  registerTransformsPasses();
  registerLinalgPasses();
  relay::registerAllRelayPasses();

  DialectRegistry registry;
  registry.insert<relay::RelayDialect, bufferization::BufferizationDialect>();
  relay::registerLoweringDialects(registry);
  func::registerInlinerExtension(registry); // upstream --inline on func.call
  auto [inputFilename, outputFilename] = registerAndParseCLIOptions(
      argc, argv, "relay-mlir optimizer driver\n", registry);
  MlirOptMainConfig config = MlirOptMainConfig::createFromCLOptions();
  if (config.shouldShowDialects()) {
    llvm::outs() << "Available Dialects: ";
    llvm::interleaveComma(registry.getDialectNames(), llvm::outs());
    llvm::outs() << "\n";
    return EXIT_SUCCESS;
  }
  if (config.shouldListPasses()) {
    printRegisteredPasses();
    return EXIT_SUCCESS;
  }

  std::string errorMessage;
  std::unique_ptr<llvm::MemoryBuffer> file =
      openInputFile(inputFilename, &errorMessage);
  if (!file) {
    llvm::errs() << errorMessage << "\n";
    return EXIT_FAILURE;
  }
  if (std::optional<relay::ParserHazard> hazard =
          relay::findParserHazard(file->getBuffer())) {
    llvm::SourceMgr sourceMgr;
    const char *at = file->getBufferStart() + hazard->offset;
    sourceMgr.AddNewSourceBuffer(std::move(file), llvm::SMLoc());
    sourceMgr.PrintMessage(llvm::errs(), llvm::SMLoc::getFromPointer(at),
                           llvm::SourceMgr::DK_Error, hazard->message);
    return EXIT_FAILURE;
  }
  int status = EXIT_SUCCESS;
  if (!continueInChild(inputFilename, status))
    return status;
  std::unique_ptr<llvm::ToolOutputFile> output =
      openOutputFile(outputFilename, &errorMessage);
  if (!output) {
    llvm::errs() << errorMessage << "\n";
    return EXIT_FAILURE;
  }
  if (failed(MlirOptMain(output->os(), std::move(file), registry, config)))
    return EXIT_FAILURE;
  output->keep();
  return EXIT_SUCCESS;
}

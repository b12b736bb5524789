//===- Pipelines.cpp - named pass pipelines -------------------------------===//
#include "relay/RelayPasses.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Dialect/Tensor/IR/TensorInferTypeOpInterfaceImpl.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassOptions.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;
using namespace mlir::relay;

namespace {
/// Which of our own CPU kernels relay-to-iree-input may emit.
enum class CpuKernels { None, Avx512, Avx512Vnni };

struct IREEInputOptions : public PassPipelineOptions<IREEInputOptions> {
  Option<bool> inferType{
      *this, "infer-type",
      llvm::cl::desc("run relay-infer-type first; relay_mlir.compile turns it "
                     "off for modules its caller has just typed, so that "
                     "types are inferred once per compile"),
      llvm::cl::init(true)};
  Option<bool> convertLayout{
      *this, "convert-layout",
      llvm::cl::desc("run relay-convert-layout (convolutions in "
                     "`desired-layout`, transposes sunk and cancelled)"),
      llvm::cl::init(true)};
  Option<CpuKernels> cpuKernels{
      *this, "cpu-kernels",
      llvm::cl::desc("our own CPU kernels the target may run"),
      llvm::cl::init(CpuKernels::None),
      llvm::cl::values(
          clEnumValN(CpuKernels::None, "none", "IREE's kernels only"),
          clEnumValN(CpuKernels::Avx512, "avx512",
                     "relay-vnni-matmul{int8=false float32=true}: f32 "
                     "matmuls and convolutions with constant weights on "
                     "AVX-512 F"),
          clEnumValN(CpuKernels::Avx512Vnni, "avx512vnni",
                     "relay-vnni-matmul{float32=true}: the f32 ones and "
                     "8-bit matmuls with a constant right operand on AVX-512 "
                     "VNNI"))};
  Option<std::string> desiredLayout{
      *this, "desired-layout",
      llvm::cl::desc("data layout of nn.conv2d for relay-convert-layout "
                     "(NHWC or NCHW)"),
      llvm::cl::init("NHWC")};
};

/// What qnn.Legalize does: TVM's rewrite depends on the target.
enum class QnnLegalize { None, Int16, FastInt8 };

struct OptPipelineOptions : public PassPipelineOptions<OptPipelineOptions> {
  Option<int> optLevel{*this, "opt-level",
                       llvm::cl::desc("TVM's opt level: the passes up to it "
                                      "run (0-4)"),
                       llvm::cl::init(3)};
  Option<QnnLegalize> qnnLegalize{
      *this, "qnn-legalize",
      llvm::cl::desc("qnn.Legalize as under a tvm Target (TVM's x86 rewrite; "
                     "the int32 results are the same)"),
      llvm::cl::init(QnnLegalize::None),
      llvm::cl::values(
          clEnumValN(QnnLegalize::None, "none",
                     "no CPU target: it rewrites nothing (the default)"),
          clEnumValN(QnnLegalize::Int16, "int16",
                     "an x86 target without sse4.2: int16 operands"),
          clEnumValN(QnnLegalize::FastInt8, "fast-int8",
                     "an x86 target with sse4.2: uint8 data, int8 kernel"))};
};

/// One pass of relay.build's optimization sequence: its TVM opt level and
/// the relay-mlir-opt pass that implements it.
struct OptStep {
  int level;
  const char *pass;
};

/// TVM 0.19's relay.build sequence (recorded with a PassInstrument), the
/// passes relay-mlir has, in TVM's order; FoldScaleAxis is its three members,
/// qnn.Legalize its QnnLegalize (TVM's x86 rewrite, which depends on the
/// target; its QnnCanonicalize is relay-mlir's lowering of the qnn ops).
/// python/relay_mlir/optimizer.py builds the same sequence from the Python
/// passes (with the PassContext's required/disabled passes);
/// test_optimizer.py checks the two agree at every level.
constexpr OptStep kRelayBuildSequence[] = {
    {1, "relay-remove-unused-functions{public-entries=true}"},
    {1, "relay-qnn-legalize"}, // the target's form: qnn-legalize option
    {1, "relay-legalize"},
    {0, "relay-simplify-inference"},
    {3, "relay-eliminate-common-subexpr"},
    {4, "relay-combine-parallel-conv2d"},
    {4, "relay-combine-parallel-dense"},
    {4, "relay-combine-parallel-batch-matmul"},
    {2, "relay-fold-constants"},
    {3, "relay-backward-fold-scale-axis"},
    {3, "relay-forward-fold-scale-axis"},
    {2, "relay-fold-constants"},
    {0, "relay-simplify-expr"},
    {3, "relay-canonicalize-cast"},
    {3, "relay-canonicalize-ops"},
    {0, "relay-flatten-atrous-conv"},
    {0, "relay-simplify-expr-post-alter-op"},
    {4, "relay-fast-math"},
    {2, "relay-fold-constants"},
};
} // namespace

void mlir::relay::registerLoweringDialects(DialectRegistry &registry) {
  registry.insert<arith::ArithDialect, linalg::LinalgDialect, math::MathDialect,
                  scf::SCFDialect, tensor::TensorDialect, func::FuncDialect,
                  cf::ControlFlowDialect>();
  tensor::registerInferTypeOpInterfaceExternalModels(registry);
}

namespace {
/// relay-to-iree-input: types, the language lowered to first-order code,
/// relay -> linalg, then the passes that shape the program for iree-compile.
void buildIREEInputPipeline(OpPassManager &pm,
                            const IREEInputOptions &options) {
  if (options.inferType)
    pm.addPass(createRelayInferType());
  pm.addPass(createRelayMonomorphize());
  pm.addPass(createRelayGradient());
  pm.addPass(createRelayFoldConstants());
  pm.addPass(createRelayDynamicToStatic());
  // Closures to first-order code: functions as values become ADTs.
  pm.addPass(createRelayLambdaLift());
  pm.addPass(createRelayDefunctionalize());
  if (options.convertLayout) {
    RelayConvertLayoutOptions layout;
    layout.desiredLayout = options.desiredLayout;
    pm.addPass(createRelayConvertLayout(layout));
  }
  pm.addPass(createCanonicalizerPass());
  // Equal relay ops merged first: lowerings that look at a value's
  // uses (relay.transpose) see them all.
  pm.addPass(createCSEPass());
  ConvertRelayToLinalgOptions lowering;
  lowering.int8MatmulKernel = options.cpuKernels == CpuKernels::Avx512Vnni;
  lowering.f32MatmulKernel = options.cpuKernels != CpuKernels::None;
  pm.addPass(createConvertRelayToLinalg(lowering));
  // iree-compile dies on dispatches over empty iteration spaces.
  pm.addPass(createRelayFoldEmptyIterations());
  // Global functions that are called (global loops) get a private
  // body, which the passes below can specialise to its callers.
  pm.addPass(createRelayPrivatizeCallees());
  // Loop counters, bounds and branch conditions on the host, not as
  // one-element dispatches read back at every branch.
  pm.addPass(createRelayHostScalars());
  // A loop's branches on its argument sizes decided once, before it:
  // sizes first resolved into the arguments' dims.
  pm.addPass(memref::createResolveRankedShapeTypeResultDimsPass());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  pm.addPass(createRelayUnswitchLoops());
  pm.addPass(createRelayDropSizeReshapes());
  // Slices read inside their consumers' dispatches, not copied.
  pm.addPass(createRelayReshapeBeforeSlice());
  // Many strided slices of one tensor (an RNN's steps at batch > 1)
  // made contiguous: one executable for all their consumers (after
  // CSE has merged the slices' identical source reshapes).
  pm.addPass(createCSEPass());
  pm.addPass(createRelayContiguousSlices());
  // iree-compile hangs on call-graph cycles: none may reach it.
  pm.addPass(createRelayEliminateRecursion());
  // Branches decided by constants reaching a function through all its
  // call sites, and the code they make unreachable, removed here:
  // iree-compile's canonicalizer can spin forever on unreachable
  // loops that its own constant propagation leaves behind.
  pm.addPass(createSCCPPass());
  pm.addPass(createSymbolDCEPass());
  // Dims of intermediates in terms of the inputs' dims, so that the
  // run-time shape checks depending only on them run before the
  // first dispatch (each assert between dispatches is a host wait).
  pm.addPass(memref::createResolveRankedShapeTypeResultDimsPass());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  // Loops that can never exit (now that branches known from constants
  // are folded) fail at run time, not in iree-compile.
  pm.addPass(createRelayFailEndlessLoops());
  // iree-compile loses tensors passed together into a join block.
  pm.addPass(createRelayBoxJoinTensors());
  pm.addNestedPass<func::FuncOp>(createRelayHoistRuntimeChecks());
  // Float functions between two quantizations: one lookup per element.
  pm.addPass(createRelayByteTables());
  if (options.cpuKernels != CpuKernels::None) {
    RelayVnniMatmulOptions kernels;
    kernels.int8 = options.cpuKernels == CpuKernels::Avx512Vnni;
    kernels.float32 = true;
    pm.addPass(createRelayVnniMatmul(kernels));
  }
  // iree-compile never returns on recursive programs.
  pm.addPass(createRelayCheckNoRecursion());
}

} // namespace

void mlir::relay::registerRelayPipelines() {
  PassPipelineRegistration<OptPipelineOptions>(
      "relay-opt-pipeline",
      "Relay's optimizer as relay.build runs it at `opt-level` (TVM 0.19's "
      "pass order and opt levels, the passes relay-mlir has), types "
      "inferred before each pass",
      [](OpPassManager &pm, const OptPipelineOptions &options) {
        for (const OptStep &step : kRelayBuildSequence) {
          std::string pass = step.pass;
          if (pass == "relay-qnn-legalize") {
            if (options.qnnLegalize == QnnLegalize::None)
              continue;
            pass += options.qnnLegalize == QnnLegalize::FastInt8
                        ? "{fast-int8=true}"
                        : "{fast-int8=false}";
          }
          if (step.level > options.optLevel)
            continue;
          pm.addPass(createRelayInferType());
          if (failed(parsePassPipeline(pass, pm)))
            llvm::report_fatal_error("relay-opt-pipeline: unknown pass");
        }
      });
  PassPipelineRegistration<IREEInputOptions>(
      "relay-to-iree-input",
      "Infers types and lowers relay to linalg/tensor/arith/math/scf/func "
      "text that iree-compile accepts: no call-graph cycles "
      "(relay-eliminate-recursion removes them, relay-check-no-recursion "
      "refuses any left); convolutions become NHWC (relay-convert-layout) "
      "unless `convert-layout=false`",
      buildIREEInputPipeline);
}

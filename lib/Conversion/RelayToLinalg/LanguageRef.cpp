//===- LanguageRef.cpp - references: ref_new, ref_read, ref_write --------===//
//
// A reference is a one-slot `!util.list<?>` holding its boxed value (the
// boxing of docs/design.md, "ADT values and references"; helpers in
// IREEOps.h): ref_new creates the list, ref_read unboxes its slot, ref_write
// stores into it, so every alias sees the write (TVM 0.19's RefWrite
// mutates the one cell all RefRead's of it observe).
//
//===----------------------------------------------------------------------===//
#include "relay/RelayOps.h"
#include "relay/RelayToLinalg.h"

#include "IREEOps.h"

using namespace mlir;
using namespace mlir::relay;

namespace {

/// `value` (converted: `converted`) boxed for a reference's slot; an error
/// at `op` when its type cannot be stored.
FailureOr<Value> boxForCell(OpBuilder &b, const TypeConverter &tc,
                            Operation *op, Value value, ValueRange converted) {
  FailureOr<Value> boxed =
      iree::boxValue(b, op->getLoc(), tc, value.getType(), converted);
  if (failed(boxed))
    op->emitError() << "cannot store a value of type " << value.getType()
                    << " in a reference";
  return boxed;
}

struct RefNewPattern : OpConversionPattern<RefNewOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(RefNewOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    FailureOr<Value> boxed = boxForCell(rewriter, *getTypeConverter(), op,
                                        op.getValue(), adaptor.getValue());
    if (failed(boxed))
      return failure();
    Value cell = iree::createList(rewriter, loc, 1);
    iree::setListItem(rewriter, loc, cell, 0, *boxed);
    rewriter.replaceOp(op, cell);
    return success();
  }
};

struct RefReadPattern : OpConversionPattern<RefReadOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(RefReadOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type type = op.getType();
    Value item = iree::getListItem(rewriter, loc, adaptor.getRef().front(), 0,
                                   iree::boxedTypeOf(type));
    SmallVector<Value> leaves;
    if (failed(iree::unboxValue(rewriter, loc, *getTypeConverter(), type, item,
                                leaves)))
      return op.emitError()
             << "cannot read a value of type " << type << " from a reference";
    rewriter.replaceOpWithMultiple(op, {leaves});
    return success();
  }
};

struct RefWritePattern : OpConversionPattern<RefWriteOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(RefWriteOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    FailureOr<Value> boxed = boxForCell(rewriter, *getTypeConverter(), op,
                                        op.getValue(), adaptor.getValue());
    if (failed(boxed))
      return failure();
    iree::setListItem(rewriter, loc, adaptor.getRef().front(), 0, *boxed);
    // The result is () : no values.
    rewriter.replaceOpWithMultiple(op, {ValueRange{}});
    return success();
  }
};

} // namespace

void relay::populateRefToLinalgPatterns(const TypeConverter &tc,
                                        RewritePatternSet &patterns) {
  patterns.add<RefNewPattern, RefReadPattern, RefWritePattern>(
      tc, patterns.getContext());
}

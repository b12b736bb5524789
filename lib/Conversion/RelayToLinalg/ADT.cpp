//===- ADT.cpp - algebraic data types and match ---------------------------===//
//
// Run-time layout (docs/design.md, "ADT values and references"; the boxing
// helpers are in IREEOps.h): an ADT value is a `!util.list<?>` [tag: i32,
// field0, field1, ...] where the tag is the constructor's index in its
// relay.adt and every field is *boxed*: a tensor as a `!hal.buffer_view`,
// an ADT or reference as its list, a tuple as a list of its boxed fields
// (references: LanguageRef.cpp).
//
// relay.construct builds the list; relay.match becomes a chain of scf.if,
// one per clause, testing the clause's pattern (the tags of the value and
// of its nested constructor fields; a field is only read once the tag that
// guarantees it matched) and running the clause with its pattern variables
// bound to the unboxed fields. Past the last clause (unless it cannot fail)
// the program fails at run time ("no clause ... matches"), so an incomplete
// match never yields a value.
//
//===----------------------------------------------------------------------===//
#include "IREEOps.h"
#include "Utils.h"

#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::relay;
using namespace mlir::relay::lowering;

namespace {

/// The constructor `ref` names and its index in its relay.adt.
FailureOr<std::pair<ConstructorOp, int32_t>>
lookupConstructor(Operation *from, SymbolRefAttr ref) {
  auto ctor = SymbolTable::lookupNearestSymbolFrom<ConstructorOp>(from, ref);
  if (!ctor)
    return failure();
  int32_t index = 0;
  for (Operation &op : ctor->getBlock()->getOperations()) {
    if (&op == ctor.getOperation())
      return std::make_pair(ctor, index);
    if (isa<ConstructorOp>(op))
      ++index;
  }
  return failure();
}

struct ConstructPattern : OpConversionPattern<ConstructOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ConstructOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto ctor = lookupConstructor(op, op.getConstructorAttr());
    if (failed(ctor))
      return rewriter.notifyMatchFailure(op, "unknown constructor");
    Location loc = op.getLoc();
    Value list = iree::createList(rewriter, loc, op.getFields().size() + 1);
    Value tag = arith::ConstantIntOp::create(rewriter, loc, ctor->second, 32);
    iree::setListItem(rewriter, loc, list, 0, tag);
    for (auto [i, field, leaves] :
         llvm::enumerate(op.getFields(), adaptor.getFields())) {
      FailureOr<Value> boxed = iree::boxValue(
          rewriter, loc, *getTypeConverter(), field.getType(), leaves);
      if (failed(boxed))
        return op.emitError() << "cannot store a field of type "
                              << field.getType() << " in an ADT value";
      iree::setListItem(rewriter, loc, list, i + 1, *boxed);
    }
    rewriter.replaceOp(op, list);
    return success();
  }
};

//===----------------------------------------------------------------------===//
// relay.match
//===----------------------------------------------------------------------===//

/// Part of the matched value: either its converted values (`leaves`, with
/// its relay `type`), as for the scrutinee and its tuple projections, or a
/// list slot value (`boxed`) once inside an ADT, where the type is only
/// needed (and known, from the pattern variable) when a variable binds it.
struct Subject {
  Type type;
  SmallVector<Value> leaves;
  Value boxed;
};

/// True for a pattern that matches every value of its type: variables,
/// wildcards, tuples of such, and the constructor of a one-constructor ADT
/// with such fields.
bool isIrrefutable(Operation *from, Attribute pattern) {
  if (isa<PatWildcardAttr, PatVarAttr>(pattern))
    return true;
  ArrayAttr fields;
  if (auto tuple = dyn_cast<PatTupleAttr>(pattern)) {
    fields = tuple.getFields();
  } else if (auto ctor = dyn_cast<PatCtorAttr>(pattern)) {
    auto found = lookupConstructor(from, ctor.getConstructor());
    if (failed(found) || found->first->getBlock()->getOperations().size() != 1)
      return false;
    fields = ctor.getFields();
  } else {
    return false;
  }
  return llvm::all_of(fields,
                      [&](Attribute f) { return isIrrefutable(from, f); });
}

/// Number of variables `pattern` binds.
unsigned countVars(Attribute pattern) {
  if (isa<PatVarAttr>(pattern))
    return 1;
  ArrayAttr fields;
  if (auto tuple = dyn_cast<PatTupleAttr>(pattern))
    fields = tuple.getFields();
  else if (auto ctor = dyn_cast<PatCtorAttr>(pattern))
    fields = ctor.getFields();
  else
    return 0;
  unsigned n = 0;
  for (Attribute f : fields)
    n += countVars(f);
  return n;
}

/// Builds the tests and bindings of one match's patterns.
struct MatchLowering {
  MatchOp op;
  ConversionPatternRewriter &rewriter;
  const TypeConverter &tc;
  Location loc;

  /// `a && b` (`a` may be null: true).
  Value andOf(Value a, Value b) {
    if (!a)
      return b;
    return arith::AndIOp::create(rewriter, loc, a, b);
  }

  /// The list of an ADT-typed subject.
  Value listOf(const Subject &s) {
    return s.boxed ? s.boxed : s.leaves.front();
  }

  /// Field `i` of tuple subject `s`, of relay type `fieldType` when known
  /// (a boxed field is read as its boxed type, else as a list).
  FailureOr<Subject> tupleField(const Subject &s, unsigned i, Type fieldType) {
    if (s.boxed)
      return Subject{fieldType,
                     {},
                     iree::getListItem(
                         rewriter, loc, s.boxed, i,
                         fieldType ? iree::boxedTypeOf(fieldType)
                                   : iree::getListType(rewriter.getContext()))};
    auto tuple = dyn_cast_or_null<TupleType>(s.type);
    if (!tuple || i >= tuple.size())
      return failure();
    size_t begin = 0;
    SmallVector<Type> types;
    for (unsigned j = 0; j <= i; ++j) {
      types.clear();
      if (failed(tc.convertType(tuple.getType(j), types)))
        return failure();
      if (j < i)
        begin += types.size();
    }
    return Subject{tuple.getType(i),
                   SmallVector<Value>(
                       ArrayRef<Value>(s.leaves).slice(begin, types.size())),
                   {}};
  }

  /// Field `i` of the constructor value `s` (its tag already tested),
  /// read as `type` (a list unless a variable of a tensor type binds it).
  Subject ctorField(const Subject &s, unsigned i, Type readAs) {
    return Subject{
        {}, {}, iree::getListItem(rewriter, loc, listOf(s), i + 1, readAs)};
  }

  /// The i1 that is true when `pattern` matches `s` (null: always).
  FailureOr<Value> test(Attribute pattern, const Subject &s) {
    if (isIrrefutable(op, pattern))
      return Value();
    if (auto tuple = dyn_cast<PatTupleAttr>(pattern)) {
      Value all;
      for (auto [i, sub] : llvm::enumerate(tuple.getFields())) {
        if (isIrrefutable(op, sub))
          continue;
        Type fieldType;
        if (auto tt = dyn_cast_or_null<TupleType>(s.type))
          fieldType = tt.getType(i);
        FailureOr<Subject> field = tupleField(s, i, fieldType);
        if (failed(field))
          return failure();
        FailureOr<Value> cond = test(sub, *field);
        if (failed(cond))
          return failure();
        all = andOf(all, *cond);
      }
      return all;
    }
    auto ctorPat = dyn_cast<PatCtorAttr>(pattern);
    if (!ctorPat)
      return failure();
    auto ctor = lookupConstructor(op, ctorPat.getConstructor());
    if (failed(ctor))
      return failure();
    Value tag =
        iree::getListItem(rewriter, loc, listOf(s), 0, rewriter.getI32Type());
    Value want = arith::ConstantIntOp::create(rewriter, loc, ctor->second, 32);
    Value same = arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::eq,
                                       tag, want);
    if (llvm::all_of(ctorPat.getFields(),
                     [&](Attribute f) { return isIrrefutable(op, f); }))
      return same;
    // The fields exist only under this tag: test them inside.
    auto ifOp = scf::IfOp::create(rewriter, loc, rewriter.getI1Type(), same,
                                  /*withElseRegion=*/true);
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPointToStart(&ifOp.getElseRegion().front());
    Value no = arith::ConstantIntOp::create(rewriter, loc, 0, 1);
    scf::YieldOp::create(rewriter, loc, no);
    rewriter.setInsertionPointToStart(&ifOp.getThenRegion().front());
    Value all;
    for (auto [i, sub] : llvm::enumerate(ctorPat.getFields())) {
      if (isIrrefutable(op, sub))
        continue;
      // A refutable pattern is a constructor or tuple pattern: the field
      // is a list.
      Subject field = ctorField(s, i, iree::getListType(rewriter.getContext()));
      FailureOr<Value> cond = test(sub, field);
      if (failed(cond))
        return failure();
      all = andOf(all, *cond);
    }
    scf::YieldOp::create(rewriter, loc, ValueRange{all});
    return ifOp.getResult(0);
  }

  /// Appends the converted values of the variables of `pattern` (matching
  /// `s`) in depth-first order; `vars` are the clause's block arguments,
  /// `next` the first not bound yet.
  LogicalResult bind(Attribute pattern, const Subject &s,
                     Block::BlockArgListType vars, unsigned &next,
                     SmallVectorImpl<Value> &out) {
    if (isa<PatWildcardAttr>(pattern))
      return success();
    if (isa<PatVarAttr>(pattern)) {
      if (next >= vars.size())
        return failure();
      Type type = vars[next++].getType();
      if (!s.boxed) {
        llvm::append_range(out, s.leaves);
        return success();
      }
      return iree::unboxValue(rewriter, loc, tc, type, s.boxed, out);
    }
    // What a field is read as: a variable's boxed type, else a list.
    auto readAs = [&](Attribute sub, unsigned varIndex) {
      if (isa<PatVarAttr>(sub) && varIndex < vars.size())
        return iree::boxedTypeOf(vars[varIndex].getType());
      return iree::getListType(rewriter.getContext());
    };
    if (auto tuple = dyn_cast<PatTupleAttr>(pattern)) {
      for (auto [i, sub] : llvm::enumerate(tuple.getFields())) {
        if (!countVars(sub))
          continue;
        Type fieldType;
        if (auto tt = dyn_cast_or_null<TupleType>(s.type))
          fieldType = tt.getType(i);
        else if (isa<PatVarAttr>(sub) && next < vars.size())
          fieldType = vars[next].getType();
        FailureOr<Subject> field = tupleField(s, i, fieldType);
        if (failed(field) || failed(bind(sub, *field, vars, next, out)))
          return failure();
      }
      return success();
    }
    auto ctorPat = dyn_cast<PatCtorAttr>(pattern);
    if (!ctorPat)
      return failure();
    for (auto [i, sub] : llvm::enumerate(ctorPat.getFields())) {
      if (!countVars(sub))
        continue;
      Subject field = ctorField(s, i, readAs(sub, next));
      if (failed(bind(sub, field, vars, next, out)))
        return failure();
    }
    return success();
  }

  /// Values of the converted result types for the branch that failed at
  /// run time (never used: the program has aborted).
  FailureOr<SmallVector<Value>> unreachableValues(TypeRange types) {
    SmallVector<Value> values;
    for (Type type : types) {
      if (auto tensor = dyn_cast<RankedTensorType>(type)) {
        SmallVector<OpFoldResult> sizes =
            resultSizes(rewriter, tensor, [&](int64_t) -> OpFoldResult {
              return rewriter.getIndexAttr(0);
            });
        values.push_back(emptyTensor(rewriter, loc, tensor, sizes));
      } else if (iree::isListType(type)) {
        values.push_back(iree::createList(rewriter, loc, 0));
      } else {
        return failure();
      }
    }
    return values;
  }

  std::string failureMessage() {
    std::string where;
    if (auto file = op.getLoc()->findInstanceOf<FileLineColLoc>())
      where = (" at " + file.getFilename().getValue() + ":" +
               Twine(file.getLine()) + ":" + Twine(file.getColumn()))
                  .str();
    return ("no clause of the relay.match" + where +
            " matches the value (the match is incomplete)");
  }

  /// Clauses `from`.. as a chain of scf.if at the insertion point; returns
  /// the match's converted results.
  FailureOr<SmallVector<Value>> lowerClauses(unsigned from, const Subject &root,
                                             TypeRange resultTypes) {
    if (from == op.getClauses().size()) {
      iree::emitRuntimeFailure(rewriter, loc, failureMessage());
      return unreachableValues(resultTypes);
    }
    Attribute pattern = op.getPatterns()[from];
    FailureOr<Value> cond = test(pattern, root);
    if (failed(cond))
      return failure();
    Value c = *cond;
    if (!c)
      c = arith::ConstantIntOp::create(rewriter, loc, 1, 1);
    auto ifOp = scf::IfOp::create(rewriter, loc, resultTypes, c,
                                  /*addThenBlock=*/false,
                                  /*addElseBlock=*/false);
    OpBuilder::InsertionGuard guard(rewriter);
    // then: bind the variables, run the clause (its relay.yield becomes
    // the scf.yield).
    Block *then = rewriter.createBlock(&ifOp.getThenRegion());
    Block *clause = &op.getClauses()[from].front();
    SmallVector<Value> bound;
    unsigned next = 0;
    if (failed(bind(pattern, root, clause->getArguments(), next, bound)))
      return failure();
    TypeConverter::SignatureConversion signature(clause->getNumArguments());
    for (BlockArgument arg : clause->getArguments()) {
      SmallVector<Type> types;
      if (failed(tc.convertType(arg.getType(), types)))
        return failure();
      signature.addInputs(arg.getArgNumber(), types);
    }
    if (signature.getConvertedTypes().size() != bound.size())
      return failure();
    Block *converted =
        rewriter.applySignatureConversion(clause, signature, &tc);
    rewriter.mergeBlocks(converted, then, bound);
    // else: the next clauses; none after a clause that cannot fail (the
    // canonicalizer folds the `scf.if true`).
    Block *otherwise = rewriter.createBlock(&ifOp.getElseRegion());
    rewriter.setInsertionPointToStart(otherwise);
    FailureOr<SmallVector<Value>> rest =
        *cond ? lowerClauses(from + 1, root, resultTypes)
              : unreachableValues(resultTypes);
    if (failed(rest))
      return failure();
    scf::YieldOp::create(rewriter, loc, *rest);
    return SmallVector<Value>(ifOp.getResults());
  }
};

struct MatchPattern : OpConversionPattern<MatchOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(MatchOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    SmallVector<Type> resultTypes;
    if (failed(getTypeConverter()->convertType(op.getType(), resultTypes)))
      return rewriter.notifyMatchFailure(op, "result type not convertible");
    MatchLowering lowering{op, rewriter, *getTypeConverter(), op.getLoc()};
    Subject root{
        op.getData().getType(), SmallVector<Value>(adaptor.getData()), {}};
    FailureOr<SmallVector<Value>> results =
        lowering.lowerClauses(0, root, resultTypes);
    if (failed(results))
      return op.emitError() << "cannot lower this relay.match (patterns "
                               "that do not fit the scrutinee's type)";
    rewriter.replaceOpWithMultiple(op, {*results});
    return success();
  }
};

} // namespace

void relay::populateADTToLinalgPatterns(const TypeConverter &tc,
                                        RewritePatternSet &patterns) {
  patterns.add<ConstructPattern, MatchPattern>(tc, patterns.getContext());
}

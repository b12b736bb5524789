//===- RelayElementwiseOps.td - elementwise operators ------*- tablegen -*-===//
//
// Unary operators are typed by `Identity` (result = operand), binary ones
// by `Broadcast` (numpy broadcasting, `?` dims allowed; both operands of one
// dtype), comparisons by `BroadcastBool` (same, with an i1 result).
//
//===----------------------------------------------------------------------===//
#ifndef RELAY_ELEMENTWISE_OPS_TD
#define RELAY_ELEMENTWISE_OPS_TD

include "relay/RelayOpBase.td"
include "relay/RelayDtypeTraits.td"

//===----------------------------------------------------------------------===//
// Unary
//===----------------------------------------------------------------------===//

// A unary operator on float tensors (math functions).
class Relay_FloatUnaryOp<string mnemonic, string text>
    : Relay_UnaryOp<mnemonic, [Relay_FloatOperands]> {
  let summary = text;
}
// A unary operator on float or integer tensors; identity on integers for
// the rounding functions, as in Relay.
class Relay_NumericUnaryOp<string mnemonic, string text>
    : Relay_UnaryOp<mnemonic, [Relay_NumericOperands]> {
  let summary = text;
}
// A float test with a bool result of the operand's shape.
class Relay_FloatTestOp<string mnemonic, string text>
    : Relay_UnaryOp<mnemonic, [Relay_FloatOperands]> {
  let summary = text;
  let typeRule = "inferIdentityBool(site, adaptor.getData().getType())";
}

def Relay_NegativeOp
    : Relay_UnaryOp<"negative", [Relay_NumericOperands]> {
  let summary = "-x";
}
def Relay_ExpOp : Relay_FloatUnaryOp<"exp", "e^x">;
def Relay_LogOp : Relay_FloatUnaryOp<"log", "natural logarithm">;
def Relay_SqrtOp : Relay_FloatUnaryOp<"sqrt", "square root">;
def Relay_TanhOp : Relay_FloatUnaryOp<"tanh", "hyperbolic tangent">;
def Relay_SigmoidOp : Relay_FloatUnaryOp<"sigmoid", "1 / (1 + e^-x)">;
def Relay_ReluOp
    : Relay_UnaryOp<"nn.relu", [Relay_NumericOperands]> {
  let summary = "max(x, 0)";
  let description = [{
    ```mlir
    %y = relay.nn.relu %x : (tensor<1x8xf32>) -> tensor<1x8xf32>
    ```
  }];
}

def Relay_Log2Op : Relay_FloatUnaryOp<"log2", "base-2 logarithm">;
def Relay_Log10Op : Relay_FloatUnaryOp<"log10", "base-10 logarithm">;
def Relay_RsqrtOp : Relay_FloatUnaryOp<"rsqrt", "1 / sqrt(x)">;
def Relay_SinOp : Relay_FloatUnaryOp<"sin", "sine">;
def Relay_CosOp : Relay_FloatUnaryOp<"cos", "cosine">;
def Relay_TanOp : Relay_FloatUnaryOp<"tan", "tangent">;
def Relay_AsinOp : Relay_FloatUnaryOp<"asin", "arc sine">;
def Relay_AcosOp : Relay_FloatUnaryOp<"acos", "arc cosine">;
def Relay_AtanOp : Relay_FloatUnaryOp<"atan", "arc tangent">;
def Relay_SinhOp : Relay_FloatUnaryOp<"sinh", "hyperbolic sine">;
def Relay_CoshOp : Relay_FloatUnaryOp<"cosh", "hyperbolic cosine">;
def Relay_AcoshOp : Relay_FloatUnaryOp<"acosh", "inverse hyperbolic cosine"> {
  let description = [{
    `log(x + sqrt(x * x - 1))`; NaN for `x < 1`, as in TVM.

    ```mlir
    %y = relay.acosh %x : (tensor<4xf32>) -> tensor<4xf32>
    ```
  }];
}
def Relay_AsinhOp : Relay_FloatUnaryOp<"asinh", "inverse hyperbolic sine"> {
  let description = [{
    `sign(x) * log(|x| + sqrt(x * x + 1))`.

    ```mlir
    %y = relay.asinh %x : (tensor<4xf32>) -> tensor<4xf32>
    ```
  }];
}
def Relay_AtanhOp
    : Relay_FloatUnaryOp<"atanh", "inverse hyperbolic tangent"> {
  let description = [{
    `0.5 * log((1 + x) / (1 - x))`; +-inf at +-1, NaN beyond.

    ```mlir
    %y = relay.atanh %x : (tensor<4xf32>) -> tensor<4xf32>
    ```
  }];
}
def Relay_ErfOp : Relay_FloatUnaryOp<"erf", "Gauss error function">;
def Relay_FastExpOp : Relay_FloatUnaryOp<"fast_exp", "e^x (fast approximation)">;
def Relay_FastTanhOp
    : Relay_FloatUnaryOp<"fast_tanh", "tanh (fast approximation)">;
def Relay_FastErfOp
    : Relay_FloatUnaryOp<"fast_erf", "erf (fast approximation)">;

def Relay_AbsOp : Relay_NumericUnaryOp<"abs", "|x|">;
def Relay_SignOp : Relay_NumericUnaryOp<"sign", "-1, 0 or 1 by the sign of x">;
def Relay_CeilOp : Relay_NumericUnaryOp<"ceil", "round towards +inf">;
def Relay_FloorOp : Relay_NumericUnaryOp<"floor", "round towards -inf">;
def Relay_RoundOp : Relay_NumericUnaryOp<"round", "round half away from zero">;
def Relay_TruncOp : Relay_NumericUnaryOp<"trunc", "round towards zero">;

def Relay_IsNanOp : Relay_FloatTestOp<"isnan", "x is NaN (bool result)">;
def Relay_IsInfOp : Relay_FloatTestOp<"isinf", "x is +-inf (bool result)">;
def Relay_IsFiniteOp
    : Relay_FloatTestOp<"isfinite", "x is neither inf nor NaN (bool result)">;

def Relay_LogicalNotOp
    : Relay_UnaryOp<"logical_not", [Relay_BoolOperands]> {
  let summary = "not x, on bool tensors";
}
def Relay_BitwiseNotOp
    : Relay_UnaryOp<"bitwise_not", [Relay_IntegerOrBoolOperands]> {
  let summary = "~x, on integer or bool tensors";
}
def Relay_CopyOp : Relay_UnaryOp<"copy"> { let summary = "a copy of x"; }

def Relay_ClipOp : Relay_Operator<"clip", [Relay_NumericOperands,
                                             Relay_ElementwiseUnary]> {
  let typeRule = "inferIdentity(site, adaptor.getData().getType())";
  let summary = "clamps x to [a_min, a_max]";
  let description = [{
    `max(min(x, a_max), a_min)`, as in Relay. On integer tensors the bounds
    are converted to the dtype (truncated towards zero, saturated).

    ```mlir
    %y = relay.clip %x {a_min = 0.0 : f64, a_max = 6.0 : f64}
        : (tensor<4xf32>) -> tensor<4xf32>
    ```
  }];
  let arguments = (ins Relay_AnyTensorOrIncomplete:$data, F64Attr:$a_min,
                       F64Attr:$a_max);
}

def Relay_CastOp : Relay_Operator<"cast", [Relay_ElementwiseUnary]> {
  let typeRule = "inferCast(site, adaptor.getData().getType(), adaptor.getDtype())";
  let summary = "converts the elements to `dtype`";
  let description = [{
    Float → integer truncates towards zero; anything → bool is `x != 0`;
    bool → number gives 0 or 1.

    ```mlir
    %y = relay.cast %x {dtype = i32} : (tensor<4xf32>) -> tensor<4xi32>
    ```
  }];
  let arguments = (ins Relay_AnyTensorOrIncomplete:$data, TypeAttr:$dtype);
}

def Relay_ReinterpretOp : Relay_Operator<"reinterpret", [Relay_ElementwiseUnary]> {
  let typeRule = "inferReinterpret(site, adaptor.getData().getType(), "
                 "adaptor.getDtype())";
  let summary = "the elements' bits read as `dtype` (of the same width)";
  let description = [{
    ```mlir
    %y = relay.reinterpret %x {dtype = i32} : (tensor<4xf32>) -> tensor<4xi32>
    ```
  }];
  let arguments = (ins Relay_AnyTensorOrIncomplete:$data, TypeAttr:$dtype);
}

def Relay_CastLikeOp : Relay_Operator<"cast_like"> {
  let typeRule = "inferCastLike(site, adaptor.getData().getType(), "
                 "adaptor.getDtypeLike().getType())";
  let summary = "converts `data` to the dtype of `dtype_like`";
  let arguments = (ins Relay_AnyTensorOrIncomplete:$data,
                       Relay_AnyTensorOrIncomplete:$dtype_like);
}

//===----------------------------------------------------------------------===//
// Binary, broadcasting
//===----------------------------------------------------------------------===//

def Relay_AddOp : Relay_BinaryOp<"add"> {
  let summary = "elementwise sum with numpy broadcasting";
  let description = [{
    ```mlir
    %z = relay.add %x, %y : (tensor<4x1xf32>, tensor<3xf32>) -> tensor<4x3xf32>
    ```
  }];
}
def Relay_SubtractOp : Relay_BinaryOp<"subtract"> {
  let summary = "elementwise difference with broadcasting";
}
def Relay_MultiplyOp : Relay_BinaryOp<"multiply"> {
  let summary = "elementwise product with broadcasting";
}
def Relay_DivideOp : Relay_BinaryOp<"divide"> {
  let summary = "elementwise quotient with broadcasting";
}
def Relay_MaximumOp : Relay_BinaryOp<"maximum"> {
  let summary = "elementwise maximum with broadcasting";
}
def Relay_MinimumOp : Relay_BinaryOp<"minimum"> {
  let summary = "elementwise minimum with broadcasting";
}

// A broadcasting binary operator restricted to the dtypes of `trait`.
class Relay_TypedBinaryOp<string mnemonic, Trait trait, string text>
    : Relay_BinaryOp<mnemonic, [trait]> {
  let summary = text;
}
// A broadcasting comparison: bool result.
class Relay_CompareOp<string mnemonic, string text>
    : Relay_BinaryOp<mnemonic> {
  let summary = text;
  let typeRule = "inferBroadcastBool(site, adaptor.getLhs().getType(), "
                 "adaptor.getRhs().getType())";
}

def Relay_FloorDivideOp : Relay_TypedBinaryOp<"floor_divide",
    Relay_NumericOperands, "floor(lhs / rhs) with broadcasting">;
def Relay_ModOp : Relay_TypedBinaryOp<"mod", Relay_NumericOperands,
    "remainder of truncated division (sign of lhs), with broadcasting">;
def Relay_FloorModOp : Relay_TypedBinaryOp<"floor_mod",
    Relay_NumericOperands,
    "remainder of floor division (sign of rhs), with broadcasting">;
def Relay_TruncDivideOp : Relay_TypedBinaryOp<"trunc_divide",
    Relay_NumericOperands, "lhs / rhs rounded towards zero, with broadcasting"> {
  let description = [{
    TVM's `truncdiv`: `trunc(lhs / rhs)` on floats, C's integer division on
    integers (`-7 / 2 = -3`; an integer division by zero gives 0 in the
    interpreter and is undefined compiled, as `divide`).

    ```mlir
    %z = relay.trunc_divide %x, %y : (tensor<4xi32>, tensor<i32>) -> tensor<4xi32>
    ```
  }];
}
def Relay_TruncModOp : Relay_TypedBinaryOp<"trunc_mod",
    Relay_NumericOperands,
    "remainder of truncated division (sign of lhs), with broadcasting"> {
  let description = [{
    TVM's `truncmod`: `lhs - trunc(lhs / rhs) * rhs`, the sign of `lhs`
    (C's `%`, `fmod` on floats); the same values as `mod`.

    ```mlir
    %z = relay.trunc_mod %x, %y : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    ```
  }];
}
def Relay_PowerOp : Relay_TypedBinaryOp<"power", Relay_FloatOperands,
    "lhs ** rhs with broadcasting">;

def Relay_EqualOp : Relay_CompareOp<"equal", "lhs == rhs">;
def Relay_NotEqualOp : Relay_CompareOp<"not_equal", "lhs != rhs">;
def Relay_LessOp : Relay_CompareOp<"less", "lhs < rhs">;
def Relay_LessEqualOp : Relay_CompareOp<"less_equal", "lhs <= rhs">;
def Relay_GreaterOp : Relay_CompareOp<"greater", "lhs > rhs">;
def Relay_GreaterEqualOp : Relay_CompareOp<"greater_equal", "lhs >= rhs">;

def Relay_LogicalAndOp : Relay_TypedBinaryOp<"logical_and",
    Relay_BoolOperands, "lhs and rhs, on bool tensors">;
def Relay_LogicalOrOp : Relay_TypedBinaryOp<"logical_or",
    Relay_BoolOperands, "lhs or rhs, on bool tensors">;
def Relay_LogicalXorOp : Relay_TypedBinaryOp<"logical_xor",
    Relay_BoolOperands, "lhs xor rhs, on bool tensors">;
def Relay_BitwiseAndOp : Relay_TypedBinaryOp<"bitwise_and",
    Relay_IntegerOrBoolOperands, "lhs & rhs">;
def Relay_BitwiseOrOp : Relay_TypedBinaryOp<"bitwise_or",
    Relay_IntegerOrBoolOperands, "lhs | rhs">;
def Relay_BitwiseXorOp : Relay_TypedBinaryOp<"bitwise_xor",
    Relay_IntegerOrBoolOperands, "lhs ^ rhs">;
def Relay_LeftShiftOp : Relay_TypedBinaryOp<"left_shift",
    Relay_IntegerOperands, "lhs << rhs">;
def Relay_RightShiftOp : Relay_TypedBinaryOp<"right_shift",
    Relay_IntegerOperands, "lhs >> rhs (arithmetic on signed integers)">;

//===----------------------------------------------------------------------===//
// Ternary
//===----------------------------------------------------------------------===//

def Relay_WhereOp : Relay_Operator<"where"> {
  let typeRule = "inferWhere(site, adaptor.getCondition().getType(), "
                 "adaptor.getX().getType(), adaptor.getY().getType())";
  let summary = "picks x where condition is non-zero, else y";
  let description = [{
    The three operands broadcast together (numpy); `x` and `y` share a
    dtype, which is the result's; `condition` may have any dtype (non-zero
    is true).

    ```mlir
    %z = relay.where %c, %x, %y
        : (tensor<4x1xi1>, tensor<3xf32>, tensor<f32>) -> tensor<4x3xf32>
    ```
  }];
  let arguments = (ins Relay_AnyTensorOrIncomplete:$condition,
                       Relay_AnyTensorOrIncomplete:$x,
                       Relay_AnyTensorOrIncomplete:$y);
}

#endif // RELAY_ELEMENTWISE_OPS_TD

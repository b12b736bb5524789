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

//===----------------------------------------------------------------------===//
// Unary
//===----------------------------------------------------------------------===//

def Relay_NegativeOp : Relay_UnaryOp<"negative"> {
  let summary = "-x";
}
def Relay_ExpOp : Relay_UnaryOp<"exp"> { let summary = "e^x"; }
def Relay_LogOp : Relay_UnaryOp<"log"> { let summary = "natural logarithm"; }
def Relay_SqrtOp : Relay_UnaryOp<"sqrt"> { let summary = "square root"; }
def Relay_TanhOp : Relay_UnaryOp<"tanh"> { let summary = "hyperbolic tangent"; }
def Relay_SigmoidOp : Relay_UnaryOp<"sigmoid"> {
  let summary = "1 / (1 + e^-x)";
}
def Relay_ReluOp : Relay_UnaryOp<"nn.relu"> {
  let summary = "max(x, 0)";
  let description = [{
    ```mlir
    %y = relay.nn.relu %x : (tensor<1x8xf32>) -> tensor<1x8xf32>
    ```
  }];
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

#endif // RELAY_ELEMENTWISE_OPS_TD

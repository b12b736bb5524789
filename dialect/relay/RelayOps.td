//===- RelayOps.td - all relay ops -------------------------*- tablegen -*-===//
#ifndef RELAY_OPS_TD
#define RELAY_OPS_TD

include "relay/RelayLanguageOps.td"
include "relay/RelayADTOps.td"
include "relay/RelayElementwiseOps.td"
include "relay/RelayNNOps.td"
include "relay/RelayConvOps.td"
include "relay/RelayPoolOps.td"
include "relay/RelayNormOps.td"
include "relay/RelayReduceOps.td"
include "relay/RelayIndexOps.td"
include "relay/RelayImageOps.td"
include "relay/RelayTransformOps.td"
include "relay/RelayDynamicOps.td"
include "relay/RelayQnnOps.td"

#endif // RELAY_OPS_TD

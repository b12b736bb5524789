// Python bindings of the relay dialect's ops.
#ifndef RELAY_PYTHON_BINDING_TD
#define RELAY_PYTHON_BINDING_TD
include "relay/RelayOps.td"
#endif

// runtime/backends/ascend/ascend_graph.h: npurt graphs as AscendCL graphs
// (aclmdlRI, "ACL Graph"; ascend-facts.md §4.6).
//
// instantiate: the captured nodes are submitted, in their topological order,
// to a fresh non-default AscendCL stream between aclmdlRICaptureBegin(stream,
// THREAD_LOCAL) and aclmdlRICaptureEnd, on one thread; replay is
// aclmdlRIExecuteAsync(ri, caller's stream); aclmdlRIDestroy when the graph dies.
// The documented restrictions shape what is captured:
//   - only device-side work: kernel launches, device-to-device copies and
//     memsets. Host functions and copies touching host memory (which must be
//     pinned inside a capture, and npurt's are pageable) are not captured: such
//     graphs get no native graph and the runtime replays them node by node;
//   - kernel functions are resolved (aclrtBinaryGetFunction, which copies the
//     binary to the device) before the capture begins;
//   - nothing synchronizes or queries a stream while capturing; the capture
//     stream's enqueue errors are read after aclmdlRICaptureEnd;
//   - everything the captured tasks use (launch arguments, buffers) is owned by
//     the npurt graph and outlives the aclmdlRI (it is destroyed first).
// Lanes are serialized on the one capture stream (correct, since the order is
// topological; branch concurrency is given up for a single-stream capture).
// Libraries without the aclmdlRI entry points get no native graph either.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "backends/ascend/acl_context.h"
#include "backends/ascend/kernel_launcher.h"
#include "npurt/backend.h"

namespace npurt::ascend {

// Why these nodes cannot become an aclmdlRI ("" when they can).
std::string ascend_graph_unsupported_reason(const AclApi& api, const std::vector<const Command*>& nodes);

// The captured graph, or nullptr when ascend_graph_unsupported_reason is not
// empty. Throws npurt::Error (with the ACL code and message) when AscendCL
// rejects the capture.
std::unique_ptr<BackendGraph> capture_ascend_graph(std::shared_ptr<AclContext> ctx,
                                                   std::shared_ptr<KernelLauncher> launcher, int device,
                                                   const std::vector<const Command*>& nodes);

}  // namespace npurt::ascend

// runtime/exec/deferred_flush.h: the hook through which the exec layer makes
// the array layer's deferred elementwise launch (runtime/ops/deferred_fusion.h)
// reach its stream before anything that could observe or reorder it.
//
// Invariants: every StreamImpl::submit, Stream/Event synchronize and query,
// synchronize_device, Stream::close and Graph::begin_capture call
// flush_deferred_work() first. An empty slot costs one relaxed load of a null
// pointer; the flush function itself takes the slot's mutex and is safe to
// re-enter from the thread that is flushing (it returns at once there).
#pragma once

#include <atomic>

namespace npurt::detail {

using DeferredFlushFn = void (*)();
// Non-null exactly while a launch is deferred (set and cleared by
// runtime/ops/deferred_fusion.cc under its mutex).
extern std::atomic<DeferredFlushFn> g_deferred_flush;

inline void flush_deferred_work() {
  if (DeferredFlushFn f = g_deferred_flush.load(std::memory_order_relaxed)) f();
}

}  // namespace npurt::detail

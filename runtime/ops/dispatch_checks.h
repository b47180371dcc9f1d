// runtime/ops/dispatch_checks.h: argument checking and plan resolution shared by
// dispatch(), PreparedOp and plan_op (internal).
//
// resolve_plan() is the whole "front half" of a call: it checks inputs and
// attributes against the OpDef (throwing InvalidArgument that names the op,
// the argument and the reason), builds the tiling-cache key on the stack and
// returns the cached plan, computing it (inference + tiling + cost) on a miss.
#pragma once

#include <functional>
#include <memory>

#include "npurt/dispatch.h"
#include "npurt/tensor.h"
#include "tiling_cache.h"

namespace npurt {

constexpr size_t kMaxOpArgs = 64;

// Resolved attributes: pointers to the given value or to the declared default.
struct ResolvedAttrs {
  const AttrValue* values[kMaxOpArgs];
  size_t count = 0;
};

// Checks attrs (count, types, required) and appends them to key.
void check_attrs(const RegisteredOp& op, Span<const AttrValue> attrs, ResolvedAttrs& out, CacheKey& key);

// Checks inputs (count, required, dtype, sim-only, rank, device) and appends their specs to key.
void check_inputs(const RegisteredOp& op, Span<const Tensor> inputs, Device device, CacheKey& key);

// Throws InvalidArgument naming every required input of op for which given(i) is false.
[[noreturn]] void fail_missing_inputs(const RegisteredOp& op, const std::function<bool(size_t)>& given);

// Inference + tiling + cost for specs that passed the checks.
std::shared_ptr<const TilingPlan> compute_plan(const RegisteredOp& op, const TensorSpec* inputs,
                                               const ResolvedAttrs& attrs, const ChipProfile& profile,
                                               std::string* tiling_summary = nullptr);

// Front half of a call: checks + cached plan.
std::shared_ptr<const TilingPlan> resolve_plan(const RegisteredOp& op, Span<const Tensor> inputs,
                                               Span<const AttrValue> attrs, Device device,
                                               const ChipProfile& profile);

// Checks an out= tensor against the plan's output i.
void check_output(const RegisteredOp& op, size_t i, const Tensor& out, const TensorSpec& spec, Device device);

}  // namespace npurt

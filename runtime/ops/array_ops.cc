// runtime/ops/array_ops.cc: npurt::array::binary and npurt::array::reduce
// (npurt/array_ops.h), the C++ hot path of `x + y` and `x.sum()`.
//
// Kernels are resolved on first use and cached in atomics (the op library may
// register after libnpurt is loaded; a race resolves the same handle twice,
// which is harmless). binary()'s argument handling mirrors the array-API
// layer (sdk_python/npurt/array_api/_elementwise.py) step for step, so both
// paths give the same kernels the same calls; for reductions this file is the
// implementation itself (reductions.py only checks arguments and calls
// reduce(ReduceArgs)), including the one split rule of long reductions.
#include "npurt/array_ops.h"

#include <algorithm>
#include <atomic>
#include <string>
#include <utility>

#include "npurt/chip_profile.h"
#include "npurt/copy.h"
#include "npurt/dispatch.h"
#include "npurt/ops.h"
#include "npurt/runtime.h"
#include "npurt/status.h"
#include "exec/thread_pool.h"
#include "ops/deferred_fusion.h"

namespace npurt {
namespace array {
namespace {

struct BinaryInfo {
  const char* name;    // array-API name, used in errors
  const char* kernel;  // registered op
};

constexpr BinaryInfo kBinary[kNumBinaryOps] = {
    {"add", "add_broadcast"}, {"subtract", "subtract"}, {"multiply", "multiply"}, {"divide", "divide"},
    {"floor_divide", "floor_divide"}, {"remainder", "remainder"}, {"pow", "pow"},
    {"bitwise_and", "bitwise_and"}, {"bitwise_or", "bitwise_or"}, {"bitwise_xor", "bitwise_xor"},
    {"bitwise_left_shift", "bitwise_left_shift"}, {"bitwise_right_shift", "bitwise_right_shift"},
    {"equal", "equal"}, {"not_equal", "not_equal"}, {"less", "less"}, {"less_equal", "less_equal"},
    {"greater", "greater"}, {"greater_equal", "greater_equal"}, {"maximum", "maximum"}, {"minimum", "minimum"},
};

constexpr const char* kReduceName[] = {"sum", "prod", "max", "min", "mean", "any", "all"};
constexpr const char* kReduceKernel[] = {"reduce_sum", "reduce_prod", "reduce_max", "reduce_min",
                                         "reduce_mean", "reduce_any", "reduce_all"};
constexpr int kNumReduceOps = 7;

// The split rule (the one place it lives; reductions.py calls through here).
// The kernel's unit of work is one output's reduction (a row, or a run of at
// most kReduceMaxTile inner elements), so a few long reductions would run on a
// few cores. When there are fewer units than cores, the reduced extent is cut
// into ranges of part_len elements (the last range may be shorter: any length
// splits) so that the units fill the cores in one wave (floor(cores / units)
// ranges per unit: rounding up, 3 rows on 40 cores made 42 units, two of them
// a second wave that doubles the launch on an NPU), the first launch
// writes one partial per range and a second launch combines them. A range
// keeps >= kSplitMinWork elements of work so the second launch and the
// per-range overhead stay small. One range per core rather than two (the rule
// until wave 10): each range pays its own accumulator fills, partial last
// chunk and final in-UB fold, ~1.5 us of host CPU in the simulator, and a
// whole-array sum on the 910B profile's 40 cores still gives every core one
// equal range (16 Mi sums -2 % float32, -4 % float16: docs/performance-history.md
// "Sum against PyTorch (wave 11)").
constexpr uint64_t kReduceMaxTile = 8192;       // reduce_op.cc's largest tile (elements)
constexpr uint64_t kSplitMinWork = uint64_t{1} << 15;
constexpr uint64_t kSplitAlign = 64;            // range starts stay 256-byte aligned for 4-byte data

std::atomic<RegisteredOp*> g_binary_ops[kNumBinaryOps];
std::atomic<RegisteredOp*> g_reduce_ops[kNumReduceOps];

OpHandle cached(std::atomic<RegisteredOp*>& slot, const char* kernel) {
  RegisteredOp* op = slot.load(std::memory_order_acquire);
  if (op == nullptr) {
    op = OpHandle::find(kernel).impl();
    slot.store(op, std::memory_order_release);
  }
  return OpHandle(op);
}

// A kernel check's InvalidArgument under the public name, as
// _elementwise._public_error does ("npurt.ops.<kernel>" -> "npurt.<name>").
[[noreturn]] void rethrow_public(const InvalidArgument& e, const char* kernel, const char* name) {
  std::string msg = e.what();
  const std::string from = std::string("npurt.ops.") + kernel, to = std::string("npurt.") + name;
  for (size_t at = msg.find(from); at != std::string::npos; at = msg.find(from, at + to.size()))
    msg.replace(at, from.size(), to);
  rethrow_invalid_argument(e, msg);  // keeps a dtype refusal's code
}

bool floating_or_complex(DType t) {
  const DTypeKind k = dtype_info(t).kind;
  return k == DTypeKind::kFloat || k == DTypeKind::kComplex;
}

struct ReduceCall {
  Dims axes;              // kernel axes (adjacent)
  std::string dtype;      // the kernel's dtype attribute
  int64_t part_len = 0;   // > 0: first launch of a split (partials)
  int64_t count = 0;      // mean denominator (0: the reduced extent)
  int64_t lanes = 0;      // the kernel's lanes attribute (0: one block per vector core)
};

Tensor run_reduce(ReduceOp op, const Tensor& x, const ReduceCall& call, const Stream& stream) {
  const int i = static_cast<int>(op);
  OpHandle h = cached(g_reduce_ops[i], kReduceKernel[i]);
  const AttrValue attrs[6] = {AttrValue(call.axes),     AttrValue(false),       AttrValue(call.dtype),
                              AttrValue(call.part_len), AttrValue(call.count), AttrValue(call.lanes)};
  Tensor result[1];
  // Errors name the public function ("npurt.max: argument 'x': zero-size reduction ..."), as the
  // binary operators' do: the user called nr.max / array::reduce, not the reduce_max op.
  try {
    dispatch(h, Span<const Tensor>(&x, 1), Span<const AttrValue>(attrs, 6), stream, Span<Tensor>(result, 1));
  } catch (const InvalidArgument& e) {
    rethrow_public(e, kReduceKernel[i], kReduceName[i]);
  }
  return result[0];
}

// [outer, len, inner] of x reduced over the adjacent kernel axes.
void reduce_extents(const Tensor& x, const Dims& axes, uint64_t& outer, uint64_t& len, uint64_t& inner) {
  outer = len = inner = 1;
  if (axes.empty()) return;
  for (int64_t d = 0; d < static_cast<int64_t>(x.ndim()); ++d) {
    const uint64_t n = static_cast<uint64_t>(x.shape()[d]);
    if (d < axes[0]) outer *= n;
    else if (d > axes.back()) inner *= n;
    else if (std::find(axes.begin(), axes.end(), d) != axes.end()) len *= n;
  }
}

uint64_t core_count(const Tensor& x) {
  return std::max<uint32_t>(1, device_context(x.device()).profile().vector_cores);
}

// The `lanes` attribute of a split's first launch. On an NPU every range is
// its own block, one per vector core (0). The simulator runs a launch's blocks
// on the host's pool lanes, and a block there costs more than its range's work
// (setup, buffers, mirror drops, checks, its claim), so on a sim device the
// kernel groups the same ranges into fewer blocks for the pool's lanes
// (reduce_op.cc group_blocks): the same partials bit for bit, 16 Mi sums
// faster (docs/performance.md "Sum against PyTorch (wave 13)").
int64_t split_lanes(const Tensor& x) {
  if (x.device().type != DeviceType::kSim) return 0;
  return static_cast<int64_t>(ThreadPool::compute().num_threads());
}

// The split rule above: part_len for the first launch, or 0 for one launch.
uint64_t split_part_len(uint64_t outer, uint64_t len, uint64_t inner, uint64_t cores) {
  if (outer == 0 || inner == 0 || len == 0) return 0;
  const uint64_t run = std::min(inner, kReduceMaxTile);
  const uint64_t units = outer * ((inner + kReduceMaxTile - 1) / kReduceMaxTile);
  if (units >= cores) return 0;
  const uint64_t min_part = std::max<uint64_t>(1, (kSplitMinWork + run - 1) / run);
  uint64_t parts = std::min(cores / units, len / min_part);
  if (parts < 2) return 0;
  uint64_t part_len = (len + parts - 1) / parts;
  if (inner == 1) part_len = (part_len + kSplitAlign - 1) / kSplitAlign * kSplitAlign;
  return part_len < len ? part_len : 0;
}

// One reduction over the adjacent kernel axes of `view`: one launch, or the
// split's two (partials in the accumulation dtype, then their combine, which
// rounds to the result dtype once).
Tensor reduce_adjacent(ReduceOp op, const Tensor& view, const Dims& kernel_axes, const std::string& dtype,
                       const Stream& stream) {
  uint64_t outer, len, inner;
  reduce_extents(view, kernel_axes, outer, len, inner);
  const uint64_t part_len = split_part_len(outer, len, inner, core_count(view));
  if (part_len == 0) return run_reduce(op, view, ReduceCall{kernel_axes, dtype, 0, 0}, stream);
  // A null stream resolves to the input's in dispatch(): the partials live there, so both launches share it.
  Tensor partials =
      run_reduce(op, view, ReduceCall{kernel_axes, "", static_cast<int64_t>(part_len), 0, split_lanes(view)}, stream);
  std::string final_dtype = dtype;
  if (final_dtype.empty() && partials.dtype() != view.dtype()) final_dtype = dtype_name(view.dtype());
  if (final_dtype == dtype_name(partials.dtype())) final_dtype.clear();
  return run_reduce(op, partials, ReduceCall{Dims{1}, final_dtype, 0, static_cast<int64_t>(len)}, stream);
}

Tensor reshaped(const Tensor& contiguous, const Dims& shape) {
  if (contiguous.shape() == shape) return contiguous;
  return contiguous.view(shape, contiguous_strides(shape), contiguous.byte_offset());
}

// x with the reduced axes (sorted, distinct) moved last when other axes of
// size > 1 sit between them (a permuted view; the dispatcher makes it
// contiguous with the copy kernel); the kernel axes.
Tensor adjacent_axes_view(const Tensor& x, const Dims& axes, Dims& kernel_axes) {
  kernel_axes = axes;
  if (axes.empty()) return x;
  bool between = false;
  for (int64_t d = axes[0]; d <= axes.back(); ++d)
    if (std::find(axes.begin(), axes.end(), d) == axes.end() && x.shape()[d] != 1) between = true;
  if (!between) return x;
  Dims shape, strides;
  for (int64_t d = 0; d < static_cast<int64_t>(x.ndim()); ++d)
    if (std::find(axes.begin(), axes.end(), d) == axes.end()) {
      shape.push_back(x.shape()[d]);
      strides.push_back(x.strides()[d]);
    }
  const int64_t kept = static_cast<int64_t>(shape.size());
  kernel_axes.clear();
  for (size_t j = 0; j < axes.size(); ++j) {
    shape.push_back(x.shape()[axes[j]]);
    strides.push_back(x.strides()[axes[j]]);
    kernel_axes.push_back(kept + static_cast<int64_t>(j));
  }
  return x.view(shape, strides, x.byte_offset());
}

// `general`: the ReduceArgs form, which leaves the dtype check to the kernel.
void check_reduce_input(ReduceOp op, const Tensor& x, bool general) {
  const int i = static_cast<int>(op);
  if (i < 0 || i >= kNumReduceOps) throw_invalid_argument("npurt.array.reduce", "op", "unknown reduction");
  const char* name = reduce_op_name(op);
  if (!x.defined()) throw_invalid_argument(std::string("npurt.") + name, "x", "undefined tensor");
  if (general) return;
  if (op == ReduceOp::kAny || op == ReduceOp::kAll)
    throw_invalid_argument(std::string("npurt.") + name, "op", "any/all take the ReduceArgs form of reduce()");
  const DType t = x.dtype();
  if (t != DType::kFloat32 && t != DType::kFloat16 && t != DType::kFloat64)
    throw_unsupported_dtype(std::string("npurt.") + name, "x",
                            std::string("dtype ") + dtype_name(t) +
                                " is not handled by npurt::array::reduce (float16, float32, float64 are; integer "
                                "and bool inputs accumulate in int64 through the array-API functions)");
}

Tensor copy_of(const Tensor& x, const Stream& stream) {
  const Stream& s = stream.valid() ? stream : x.stream();
  if (x.numel() > 0 && !x.is_contiguous()) return ops::copy(x, s);
  Tensor out = Tensor::empty(x.shape(), x.dtype(), s);
  if (x.numel() > 0) copy_device_to_device(out, x, s);
  return out;
}

// Reduces x over `axes` (normalized: sorted, distinct, in range); `all` when
// the caller asked for every axis (axis=None, which reduces a 0-d array too).
Tensor reduce_normalized(ReduceOp op, const Tensor& x, const Dims& axes, bool all, bool keepdims,
                         const std::string& dtype, const Stream& stream) {
  if (!all && axes.empty()) return copy_of(x, stream);
  Dims kernel_axes;
  Tensor view = adjacent_axes_view(x, axes, kernel_axes);
  Tensor y = reduce_adjacent(op, view, kernel_axes, dtype, stream);
  Dims shape;
  for (int64_t d = 0; d < static_cast<int64_t>(x.ndim()); ++d) {
    const bool reduced = std::find(axes.begin(), axes.end(), d) != axes.end();
    if (!reduced) shape.push_back(x.shape()[d]);
    else if (keepdims) shape.push_back(1);
  }
  return reshaped(y, shape);
}

}  // namespace

const char* binary_op_name(BinaryOp op) {
  const int i = static_cast<int>(op);
  return i >= 0 && i < kNumBinaryOps ? kBinary[i].name : "?";
}

const char* reduce_op_name(ReduceOp op) {
  const int i = static_cast<int>(op);
  return i >= 0 && i < kNumReduceOps ? kReduceName[i] : "?";
}

namespace {

// xs: the two operands, by the caller's by-value parameters moved into one
// array (handle counts unchanged, which deferral reads): dispatch takes them as
// they are, without two more handle copies (atomic count updates) per call.
Tensor binary_call(BinaryOp op, const Tensor (&xs)[2], const Stream& stream, const Tensor& out, bool x1_expiring,
                   bool x2_expiring, const deferral::Constant& constant = {}) {
  const Tensor& x1 = xs[0];
  const Tensor& x2 = xs[1];
  const int i = static_cast<int>(op);
  if (i < 0 || i >= kNumBinaryOps) throw_invalid_argument("npurt.array.binary", "op", "unknown operator");
  const BinaryInfo& info = kBinary[i];
  if (deferral::candidate(op, x1, x2, out)) {
    Tensor fused = deferral::try_fuse(op, x1, x2, stream, x1_expiring, x2_expiring);
    if (fused.defined()) return fused;
    try {
      Tensor deferred = deferral::try_defer(op, x1, x2, stream, constant);
      if (deferred.defined()) return deferred;
    } catch (const InvalidArgument& e) {
      rethrow_public(e, info.kernel, info.name);
    }
  }
  flush_deferred();  // eager from here: the deferred launch goes first, even if this call fails its checks
  const std::string where = "npurt.";
  if (!x1.defined()) throw_invalid_argument(where + info.name, "x1", "undefined tensor");
  if (!x2.defined()) throw_invalid_argument(where + info.name, "x2", "undefined tensor");
  if (x1.dtype() != x2.dtype())
    throw_unsupported_dtype(where + info.name, "x2",
                            std::string("dtype ") + dtype_name(x2.dtype()) + " differs from x1's " +
                                dtype_name(x1.dtype()) +
                                " (npurt::array::binary takes one dtype; promote first, e.g. with ops::cast)");
  if (op == BinaryOp::kDivide && !floating_or_complex(x1.dtype()))
    throw_unsupported_dtype(where + info.name, "x1",
                            std::string("dtype ") + dtype_name(x1.dtype()) +
                                " is not floating-point (the standard's divide promotes integers to the default "
                                "float first; cast them with ops::cast)");
  OpHandle h = cached(g_binary_ops[i], info.kernel);
  Tensor result[1] = {out};
  try {
    dispatch(h, Span<const Tensor>(xs, 2), Span<const AttrValue>(), stream, Span<Tensor>(result, 1));
  } catch (const InvalidArgument& e) {
    rethrow_public(e, info.kernel, info.name);
  }
  return std::move(result[0]);
}

}  // namespace

Tensor binary(BinaryOp op, Tensor x1, Tensor x2, const Stream& stream, const Tensor& out) {
  const Tensor xs[2] = {std::move(x1), std::move(x2)};
  return binary_call(op, xs, stream, out, false, false);
}

Tensor binary(BinaryOp op, Tensor x1, Tensor x2, bool x1_expiring, bool x2_expiring) {
  const Tensor xs[2] = {std::move(x1), std::move(x2)};
  return binary_call(op, xs, Stream(), Tensor(), x1_expiring, x2_expiring);
}

Tensor binary_with_constant(BinaryOp op, Tensor x1, Tensor x2, int constant_pos, float value) {
  const Tensor& c = constant_pos == 0 ? x1 : x2;
  if ((constant_pos != 0 && constant_pos != 1) || !c.defined() || c.ndim() != 0 || c.dtype() != DType::kFloat32)
    throw_invalid_argument("npurt.array.binary_with_constant", "constant_pos",
                           "must name a 0-d float32 operand (0: x1, 1: x2)");
  const Tensor xs[2] = {std::move(x1), std::move(x2)};
  return binary_call(op, xs, Stream(), Tensor(), false, false, deferral::Constant{constant_pos, value});
}

// Sorted, distinct axes in range (the public forms' axis checks).
Dims normalize_axes(ReduceOp op, const Tensor& x, const Dims& axes_in) {
  const std::string where = std::string("npurt.") + reduce_op_name(op);
  const int64_t ndim = static_cast<int64_t>(x.ndim());
  Dims axes;
  for (int64_t a : axes_in) {
    if (a < -ndim || a >= ndim)
      throw_invalid_argument(where, "axis", "axis " + std::to_string(a) + " is out of bounds for an array of " +
                                                std::to_string(ndim) + " dimension(s)");
    const int64_t d = a < 0 ? a + ndim : a;
    if (std::find(axes.begin(), axes.end(), d) != axes.end())
      throw_invalid_argument(where, "axis", "repeated axis " + std::to_string(a));
    axes.push_back(d);
  }
  std::sort(axes.begin(), axes.end());
  return axes;
}

Dims every_axis(const Tensor& x) {
  Dims axes;
  for (int64_t d = 0; d < static_cast<int64_t>(x.ndim()); ++d) axes.push_back(d);
  return axes;
}

Tensor reduce(ReduceOp op, const Tensor& x, bool keepdims, const Stream& stream) {
  check_reduce_input(op, x, false);
  return reduce_normalized(op, x, every_axis(x), /*all=*/true, keepdims, "", stream);
}

Tensor reduce(ReduceOp op, const Tensor& x, const Dims& axes_in, bool keepdims, const Stream& stream) {
  check_reduce_input(op, x, false);
  return reduce_normalized(op, x, normalize_axes(op, x, axes_in), /*all=*/false, keepdims, "", stream);
}

Tensor reduce(ReduceOp op, const Tensor& x, const ReduceArgs& args, const Stream& stream) {
  check_reduce_input(op, x, true);
  const Dims axes = args.all_axes ? every_axis(x) : normalize_axes(op, x, args.axes);
  return reduce_normalized(op, x, axes, args.all_axes, args.keepdims, args.float32_result ? "float32" : "", stream);
}

ReducePlan reduce_plan(const Tensor& x, const ReduceArgs& args) {
  check_reduce_input(ReduceOp::kSum, x, true);
  ReducePlan p;
  const Dims axes = args.all_axes ? every_axis(x) : normalize_axes(ReduceOp::kSum, x, args.axes);
  if (!args.all_axes && axes.empty()) return p;  // a copy: no launch of the reduction
  Dims kernel_axes;
  Tensor view = adjacent_axes_view(x, axes, kernel_axes);
  reduce_extents(view, kernel_axes, p.outer, p.len, p.inner);
  p.part_len = split_part_len(p.outer, p.len, p.inner, core_count(view));
  if (p.part_len) p.parts = (p.len + p.part_len - 1) / p.part_len;
  return p;
}

}  // namespace array
}  // namespace npurt

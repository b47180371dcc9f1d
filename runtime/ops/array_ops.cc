// runtime/ops/array_ops.cc: npurt::array::binary and npurt::array::reduce
// (npurt/array_ops.h), the C++ hot path of `x + y` and `x.sum()`.
//
// Kernels are resolved on first use and cached in atomics (the op library may
// register after libnpurt is loaded; a race resolves the same handle twice,
// which is harmless). The argument handling mirrors the array-API layer
// (sdk_python/npurt/array_api/_elementwise.py and reductions.py) step for
// step, so both paths give the same kernels the same calls.
#include "npurt/array_ops.h"

#include <algorithm>
#include <atomic>
#include <string>

#include "npurt/copy.h"
#include "npurt/dispatch.h"
#include "npurt/ops.h"
#include "npurt/status.h"

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

constexpr const char* kReduceName[] = {"sum", "prod", "max", "min", "mean"};
constexpr const char* kReduceKernel[] = {"reduce_sum", "reduce_prod", "reduce_max", "reduce_min", "reduce_mean"};
constexpr int kNumReduceOps = 5;

// Whole-array float32 reductions of at least this many elements run as two
// launches ([k, n/k] rows, then the k partials) so the first spreads over the
// cores; reductions.py's _SPLIT_MIN, same rule.
constexpr int64_t kSplitMin = int64_t{1} << 18;

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
  throw InvalidArgument(msg);
}

bool floating_or_complex(DType t) {
  const DTypeKind k = dtype_info(t).kind;
  return k == DTypeKind::kFloat || k == DTypeKind::kComplex;
}

Tensor run_reduce(ReduceOp op, const Tensor& x, const Dims& kernel_axes, const Stream& stream) {
  const int i = static_cast<int>(op);
  OpHandle h = cached(g_reduce_ops[i], kReduceKernel[i]);
  const AttrValue attrs[3] = {AttrValue(kernel_axes), AttrValue(false), AttrValue(std::string())};
  Tensor result[1];
  // Errors keep the kernel's name ("npurt.ops.reduce_sum: ..."), as reductions.py leaves them.
  dispatch(h, Span<const Tensor>(&x, 1), Span<const AttrValue>(attrs, 3), stream, Span<Tensor>(result, 1));
  return result[0];
}

Tensor reshaped(const Tensor& contiguous, const Dims& shape) {
  if (contiguous.shape() == shape) return contiguous;
  return contiguous.view(shape, contiguous_strides(shape), contiguous.byte_offset());
}

// x with the reduced axes (sorted, distinct) moved last when other axes of
// size > 1 sit between them (reductions._plan_axes); the kernel axes.
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

// The reduction of every element of a large float32 array in two launches,
// or an undefined Tensor when the single pass is the rule.
Tensor split_full_reduction(ReduceOp op, const Tensor& view, size_t num_kernel_axes, const Stream& stream) {
  const int64_t n = view.numel();
  if (num_kernel_axes != view.ndim() || n < kSplitMin || view.dtype() != DType::kFloat32) return Tensor();
  int64_t k = 0;
  for (int64_t c : {64, 32, 16, 8})
    if (n % c == 0) {
      k = c;
      break;
    }
  if (k == 0) return Tensor();
  Tensor flat = ops::contiguous(view, stream);
  Tensor rows = flat.view(Dims{k, n / k}, Dims{n / k, 1}, flat.byte_offset());
  Tensor partials = run_reduce(op, rows, Dims{1}, stream);
  return run_reduce(op, partials, Dims{0}, stream);
}

void check_reduce_input(ReduceOp op, const Tensor& x) {
  const char* name = reduce_op_name(op);
  if (!x.defined()) throw_invalid_argument(std::string("npurt.") + name, "x", "undefined tensor");
  const DType t = x.dtype();
  if (t != DType::kFloat32 && t != DType::kFloat16 && t != DType::kFloat64)
    throw_invalid_argument(std::string("npurt.") + name, "x",
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
                         const Stream& stream) {
  if (!all && axes.empty()) return copy_of(x, stream);
  Dims kernel_axes;
  Tensor view = adjacent_axes_view(x, axes, kernel_axes);
  Tensor y = split_full_reduction(op, view, kernel_axes.size(), stream);
  if (!y.defined()) y = run_reduce(op, view, kernel_axes, stream);
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

Tensor binary(BinaryOp op, const Tensor& x1, const Tensor& x2, const Stream& stream, const Tensor& out) {
  const int i = static_cast<int>(op);
  if (i < 0 || i >= kNumBinaryOps) throw_invalid_argument("npurt.array.binary", "op", "unknown operator");
  const BinaryInfo& info = kBinary[i];
  const std::string where = "npurt.";
  if (!x1.defined()) throw_invalid_argument(where + info.name, "x1", "undefined tensor");
  if (!x2.defined()) throw_invalid_argument(where + info.name, "x2", "undefined tensor");
  if (x1.dtype() != x2.dtype())
    throw_invalid_argument(where + info.name, "x2",
                           std::string("dtype ") + dtype_name(x2.dtype()) + " differs from x1's " +
                               dtype_name(x1.dtype()) +
                               " (npurt::array::binary takes one dtype; promote first, e.g. with ops::cast)");
  if (op == BinaryOp::kDivide && !floating_or_complex(x1.dtype()))
    throw_invalid_argument(where + info.name, "x1",
                           std::string("dtype ") + dtype_name(x1.dtype()) +
                               " is not floating-point (the standard's divide promotes integers to the default "
                               "float first; cast them with ops::cast)");
  OpHandle h = cached(g_binary_ops[i], info.kernel);
  const Tensor inputs[2] = {x1, x2};
  Tensor result[1] = {out};
  try {
    dispatch(h, Span<const Tensor>(inputs, 2), Span<const AttrValue>(), stream, Span<Tensor>(result, 1));
  } catch (const InvalidArgument& e) {
    rethrow_public(e, info.kernel, info.name);
  }
  return result[0];
}

Tensor reduce(ReduceOp op, const Tensor& x, bool keepdims, const Stream& stream) {
  check_reduce_input(op, x);
  Dims axes;
  for (int64_t d = 0; d < static_cast<int64_t>(x.ndim()); ++d) axes.push_back(d);
  return reduce_normalized(op, x, axes, /*all=*/true, keepdims, stream);
}

Tensor reduce(ReduceOp op, const Tensor& x, const Dims& axes_in, bool keepdims, const Stream& stream) {
  check_reduce_input(op, x);
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
  return reduce_normalized(op, x, axes, /*all=*/false, keepdims, stream);
}

}  // namespace array
}  // namespace npurt

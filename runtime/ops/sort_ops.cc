// runtime/ops/sort_ops.cc: npurt::array::sort_plan / sort_last (npurt/sort_ops.h),
// the one driver of the sort family's launches (sort_block + sort_merge on the
// scalar unit, vsort_block + vsort_merge + vsort_extract on the vector unit).
//
// Why here and not in Python: the chunk rule must match the kernels' UB
// sizing, and the kernels' tilings (kernels/sort/*_ops.cc) call the two
// sizing functions below, so the rule exists once. Kernels are resolved once
// and cached (the op library may register after libnpurt is loaded).
#include "npurt/sort_ops.h"

#include <algorithm>
#include <atomic>
#include <string>

#include "npurt/dispatch.h"
#include "npurt/runtime.h"
#include "npurt/status.h"

namespace npurt {
namespace array {
namespace {

constexpr uint64_t kVsortMaxChunk = 8192;  // kernels/sort/sort_tiling.h (static_assert there)
constexpr uint64_t kVsortChunkStep = 128;
constexpr uint64_t kUbReserve = 2048;      // TPipe bookkeeping + scratch, as the kernels' ub_budget

enum Kernel { kVBlock, kVMerge, kVExtract, kSBlock, kSMerge, kVTake, kVTakeThrough, kNumKernels };
constexpr const char* kKernelName[kNumKernels] = {"vsort_block", "vsort_merge",        "vsort_extract",
                                                  "sort_block",  "sort_merge",         "vsort_take",
                                                  "vsort_take_through"};
std::atomic<RegisteredOp*> g_ops[kNumKernels];

OpHandle kernel(Kernel k) {
  RegisteredOp* op = g_ops[k].load(std::memory_order_acquire);
  if (op == nullptr) {
    op = OpHandle::find(kKernelName[k]).impl();
    g_ops[k].store(op, std::memory_order_release);
  }
  return OpHandle(op);
}

uint64_t ub_budget(const ChipProfile& p) { return p.ub_usable_bytes > kUbReserve ? p.ub_usable_bytes - kUbReserve : 0; }

uint64_t round_up(uint64_t v, uint64_t a) { return (v + a - 1) / a * a; }

[[noreturn]] void fail(const std::string& arg, const std::string& why) {
  throw InvalidArgument("npurt.sort: argument '" + arg + "': " + why);
}

[[noreturn]] void fail_dtype(const std::string& arg, const std::string& why) {
  throw_unsupported_dtype("npurt.sort", arg, why);
}

std::vector<uint64_t> merge_widths(uint64_t chunk, uint64_t n) {
  std::vector<uint64_t> w;
  for (uint64_t width = chunk; width > 0 && width < n; width *= 2) w.push_back(width);
  return w;
}

// Vector-unit keys of x sorted along the last axis: the block launch, then the merges.
Tensor vector_keys(const Tensor& x, const SortPlan& plan, bool descending, int64_t digit, const Stream& stream) {
  const AttrValue block_attrs[3] = {AttrValue(descending), AttrValue(static_cast<int64_t>(plan.chunk)),
                                    AttrValue(digit)};
  Tensor keys = dispatch(kernel(kVBlock), Span<const Tensor>(&x, 1), block_attrs, stream)[0];
  for (uint64_t w : plan.widths) {
    const AttrValue merge_attrs[2] = {AttrValue(static_cast<int64_t>(w)), AttrValue(plan.score)};
    keys = dispatch(kernel(kVMerge), Span<const Tensor>(&keys, 1), merge_attrs, stream)[0];
  }
  return keys;
}

// int32/uint32: LSD radix over two 16-bit digits, each pass a stable vector
// sort; uint16: the one (low) digit pass.
Sorted radix_sort(const Tensor& x, const SortPlan& plan, bool descending, const Stream& stream) {
  const Tensor low[2] = {vector_keys(x, plan, descending, 0, stream), x};
  std::vector<Tensor> pass1 = dispatch(kernel(kVTake), low, {}, stream);
  if (plan.digits == 1) return Sorted{pass1[0], pass1[1]};
  const Tensor high[3] = {vector_keys(pass1[0], plan, descending, 1, stream), pass1[0], pass1[1]};
  std::vector<Tensor> r = dispatch(kernel(kVTakeThrough), high, {}, stream);
  return Sorted{r[0], r[1]};
}

}  // namespace

uint32_t vector_radix_digits(DType d) {
  if (d == DType::kInt32 || d == DType::kUInt32) return 2;
  return d == DType::kUInt16 ? 1 : 0;
}

bool vector_score_dtype(DType d, DType& score) {
  switch (d) {
    case DType::kFloat32: case DType::kBFloat16: case DType::kInt16: score = DType::kFloat32; return true;
    case DType::kFloat16: case DType::kInt8: case DType::kUInt8: case DType::kBool: score = DType::kFloat16; return true;
    default: return false;
  }
}

uint64_t vsort_max_chunk(const ChipProfile& p) {
  const uint64_t fit = ub_budget(p) * 8 / 161 / kVsortChunkStep * kVsortChunkStep;  // 20.125 B an element
  return std::min(fit, kVsortMaxChunk);
}

uint64_t sort_block_chunk(const ChipProfile& p, DType d, uint64_t n) {
  const uint64_t per_elem = 2 * static_cast<uint64_t>(itemsize(d)) + 2 * sizeof(int64_t);
  const uint64_t fit = ub_budget(p) / per_elem / 64 * 64;
  return std::min({fit, round_up(std::max<uint64_t>(n, 1), 64), uint64_t{1} << 30});
}

SortPlan sort_plan(const Tensor& x, const SortArgs& args) {
  if (x.ndim() == 0) fail("x", "a 0-d array has no axis to sort along");
  const DType d = x.dtype();
  if (d == DType::kComplex64 || d == DType::kComplex128)
    fail_dtype("x", std::string(dtype_name(d)) + " values have no order (real dtypes and bool are supported)");
  const bool scalar = args.scalar || args.chunk;
  if (scalar && args.vchunk) fail("vchunk", "the scalar path (chunk/scalar given) takes no vector chunk");
  const ChipProfile& p = device_context(x.device()).profile();
  SortPlan plan;
  plan.n = static_cast<uint64_t>(x.shape().back());
  plan.rows = plan.n ? static_cast<uint64_t>(x.numel()) / plan.n : 0;
  DType score = DType::kFloat32;
  const uint32_t digits = vector_radix_digits(d);
  const bool radix = digits > 0;
  const bool vector_ok = (radix || vector_score_dtype(d, score)) && x.numel() > 0;
  if (args.vchunk && !vector_ok)
    fail("vchunk", std::string("the vector unit does not sort ") + (x.numel() ? dtype_name(d) : "an empty array"));
  if (vector_ok && !scalar && (args.vchunk || plan.n >= kVectorMinRow)) {
    const uint64_t most = vsort_max_chunk(p);
    if (args.vchunk && (args.vchunk % kVsortChunkStep || args.vchunk > most))
      fail("vchunk", std::to_string(args.vchunk) + " must be a multiple of " + std::to_string(kVsortChunkStep) +
                         " up to " + std::to_string(most) + " on " + p.name);
    plan.unit = SortUnit::kVector;
    plan.score = score;
    plan.digits = digits;
    plan.chunk = args.vchunk ? args.vchunk : std::min(most, round_up(std::max<uint64_t>(plan.n, 1), kVsortChunkStep));
  } else {
    const uint64_t most = sort_block_chunk(p, d, ~uint64_t{0} >> 8);
    if (args.chunk && (args.chunk % 64 || args.chunk > most))
      fail("chunk", std::to_string(args.chunk) + " must be a multiple of 64 up to " + std::to_string(most) + " for " +
                        dtype_name(d) + " on " + p.name);
    plan.unit = SortUnit::kScalar;
    plan.chunk = args.chunk ? args.chunk : sort_block_chunk(p, d, plan.n);
  }
  plan.widths = merge_widths(plan.chunk, plan.n);
  return plan;
}

Sorted sort_last(const Tensor& x, const SortArgs& args, const Stream& stream) {
  const SortPlan plan = sort_plan(x, args);
  Sorted out;
  if (plan.unit == SortUnit::kVector && plan.digits > 0) return radix_sort(x, plan, args.descending, stream);
  if (plan.unit == SortUnit::kVector) {
    const Tensor keys = vector_keys(x, plan, args.descending, -1, stream);
    const Tensor ex_in[2] = {keys, x};
    const AttrValue ex_attrs[1] = {AttrValue(args.descending)};
    std::vector<Tensor> r = dispatch(kernel(kVExtract), ex_in, ex_attrs, stream);
    out.values = r[0];
    out.indices = r[1];
    return out;
  }
  const AttrValue block_attrs[2] = {AttrValue(args.descending), AttrValue(static_cast<int64_t>(plan.chunk))};
  std::vector<Tensor> r = dispatch(kernel(kSBlock), Span<const Tensor>(&x, 1), block_attrs, stream);
  for (uint64_t w : plan.widths) {
    const AttrValue merge_attrs[2] = {AttrValue(static_cast<int64_t>(w)), AttrValue(args.descending)};
    r = dispatch(kernel(kSMerge), Span<const Tensor>(r.data(), 2), merge_attrs, stream);
  }
  out.values = r[0];
  out.indices = r[1];
  return out;
}

}  // namespace array
}  // namespace npurt

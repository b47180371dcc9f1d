// simd/dispatch.cc: the public raw layer (aicore/vec_raw.h): dtype support
// tables, argument validation, and the run-time choice of ISA table.
// Invariant: a request reaches a KernelTable only if the tables here accept
// it; n == 0 returns true without touching memory.
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <initializer_list>

#include "aicore/vec_raw.h"
#include "aicore/vec_cast_pairs.h"
#include "backends/sim/aicore/simd/kernel_table.h"
#include "backends/sim/aicore/stream_window.h"

namespace npurt::aicore::vec {
namespace {

bool cpu_has_avx512() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_cpu_init();
  return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
         __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512dq");
#else
  return false;
#endif
}

bool cpu_has_avx2() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_cpu_init();
  return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") && __builtin_cpu_supports("f16c");
#else
  return false;
#endif
}

const simd::KernelTable* table_by_name(const char* name) {
  if (std::strcmp(name, "avx512") == 0) return cpu_has_avx512() ? simd::avx512_table() : nullptr;
  if (std::strcmp(name, "avx2") == 0) return cpu_has_avx2() ? simd::avx2_table() : nullptr;
  if (std::strcmp(name, "generic") == 0) return simd::generic_table();
  return nullptr;
}

const simd::KernelTable* best_table() {
  if (const char* forced = std::getenv("NPURT_SIM_ISA")) {
    if (const simd::KernelTable* t = table_by_name(forced)) return t;
  }
  for (const char* name : {"avx512", "avx2"}) {
    if (const simd::KernelTable* t = table_by_name(name)) return t;
  }
  return simd::generic_table();
}

std::atomic<const simd::KernelTable*> g_table{nullptr};

const simd::KernelTable& table() {
  npurt::sim::drip_prefetch();  // every vector op advances the short reads' look-ahead (stream_window.h)
  const simd::KernelTable* t = g_table.load(std::memory_order_acquire);
  if (t == nullptr) {
    t = best_table();
    g_table.store(t, std::memory_order_release);
  }
  return *t;
}

bool is_float(VType t) { return half_or_float(t); }

}  // namespace

const char* vtype_name(VType t) {
  static const char* const kNames[] = {"int8",  "uint8", "int16",    "uint16",    "int32",
                                       "uint32", "int64", "float16", "bfloat16", "float32"};
  return kNames[static_cast<int>(t)];
}

size_t vtype_size(VType t) {
  static const size_t kSizes[] = {1, 1, 2, 2, 4, 4, 8, 2, 2, 4};
  return kSizes[static_cast<int>(t)];
}

const char* binary_op_name(BinaryOp op) {
  static const char* const kNames[] = {"Add", "Sub", "Mul", "Div", "Max", "Min", "And", "Or"};
  return kNames[static_cast<int>(op)];
}
const char* scalar_op_name(ScalarOp op) {
  static const char* const kNames[] = {"Adds", "Muls", "Maxs", "Mins", "LeakyRelu"};
  return kNames[static_cast<int>(op)];
}
const char* unary_op_name(UnaryOp op) {
  static const char* const kNames[] = {"Exp", "Ln", "Abs", "Sqrt", "Rsqrt", "Reciprocal", "Relu", "Not"};
  return kNames[static_cast<int>(op)];
}

const char* cast_unsupported_reason(VType dst, VType src, AscendC::RoundMode mode) {
  uint8_t modes = 0;
  bool found = visit_cast_pair(dst, src, [&](auto pair) { modes = decltype(pair)::kModes; });
  if (!found) return "this (dst, src) dtype pair is not supported by the vector unit's Cast";
  if (!(modes & mode_bit(mode))) return "this RoundMode is not supported for this (dst, src) dtype pair";
  return nullptr;
}

bool binary(BinaryOp op, VType t, void* dst, const void* a, const void* b, uint64_t n) {
  if (!binary_supported(op, t)) return false;
  if (n) table().binary(op, t, dst, a, b, n);
  return true;
}

bool binary_scalar(ScalarOp op, VType t, void* dst, const void* src, const void* scalar, uint64_t n) {
  if (!scalar_op_supported(op, t)) return false;
  if (n) table().binary_scalar(op, t, dst, src, scalar, n);
  return true;
}

bool unary(UnaryOp op, VType t, void* dst, const void* src, uint64_t n) {
  if (!unary_supported(op, t)) return false;
  if (n) table().unary(op, t, dst, src, n);
  return true;
}

bool ternary(TernaryOp op, VType t, void* dst, const void* a, const void* b, uint64_t n) {
  if (!is_float(t)) return false;
  if (n) table().ternary(op, t, dst, a, b, n);
  return true;
}

bool ternary_blocks(TernaryOp op, VType t, void* dst, const void* a, const void* b, uint64_t n) {
  if (!is_float(t)) return false;
  if (n) table().ternary_blocks(op, t, dst, a, b, n);
  return true;
}

bool duplicate(VType t, void* dst, const void* scalar, uint64_t n) {
  if (!duplicate_supported(t)) return false;
  const size_t size = vtype_size(t);
  // Fill by doubling copies: memcpy does the vector work on every ISA.
  if (n == 0) return true;
  uint8_t* d = static_cast<uint8_t*>(dst);
  std::memcpy(d, scalar, size);
  uint64_t done = 1;
  while (done < n) {
    uint64_t chunk = done < n - done ? done : n - done;
    std::memcpy(d + done * size, d, chunk * size);
    done += chunk;
  }
  return true;
}

void cast_prechecked(VType dst_t, VType src_t, AscendC::RoundMode mode, void* dst, const void* src, uint64_t n) {
  if (n) table().cast(dst_t, src_t, mode, dst, src, n);
}

bool cast(VType dst_t, VType src_t, AscendC::RoundMode mode, void* dst, const void* src, uint64_t n) {
  if (cast_unsupported_reason(dst_t, src_t, mode) != nullptr) return false;
  cast_prechecked(dst_t, src_t, mode, dst, src, n);
  return true;
}

bool compare(AscendC::CMPMODE mode, VType t, uint8_t* bits, const void* a, const void* b, bool b_is_scalar,
             uint64_t n) {
  if (!is_float(t) && !(t == VType::kI32 && mode == AscendC::CMPMODE::EQ)) return false;
  if (n) table().compare(mode, t, bits, a, b, b_is_scalar, n);
  return true;
}

bool select(VType t, void* dst, const uint8_t* mask, uint64_t mask_period, const void* src0, const void* src1,
            bool src1_is_scalar, uint64_t n) {
  if (!is_float(t) || mask_period % 64 != 0) return false;
  if (n) table().select(t, dst, mask, mask_period, src0, src1, src1_is_scalar, n);
  return true;
}

bool axpy(VType dst_t, VType src_t, void* dst, const void* src, const void* scalar, uint64_t n) {
  if (!is_float(dst_t) || !is_float(src_t) || (dst_t == VType::kF16 && src_t == VType::kF32)) return false;
  if (n) table().axpy(dst_t, src_t, dst, src, scalar, n);
  return true;
}

bool reduce(ReduceOp op, VType t, void* dst, const void* src, uint64_t n, bool with_index) {
  if (!is_float(t) || (with_index && op == ReduceOp::kSum)) return false;
  if (n) table().reduce(op, t, dst, src, n, with_index);
  return true;
}

RepeatShape continuous_mask(VType t, uint32_t count) {
  RepeatShape s;
  const uint32_t lanes = static_cast<uint32_t>(256 / vtype_size(t));
  if (count > lanes) count = lanes;
  s.mask[0] = count >= 64 ? ~uint64_t{0} : (uint64_t{1} << count) - 1;
  s.mask[1] = count <= 64 ? 0 : (count >= 128 ? ~uint64_t{0} : (uint64_t{1} << (count - 64)) - 1);
  return s;
}

bool whole_reduce(ReduceOp op, VType t, void* dst, const void* src, const RepeatShape& shape,
                  uint32_t dst_rep_stride, AscendC::ReduceOrder order) {
  if (!is_float(t)) return false;
  if (shape.repeat) table().whole_reduce(op, t, dst, src, shape, dst_rep_stride, order);
  return true;
}

bool block_reduce(ReduceOp op, VType t, void* dst, const void* src, const RepeatShape& shape,
                  uint32_t dst_rep_stride) {
  if (!is_float(t)) return false;
  if (shape.repeat) table().block_reduce(op, t, dst, src, shape, dst_rep_stride);
  return true;
}

bool reduce_repeat(ReduceOp op, VType t, void* dst, const void* src, const RepeatShape& shape, bool with_index) {
  if (!is_float(t) || (with_index && op == ReduceOp::kSum)) return false;
  if (shape.repeat) table().reduce_repeat(op, t, dst, src, shape, with_index);
  return true;
}

const char* active_isa() { return table().name; }

bool force_isa(const char* name) {
  const simd::KernelTable* t = table_by_name(name);
  if (t == nullptr) return false;
  g_table.store(t, std::memory_order_release);
  return true;
}

}  // namespace npurt::aicore::vec

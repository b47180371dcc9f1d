// cube_mmad.cc: Mmad on the simulated cube: operand checks, packing of the
// L0A (Zz) / L0B (Zn) fractals to float (or AMX bf16 layouts), reused through
// the packed-operand cache (cube_packed_cache.h) when an operand's L0 bytes
// were not written since the previous Mmad packed them, and the choice of host
// micro-kernel (cube_gemm.h). Layouts and rules: aicore/cube.h.
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

#include "aicore/cube.h"
#include "backends/sim/aicore/cube_gemm.h"
#include "backends/sim/aicore/cube_packed_cache.h"

namespace npurt::sim {
namespace cube {

void gemm_generic(float* c, uint32_t m16, uint32_t nblocks, uint32_t k, const float* ap,
                  const float* bp, bool zero) {
  const uint64_t panel_c = uint64_t{m16} * 16, panel_b = uint64_t{k} * 16;
  if (zero) std::memset(c, 0, nblocks * panel_c * sizeof(float));
  for (uint32_t j = 0; j < nblocks; ++j)
    for (uint32_t i = 0; i < m16; ++i) {
      float* crow = c + j * panel_c + uint64_t{i} * 16;
      const float* arow = ap + uint64_t{i} * k;
      const float* bpanel = bp + j * panel_b;
      for (uint32_t kk = 0; kk < k; ++kk)
        for (int q = 0; q < 16; ++q) crow[q] = std::fma(arow[kk], bpanel[uint64_t{kk} * 16 + q], crow[q]);
    }
}

namespace {
struct Choice {
  GemmFn fn, zz;
  AmxBf16Fn amx, amx_zz;
  bool simd_pack;
  const char* name;
};
Choice choose() {
  const char* forced = std::getenv("NPURT_SIM_ISA");
  auto is = [&](const char* v) { return forced && std::strcmp(forced, v) == 0; };
  if (is("generic") || is("avx2")) return {&gemm_generic, nullptr, nullptr, nullptr, false, "generic"};
  GemmFn f = gemm_avx512();
  if (f == nullptr) return {&gemm_generic, nullptr, nullptr, nullptr, false, "generic"};
  AmxBf16Fn amx = is("avx512") ? nullptr : gemm_amx_bf16();
  AmxBf16Fn amx_zz = amx ? gemm_amx_bf16_zz() : nullptr;
  return {f, gemm_avx512_zz(), amx, amx_zz, pack_a_f16_avx512() != nullptr, amx ? "avx512+amx-bf16" : "avx512"};
}
const Choice& choice() {
  static const Choice c = choose();
  return c;
}
}  // namespace

GemmFn gemm_best() { return choice().fn; }
GemmFn gemm_zz_best() { return choice().zz; }
AmxBf16Fn amx_best() { return choice().amx; }
AmxBf16Fn amx_zz_best() { return choice().amx_zz; }
bool simd_pack_enabled() { return choice().simd_pack; }
const char* gemm_isa_name() { return choice().name; }

}  // namespace cube

namespace {

uint32_t ceil_div(uint32_t a, uint32_t b) { return (a + b - 1) / b; }

uint32_t elem_size(CubeType t) { return t == CubeType::kF32 ? 4 : 2; }

// fp16 -> fp32 through a table: the library is built without F16C, and a
// software conversion per element would dominate Mmad.
const float* half_table() {
  static const std::vector<float> table = [] {
    std::vector<float> t(65536);
    for (uint32_t i = 0; i < 65536; ++i) t[i] = static_cast<float>(aicore::bits_half(static_cast<uint16_t>(i)));
    return t;
  }();
  return table.data();
}

template <class T>
float to_f32(T v) {
  return static_cast<float>(v);
}
template <>
float to_f32<uint16_t>(uint16_t v) {  // bfloat16 bits
  return aicore::bf16_bits_to_float(v);
}
template <>
float to_f32<_Float16>(_Float16 v) {
  return half_table()[aicore::half_bits(v)];
}

// A (Zz, C0 columns per fractal) -> ap[m16][k], rows >= m are zero.
template <class T>
void pack_a(float* ap, const T* a, uint32_t m, uint32_t m16, uint32_t k, uint32_t c0) {
  const uint32_t kb = ceil_div(k, c0), frac = 16 * c0;
  for (uint32_t i = 0; i < m16; ++i) {
    float* row = ap + uint64_t{i} * k;
    if (i >= m) {
      std::memset(row, 0, uint64_t{k} * sizeof(float));
      continue;
    }
    const T* base = a + uint64_t{i / 16} * kb * frac + (i % 16) * c0;
    uint32_t kk = 0;
    if constexpr (std::is_same_v<T, float>)  // whole fractal rows are 8 contiguous floats
      for (; kk + c0 <= k; kk += c0) std::memcpy(row + kk, base + uint64_t{kk / c0} * frac, 32);
    for (; kk < k; ++kk) row[kk] = to_f32(base[uint64_t{kk / c0} * frac + kk % c0]);
  }
}

// B (Zn: fractal (kb, nb) holds 16 n-rows of C0 k-values) -> bp[nb][k][16],
// columns >= n are zero.
template <class T>
void pack_b(float* bp, const T* b, uint32_t n, uint32_t k, uint32_t c0) {
  const uint32_t nb = ceil_div(n, 16), frac = 16 * c0;
  for (uint32_t j = 0; j < nb; ++j)
    for (uint32_t kk = 0; kk < k; ++kk) {
      float* dst = bp + (uint64_t{j} * k + kk) * 16;
      const T* src = b + (uint64_t{kk / c0} * nb + j) * frac + kk % c0;
      for (uint32_t q = 0; q < 16; ++q) dst[q] = j * 16 + q < n ? to_f32(src[q * c0]) : 0.0f;
    }
}

void check_params(const AscendC::MmadParams& p, bool has_bias) {
  if (p.m == 0 || p.n == 0 || p.k == 0 || p.m > 4095 || p.n > 4095 || p.k > 4095)
    raise_fault(Diag::kParam, "Mmad",
                "m, n, k must be in [1, 4095], got m=" + std::to_string(p.m) + " n=" +
                    std::to_string(p.n) + " k=" + std::to_string(p.k));
  if ((p.isBias || p.cmatrixSource) != has_bias)
    raise_fault(Diag::kParam, "Mmad",
                has_bias ? "a bias operand needs cmatrixSource (or isBias) = true"
                         : "isBias / cmatrixSource need the bias-table operand: Mmad(c, a, b, bias, params)");
}

// A (Zz) -> float rows [m16][k], in the layout of the float micro-kernels.
template <class T>
void pack_a_float(float* ap, const LocalRef& a, const AscendC::MmadParams& p, uint32_t m16) {
  if constexpr (std::is_same_v<T, _Float16>) {
    if (cube::simd_pack_enabled()) {
      cube::pack_a_f16_avx512()(ap, reinterpret_cast<const uint16_t*>(a.ptr), p.m, m16, p.k);
      return;
    }
  }
  pack_a(ap, reinterpret_cast<const T*>(a.ptr), p.m, m16, p.k, 32 / sizeof(T));
}

// B (Zn) -> float panels [n16 / 16][k][16].
template <class T>
void pack_b_float(float* bp, const LocalRef& b, const AscendC::MmadParams& p) {
  if (cube::simd_pack_enabled()) {
    if constexpr (std::is_same_v<T, _Float16>) {
      cube::pack_b_f16_avx512()(bp, reinterpret_cast<const uint16_t*>(b.ptr), p.n, 0, p.k);
      return;
    }
    if constexpr (std::is_same_v<T, float>) {
      cube::pack_b_f32_avx512()(bp, reinterpret_cast<const float*>(b.ptr), p.n, p.k);
      return;
    }
  }
  pack_b(bp, reinterpret_cast<const T*>(b.ptr), p.n, p.k, 32 / sizeof(T));
}

// Whether [p, p + bytes) lies in the core's `pool` arena. Only operands in
// L0A / L0B are cached: every writer of those is a cube load that
// invalidates (cube_packed_cache.h); with checks off a kernel could pass an
// operand elsewhere (rejected at every other level), which is then packed
// each time.
bool in_pool(const CoreContext* c, const uint8_t* p, uint64_t bytes, Pool pool) {
  const uint8_t* base = c->pool_base[static_cast<int>(pool)];
  return base != nullptr && p >= base && p + bytes <= base + c->pool_capacity[static_cast<int>(pool)];
}

// The cache key of an operand, or a key with src == nullptr (never cached) outside `pool`.
cube::PackKey pack_key(const CoreContext* c, const LocalRef& op, Pool pool, uint64_t bytes, cube::PackForm form,
                       CubeType type, uint32_t rows, uint32_t k, uint32_t kpad) {
  return {in_pool(c, op.ptr, bytes, pool) ? op.ptr : nullptr, bytes, form, type, rows, k, kpad};
}

// L0 bytes of an operand of `rows` (m or n) x k: whole fractals of 16 rows x c0.
uint64_t l0_bytes(uint32_t rows, uint32_t k, uint32_t c0) { return uint64_t{ceil_div(rows, 16)} * ceil_div(k, c0) * 512; }

// The packed A / B of this Mmad from the packed-operand cache, packing on a miss.
template <class T>
const float* packed_a_float(const CoreContext* c, const LocalRef& a, CubeType type, const AscendC::MmadParams& p,
                            uint32_t m16) {
  const cube::PackKey key = pack_key(c, a, Pool::kL0A, l0_bytes(p.m, p.k, 32 / sizeof(T)), cube::PackForm::kFloatRows,
                                     type, p.m, p.k, 0);
  bool hit = false;
  float* ap = cube::packed_buffer<float>(cube::Operand::kA, key, uint64_t{m16} * p.k, &hit);
  if (!hit) pack_a_float<T>(ap, a, p, m16);
  return ap;
}

template <class T>
const float* packed_b_float(const CoreContext* c, const LocalRef& b, CubeType type, const AscendC::MmadParams& p,
                            uint32_t nb) {
  const cube::PackKey key = pack_key(c, b, Pool::kL0B, l0_bytes(p.n, p.k, 32 / sizeof(T)),
                                     cube::PackForm::kFloatPanels, type, p.n, p.k, 0);
  bool hit = false;
  float* bp = cube::packed_buffer<float>(cube::Operand::kB, key, uint64_t{nb} * p.k * 16, &hit);
  if (!hit) pack_b_float<T>(bp, b, p);
  return bp;
}

void check_operands(CoreContext* c, const LocalRef& dst, const LocalRef& a, const LocalRef& b,
                    const LocalRef* bias, uint32_t mb, uint32_t nb, uint32_t kb) {
  check_local(c, a, 0, uint64_t{mb} * kb * 512,
              AccessSpec{"Mmad", Access::kRead, Pipe::M, 512, pool_bit(Pool::kL0A)});
  check_local(c, b, 0, uint64_t{kb} * nb * 512,
              AccessSpec{"Mmad", Access::kRead, Pipe::M, 512, pool_bit(Pool::kL0B)});
  check_local(c, dst, 0, uint64_t{nb} * mb * 256 * sizeof(float),
              AccessSpec{"Mmad", Access::kWrite, Pipe::M, 64, pool_bit(Pool::kL0C)});
  if (bias)
    check_local(c, *bias, 0, uint64_t{nb} * 16 * sizeof(float),
                AccessSpec{"Mmad", Access::kRead, Pipe::M, 64, pool_bit(Pool::kBT)});
}

// C's initial value from the bias row broadcast over the rows (columns >= n
// zero); a zero start is the kernels' `zero` flag (no memset, no C reads).
void init_bias(float* cbuf, const AscendC::MmadParams& p, const LocalRef& bias, uint32_t m16, uint32_t nb) {
  const auto* bv = reinterpret_cast<const float*>(bias.ptr);
  for (uint32_t j = 0; j < nb; ++j)
    for (uint32_t i = 0; i < m16; ++i)
      for (uint32_t q = 0; q < 16; ++q) cbuf[(uint64_t{j} * m16 + i) * 16 + q] = j * 16 + q < p.n ? bv[j * 16 + q] : 0.0f;
}

// Whole 16-row groups and k a multiple of 16 (every Zz fractal byte is
// operand): the Zz kernel reads A in place (no packing, nothing to cache; B
// padded to k16 only); else A is packed into rows of k32.
bool run_amx(const CoreContext* c, float* cbuf, const LocalRef& a, const LocalRef& b, const AscendC::MmadParams& p,
             uint32_t m16, uint32_t nb, bool zero) {
  cube::AmxBf16Fn amx = cube::amx_best();
  if (amx == nullptr) return false;
  cube::AmxBf16Fn zz = p.m == m16 && p.k % 16 == 0 ? cube::amx_zz_best() : nullptr;
  const uint32_t kpad = zz ? p.k : (p.k + 31u) / 32u * 32u;
  const cube::PackKey kb = pack_key(c, b, Pool::kL0B, l0_bytes(p.n, p.k, 16), cube::PackForm::kBf16Vnni,
                                    CubeType::kBF16, p.n, p.k, kpad);
  bool hit_b = false;
  uint16_t* bp = cube::packed_buffer<uint16_t>(cube::Operand::kB, kb, uint64_t{nb} * kpad * 16, &hit_b);
  if (!hit_b) cube::pack_b_bf16(bp, reinterpret_cast<const uint16_t*>(b.ptr), p.n, p.k, kpad);
  if (zz) {
    zz(cbuf, m16, nb, kpad, reinterpret_cast<const uint16_t*>(a.ptr), bp, zero);
    return true;
  }
  const cube::PackKey ka = pack_key(c, a, Pool::kL0A, l0_bytes(p.m, p.k, 16), cube::PackForm::kBf16Rows,
                                    CubeType::kBF16, p.m, p.k, kpad);
  bool hit_a = false;
  uint16_t* ap = cube::packed_buffer<uint16_t>(cube::Operand::kA, ka, uint64_t{m16} * kpad, &hit_a);
  if (!hit_a) cube::pack_a_bf16(ap, reinterpret_cast<const uint16_t*>(a.ptr), p.m, m16, p.k, kpad);
  amx(cbuf, m16, nb, kpad, ap, bp, zero);
  return true;
}

template <class T>
void run_float(const CoreContext* c, float* cbuf, const LocalRef& a, const LocalRef& b, CubeType type,
               const AscendC::MmadParams& p, uint32_t m16, uint32_t nb, bool zero) {
  const float* bp = packed_b_float<T>(c, b, type, p, nb);
  cube::GemmFn zz = cube::gemm_zz_best();
  if (std::is_same_v<T, float> && zz != nullptr && p.m == m16 && cube::simd_pack_enabled()) {
    // Whole 16-row groups: the kernel reads A's Zz fractals in place; only B is packed.
    zz(cbuf, m16, nb, p.k, reinterpret_cast<const float*>(a.ptr), bp, zero);
    return;
  }
  cube::gemm_best()(cbuf, m16, nb, p.k, packed_a_float<T>(c, a, type, p, m16), bp, zero);
}

}  // namespace

void cube_mmad(CoreContext* c, const LocalRef& dst, const LocalRef& a, const LocalRef& b,
               CubeType type, const AscendC::MmadParams& p, const LocalRef* bias) {
  check_params(p, bias != nullptr);
  const uint32_t es = elem_size(type), c0 = 32 / es;
  const uint32_t mb = ceil_div(p.m, 16), nb = ceil_div(p.n, 16), kb = ceil_div(p.k, c0);
  const uint32_t m16 = mb * 16;
  if (checks_on(c)) check_operands(c, dst, a, b, bias, mb, nb, kb);
  float* cbuf = reinterpret_cast<float*>(dst.ptr);
  if (bias) init_bias(cbuf, p, *bias, m16, nb);
  const bool zero = bias == nullptr && p.cmatrixInitVal;
  if (type == CubeType::kBF16 && run_amx(c, cbuf, a, b, p, m16, nb, zero)) return;
  switch (type) {
    case CubeType::kF32: run_float<float>(c, cbuf, a, b, type, p, m16, nb, zero); break;
    case CubeType::kF16: run_float<_Float16>(c, cbuf, a, b, type, p, m16, nb, zero); break;
    case CubeType::kBF16: run_float<uint16_t>(c, cbuf, a, b, type, p, m16, nb, zero); break;
  }
}

const char* cube_isa() { return cube::gemm_isa_name(); }

void cube_load_bias(CoreContext* c, const LocalRef& dst, const LocalRef& src, CubeType src_type,
                    const AscendC::DataCopyParams& p) {
  const char* api = "DataCopy(L1->BiasTable)";
  const uint64_t src_bytes = uint64_t{p.blockCount} * p.blockLen * 32;
  const uint32_t es = elem_size(src_type);
  if (src_bytes == 0) return;
  if (checks_on(c)) {
    if (p.srcStride != 0 || p.dstStride != 0)
      raise_fault(Diag::kParam, api, "only contiguous blocks (srcStride = dstStride = 0) are simulated");
    check_local(c, src, 0, src_bytes, AccessSpec{api, Access::kRead, Pipe::MTE1, 32, pool_bit(Pool::kL1)});
    check_local(c, dst, 0, src_bytes / es * 4, AccessSpec{api, Access::kWrite, Pipe::MTE1, 64, pool_bit(Pool::kBT)});
  }
  auto* out = reinterpret_cast<float*>(dst.ptr);
  for (uint64_t i = 0; i < src_bytes / es; ++i)
    out[i] = src_type == CubeType::kF16 ? to_f32(reinterpret_cast<const _Float16*>(src.ptr)[i])
                                        : to_f32(reinterpret_cast<const uint16_t*>(src.ptr)[i]);
}

}  // namespace npurt::sim

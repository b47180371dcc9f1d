// cube_move.cc: the cube unit's data movement: GM (ND) -> L1 (Nz), LoadData
// L1 -> L0A/L0B by fractals, Fixpipe L0C -> GM with cast. Layouts and the
// checks each instruction performs: aicore/cube.h.
#include <algorithm>
#include <cstring>
#include <string>

#include "aicore/cube.h"
#include "backends/sim/aicore/cube_move_simd.h"
#include "backends/sim/aicore/cube_packed_cache.h"
#include "backends/sim/aicore/cube_prefetch.h"
#include "backends/sim/aicore/stream_copy.h"

namespace npurt::sim {
namespace {

constexpr uint32_t kFractalBytes = 512;

uint32_t ceil_div(uint32_t a, uint32_t b) { return (a + b - 1) / b; }

void check_nd2nz_params(const AscendC::Nd2NzParams& p, uint32_t c0) {
  const char* api = "DataCopy(Nd2Nz)";
  if (p.srcDValue < p.dValue)
    raise_fault(Diag::kParam, api,
                "srcDValue " + std::to_string(p.srcDValue) + " is smaller than dValue " +
                    std::to_string(p.dValue));
  if (p.dstNzNStride == 0) raise_fault(Diag::kParam, api, "dstNzNStride must be >= 1");
  // Column blocks either follow each other (each spans all rows) or interleave
  // inside one row stride (dstNzNStride >= blocks * dstNzC0Stride).
  const uint32_t rows_span = (uint32_t{p.nValue} - 1) * p.dstNzNStride + 1;
  const uint32_t db = ceil_div(p.dValue, c0);
  const bool interleaved = p.dstNzC0Stride >= 1 && p.dstNzNStride >= db * p.dstNzC0Stride;
  if (db > 1 && p.dstNzC0Stride < rows_span && !interleaved)
    raise_fault(Diag::kParam, api,
                "dstNzC0Stride " + std::to_string(p.dstNzC0Stride) +
                    " makes column blocks overlap (rows span " + std::to_string(rows_span) + ")");
}

}  // namespace

void cube_nd2nz(CoreContext* c, const LocalRef& dst, const GmRef& src, uint32_t elem,
                const AscendC::Nd2NzParams& p) {
  const char* api = "DataCopy(Nd2Nz)";
  if (p.ndNum == 0 || p.nValue == 0 || p.dValue == 0) return;
  const uint32_t c0 = 32 / elem, db = ceil_div(p.dValue, c0);
  if (checks_on(c)) {
    check_nd2nz_params(p, c0);
    uint64_t src_span = (uint64_t{p.ndNum} - 1) * p.srcNdMatrixStride +
                        (uint64_t{p.nValue} - 1) * p.srcDValue + p.dValue;
    check_gm(c, src, src.ptr, src_span * elem, elem, api, Access::kRead);
    uint64_t dst_span = (uint64_t{p.ndNum} - 1) * p.dstNzMatrixStride +
                        ((uint64_t{db} - 1) * p.dstNzC0Stride + (uint64_t{p.nValue} - 1) * p.dstNzNStride + 1) * c0;
    check_local(c, dst, 0, dst_span * elem,
                AccessSpec{api, Access::kWrite, Pipe::MTE2, 32, pool_bit(Pool::kL1)});
  }
  const uint64_t blk = uint64_t{c0} * elem;  // 32 B
  const cube::MoveKernels* fast = cube::move_kernels();
  const uint64_t row_bytes = uint64_t{p.dValue} * elem, pitch = uint64_t{p.srcDValue} * elem;
  // Groups of 8 rows, column block by column block: the destination of one
  // block is then a run of 8 x 32 B instead of 32 B writes 4 KiB apart (L1 set
  // conflicts), and the group's source rows stay in L1 for every matrix (the
  // matrices of a 16-column slab copy sit side by side in the same GM rows).
  for (uint32_t r0 = 0; r0 < p.nValue; r0 += 8) {
    const uint32_t r1 = std::min<uint32_t>(r0 + 8, p.nValue);
    for (uint32_t m = 0; m < p.ndNum; ++m) {
      const uint8_t* s_mat = src.ptr + uint64_t{m} * p.srcNdMatrixStride * elem;
      uint8_t* d_mat = dst.ptr + uint64_t{m} * p.dstNzMatrixStride * elem;
      // GM rows are a pitch apart (often pages): fetch the next group. Prefetches never fault.
      for (uint32_t r = r1; r < r1 + 8 && r < p.nValue; ++r)
        for (uint64_t off = 0; off < row_bytes; off += 64) __builtin_prefetch(s_mat + r * pitch + off);
      uint32_t j = 0;
      if (fast) {  // whole blocks vectorised; a partial last block below
        j = p.dValue / c0;
        fast->nd2nz_blocks(d_mat + uint64_t{r0} * p.dstNzNStride * blk, uint64_t{p.dstNzC0Stride} * blk,
                           uint64_t{p.dstNzNStride} * blk, s_mat + r0 * pitch, pitch, r1 - r0, j);
      }
      for (; j < db; ++j) {
        const uint32_t cols = std::min(c0, uint32_t{p.dValue} - j * c0);
        for (uint32_t r = r0; r < r1; ++r) {
          uint8_t* d = d_mat + (uint64_t{j} * p.dstNzC0Stride + uint64_t{r} * p.dstNzNStride) * blk;
          const uint8_t* s = s_mat + r * pitch + uint64_t{j} * blk;
          if (cols == c0) {  // whole 32-B block: a fixed-size copy the compiler inlines
            std::memcpy(d, s, 32);
            continue;
          }
          std::memcpy(d, s, uint64_t{cols} * elem);
          std::memset(d + uint64_t{cols} * elem, 0, uint64_t{c0 - cols} * elem);
        }
      }
    }
  }
  // The next copy of this shape is likely the next chunk of a K walk: queue it for the Mmads to prefetch.
  cube::note_nd2nz_source(src.ptr, pitch, p.nValue, (uint64_t{p.ndNum} - 1) * p.srcNdMatrixStride * elem + row_bytes);
}

void cube_load_2d(CoreContext* c, const LocalRef& dst, const LocalRef& src, uint32_t elem,
                  const AscendC::LoadData2dParams& p) {
  const char* api = "LoadData";
  if (p.repeatTimes == 0) return;
  if (checks_on(c)) {
    if (p.ifTranspose && elem != 2)
      raise_fault(Diag::kParam, api,
                  "ifTranspose needs a 2-byte type (a " + std::to_string(elem) +
                      "-byte fractal is 16 x " + std::to_string(32 / elem) + ", not square)");
    uint64_t src_end = (uint64_t{p.startIndex} + (uint64_t{p.repeatTimes} - 1) * p.srcStride + 1) * kFractalBytes;
    check_local(c, src, 0, src_end,
                AccessSpec{api, Access::kRead, Pipe::MTE1, 32, pool_bit(Pool::kL1)});
    uint64_t dst_end = ((uint64_t{p.repeatTimes} - 1) * (1 + uint64_t{p.dstGap}) + 1) * kFractalBytes;
    check_local(c, dst, 0, dst_end,
                AccessSpec{api, Access::kWrite, Pipe::MTE1, 512,
                           static_cast<uint8_t>(pool_bit(Pool::kL0A) | pool_bit(Pool::kL0B))});
  }
  // Mmad's packed copies of these bytes are stale from here on (cube_packed_cache.h).
  cube::note_l0_write(dst.ptr, ((uint64_t{p.repeatTimes} - 1) * (1 + uint64_t{p.dstGap}) + 1) * kFractalBytes);
  const cube::MoveKernels* fast = cube::move_kernels();
  if (fast && !p.ifTranspose) {
    fast->copy_fractals(dst.ptr, (1 + uint64_t{p.dstGap}) * kFractalBytes,
                        src.ptr + uint64_t{p.startIndex} * kFractalBytes, uint64_t{p.srcStride} * kFractalBytes,
                        p.repeatTimes);
    return;
  }
  for (uint32_t i = 0; i < p.repeatTimes; ++i) {
    const uint8_t* s = src.ptr + (uint64_t{p.startIndex} + uint64_t{i} * p.srcStride) * kFractalBytes;
    uint8_t* d = dst.ptr + uint64_t{i} * (1 + p.dstGap) * kFractalBytes;
    if (!p.ifTranspose) {
      if (d + kFractalBytes <= s || s + kFractalBytes <= d) std::memcpy(d, s, kFractalBytes);  // inlined
      else std::memmove(d, s, kFractalBytes);
      continue;
    }
    if (fast) {
      fast->transpose_b16(reinterpret_cast<uint16_t*>(d), reinterpret_cast<const uint16_t*>(s));
      continue;
    }
    uint16_t tmp[256];
    std::memcpy(tmp, s, sizeof tmp);
    auto* out = reinterpret_cast<uint16_t*>(d);
    for (int r = 0; r < 16; ++r)
      for (int q = 0; q < 16; ++q) out[q * 16 + r] = tmp[r * 16 + q];
  }
}

void cube_load_transpose_b32(CoreContext* c, const LocalRef& dst, const LocalRef& src, uint32_t elem,
                             const AscendC::LoadData2dTransposeParams& p) {
  const char* api = "LoadDataWithTranspose";
  if (p.repeatTimes == 0) return;
  if (checks_on(c)) {
    if (elem != 4)
      raise_fault(Diag::kParam, api,
                  "the simulated LoadDataWithTranspose handles 4-byte types; use LoadData with "
                  "ifTranspose for 2-byte types");
    uint64_t src_end = (uint64_t{p.startIndex} + (uint64_t{p.repeatTimes} - 1) * p.srcStride + 2) * kFractalBytes;
    check_local(c, src, 0, src_end,
                AccessSpec{api, Access::kRead, Pipe::MTE1, 32, pool_bit(Pool::kL1)});
    uint64_t dst_end = ((uint64_t{p.repeatTimes} - 1) * (1 + uint64_t{p.dstGap}) + 2 + p.dstFracGap) * kFractalBytes;
    check_local(c, dst, 0, dst_end,
                AccessSpec{api, Access::kWrite, Pipe::MTE1, 512,
                           static_cast<uint8_t>(pool_bit(Pool::kL0A) | pool_bit(Pool::kL0B))});
  }
  cube::note_l0_write(dst.ptr, ((uint64_t{p.repeatTimes} - 1) * (1 + uint64_t{p.dstGap}) + 2 + p.dstFracGap) *
                                   kFractalBytes);
  const cube::MoveKernels* fast = cube::move_kernels();
  for (uint32_t i = 0; i < p.repeatTimes; ++i) {
    const uint8_t* s = src.ptr + (uint64_t{p.startIndex} + uint64_t{i} * p.srcStride) * kFractalBytes;
    auto* lo = reinterpret_cast<uint32_t*>(dst.ptr + uint64_t{i} * (1 + p.dstGap) * kFractalBytes);
    auto* hi = lo + (1 + uint64_t{p.dstFracGap}) * (kFractalBytes / 4);
    if (fast) {
      fast->transpose_sq_b32(lo, hi, reinterpret_cast<const uint32_t*>(s));
      continue;
    }
    uint32_t sq[256];
    std::memcpy(sq, s, sizeof sq);
    for (int r = 0; r < 16; ++r)      // row r of the transpose = column r of the square
      for (int q = 0; q < 16; ++q) (q < 8 ? lo : hi)[r * 8 + q % 8] = sq[q * 16 + r];
  }
}

namespace {

AscendC::QuantMode_t quant_for(CubeType out) {
  switch (out) {
    case CubeType::kF16: return AscendC::QuantMode_t::F322F16;
    case CubeType::kBF16: return AscendC::QuantMode_t::F322BF16;
    default: return AscendC::QuantMode_t::NoQuant;
  }
}

void check_fixpipe_params(const AscendC::FixpipeParamsV220& p, CubeType out) {
  const char* api = "Fixpipe";
  if (p.quantPre != quant_for(out))
    raise_fault(Diag::kParam, api,
                "quantPre does not match the output type (float needs NoQuant, half F322F16, "
                "bfloat16_t F322BF16)");
  if (p.srcStride % 16 != 0 || p.srcStride < p.mSize)
    raise_fault(Diag::kParam, api,
                "srcStride " + std::to_string(p.srcStride) +
                    " must be a multiple of 16 and >= mSize " + std::to_string(p.mSize));
  if (p.dstStride < p.nSize)
    raise_fault(Diag::kParam, api,
                "dstStride " + std::to_string(p.dstStride) + " is smaller than nSize " +
                    std::to_string(p.nSize));
  if (p.ndNum != 1) raise_fault(Diag::kParam, api, "only ndNum = 1 is simulated");
}

template <class Store>
void fixpipe_rows(const GmRef& dst, const float* src, const AscendC::FixpipeParamsV220& p,
                  uint32_t es, Store store) {
  for (uint32_t r = 0; r < p.mSize; ++r) {
    uint8_t* row = dst.ptr + uint64_t{r} * p.dstStride * es;
    for (uint32_t j = 0; j < p.nSize; ++j) {
      float v = src[(uint64_t{j / 16} * p.srcStride + r) * 16 + j % 16];
      if (p.reluEn && v < 0.0f) v = 0.0f;
      store(row + uint64_t{j} * es, v);
    }
  }
}

// Column block by column block: each L0C row of a block is 16 consecutive
// floats, moved (cast, ReLU) by one vector store per output row.
// A float output into a large allocation (streaming_target) whose rows are
// whole, aligned 64-B lines gets streaming stores (fix_f32_stream). The
// threshold is lower than DataCopy's: a 4 MiB matmul C (1024^3) took 5 %
// less CPU with streaming stores, and 7 % less with an elementwise op
// reading C right after it (wave 9). DataCopy's 40 MiB rule comes from
// chains of cheap elementwise kernels and pool-reused outputs, where finding
// the input or output in cache matters more than for the cube's tiles.
constexpr uint64_t kFixpipeStreamRegionBytes = uint64_t{4} << 20;
bool fixpipe_fast(CoreContext* c, const GmRef& dst, const float* src, CubeType out,
                  const AscendC::FixpipeParamsV220& p, uint32_t es) {
  const cube::MoveKernels* k = cube::move_kernels();
  if (k == nullptr) return false;
  auto fn = out == CubeType::kF32 ? k->fix_f32 : out == CubeType::kF16 ? k->fix_f16 : k->fix_bf16;
  const uint64_t pitch = uint64_t{p.dstStride} * es;
  const bool stream = out == CubeType::kF32 && reinterpret_cast<uintptr_t>(dst.ptr) % 64 == 0 && pitch % 64 == 0 &&
                      streaming_target(c, dst, kFixpipeStreamRegionBytes);
  if (stream) fn = k->fix_f32_stream;
  // 16 rows at a time across every column block: each GM row is then written
  // left to right in whole lines (one column block down all rows instead
  // touches a new line every pitch bytes, and each needs its own
  // read-for-ownership); the L0C side reads 1 KiB runs either way.
  for (uint32_t r0 = 0; r0 < p.mSize; r0 += 16) {
    const uint32_t rows = std::min<uint32_t>(16, p.mSize - r0);
    for (uint32_t j = 0; j * 16 < p.nSize; ++j)
      fn(dst.ptr + uint64_t{r0} * pitch + uint64_t{j} * 16 * es, pitch,
         src + uint64_t{j} * p.srcStride * 16 + uint64_t{r0} * 16, rows, std::min<uint32_t>(16, p.nSize - j * 16),
         p.reluEn);
  }
  if (stream) stream_fence();  // ordered before this thread's later stores, like plain stores
  return true;
}

}  // namespace

void cube_fixpipe(CoreContext* c, const GmRef& dst, const LocalRef& src, CubeType out,
                  const AscendC::FixpipeParamsV220& p) {
  const char* api = "Fixpipe";
  if (p.mSize == 0 || p.nSize == 0) return;
  const uint32_t es = out == CubeType::kF32 ? 4 : 2;
  if (checks_on(c)) {
    check_fixpipe_params(p, out);
    check_local(c, src, 0, uint64_t{ceil_div(p.nSize, 16)} * p.srcStride * 16 * sizeof(float),
                AccessSpec{api, Access::kRead, Pipe::FIX, 64, pool_bit(Pool::kL0C)});
    // Per row: at full level GM writes are recorded for the multi-core check,
    // and the gaps between rows belong to other blocks.
    for (uint32_t r = 0; r < p.mSize; ++r)
      check_gm(c, dst, dst.ptr + uint64_t{r} * p.dstStride * es, uint64_t{p.nSize} * es, es, api,
               Access::kWrite);
  }
  const auto* s = reinterpret_cast<const float*>(src.ptr);
  if (fixpipe_fast(c, dst, s, out, p, es)) return;
  switch (out) {
    case CubeType::kF32:
      fixpipe_rows(dst, s, p, es, [](uint8_t* d, float v) { std::memcpy(d, &v, 4); });
      break;
    case CubeType::kF16:
      fixpipe_rows(dst, s, p, es, [](uint8_t* d, float v) {
        _Float16 h = static_cast<_Float16>(v);
        std::memcpy(d, &h, 2);
      });
      break;
    case CubeType::kBF16:
      fixpipe_rows(dst, s, p, es, [](uint8_t* d, float v) {
        uint16_t b = aicore::float_to_bf16_bits(v);
        std::memcpy(d, &b, 2);
      });
      break;
  }
}

}  // namespace npurt::sim

// kernels/cast/cast_kernel.cc: dtype conversion of a contiguous tensor (device code).
//
// Each (dst, src) row of kCastRows instantiates CastKernel<D, S>: CopyIn (src
// tile) -> Cast (vector unit) -> CopyOut, double-buffered. dst == src moves the
// tile straight through a VECIN->VECOUT bound queue (no compute).
#include "cast/cast_table.h"
#include "common/kernel_util.h"
#include "kernel_operator.h"
#include "npurt/backend.h"

namespace npurt::kernels {
namespace {

template <DType> struct Elem;
template <> struct Elem<DType::kBool> { using type = uint8_t; };
template <> struct Elem<DType::kInt8> { using type = int8_t; };
template <> struct Elem<DType::kInt16> { using type = int16_t; };
template <> struct Elem<DType::kInt32> { using type = int32_t; };
template <> struct Elem<DType::kInt64> { using type = int64_t; };
template <> struct Elem<DType::kUInt8> { using type = uint8_t; };
template <> struct Elem<DType::kFloat16> { using type = half; };
template <> struct Elem<DType::kBFloat16> { using type = bfloat16_t; };
template <> struct Elem<DType::kFloat32> { using type = float; };

struct Range {
  uint64_t begin = 0, count = 0;
};
__aicore__ inline Range CoreRange(const CastTiling& t) {
  Range r;
  r.begin = static_cast<uint64_t>(AscendC::GetBlockIdx()) * t.per_core;
  r.count = r.begin >= t.total ? 0 : (t.total - r.begin < t.per_core ? t.total - r.begin : t.per_core);
  return r;
}

template <class D, class S>
__aicore__ void CastRun(GM_ADDR x, GM_ADDR y, const CastTiling& t) {
  Range r = CoreRange(t);
  AscendC::GlobalTensor<S> in;
  AscendC::GlobalTensor<D> out;
  in.SetGlobalBuffer(reinterpret_cast<__gm__ S*>(x) + r.begin, r.count);
  out.SetGlobalBuffer(reinterpret_cast<__gm__ D*>(y) + r.begin, r.count);
  AscendC::TPipe pipe;
  AscendC::TQue<AscendC::TPosition::VECIN, 1> qin;
  AscendC::TQue<AscendC::TPosition::VECOUT, 1> qout;
  pipe.InitBuffer(qin, 2, t.tile * static_cast<uint32_t>(sizeof(S)));
  pipe.InitBuffer(qout, 2, t.tile * static_cast<uint32_t>(sizeof(D)));
  for (uint64_t off = 0; off < r.count; off += t.tile) {
    uint32_t n = static_cast<uint32_t>(r.count - off < t.tile ? r.count - off : t.tile);
    AscendC::LocalTensor<S> s = qin.AllocTensor<S>();
    CopyIn(s, in[off], n);
    qin.EnQue(s);
    s = qin.DeQue<S>();
    AscendC::LocalTensor<D> d = qout.AllocTensor<D>();
    AscendC::Cast(d, s, static_cast<AscendC::RoundMode>(t.mode), n);
    qout.EnQue(d);
    qin.FreeTensor(s);
    d = qout.DeQue<D>();
    CopyOut(out[off], d, n);
    qout.FreeTensor(d);
  }
}

// dst == src: a byte copy through UB.
__aicore__ void PassThrough(GM_ADDR x, GM_ADDR y, const CastTiling& t, uint32_t item) {
  Range r = CoreRange(t);
  AscendC::GlobalTensor<uint8_t> in, out;
  in.SetGlobalBuffer(x + r.begin * item, r.count * item);
  out.SetGlobalBuffer(y + r.begin * item, r.count * item);
  AscendC::TPipe pipe;
  AscendC::TQueBind<AscendC::TPosition::VECIN, AscendC::TPosition::VECOUT, 1> q;
  pipe.InitBuffer(q, 2, t.tile * item);
  for (uint64_t off = 0; off < r.count * item; off += uint64_t{t.tile} * item) {
    uint32_t n = static_cast<uint32_t>(r.count * item - off < uint64_t{t.tile} * item ? r.count * item - off
                                                                                        : uint64_t{t.tile} * item);
    AscendC::LocalTensor<uint8_t> b = q.AllocTensor<uint8_t>();
    CopyIn(b, in[off], n);
    q.EnQue(b);
    b = q.DeQue<uint8_t>();
    CopyOut(out[off], b, n);
    q.FreeTensor(b);
  }
}

template <size_t I = 0>
__aicore__ void Dispatch(GM_ADDR x, GM_ADDR y, const CastTiling& t) {
  if constexpr (I < sizeof(kCastRows) / sizeof(kCastRows[0])) {
    constexpr CastRow row = kCastRows[I];
    if (static_cast<uint32_t>(row.dst) == t.dst && static_cast<uint32_t>(row.src) == t.src) {
      CastRun<typename Elem<row.dst>::type, typename Elem<row.src>::type>(x, y, t);
      return;
    }
    Dispatch<I + 1>(x, y, t);
  }
}

}  // namespace
}  // namespace npurt::kernels

extern "C" __global__ __aicore__ void npurt_cast_kernel(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling) {
  (void)workspace;
  using namespace npurt::kernels;
  GET_TILING_DATA_WITH_STRUCT(CastTiling, t, tiling);
  if (t.dst == t.src)
    PassThrough(x, y, t, static_cast<uint32_t>(npurt::itemsize(static_cast<npurt::DType>(t.src))));
  else
    Dispatch(x, y, t);
}

#ifndef NPURT_ASCEND_DEVICE_BUILD  // sim entry thunk (the device build keeps only the __global__ entry)
namespace npurt::kernels {
extern const SimKernelEntry kCastKernelEntry = NPURT_SIM_ENTRY(npurt_cast_kernel);
}
#endif  // NPURT_ASCEND_DEVICE_BUILD

// kernels/matmul/matmul_generic_kernel.cc: device code of `matmul_generic`,
// the simple correct matmul for integer, float64 and complex operands (the
// cube kernel, matmul_kernel.cc, computes float32/float16/bfloat16 only).
//
// Per unit (one output row piece, see matmul_generic_tiling.h) the scalar
// unit accumulates acc[j] += a[m, k] * b[k, n0 + j] over k, streaming a's row
// in kt pieces and b's row pieces through UB, then stores acc cast to T.
// Integers accumulate in uint64 (wrap-around modulo 2^bits on the final cast:
// numpy's integer matmul result); float64 in double; complex in
// complex<double>. 64-bit and complex dtypes are sim-only (the OpDef says so):
// the NPU's scalar unit has no double/complex arithmetic.
#include <complex>
#include <cstdint>
#include <type_traits>

#include "common/kernel_util.h"
#include "elementwise/ew_complex_types.h"
#include "elementwise/ew_types.h"
#include "kernel_operator.h"
#include "matmul/matmul_generic_tiling.h"
#include "npurt/backend.h"

namespace npurt::kernels::matmul_generic {
namespace {

using AscendC::HardEvent;
using AscendC::LocalTensor;

// What one dtype accumulates in.
template <class T> struct AccOf { using type = uint64_t; };  // integers: modular
template <> struct AccOf<double> { using type = double; };
template <> struct AccOf<std::complex<float>> { using type = std::complex<double>; };
template <> struct AccOf<std::complex<double>> { using type = std::complex<double>; };

template <class Acc, class T>
__aicore__ inline Acc Widen(T v) {
  if constexpr (std::is_integral<T>::value) return static_cast<Acc>(static_cast<int64_t>(v)) ;
  else return Acc(v);
}

template <class T, class Acc>
__aicore__ inline T Narrow(Acc v) {
  if constexpr (std::is_same<T, std::complex<float>>::value)
    return T(static_cast<float>(v.real()), static_cast<float>(v.imag()));
  else return static_cast<T>(v);
}

// One pipe hand-off (set + wait on the same ID) between the scalar unit and a copy engine.
template <HardEvent E>
__aicore__ inline void Handoff() {
  AscendC::SetFlag<E>(static_cast<event_t>(0));
  AscendC::WaitFlag<E>(static_cast<event_t>(0));
}

template <class T>
class GenericMatmul {
  using Acc = typename AccOf<T>::type;

 public:
  __aicore__ GenericMatmul(GM_ADDR a, GM_ADDR b, GM_ADDR y, const MatmulGenericTiling& t) : t_(t) {
    const uint64_t na = (t.a_batch_stride ? t.batch : 1) * t.m * t.k;
    const uint64_t nb = (t.b_batch_stride ? t.batch : 1) * t.k * t.n;
    a_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(a), na);
    b_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(b), nb);
    y_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(y), t.batch * t.m * t.n);
    pipe_.InitBuffer(arow_, t.kt * static_cast<uint32_t>(sizeof(T)));
    pipe_.InitBuffer(brow_, t.nt * static_cast<uint32_t>(sizeof(T)));
    pipe_.InitBuffer(acc_, t.nt * static_cast<uint32_t>(sizeof(Acc)));
    pipe_.InitBuffer(out_, t.nt * static_cast<uint32_t>(sizeof(T)));
  }

  __aicore__ void Run() {
    const uint64_t begin = static_cast<uint64_t>(AscendC::GetBlockIdx()) * t_.per_core;
    const uint64_t end = begin + t_.per_core < t_.units ? begin + t_.per_core : t_.units;
    for (uint64_t u = begin; u < end; ++u) Unit(u / t_.chunks, u % t_.chunks);
  }

 private:
  __aicore__ void Unit(uint64_t row, uint64_t chunk) {
    const uint64_t bi = row / t_.m, mi = row % t_.m, n0 = chunk * t_.nt;
    const uint32_t w = static_cast<uint32_t>(t_.n - n0 < t_.nt ? t_.n - n0 : t_.nt);
    LocalTensor<T> arow = arow_.template Get<T>(), brow = brow_.template Get<T>(), out = out_.template Get<T>();
    LocalTensor<Acc> acc = acc_.template Get<Acc>();
    for (uint32_t j = 0; j < w; ++j) acc.SetValue(j, Acc());
    const uint64_t a_off = bi * t_.a_batch_stride + mi * t_.k, b_off = bi * t_.b_batch_stride + n0;
    for (uint64_t k0 = 0; k0 < t_.k; k0 += t_.kt) {
      const uint32_t kw = static_cast<uint32_t>(t_.k - k0 < t_.kt ? t_.k - k0 : t_.kt);
      CopyIn(arow, a_[a_off + k0], kw);
      Handoff<HardEvent::MTE2_S>();
      for (uint32_t kk = 0; kk < kw; ++kk) {
        const Acc av = Widen<Acc>(arow.GetValue(kk));
        CopyIn(brow, b_[b_off + (k0 + kk) * t_.n], w);
        Handoff<HardEvent::MTE2_S>();
        for (uint32_t j = 0; j < w; ++j) acc.SetValue(j, acc.GetValue(j) + av * Widen<Acc>(brow.GetValue(j)));
        Handoff<HardEvent::S_MTE2>();  // the next CopyIn overwrites what the scalar unit read
      }
    }
    for (uint32_t j = 0; j < w; ++j) out.SetValue(j, Narrow<T>(acc.GetValue(j)));
    Handoff<HardEvent::S_MTE3>();
    CopyOut(y_[row * t_.n + n0], out, w);
    Handoff<HardEvent::MTE3_S>();  // the next unit's stores into `out` wait for this copy
  }

  const MatmulGenericTiling& t_;
  AscendC::GlobalTensor<T> a_, b_, y_;
  AscendC::TPipe pipe_;
  AscendC::TBuf<AscendC::TPosition::VECCALC> arow_, brow_, acc_, out_;
};

constexpr uint32_t kGenericDtypes = ew::kInts | ew::bit(DType::kFloat64) | ew::bit(DType::kComplex64) |
                                    ew::bit(DType::kComplex128);

}  // namespace
}  // namespace npurt::kernels::matmul_generic

extern "C" __global__ __aicore__ void npurt_matmul_generic_kernel(GM_ADDR a, GM_ADDR b, GM_ADDR y,
                                                                  GM_ADDR workspace, GM_ADDR tiling) {
  (void)workspace;
  using namespace npurt::kernels::matmul_generic;
  GET_TILING_DATA_WITH_STRUCT(MatmulGenericTiling, t, tiling);
  npurt::kernels::ew::visit_dtype<kGenericDtypes>(t.dtype, [&](auto tag) {
    GenericMatmul<typename npurt::kernels::ew::Elem<decltype(tag)::value>::T> k(a, b, y, t);
    k.Run();
  });
}

#ifndef NPURT_ASCEND_DEVICE_BUILD  // sim entry thunk (the device build keeps only the __global__ entry)
namespace npurt::kernels::matmul_generic {
extern const SimKernelEntry kMatmulGenericEntry = NPURT_SIM_ENTRY(npurt_matmul_generic_kernel);
}  // namespace npurt::kernels::matmul_generic
#endif  // NPURT_ASCEND_DEVICE_BUILD

// kernels/creation/creation_kernel.cc: the creation family's kernel (device
// code): iota (arange, linspace) and the triangular masks (eye, tril, triu),
// see creation_tiling.h. Values are computed here, element by element on the
// scalar unit; the host only sends start/step and the shapes.
#include <cmath>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "common/kernel_util.h"
#include "creation/creation_tiling.h"
#include "elementwise/ew_types.h"
#include "kernel_operator.h"
#include "npurt/backend.h"

namespace npurt::kernels {
namespace {

using AscendC::GlobalTensor;
using AscendC::LocalTensor;

template <class T>
__aicore__ inline T IotaValue(const CreationTiling& t, uint64_t i) {
  if constexpr (std::is_integral<T>::value) {
    if (t.int_exact)  // wraps like numpy's integer arange
      return static_cast<T>(static_cast<uint64_t>(t.istart) + i * static_cast<uint64_t>(t.istep));
  }
  double v = t.start + static_cast<double>(i) * t.step;
  if (t.last_is_stop && i + 1 == t.total) v = t.stop;
  if constexpr (std::is_same<T, ew::Bool8>::value) {
    return ew::Bool8(v != 0.0);
  } else if constexpr (std::is_integral<T>::value) {
    if (t.floor_ints) v = std::floor(v);
    return static_cast<T>(static_cast<int64_t>(v));
  } else if constexpr (std::is_same<T, half>::value || std::is_same<T, bfloat16_t>::value) {
    return T(static_cast<float>(v));
  } else {
    return static_cast<T>(v);
  }
}

template <class T>
__aicore__ void Iota(GM_ADDR y, const CreationTiling& t) {
  const uint64_t begin = static_cast<uint64_t>(AscendC::GetBlockIdx()) * t.per_core;
  if (begin >= t.total) return;
  const uint64_t count = t.total - begin < t.per_core ? t.total - begin : t.per_core;
  GlobalTensor<T> out;
  out.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(y), t.total);
  AscendC::TPipe pipe;
  AscendC::TQue<AscendC::TPosition::VECOUT, 2> q;
  pipe.InitBuffer(q, 2, t.tile * static_cast<uint32_t>(sizeof(T)));
  for (uint64_t off = 0; off < count; off += t.tile) {
    const uint32_t n = static_cast<uint32_t>(count - off < t.tile ? count - off : t.tile);
    LocalTensor<T> b = q.template AllocTensor<T>();
    for (uint32_t j = 0; j < n; ++j) b.SetValue(j, IotaValue<T>(t, begin + off + j));
    q.EnQue(b);
    b = q.template DeQue<T>();
    CopyOut(out[begin + off], b, n);
    q.FreeTensor(b);
  }
}

// eye / tril / triu, one matrix row at a time, `tile` units per chunk.
template <class U>
__aicore__ void Triangle(GM_ADDR x, GM_ADDR y, const CreationTiling& t) {
  const uint64_t begin = static_cast<uint64_t>(AscendC::GetBlockIdx()) * t.per_core;
  if (begin >= t.total) return;
  const uint64_t end = t.total - begin < t.per_core ? t.total : begin + t.per_core;
  const auto mode = static_cast<CreationMode>(t.mode);
  const uint64_t sub = t.unit == 8 && t.dtype == static_cast<uint32_t>(DType::kComplex128) ? 2 : 1;
  const uint64_t width = t.cols * sub;  // units per matrix row
  GlobalTensor<U> in, out;
  if (mode != CreationMode::kEye) in.SetGlobalBuffer(reinterpret_cast<__gm__ U*>(x), t.total * width);
  out.SetGlobalBuffer(reinterpret_cast<__gm__ U*>(y), t.total * width);
  U one[2];
  std::memcpy(one, t.one, sizeof(U) * sub);
  AscendC::TPipe pipe;
  AscendC::TQue<AscendC::TPosition::VECIN, 2> qin;
  AscendC::TQue<AscendC::TPosition::VECOUT, 2> qout;
  pipe.InitBuffer(qin, 2, t.tile * static_cast<uint32_t>(sizeof(U)));
  pipe.InitBuffer(qout, 2, t.tile * static_cast<uint32_t>(sizeof(U)));
  for (uint64_t r = begin; r < end; ++r) {
    const int64_t i = static_cast<int64_t>(r % t.rows);
    for (uint64_t off = 0; off < width; off += t.tile) {
      const uint32_t n = static_cast<uint32_t>(width - off < t.tile ? width - off : t.tile);
      LocalTensor<U> a;
      if (mode != CreationMode::kEye) {
        a = qin.template AllocTensor<U>();
        CopyIn(a, in[r * width + off], n);
        qin.EnQue(a);
        a = qin.template DeQue<U>();
      }
      LocalTensor<U> b = qout.template AllocTensor<U>();
      for (uint32_t e = 0; e < n; ++e) {
        const int64_t d = static_cast<int64_t>((off + e) / sub) - i;  // j - i
        U v = U(0);
        if (mode == CreationMode::kEye) v = d == t.k ? one[(off + e) % sub] : U(0);
        else if ((mode == CreationMode::kTril && d <= t.k) || (mode == CreationMode::kTriu && d >= t.k))
          v = a.GetValue(e);
        b.SetValue(e, v);
      }
      if (mode != CreationMode::kEye) qin.FreeTensor(a);
      qout.EnQue(b);
      b = qout.template DeQue<U>();
      CopyOut(out[r * width + off], b, n);
      qout.FreeTensor(b);
    }
  }
}

constexpr uint32_t kIotaDTypes = ew::kNumeric | ew::kBool;

}  // namespace
}  // namespace npurt::kernels

namespace npurt::kernels {
namespace {
__aicore__ void RunCreation(GM_ADDR x, GM_ADDR y, GM_ADDR tiling) {
  GET_TILING_DATA_WITH_STRUCT(CreationTiling, t, tiling);
  if (static_cast<CreationMode>(t.mode) == CreationMode::kIota) {
    ew::visit_dtype<kIotaDTypes>(t.dtype, [&](auto tag) { Iota<typename ew::Elem<decltype(tag)::value>::T>(y, t); });
    return;
  }
  switch (t.unit) {
    case 1: Triangle<uint8_t>(x, y, t); break;
    case 2: Triangle<uint16_t>(x, y, t); break;
    case 4: Triangle<uint32_t>(x, y, t); break;
    default: Triangle<uint64_t>(x, y, t); break;
  }
}
}  // namespace
}  // namespace npurt::kernels

// tril / triu read x; arange, linspace and eye have no input (one slot fewer).
extern "C" __global__ __aicore__ void npurt_creation_kernel(GM_ADDR x, GM_ADDR y, GM_ADDR workspace,
                                                            GM_ADDR tiling) {
  (void)workspace;
  npurt::kernels::RunCreation(x, y, tiling);
}

extern "C" __global__ __aicore__ void npurt_creation_gen_kernel(GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling) {
  (void)workspace;
  npurt::kernels::RunCreation(nullptr, y, tiling);
}

#ifndef NPURT_ASCEND_DEVICE_BUILD  // sim entry thunk (the device build keeps only the __global__ entry)
namespace npurt::kernels {
extern const SimKernelEntry kCreationKernelEntry = NPURT_SIM_ENTRY(npurt_creation_kernel);
extern const SimKernelEntry kCreationGenKernelEntry = NPURT_SIM_ENTRY(npurt_creation_gen_kernel);
}
#endif  // NPURT_ASCEND_DEVICE_BUILD

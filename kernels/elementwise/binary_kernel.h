// kernels/elementwise/binary_kernel.h: one Ascend C kernel template for every
// same-shape, contiguous binary op z = op(x, y) (device code).
//
// Pipeline per core: CopyIn (x, y tiles: GM -> VECIN queues) -> Compute
// (Op::Apply on VECOUT) -> CopyOut (UB -> GM), double-buffered (2 buffers per
// queue) so MTE2, V and MTE3 overlap on the NPU. Op is a functor over the
// level-2 vector API: Op::Apply(dst, src0, src1, count).
#pragma once

#include "common/kernel_util.h"
#include "elementwise/elementwise_tiling.h"
#include "kernel_operator.h"
#include "npurt/dtype.h"

namespace npurt::kernels {

struct AddOp {
  template <class T>
  __aicore__ static void Apply(const AscendC::LocalTensor<T>& z, const AscendC::LocalTensor<T>& x,
                               const AscendC::LocalTensor<T>& y, int32_t n) {
    AscendC::Add(z, x, y, n);
  }
};

struct MulOp {
  template <class T>
  __aicore__ static void Apply(const AscendC::LocalTensor<T>& z, const AscendC::LocalTensor<T>& x,
                               const AscendC::LocalTensor<T>& y, int32_t n) {
    AscendC::Mul(z, x, y, n);
  }
};

template <class T, class Op>
class BinaryKernel {
 public:
  static constexpr int32_t kBuffers = 2;

  __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR z, const ElementwiseTiling& t) {
    uint64_t begin = static_cast<uint64_t>(AscendC::GetBlockIdx()) * t.per_core;
    count_ = begin >= t.total ? 0 : (t.total - begin < t.per_core ? t.total - begin : t.per_core);
    tile_ = t.tile;
    x_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(x) + begin, count_);
    y_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(y) + begin, count_);
    z_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(z) + begin, count_);
    uint32_t bytes = tile_ * static_cast<uint32_t>(sizeof(T));
    pipe_.InitBuffer(qx_, kBuffers, bytes);
    pipe_.InitBuffer(qy_, kBuffers, bytes);
    pipe_.InitBuffer(qz_, kBuffers, bytes);
  }

  __aicore__ inline void Process() {
    for (uint64_t off = 0; off < count_; off += tile_) {
      uint32_t n = static_cast<uint32_t>(count_ - off < tile_ ? count_ - off : tile_);
      CopyInTile(off, n);
      Compute(n);
      CopyOutTile(off, n);
    }
  }

 private:
  __aicore__ inline void CopyInTile(uint64_t off, uint32_t n) {
    AscendC::LocalTensor<T> x = qx_.template AllocTensor<T>();
    AscendC::LocalTensor<T> y = qy_.template AllocTensor<T>();
    CopyIn(x, x_[off], n);
    CopyIn(y, y_[off], n);
    qx_.EnQue(x);
    qy_.EnQue(y);
  }
  __aicore__ inline void Compute(uint32_t n) {
    AscendC::LocalTensor<T> x = qx_.template DeQue<T>();
    AscendC::LocalTensor<T> y = qy_.template DeQue<T>();
    AscendC::LocalTensor<T> z = qz_.template AllocTensor<T>();
    Op::Apply(z, x, y, static_cast<int32_t>(n));
    qz_.EnQue(z);
    qx_.FreeTensor(x);
    qy_.FreeTensor(y);
  }
  __aicore__ inline void CopyOutTile(uint64_t off, uint32_t n) {
    AscendC::LocalTensor<T> z = qz_.template DeQue<T>();
    CopyOut(z_[off], z, n);
    qz_.FreeTensor(z);
  }

  AscendC::TPipe pipe_;
  AscendC::TQue<AscendC::TPosition::VECIN, 1> qx_, qy_;
  AscendC::TQue<AscendC::TPosition::VECOUT, 1> qz_;
  AscendC::GlobalTensor<T> x_, y_, z_;
  uint64_t count_ = 0;
  uint32_t tile_ = 0;
};

// The body of every binary entry: picks the element type from the tiling.
template <class Op>
__aicore__ inline void RunBinary(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR tiling) {
  GET_TILING_DATA_WITH_STRUCT(ElementwiseTiling, t, tiling);
  using npurt::DType;
  switch (static_cast<DType>(t.dtype)) {
    case DType::kInt16: { BinaryKernel<int16_t, Op> k; k.Init(x, y, z, t); k.Process(); break; }
    case DType::kInt32: { BinaryKernel<int32_t, Op> k; k.Init(x, y, z, t); k.Process(); break; }
    case DType::kFloat16: { BinaryKernel<half, Op> k; k.Init(x, y, z, t); k.Process(); break; }
    case DType::kFloat32: { BinaryKernel<float, Op> k; k.Init(x, y, z, t); k.Process(); break; }
    default: break;  // the OpDef rejects other dtypes before launch
  }
}

}  // namespace npurt::kernels

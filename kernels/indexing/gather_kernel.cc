// kernels/indexing/gather_kernel.cc: device code of gather and scatter, the
// two data movers of the indexing family (indexing_tiling.h).
//
// Both walk their core's share of elements tile by tile. An element's
// partner address comes from its (outer, j, inner) position and the index;
// runs along `inner` that start a 32-byte UB block move with DataCopyPad
// (rows of a `take` along a leading axis), single elements through the scalar
// unit. Scatter's other runs: GM scalar writes go through the core's 64 B
// DCache lines (common/gm_scalar.h), which two blocks' indexed writes may
// share, so with several blocks they are staged in UB and written by
// DataCopyPad, in order (common/gm_stage.h). One block (repeated indices, or a
// small scatter) shares its lines with no one: when every run is one element
// (inner == 1) it writes them by SetValue and cleans the whole cache once at
// the end (a DataCopyPad per element costs ~2x in the sim). With one index per element (take_along_axis, a flat take, boolean
// masks) the indices are read a tile at a time into UB. Every index is checked
// against its axis before it addresses GM (common/kernel_check.h): nr.take and
// x[i] normalize and check them first (index_check), a direct nr.ops.gather /
// nr.ops.scatter call with a bad index stops with the op's argument error.
#include <cstdint>

#include "common/kernel_check.h"
#include "common/gm_stage.h"
#include "common/kernel_util.h"
#include "indexing/indexing_tiling.h"
#include "kernel_operator.h"
#include "npurt/backend.h"

namespace npurt::kernels {
namespace {

using AscendC::GlobalTensor;
using AscendC::LocalTensor;

template <class U>
class GatherScatter {
 public:
  __aicore__ void Init(GM_ADDR x, GM_ADDR idx, GM_ADDR y, const GatherTiling& t, bool scatter) {
    t_ = t;
    op_ = scatter ? "npurt.ops.scatter" : "npurt.ops.gather";
    begin_ = static_cast<uint64_t>(AscendC::GetBlockIdx()) * t.per_core;
    count_ = begin_ >= t.total ? 0 : (t.total - begin_ < t.per_core ? t.total - begin_ : t.per_core);
    const uint64_t big = t.outer * t.n * t.inner * t.sub, small = t.outer * t.m * t.inner * t.sub;
    big_.SetGlobalBuffer(reinterpret_cast<__gm__ U*>(scatter ? y : x), big);
    small_.SetGlobalBuffer(reinterpret_cast<__gm__ U*>(scatter ? x : y), t.bcast > 0 ? t.bcast : small);
    idx_.SetGlobalBuffer(reinterpret_cast<__gm__ int64_t*>(idx),
                         static_cast<GatherMode>(t.mode) == GatherMode::kTake ? t.m : small / t.sub);
    pipe_.InitBuffer(q_, 2, t.tile * static_cast<uint32_t>(sizeof(U)));
    // Element-wise indices (take_along_axis, a flat take) are read a tile at a time into UB.
    tiled_idx_ = static_cast<GatherMode>(t.mode) == GatherMode::kAlong || (t.inner == 1 && t.outer == 1);
    // Scatter reads indices from GM; its staging takes the UB the index tile would (tile * 8 >= 256 B).
    scalar_out_ = scatter && AscendC::GetBlockNum() == 1 && t.inner == 1;
    if (scatter && !scalar_out_) stage_.Init(pipe_, t.tile * 8, big_);
    else if (tiled_idx_) pipe_.InitBuffer(qi_, 1, t.tile * 8);
  }

  // y (small) elements [begin, begin + count) from x (big).
  __aicore__ void Gather() {
    for (uint64_t off = 0; off < count_; off += t_.tile) {
      const uint32_t n = static_cast<uint32_t>(count_ - off < t_.tile ? count_ - off : t_.tile);
      LocalTensor<U> b = q_.template AllocTensor<U>();
      if (tiled_idx_) {
        GatherTiled(b, begin_ + off, n);
        q_.EnQue(b);
        b = q_.template DeQue<U>();
        CopyOut(small_[begin_ + off], b, n);
        q_.FreeTensor(b);
        continue;
      }
      Walk(begin_ + off, n, [&](uint64_t src, uint32_t pos, uint32_t run, bool last) {
        const uint32_t bytes = run * static_cast<uint32_t>(sizeof(U));
        if ((pos * sizeof(U)) % 32 == 0 && (last || bytes % 32 == 0) && run > 1) {
          AscendC::DataCopyExtParams p(1, bytes, 0, 0, 0);
          AscendC::DataCopyPad(b[pos], big_[src], p, AscendC::DataCopyPadExtParams<U>(false, 0, 0, U{}));
        } else {
          for (uint32_t k = 0; k < run; ++k) b.SetValue(pos + k, big_.GetValue(src + k));
        }
      });
      q_.EnQue(b);
      b = q_.template DeQue<U>();
      CopyOut(small_[begin_ + off], b, n);
      q_.FreeTensor(b);
    }
  }

  // v (small) elements [begin, begin + count) into y (big).
  __aicore__ void Scatter() {
    if (t_.bcast > 0) {
      ScatterOne();
      return;
    }
    for (uint64_t off = 0; off < count_; off += t_.tile) {
      const uint32_t n = static_cast<uint32_t>(count_ - off < t_.tile ? count_ - off : t_.tile);
      LocalTensor<U> b = q_.template AllocTensor<U>();
      CopyIn(b, small_[begin_ + off], n);
      q_.EnQue(b);
      b = q_.template DeQue<U>();
      Walk(begin_ + off, n, [&](uint64_t dst, uint32_t pos, uint32_t run, bool) { WriteRun(b, dst, pos, run); });
      if (!scalar_out_) stage_.Flush();  // the staged runs read b
      q_.FreeTensor(b);
    }
    WriteBackScalarOut();
  }

 private:
  // Scatter of a one-element v (bcast units, 1 or 2): one UB tile holds the
  // value repeated (a tile starts at a multiple of 32 units, so UB position
  // pos holds unit pos % bcast of the element, as the element at pos needs),
  // and every tile's runs are written from it.
  __aicore__ void ScatterOne() {
    if (count_ == 0) return;
    U unit[2] = {small_.GetValue(0), t_.bcast > 1 ? small_.GetValue(1) : U{}};
    const uint32_t fill = static_cast<uint32_t>(count_ < t_.tile ? count_ : t_.tile);
    LocalTensor<U> b = q_.template AllocTensor<U>();
    for (uint32_t pos = 0; pos < fill; ++pos) b.SetValue(pos, unit[pos % t_.bcast]);
    q_.EnQue(b);
    b = q_.template DeQue<U>();
    for (uint64_t off = 0; off < count_; off += t_.tile) {
      const uint32_t n = static_cast<uint32_t>(count_ - off < t_.tile ? count_ - off : t_.tile);
      Walk(begin_ + off, n, [&](uint64_t dst, uint32_t pos, uint32_t run, bool) { WriteRun(b, dst, pos, run); });
    }
    if (!scalar_out_) stage_.Flush();
    q_.FreeTensor(b);
    WriteBackScalarOut();
  }

  // One block of one-element runs: SetValue. Else a run starting a UB block is copied
  // from b directly (after the staged runs, which may write the same GM first); the
  // rest is staged.
  __aicore__ void WriteRun(const LocalTensor<U>& b, uint64_t dst, uint32_t pos, uint32_t run) {
    if (scalar_out_) {  // run == 1
      big_.SetValue(dst, b.GetValue(pos));
    } else if ((pos * sizeof(U)) % 32 == 0 && run > 1) {
      stage_.Flush();
      // A repeated index writes the same GM row again: the DMA may complete
      // two copies out of order, so the last one must wait for the earlier
      // ones (numpy's last-wins; the sim's full level checks it, gm_order.h).
      AscendC::PipeBarrier<PIPE_MTE3>();
      AscendC::DataCopyExtParams p(1, run * static_cast<uint32_t>(sizeof(U)), 0, 0, 0);
      AscendC::DataCopyPad(big_[dst], b[pos], p);
    } else {
      stage_.Put(dst, b, pos, run);
    }
  }

  __aicore__ void WriteBackScalarOut() {
    if (scalar_out_) AscendC::DataCacheCleanAndInvalid<U, AscendC::CacheLine::ENTIRE_DATA_CACHE>(big_);
  }

  // One index per element, the indices of units [first, first + n) loaded with
  // one copy (first is a multiple of 32 units, so of `sub`).
  __aicore__ void GatherTiled(const LocalTensor<U>& b, uint64_t first, uint32_t n) {
    const uint32_t sub = t_.sub;
    const uint64_t e0 = first / sub;
    LocalTensor<int64_t> ix = qi_.template AllocTensor<int64_t>();
    CopyIn(ix, idx_[e0], (n + sub - 1) / sub);
    qi_.EnQue(ix);
    ix = qi_.template DeQue<int64_t>();
    for (uint32_t pos = 0; pos < n; ++pos) {
      const uint64_t e = (first + pos) / sub, part = (first + pos) % sub;
      const uint64_t i = e % t_.inner, o = e / t_.inner / t_.m;
      const int64_t index = ix.GetValue(static_cast<uint32_t>(e - e0));
      CheckIndex(index, t_.n, op_, "indices", e, t_.axis);
      const uint64_t v = static_cast<uint64_t>(index);
      b.SetValue(pos, big_.GetValue(((o * t_.n + v) * t_.inner + i) * sub + part));
    }
    qi_.FreeTensor(ix);
  }

  // kTake: calls f(big offset, UB position, run length, is last run) for the
  // runs of small elements [first, first + n), each inside one (o, j) row.
  template <class F>
  __aicore__ void Walk(uint64_t first, uint32_t n, F&& f) {
    for (uint32_t pos = 0; pos < n;) {
      const uint64_t e = first + pos;
      const uint64_t i = e % t_.inner, oj = e / t_.inner;
      const uint64_t o = oj / t_.m, j = oj % t_.m;
      const int64_t v = idx_.GetValue(j);
      CheckIndex(v, t_.n, op_, "indices", j, t_.axis);
      const uint32_t run = static_cast<uint32_t>(t_.inner - i < n - pos ? t_.inner - i : n - pos);
      f((o * t_.n + static_cast<uint64_t>(v)) * t_.inner + i, pos, run, pos + run == n);
      pos += run;
    }
  }

  GatherTiling t_;
  const char* op_ = "";  // the public op, for CheckIndex's message
  uint64_t begin_ = 0, count_ = 0;
  bool tiled_idx_ = false;
  bool scalar_out_ = false;  // scatter on one block, one-element runs: GM SetValue + one clean
  GlobalTensor<U> big_, small_;
  GlobalTensor<int64_t> idx_;
  AscendC::TPipe pipe_;
  AscendC::TQueBind<AscendC::TPosition::VECIN, AscendC::TPosition::VECOUT, 1> q_;
  AscendC::TQue<AscendC::TPosition::VECIN, 1> qi_;
  StagedScatter<U> stage_;  // scatter only
};

template <class F>
__aicore__ inline void VisitUnit(uint32_t unit, F&& f) {
  switch (unit) {
    case 1: f(uint8_t{}); break;
    case 2: f(uint16_t{}); break;
    case 4: f(uint32_t{}); break;
    default: f(uint64_t{}); break;
  }
}

}  // namespace
}  // namespace npurt::kernels

extern "C" __global__ __aicore__ void npurt_gather_kernel(GM_ADDR x, GM_ADDR idx, GM_ADDR y, GM_ADDR workspace,
                                                          GM_ADDR tiling) {
  (void)workspace;
  using namespace npurt::kernels;
  GET_TILING_DATA_WITH_STRUCT(GatherTiling, t, tiling);
  VisitUnit(t.unit, [&](auto u) {
    GatherScatter<decltype(u)> k;
    k.Init(x, idx, y, t, false);
    k.Gather();
  });
}

extern "C" __global__ __aicore__ void npurt_scatter_kernel(GM_ADDR idx, GM_ADDR values, GM_ADDR y,
                                                           GM_ADDR workspace, GM_ADDR tiling) {
  (void)workspace;
  using namespace npurt::kernels;
  GET_TILING_DATA_WITH_STRUCT(GatherTiling, t, tiling);
  VisitUnit(t.unit, [&](auto u) {
    GatherScatter<decltype(u)> k;
    k.Init(values, idx, y, t, true);
    k.Scatter();
  });
}

#ifndef NPURT_ASCEND_DEVICE_BUILD  // sim entry thunk (the device build keeps only the __global__ entry)
namespace npurt::kernels {
extern const SimKernelEntry kGatherKernelEntry = NPURT_SIM_ENTRY(npurt_gather_kernel);
extern const SimKernelEntry kScatterKernelEntry = NPURT_SIM_ENTRY(npurt_scatter_kernel);
}
#endif  // NPURT_ASCEND_DEVICE_BUILD

// kernels/copy/copy_op.cc: host side of copy: view collapsing, tiling, registration.
//
// The dispatcher uses this op to make non-contiguous inputs contiguous for
// kernels that need it, so it accepts every dtype and any strides (including
// zero and negative ones). With `out_strides`, y is the window of a strided
// output view instead (copy_tiling.h): x[::2] = y in one launch.
#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "common/tiling_as.h"
#include "common/tiling_util.h"
#include "copy/copy_tiling.h"
#include "npurt/op_registry.h"
#include "npurt/strided_window.h"
#include "npurt/tensor.h"

namespace npurt::kernels {

extern const SimKernelEntry kCopyKernelEntry;

namespace {

struct Dim {
  int64_t size, stride;
};

// Drops size-1 dims and merges neighbours that are contiguous with each other.
std::vector<Dim> collapse(const Dims& shape, const Dims& strides, int64_t unit_factor, bool split_unit) {
  std::vector<Dim> dims;
  for (size_t i = 0; i < shape.size(); ++i)
    if (shape[i] != 1) dims.push_back({shape[i], strides[i] * unit_factor});
  if (split_unit) dims.push_back({2, 1});  // 16-byte elements as two 8-byte units
  std::vector<Dim> out;
  for (const Dim& d : dims) {
    if (!out.empty() && out.back().stride == d.stride * d.size) {
      out.back().size *= d.size;
      out.back().stride = d.stride;
    } else {
      out.push_back(d);
    }
  }
  if (out.empty()) out.push_back({1, 1});
  return out;
}

struct Dim2 {
  int64_t size, src, dst;  // strides in units
};

// x's dims with their output strides (units): size-1 dims dropped, dims with a
// negative output stride flipped (the source origin moves by *src_base units),
// sorted by decreasing output stride, 16-byte units split in two, neighbours
// contiguous on both sides merged. Fails when the output view overlaps itself.
std::vector<Dim2> strided_out_dims(const OpContext& ctx, int64_t factor, bool split, int64_t* src_base) {
  const TensorSpec& x = ctx.input(0);
  const Dims& os = ctx.attr("out_strides").as_ints();
  std::vector<Dim2> dims;
  *src_base = 0;
  for (size_t d = 0; d < x.shape.size(); ++d) {
    if (x.shape[d] == 1) continue;
    int64_t s = x.strides[d] * factor, o = os[d] * factor;
    if (o < 0) {
      *src_base += s * (x.shape[d] - 1);
      s = -s;
      o = -o;
    }
    dims.push_back({x.shape[d], s, o});
  }
  std::stable_sort(dims.begin(), dims.end(), [](const Dim2& a, const Dim2& b) { return a.dst > b.dst; });
  if (split) dims.push_back({2, 1, 1});
  std::vector<Dim2> out;
  for (const Dim2& d : dims) {
    if (!out.empty() && out.back().src == d.src * d.size && out.back().dst == d.dst * d.size)
      out.back() = {out.back().size * d.size, d.src, d.dst};
    else
      out.push_back(d);
  }
  if (out.empty()) out.push_back({1, 1, 1});
  int64_t span = 1;  // output units spanned by the dims inside the current one
  for (size_t i = out.size(); i-- > 0;) {
    if (out[i].dst < span)
      ctx.fail("out_strides", "elements of the output view overlap (stride " + std::to_string(out[i].dst / factor) +
                                  " within a span of " + std::to_string(span / factor) + ")");
    span = out[i].dst * (out[i].size - 1) + span;
  }
  return out;
}

// The source dims (and, for a strided output, the output's) as the kernel walks them.
std::vector<Dim> copy_dims(const OpContext& ctx, CopyTiling& t, bool split) {
  const TensorSpec& x = ctx.input(0);
  if (ctx.attr("out_strides").as_ints().empty()) return collapse(x.shape, x.strides, split ? 2 : 1, split);
  std::vector<Dim2> d2 = strided_out_dims(ctx, split ? 2 : 1, split, &t.src_base);
  if (d2.size() > kCopyMaxDims) return std::vector<Dim>(d2.size());  // refused by the caller
  // Cores get whole rows: a long innermost dim is cut into rows of c units
  // (c a power of two dividing it, 4096..16384 units) so x[::2] = y spreads
  // over the cores too.
  if (d2.size() < kCopyMaxDims && d2.back().size > 2 * 16384) {
    int64_t c = 16384;
    while (c >= 4096 && d2.back().size % c != 0) c /= 2;
    if (c >= 4096) {
      const Dim2 inner = d2.back();
      d2.back() = {inner.size / c, inner.src * c, inner.dst * c};
      d2.push_back({c, inner.src, inner.dst});
    }
  }
  std::vector<Dim> dims;
  for (size_t i = 0; i < d2.size(); ++i) {
    dims.push_back({d2[i].size, d2[i].src});
    t.out_stride[i] = d2[i].dst;
  }
  t.out_mode = d2.back().dst == 1 ? 1 : 2;
  t.out_len = x.numel() == 0 ? 0 : static_cast<uint64_t>(d2[0].dst * (d2[0].size - 1)) + 1;
  for (size_t i = 1; i < d2.size() && x.numel() > 0; ++i) t.out_len += static_cast<uint64_t>(d2[i].dst * (d2[i].size - 1));
  return dims;
}

// kTranspose: the largest power-of-two block of B rows whose square fits one
// buffer; the kernel then widens it to as many columns as the buffer holds.
// The two buffers (source block, transposed block) take the whole UB: the
// strided GM writes of B short runs are what the copy costs on the sim (each
// run's lines are fetched for ownership without a prefetch stream), so fewer,
// longer runs per byte pay: 96 KiB buffers took 8 % less CPU than 64 KiB ones
// for a 4096 x 4096 float32 / float16 transpose (2026-11-30, docs/performance.md
// "Elementwise and transpose (wave 5)"); B = 64 or 256 did not beat 128.
// The kernel's UB transpose needs one buffer to hold at least one group of
// 16 (32 for bytes) columns of round_up(B, 32 / unit) rows.
void transpose_blocks(CopyTiling& t, const ChipProfile& profile) {
  t.tile_bytes = static_cast<uint32_t>(std::min<uint64_t>(128 * 1024, ub_budget(profile) / 2 / 32 * 32));
  uint64_t rows = kTransposeRowsMax;
  while (rows > 8 && rows * rows * t.unit > t.tile_bytes) rows /= 2;
  t.block_rows = static_cast<uint32_t>(rows);
}

void copy_tiling(const OpContext& ctx, TilingResult& r) {
  const TensorSpec& x = ctx.input(0);
  uint32_t item = static_cast<uint32_t>(itemsize(x.dtype));
  bool split = item == 16;
  CopyTiling t;
  t.unit = split ? 8 : item;
  std::vector<Dim> dims = copy_dims(ctx, t, split);
  if (dims.size() > kCopyMaxDims)
    ctx.fail("x", "the view has " + std::to_string(dims.size()) + " dims after merging contiguous ones; "
                  "the copy kernel handles at most " + std::to_string(kCopyMaxDims));
  t.ndim = static_cast<uint32_t>(dims.size());
  for (size_t i = 0; i < dims.size(); ++i) {
    t.shape[i] = dims[i].size;
    t.stride[i] = dims[i].stride;
  }
  t.row_len = static_cast<uint64_t>(dims.back().size);
  t.rows = x.numel() == 0 ? 0 : static_cast<uint64_t>(x.numel()) * (split ? 2 : 1) / t.row_len;
  t.mode = dims.back().stride == 1 ? 0 : 1;
  // A transposed view (next-outer stride 1, positive inner stride whose byte
  // gap fits DataCopyPad's 32-bit field) moves by blocks instead of scalars.
  if (t.mode == 1 && t.out_mode == 0 && dims.size() >= 2 && dims[dims.size() - 2].stride == 1 && dims.back().stride > 1 &&
      static_cast<uint64_t>(dims.back().stride) * t.unit < (uint64_t{1} << 32))
    t.mode = 2;
  uint64_t row_bytes = t.row_len * t.unit;
  uint64_t align = 1;
  if (t.mode == 2) {
    transpose_blocks(t, ctx.profile());
    // Whole blocks per core (blocks also restart where the next-outer dim wraps).
    align = std::min<uint64_t>(t.block_rows, static_cast<uint64_t>(dims[dims.size() - 2].size));
  }
  CoreSplit cs = split_over_cores(t.rows, align, ceil_div(16384, std::max<uint64_t>(row_bytes, 1)), ctx.profile());
  t.rows_per_core = cs.per_core;
  // One bound queue, two buffers (and a third, the spread buffer, for scattered output units).
  // The spread buffer holds tile_bytes / 32 units; Scatter's batches must be a
  // multiple of 16 units (each Brcb source 32-byte aligned, also for 2-byte
  // units), so a scattering tile is at least 512 B (a 100-unit float32 row got
  // 416 B: batches of 13 units, a Brcb fault at the second batch).
  if (t.mode != 2)
    t.tile_bytes = fit_tile(ub_budget(ctx.profile()) / (t.out_mode == 2 ? 3 : 2), 1, 32,
                            std::min<uint64_t>(64 * 1024, std::max<uint64_t>(t.out_mode == 2 ? 512 : 0,
                                                                             cs.per_core * round_up(row_bytes, 32))));
  r.num_blocks = cs.num_blocks;
  r.set_tiling(t);
}

std::string describe_copy(const OpContext&, const TilingResult& r) {
  const CopyTiling t = tiling_as<CopyTiling>(r, "describe_copy");
  std::string dims;
  for (uint32_t i = 0; i < t.ndim; ++i)
    dims += (i ? ", " : "") + std::to_string(t.shape[i]) + ":" + std::to_string(t.stride[i]);
  return std::string(t.mode == 0 ? "rows" : t.mode == 1 ? "gather" : "transpose") + " unit=" + std::to_string(t.unit) + "B dims(size:stride)=[" +
         dims + "] rows=" + std::to_string(t.rows) + " rows_per_core=" + std::to_string(t.rows_per_core) +
         " tile=" + std::to_string(t.tile_bytes) + "B" +
         (t.mode == 2 ? " block_rows=" + std::to_string(t.block_rows) : std::string()) +
         (t.out_mode ? " out=" + std::string(t.out_mode == 1 ? "rows" : "scatter") + " out_len=" + std::to_string(t.out_len)
                     : std::string());
}

void copy_infer(const OpContext& ctx) {
  const TensorSpec& x = ctx.input(0);
  const Dims& os = ctx.attr("out_strides").as_ints();
  if (os.empty()) {
    ctx.set_output(0, x.shape, x.dtype);
    return;
  }
  if (os.size() != x.shape.size())
    ctx.fail("out_strides", "has " + std::to_string(os.size()) + " entries for x of " + std::to_string(x.shape.size()) +
                                " dims");
  ctx.set_output(0, Dims{strided_window(x.shape, os).extent}, x.dtype);
}

}  // namespace

NPURT_REGISTER_OP("copy")
    .doc("A contiguous (C-order) copy of x, which may be any strided view (zero and negative\n"
         "strides included), for every dtype. Runs on the device: no host round trip.\n"
         "With out_strides (elements, one per dim of x, any sign), y is the window of the output view\n"
         "of x's shape and those strides from its lowest element to its highest (pass it as out=):\n"
         "x is written into that view, nothing else in y is touched (x[::2] = y in one launch).")
    .input("x", all_dtypes_mask())
    .strided()
    .output("y")
    .attr("out_strides", AttrType::kIntList, AttrValue(Dims{}))
    .infer(copy_infer)
    .tiling(copy_tiling)
    .describe_tiling(describe_copy)
    .cost([](const OpContext& ctx, OpCost& c) { c.bytes = 2.0 * ctx.input(0).numel() * itemsize(ctx.input(0).dtype); })
    .sim_kernel("npurt_copy_kernel", kCopyKernelEntry);

}  // namespace npurt::kernels

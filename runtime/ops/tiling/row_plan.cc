// runtime/ops/tiling/row_plan.cc: plan_rows(), the row-wise tiling engine
// (npurt/tiling.h). The search is small and exact: the UB footprint is
// monotonic in rows per tile and in the chunk stride, so each degradation step
// binary-searches the largest value that fits.
#include <algorithm>
#include <sstream>

#include "npurt/status.h"
#include "npurt/tiling.h"

namespace npurt::tiling {

namespace {

constexpr const char* kWhere = "npurt.tiling.plan_rows";

uint64_t ceil_div(uint64_t a, uint64_t b) { return (a + b - 1) / b; }
uint64_t round_up(uint64_t a, uint64_t b) { return ceil_div(a, b) * b; }

bool sized(const BufferRequest& b) { return b.scope == Scope::kTile || b.scope == Scope::kColumns; }

void validate(const RowRequest& r) {
  if (r.buffers.empty()) throw_invalid_argument(kWhere, "buffers", "a plan needs at least one buffer");
  for (const BufferRequest& b : r.buffers) {
    const uint32_t e = b.elem_bytes;
    if (b.scope != Scope::kFixed && (e == 0 || e > 32 || (e & (e - 1)) != 0))
      throw_invalid_argument(kWhere, "buffers", "buffer '" + b.name + "': element size " + std::to_string(e) +
                                                    " is not a power of two in [1, 32]");
  }
  if (r.max_rows_per_tile == 0 || r.max_rows_per_tile > 4095)
    throw_invalid_argument(kWhere, "max_rows_per_tile", "must be in [1, 4095] (DataCopy blockCount)");
}

// Largest x in [lo, hi] with fits(x), or 0 when fits(lo) is false.
template <class F>
uint64_t largest_fitting(uint64_t lo, uint64_t hi, F fits) {
  if (hi < lo || !fits(lo)) return 0;
  while (lo < hi) {
    uint64_t mid = lo + (hi - lo + 1) / 2;
    if (fits(mid)) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

struct Shape {
  uint32_t min_bytes = 4, max_bytes = 4, align = 8;
};

Shape element_shape(const RowRequest& r) {
  Shape s;
  bool any = false;
  for (const BufferRequest& b : r.buffers) {
    if (!sized(b)) continue;
    s.min_bytes = any ? std::min(s.min_bytes, b.elem_bytes) : b.elem_bytes;
    s.max_bytes = any ? std::max(s.max_bytes, b.elem_bytes) : b.elem_bytes;
    any = true;
  }
  s.align = std::max<uint32_t>(1, 32 / s.min_bytes);
  return s;
}

// Cores and the share of each: rows (kRows) or aligned column ranges (kColumns).
void split_over_cores(const RowRequest& r, const ChipProfile& p, uint32_t align, RowTilingData& d) {
  const uint64_t cores = std::max<uint32_t>(1, p.vector_cores);
  const uint64_t work = ceil_div(r.rows * r.cols, std::max<uint64_t>(1, r.min_elems_per_core));
  if (r.split == Split::kRows) {
    const uint64_t want = std::clamp<uint64_t>(work, 1, std::min(cores, r.rows));
    d.per_core = ceil_div(r.rows, want);
    d.num_blocks = static_cast<uint32_t>(ceil_div(r.rows, d.per_core));
  } else {
    const uint64_t want = std::clamp<uint64_t>(work, 1, std::min(cores, ceil_div(r.cols, align)));
    d.per_core = round_up(ceil_div(r.cols, want), align);
    d.num_blocks = static_cast<uint32_t>(ceil_div(r.cols, d.per_core));
  }
}

}  // namespace

uint64_t ub_bytes_needed(const RowRequest& r, uint32_t rows_per_tile, uint32_t chunk_stride, uint32_t depth) {
  uint64_t total = r.reserve_bytes;
  for (const BufferRequest& b : r.buffers) {
    uint64_t bytes = b.elem_bytes;
    if (b.scope == Scope::kTile) bytes *= uint64_t{rows_per_tile} * chunk_stride;
    else if (b.scope == Scope::kColumns) bytes *= chunk_stride;
    else if (b.scope == Scope::kRows) bytes *= rows_per_tile;
    total += round_up(std::max<uint64_t>(bytes, 1), 32) * (b.streamed ? depth : 1);
  }
  return total;
}

RowPlan plan_rows(const RowRequest& r, const ChipProfile& p) {
  validate(r);
  RowPlan plan;
  plan.profile = p.name;
  plan.ub_capacity = p.ub_usable_bytes;
  const Shape s = element_shape(r);
  RowTilingData& d = plan.data;
  d.rows = r.rows, d.cols = r.cols, d.split = static_cast<uint32_t>(r.split), d.align_elems = s.align;
  if (r.rows == 0 || r.cols == 0) {
    d.num_blocks = 0;  // nothing to compute
    plan.ub_used = 0;
    return plan;
  }
  split_over_cores(r, p, s.align, d);
  const uint64_t seg = r.split == Split::kRows ? r.cols : d.per_core;     // columns a core walks per row
  const uint64_t core_rows = r.split == Split::kRows ? d.per_core : r.rows;
  const uint64_t cap = p.ub_usable_bytes;
  const uint64_t full_stride = round_up(seg, s.align);
  const uint64_t max_rpt = std::min<uint64_t>(r.max_rows_per_tile, core_rows);
  // 1) whole row segments in UB: as many rows per tile as fit, double then single buffered.
  for (uint32_t depth : {2u, 1u}) {
    if (full_stride * s.max_bytes > 0xFFFFFFFFull) break;
    uint64_t rpt = largest_fitting(1, max_rpt, [&](uint64_t x) {
      return ub_bytes_needed(r, static_cast<uint32_t>(x), static_cast<uint32_t>(full_stride), depth) <= cap;
    });
    if (rpt == 0) continue;
    d.rows_per_tile = static_cast<uint32_t>(rpt), d.depth = depth;
    d.chunk = static_cast<uint32_t>(seg), d.chunk_stride = static_cast<uint32_t>(full_stride), d.num_chunks = 1;
    break;
  }
  // 2) a row segment split into chunks, one row per tile (multi-pass plan).
  if (d.depth == 0) {
    if (!r.allow_chunks)
      throw_invalid_argument(kWhere, "cols", "a row of " + std::to_string(seg) + " elements does not fit the " +
                                                 std::to_string(cap) + " bytes of UB on " + p.name +
                                                 " and this kernel cannot split rows");
    for (uint32_t depth : {2u, 1u}) {
      uint64_t k = largest_fitting(1, full_stride / s.align, [&](uint64_t x) {
        return ub_bytes_needed(r, 1, static_cast<uint32_t>(x * s.align), depth) <= cap;
      });
      if (k == 0) continue;
      if (depth == 2 && k * s.align * s.max_bytes < kMinChunkBytes) continue;  // too small to pipeline
      d.rows_per_tile = 1, d.depth = depth;
      d.chunk = d.chunk_stride = static_cast<uint32_t>(k * s.align);
      d.num_chunks = static_cast<uint32_t>(ceil_div(seg, d.chunk));
      break;
    }
  }
  if (d.depth == 0)
    throw_invalid_argument(kWhere, "buffers", "not even one chunk of " + std::to_string(s.align) +
                                                  " columns fits the " + std::to_string(cap) + " bytes of UB on " +
                                                  p.name + " (fixed buffers too large?)");
  for (const BufferRequest& b : r.buffers) {
    RowRequest one;
    one.reserve_bytes = 0;
    one.buffers = {b};
    one.buffers[0].streamed = false;
    plan.buffers.push_back({b.name, ub_bytes_needed(one, d.rows_per_tile, d.chunk_stride, 1), b.streamed ? d.depth : 1});
  }
  plan.ub_used = ub_bytes_needed(r, d.rows_per_tile, d.chunk_stride, d.depth);
  return plan;
}

std::string RowPlan::to_string() const {
  std::ostringstream os;
  const RowTilingData& d = data;
  os << "rows=" << d.rows << " cols=" << d.cols;
  if (d.num_blocks == 0) {
    os << " empty: no launch";
    return os.str();
  }
  const uint64_t total = d.split == 0 ? d.rows : d.cols;
  const uint64_t tail = total - uint64_t{d.num_blocks - 1} * d.per_core;
  os << " split=" << (d.split == 0 ? "rows" : "cols") << " blocks=" << d.num_blocks << " per_core=" << d.per_core;
  if (tail != d.per_core) os << " (tail " << tail << ")";
  os << " tile=" << d.rows_per_tile << "x" << d.chunk << " (stride " << d.chunk_stride << ")"
     << " chunks=" << d.num_chunks << (d.num_chunks > 1 ? " multi-pass" : "") << " depth=" << d.depth
     << (d.depth == 2 ? " (double-buffered)" : " (single-buffered)") << " ub=" << ub_used << "/" << ub_capacity
     << " on " << profile << " [";
  for (size_t i = 0; i < buffers.size(); ++i)
    os << (i ? ", " : "") << buffers[i].name << " " << buffers[i].count << "x" << buffers[i].bytes;
  os << "]";
  return os.str();
}

}  // namespace npurt::tiling

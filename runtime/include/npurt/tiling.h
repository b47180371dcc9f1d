// npurt/tiling.h: the dynamic tiling engine for row-wise kernels, shared by the
// built-in kernels (norms, softmax) and available to users' kernels.
//
// A row-wise kernel sees its input as [rows, cols] (rows = product of the
// leading dims, cols = the last dim). From that shape, the UB buffers the
// kernel needs (declared per element of a tile, per column, per row or fixed)
// and a ChipProfile, plan_rows() chooses:
//   - the split over vector cores: numBlocks and rows (or, with
//     Split::kColumns, columns) per core, the last core taking the tail;
//   - the tile: rows per tile x a chunk of columns, where each tile row takes
//     `chunk_stride` elements in UB (chunk rounded up so every buffer row starts
//     32-byte aligned);
//   - the buffer depth (2 = double-buffered streamed queues, 1 = single).
// Degradation when the data does not fit: fewer rows per tile, then single
// buffering, then a row split into chunks (multi-pass plan: the kernel walks a
// row chunk by chunk, e.g. statistics first, then the output), double-buffered
// when the chunk stays >= kMinChunkBytes, else single-buffered.
//
// Invariants of a plan (checked over thousands of shapes per profile by
// tests/runtime/ops/test_tiling_engine.cc):
//   - every element of [rows, cols] belongs to exactly one (core, tile, chunk);
//   - the sum of the buffers (each rounded up to 32 bytes, streamed ones times
//     depth) plus the reserve is <= the profile's usable UB;
//   - chunk_stride is a multiple of align_elems = 32 / (smallest element size),
//     so every buffer's rows start 32-byte aligned;
//   - rows_per_tile <= 4095 (DataCopy blockCount), chunk * largest element size
//     fits a DataCopyPad blockLen (uint32).
// RowTilingData is POD: kernels embed it in their tiling struct; the inline
// helpers below are what the device code uses to find its share.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "npurt/chip_profile.h"
#include "npurt/export.h"

NPURT_PUBLIC_BEGIN
namespace npurt::tiling {

// Which rows or columns a core owns; tiles and chunks inside it. POD.
struct RowTilingData {
  uint64_t rows = 0;
  uint64_t cols = 0;
  uint64_t per_core = 0;       // rows (kRows) or columns (kColumns) per core; the last core takes the tail
  uint32_t num_blocks = 0;     // 0: nothing to do (empty input)
  uint32_t split = 0;          // 0 = rows over cores, 1 = columns over cores
  uint32_t rows_per_tile = 0;  // rows moved per tile (>= 1)
  uint32_t chunk = 0;          // columns per chunk (== the core's columns when a row fits)
  uint32_t chunk_stride = 0;   // UB elements from one tile row to the next
  uint32_t num_chunks = 0;     // chunks per row (or per core's columns); > 1: multi-pass
  uint32_t depth = 0;          // buffers per streamed queue: 2 or 1
  uint32_t align_elems = 0;    // chunk_stride granularity
};

// Range of rows (kRows) or columns (kColumns) owned by core `block`.
inline uint64_t core_begin(const RowTilingData& d, uint32_t block) { return uint64_t{block} * d.per_core; }
inline uint64_t core_count(const RowTilingData& d, uint32_t block) {
  const uint64_t total = d.split == 0 ? d.rows : d.cols;
  const uint64_t b = core_begin(d, block);
  if (b >= total) return 0;
  return total - b < d.per_core ? total - b : d.per_core;
}
// Length of chunk c of a row segment of `len` columns.
inline uint32_t chunk_len(const RowTilingData& d, uint64_t len, uint32_t c) {
  const uint64_t b = uint64_t{c} * d.chunk;
  if (b >= len) return 0;
  return static_cast<uint32_t>(len - b < d.chunk ? len - b : d.chunk);
}

enum class Split : uint32_t { kRows = 0, kColumns = 1 };

// How a UB buffer grows with the tile.
enum class Scope : uint8_t {
  kTile,     // rows_per_tile x chunk_stride elements (x, y, work rows)
  kColumns,  // chunk_stride elements (gamma, beta, column accumulators)
  kRows,     // rows_per_tile elements (per-row mean/rstd)
  kFixed,    // elem_bytes bytes, whatever the tile (scalars, reduce work)
};

struct BufferRequest {
  std::string name;
  Scope scope = Scope::kTile;
  uint32_t elem_bytes = 4;  // kFixed: the buffer's bytes
  bool streamed = false;    // a TQue between pipes: gets `depth` buffers
};

struct RowRequest {
  uint64_t rows = 0;
  uint64_t cols = 0;
  Split split = Split::kRows;
  std::vector<BufferRequest> buffers;
  uint64_t min_elems_per_core = 4096;  // small inputs stay on few cores
  uint32_t max_rows_per_tile = 4095;
  uint64_t reserve_bytes = 1024;       // TPipe bookkeeping margin
  bool allow_chunks = true;            // false: a row that does not fit is an error
};

struct BufferPlan {
  std::string name;
  uint64_t bytes = 0;   // per buffer, rounded up to 32
  uint32_t count = 1;   // depth for streamed buffers
};

struct RowPlan {
  RowTilingData data;
  std::vector<BufferPlan> buffers;
  uint64_t ub_used = 0;       // including the reserve
  uint64_t ub_capacity = 0;   // profile's usable UB
  std::string profile;
  bool chunked() const { return data.num_chunks > 1; }
  // One line, e.g. "rows=8192 cols=1024 split=rows blocks=40 per_core=205 (tail 197)
  // tile=12x1024 (stride 1024) chunks=1 depth=2 ub=181248/196352 [x 2x49152, ...]".
  std::string to_string() const;
};

constexpr uint64_t kMinChunkBytes = 2048;

// Plans [rows, cols] for `profile`. Throws InvalidArgument ("npurt.tiling: ...")
// when the request is malformed or even the smallest chunk does not fit.
RowPlan plan_rows(const RowRequest& request, const ChipProfile& profile);

// UB bytes a plan with these parameters needs (the same arithmetic plan_rows
// checks); exposed so tests and users can verify a plan independently.
uint64_t ub_bytes_needed(const RowRequest& request, uint32_t rows_per_tile, uint32_t chunk_stride, uint32_t depth);

}  // namespace npurt::tiling
NPURT_PUBLIC_END

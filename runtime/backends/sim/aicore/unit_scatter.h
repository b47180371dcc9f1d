// unit_scatter.h: the vector body of a strided UB -> GM copy whose blocks are
// single small units (internal to libnpurt). `copy`'s strided output and
// `fill` of a strided view write one 1-8 byte unit per 32-B UB block with a
// small GM gap (x[::2] = y: 2-byte units 4 B apart); one store per unit costs
// a store and a partial-line write each. The AVX-512 body packs the units of
// one to four 64-B destination lines and writes each line with one byte-masked
// store: bytes in the gaps are never written (masked-off bytes of a masked
// store are not touched, not even rewritten with their old value), so the
// result equals the per-unit copy byte for byte, also under concurrent writers
// of the gap bytes.
#pragma once

#include <cstdint>

namespace npurt::sim {

// Copies units [0, k) of the plan "unit i: `unit` bytes from src + i * src_stride
// to dst + i * dst_stride" for some k <= count and returns k; the caller copies
// units [k, count). Units are 1, 2, 4 or 8 bytes; the vector form takes
// src_stride 32 (one unit per UB block: DataCopyPad with srcStride 0; the
// whole 32-B blocks are read, never the last unit's) and dst_stride 1, 2, 4,
// 8 or 16 >= unit; other plans return 0. Null: no
// AVX-512F/BW/VL on this CPU, or NPURT_SIM_ISA=generic/avx2.
using UnitScatterFn = uint32_t (*)(uint8_t* dst, uint64_t dst_stride, const uint8_t* src, uint64_t src_stride,
                                   uint32_t count, unsigned unit);
UnitScatterFn unit_scatter_kernel();

}  // namespace npurt::sim

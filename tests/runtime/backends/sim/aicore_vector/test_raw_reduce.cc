// Raw layer: reductions against a scalar reference that spells out the
// documented order (ascend-facts.md 2.8): adjacent-pair binary tree inside a
// 256-byte repeat with every partial rounded to T (half partials overflowing
// from finite operands saturate at +-65504), repeats accumulated in order for
// the level-2 form and by further tree rounds for the mask/repeat form.
// Exact match required (bit-for-bit) since the order is fully specified.
// Max/Min: a NaN wins, ties keep the first index; index bit-cast into T.
#include "vec_test_util.h"

namespace {

using namespace vectest;
using npurt::aicore::vec::ReduceOp;
using npurt::aicore::vec::RepeatShape;
using npurt::aicore::vec::vtype_of;

template <class T> T add_sat(T a, T b) {
  T s = static_cast<T>(a + b);
  if constexpr (std::is_same_v<T, half>) {
    if (std::isinf(float(s)) && std::isfinite(float(a)) && std::isfinite(float(b)))
      s = float(s) > 0 ? half(65504.0f) : half(-65504.0f);
  }
  return s;
}

// Adjacent-pair tree over a power-of-two count of values.
template <class T> T tree(std::vector<T> v) {
  while (v.size() > 1) {
    std::vector<T> next(v.size() / 2);
    for (size_t i = 0; i < next.size(); ++i) next[i] = add_sat(v[2 * i], v[2 * i + 1]);
    v.swap(next);
  }
  return v[0];
}

template <class T> constexpr uint64_t kR = 256 / sizeof(T);

template <class T> T ref_sum_level2(const std::vector<T>& x) {
  T acc{};
  for (uint64_t r = 0; r * kR<T> < x.size(); ++r) {
    std::vector<T> rep(kR<T>, T(0));
    for (uint64_t j = 0; j < kR<T> && r * kR<T> + j < x.size(); ++j) rep[j] = x[r * kR<T> + j];
    T part = tree(rep);
    acc = r == 0 ? part : add_sat(acc, part);
  }
  return acc;
}

template <class T> uint64_t ref_arg(bool is_max, const std::vector<T>& x) {
  uint64_t best = 0;
  for (uint64_t i = 1; i < x.size(); ++i) {
    float v = float(x[i]), b = float(x[best]);
    if (is_nan(b)) break;
    if (is_nan(v) || (is_max ? v > b : v < b)) best = i;
  }
  return best;
}

template <class T> uint64_t index_of(const T* slot) {
  if constexpr (sizeof(T) == 2) {
    uint16_t u;
    std::memcpy(&u, slot, 2);
    return u;
  } else {
    uint32_t u;
    std::memcpy(&u, slot, 4);
    return u;
  }
}

template <class T> void check_level2(float lo, float hi, bool specials) {
  for (uint64_t n : sizes()) {
    std::vector<T> x = make_input<T>(n, 31 + n, lo, hi, specials);
    T out[2];
    ASSERT_TRUE(npurt::aicore::vec::reduce(ReduceOp::kSum, vtype_of<T>, out, x.data(), n, false));
    EXPECT_TRUE(same_value(out[0], ref_sum_level2(x))) << "sum n=" << n << " got " << float(out[0]) << " want "
                                                       << float(ref_sum_level2(x));
    for (bool is_max : {true, false}) {
      ASSERT_TRUE(npurt::aicore::vec::reduce(is_max ? ReduceOp::kMax : ReduceOp::kMin, vtype_of<T>, out, x.data(), n,
                                             true));
      uint64_t want = ref_arg(is_max, x);
      EXPECT_EQ(index_of(&out[1]), want) << (is_max ? "max" : "min") << " n=" << n;
      EXPECT_TRUE(same_bits(out[0], x[want])) << "n=" << n;
      // Without the index (the value-only scan): the same bits.
      ASSERT_TRUE(npurt::aicore::vec::reduce(is_max ? ReduceOp::kMax : ReduceOp::kMin, vtype_of<T>, out, x.data(), n,
                                             false));
      EXPECT_TRUE(same_bits(out[0], x[want])) << "value only n=" << n;
    }
  }
}

class RawReduce : public IsaTest {};

TEST_P(RawReduce, Level2SumMaxMinFloatHalf) {
  check_level2<float>(-100, 100, false);
  check_level2<half>(-4, 4, false);
  check_level2<float>(-100, 100, true);  // NaN / inf / -0 present
  check_level2<half>(-100, 100, true);
}

TEST_P(RawReduce, TiesKeepFirstIndexAndNanWins) {
  std::vector<float> x(1000, 1.0f);
  x[10] = 7.0f, x[500] = 7.0f, x[999] = 7.0f, x[3] = -2.0f, x[900] = -2.0f;
  float out[2];
  ASSERT_TRUE(npurt::aicore::vec::reduce(ReduceOp::kMax, vtype_of<float>, out, x.data(), x.size(), true));
  EXPECT_EQ(out[0], 7.0f);
  EXPECT_EQ(index_of(&out[1]), 10u);
  ASSERT_TRUE(npurt::aicore::vec::reduce(ReduceOp::kMin, vtype_of<float>, out, x.data(), x.size(), true));
  EXPECT_EQ(index_of(&out[1]), 3u);
  ASSERT_TRUE(npurt::aicore::vec::reduce(ReduceOp::kMax, vtype_of<float>, out, x.data(), x.size(), false));
  EXPECT_EQ(out[0], 7.0f);  // the value-only scan
  std::vector<float> z(300, -5.0f);
  z[100] = -0.0f, z[200] = 0.0f, z[250] = -std::numeric_limits<float>::infinity();
  ASSERT_TRUE(npurt::aicore::vec::reduce(ReduceOp::kMax, vtype_of<float>, out, z.data(), z.size(), false));
  EXPECT_TRUE(same_bits(out[0], -0.0f));  // the zeros tie: the first one's sign, as with the index
  ASSERT_TRUE(npurt::aicore::vec::reduce(ReduceOp::kMin, vtype_of<float>, out, z.data(), z.size(), false));
  EXPECT_EQ(out[0], -std::numeric_limits<float>::infinity());
  x[700] = std::nanf(""), x[800] = std::nanf("");
  ASSERT_TRUE(npurt::aicore::vec::reduce(ReduceOp::kMax, vtype_of<float>, out, x.data(), x.size(), true));
  EXPECT_TRUE(is_nan(out[0]));
  EXPECT_EQ(index_of(&out[1]), 700u);
}

// The value-only scan folds its four accumulators and then the lanes of one
// vector by halves: the extreme must be found wherever it sits (every lane of
// every accumulator, the scalar tail), for max and min, float and half.
template <class T> void check_extreme_at_every_position(uint64_t n) {
  for (bool is_max : {true, false}) {
    for (uint64_t at = 0; at < n; ++at) {
      std::vector<T> x(n);
      for (uint64_t i = 0; i < n; ++i) x[i] = T(float(int(i % 13) - 6));
      x[at] = T(is_max ? 9.5f : -9.5f);
      T out[2];
      ASSERT_TRUE(npurt::aicore::vec::reduce(is_max ? ReduceOp::kMax : ReduceOp::kMin, vtype_of<T>, out, x.data(), n,
                                             false));
      EXPECT_TRUE(same_bits(out[0], x[at])) << (is_max ? "max" : "min") << " n=" << n << " at " << at;
    }
  }
}

TEST_P(RawReduce, ValueOnlyScanFindsTheExtremeAtEveryPosition) {
  for (uint64_t n : {64u, 128u, 1024u, 1029u}) {
    check_extreme_at_every_position<float>(n);
    check_extreme_at_every_position<half>(n);
  }
}

TEST_P(RawReduce, HalfSumSaturatesLikeTheDocumentedExample) {
  // WholeReduceSum.md: [60000, 60000, -30000, 100] -> "35604": the first pair saturates at
  // 65504 instead of overflowing to inf. 35604 is the exact value 65504 - 29900; in binary16
  // -29900 is -29904 and 65504 - 29904 = 35600 is a tie that rounds to even: 35584.
  std::vector<half> x = {half(60000.0f), half(60000.0f), half(-30000.0f), half(100.0f)};
  half out[2];
  RepeatShape sh = npurt::aicore::vec::continuous_mask(npurt::aicore::vec::VType::kF16, 4);
  std::vector<half> src(128, half(0.0f));
  std::copy(x.begin(), x.end(), src.begin());
  ASSERT_TRUE(npurt::aicore::vec::whole_reduce(ReduceOp::kSum, vtype_of<half>, out, src.data(), sh, 1,
                                               AscendC::ReduceOrder::ORDER_VALUE_INDEX));
  EXPECT_EQ(float(out[0]), 35584.0f);
  ASSERT_TRUE(npurt::aicore::vec::reduce(ReduceOp::kSum, vtype_of<half>, out, x.data(), 4, false));
  EXPECT_EQ(float(out[0]), 35584.0f);
}

// Reference gather of one repeat (disabled lanes -> absent).
template <class T> std::vector<std::pair<int, T>> ref_lanes(const std::vector<T>& src, const RepeatShape& sh, int r) {
  std::vector<std::pair<int, T>> out;
  const int per_block = 32 / sizeof(T);
  for (int j = 0; j < int(kR<T>); ++j) {
    if (!((sh.mask[j / 64] >> (j % 64)) & 1)) continue;
    uint64_t at = uint64_t(r) * sh.src_rep_stride * per_block + (j / per_block) * sh.src_blk_stride * per_block +
                  j % per_block;
    out.push_back({j, src[at]});
  }
  return out;
}

template <class T> void check_whole_and_block(RepeatShape sh) {
  const uint64_t extent = (sh.repeat + 1) * std::max<uint32_t>(sh.src_rep_stride, 8) * 8 * sh.src_blk_stride *
                          (32 / sizeof(T));
  std::vector<T> src = make_input<T>(extent, 77, -50, 50, false);
  for (uint64_t i = 0; i < src.size(); i += 13) src[i] = src[i / 2];  // ties
  const uint32_t stride = 3;
  std::vector<T> sums(sh.repeat * stride + 1), maxes(2 * sh.repeat * stride + 2), blocks(sh.repeat * 8 * 2);
  ASSERT_TRUE(npurt::aicore::vec::whole_reduce(ReduceOp::kSum, vtype_of<T>, sums.data(), src.data(), sh, stride,
                                               AscendC::ReduceOrder::ORDER_VALUE_INDEX));
  ASSERT_TRUE(npurt::aicore::vec::whole_reduce(ReduceOp::kMax, vtype_of<T>, maxes.data(), src.data(), sh, stride,
                                               AscendC::ReduceOrder::ORDER_VALUE_INDEX));
  ASSERT_TRUE(npurt::aicore::vec::block_reduce(ReduceOp::kMin, vtype_of<T>, blocks.data(), src.data(), sh, 2));
  const int per_block = 32 / sizeof(T);
  for (uint32_t r = 0; r < sh.repeat; ++r) {
    auto lanes = ref_lanes(src, sh, r);
    std::vector<T> dense(kR<T>, T(0));
    for (auto& [j, v] : lanes) dense[j] = v;
    EXPECT_TRUE(same_value(sums[r * stride], tree(dense))) << "repeat " << r;
    int best = lanes[0].first;
    T bv = lanes[0].second;
    for (auto& [j, v] : lanes) if (float(v) > float(bv)) best = j, bv = v;
    EXPECT_TRUE(same_value(maxes[2 * r * stride], bv)) << "repeat " << r;
    EXPECT_EQ(index_of(&maxes[2 * r * stride + 1]), uint64_t(best)) << "repeat " << r;
    for (int b = 0; b < 8; ++b) {
      float m = INFINITY;
      for (auto& [j, v] : lanes) if (j / per_block == b) m = std::min(m, float(v));
      EXPECT_EQ(float(blocks[r * 2 * 8 + b]), m) << "repeat " << r << " block " << b;
    }
  }
}

TEST_P(RawReduce, WholeAndBlockReduceWithMasksAndStrides) {
  RepeatShape a = npurt::aicore::vec::continuous_mask(npurt::aicore::vec::VType::kF32, 64);
  a.repeat = 5;
  check_whole_and_block<float>(a);
  RepeatShape b = npurt::aicore::vec::continuous_mask(npurt::aicore::vec::VType::kF16, 100);
  b.repeat = 7, b.src_rep_stride = 10, b.src_blk_stride = 2;
  check_whole_and_block<half>(b);
  RepeatShape c;
  c.mask[0] = 0x8000'0000'0001'00f0ull, c.mask[1] = 0, c.repeat = 3, c.src_rep_stride = 9;
  check_whole_and_block<float>(c);
}

template <class T> void check_reduce_repeat(uint32_t repeat) {
  RepeatShape sh = npurt::aicore::vec::continuous_mask(vtype_of<T>, kR<T>);
  sh.repeat = repeat;
  std::vector<T> src = make_input<T>(repeat * kR<T>, repeat, -2, 2, false);
  // Reference: per-repeat tree, then tree rounds over the partials, R at a time.
  std::vector<T> part;
  for (uint32_t r = 0; r < repeat; ++r) part.push_back(tree(std::vector<T>(src.begin() + r * kR<T>, src.begin() + (r + 1) * kR<T>)));
  while (part.size() > 1) {
    std::vector<T> next;
    for (size_t i = 0; i < part.size(); i += kR<T>) {
      std::vector<T> chunk(kR<T>, T(0));
      for (size_t j = 0; j < kR<T> && i + j < part.size(); ++j) chunk[j] = part[i + j];
      next.push_back(tree(chunk));
    }
    part.swap(next);
  }
  T out[2];
  ASSERT_TRUE(npurt::aicore::vec::reduce_repeat(ReduceOp::kSum, vtype_of<T>, out, src.data(), sh, false));
  EXPECT_TRUE(same_value(out[0], part[0])) << "repeat " << repeat;
  ASSERT_TRUE(npurt::aicore::vec::reduce_repeat(ReduceOp::kMin, vtype_of<T>, out, src.data(), sh, true));
  uint64_t want = ref_arg(false, src);
  EXPECT_EQ(index_of(&out[1]), want);
  EXPECT_TRUE(same_bits(out[0], src[want]));
}

TEST_P(RawReduce, MaskRepeatFormTreeAcrossRepeats) {
  for (uint32_t repeat : {1u, 2u, 3u, 64u, 65u, 255u, 1000u}) {
    check_reduce_repeat<float>(repeat);
    check_reduce_repeat<half>(repeat);
  }
}

// The sum's partials live on the stack up to 1024 repeats and on the heap
// beyond, folded in place round by round: both sides of the bound, and 4097
// float repeats (three rounds: 4097 -> 65 -> 2 -> 1), against the reference.
TEST_P(RawReduce, MaskRepeatSumStackAndHeapPartials) {
  for (uint32_t repeat : {1024u, 1025u, 4097u}) {
    check_reduce_repeat<float>(repeat);
    check_reduce_repeat<half>(repeat);
  }
}

// The fast paths of simd/reduce.inc against the reference order: dense
// full-mask WholeReduceSum (K repeats per tree_sum_k_repeats) and
// BlockReduceSum (a block's own tree, then + 0 as the zero-padded repeat tree
// does), on random data, repeat counts that are not multiples of the vector
// width, and blocks of -0 (whose tree sum is +0). Bit for bit without
// specials; with NaN/inf, the same value class.
template <class T> void check_sum_fast_paths(uint32_t repeat, bool specials) {
  RepeatShape sh = npurt::aicore::vec::continuous_mask(vtype_of<T>, kR<T>);  // blk stride 1, rep stride 8
  sh.repeat = repeat;
  std::vector<T> src = make_input<T>(repeat * kR<T>, 500 + repeat, -50, 50, specials);
  const int per_block = 32 / sizeof(T);
  for (int j = 0; j < per_block; ++j) src[j] = T(-0.0f);  // block 0 of repeat 0: all -0
  std::vector<T> sums(repeat * 2), blocks(repeat * 8);
  ASSERT_TRUE(npurt::aicore::vec::whole_reduce(ReduceOp::kSum, vtype_of<T>, sums.data(), src.data(), sh, 2,
                                               AscendC::ReduceOrder::ORDER_ONLY_VALUE));
  ASSERT_TRUE(npurt::aicore::vec::block_reduce(ReduceOp::kSum, vtype_of<T>, blocks.data(), src.data(), sh, 1));
  for (uint32_t r = 0; r < repeat; ++r) {
    const T want = tree(std::vector<T>(src.begin() + r * kR<T>, src.begin() + (r + 1) * kR<T>));
    EXPECT_TRUE(specials ? same_value(sums[2 * r], want) : same_bits(sums[2 * r], want))
        << "whole repeat " << r << " of " << repeat << " got " << float(sums[2 * r]) << " want " << float(want);
    for (int b = 0; b < 8; ++b) {
      std::vector<T> padded(kR<T>, T(0));
      for (int j = 0; j < per_block; ++j) padded[j] = src[r * kR<T> + b * per_block + j];
      const T bw = tree(padded);
      EXPECT_TRUE(specials ? same_value(blocks[r * 8 + b], bw) : same_bits(blocks[r * 8 + b], bw))
          << "block " << b << " of repeat " << r << " got " << float(blocks[r * 8 + b]) << " want " << float(bw);
    }
  }
}

TEST_P(RawReduce, WholeAndBlockSumFastPathsMatchTheReferenceOrder) {
  for (uint32_t repeat : {1u, 7u, 16u, 17u, 33u, 255u}) {
    for (bool specials : {false, true}) {
      check_sum_fast_paths<float>(repeat, specials);
      check_sum_fast_paths<half>(repeat, specials);
    }
  }
}

// Value-only WholeReduceMax / Min (the attention forward's row maxima): the
// dense form takes a vector scan, which must give the lane scan's value bit for
// bit: the first extreme lane's bits, a NaN wins (first NaN's payload), +-0
// ties keep the first lane's sign. Rows of specials, all-equal zeros of both
// signs, NaN-free rows and a strided / partially masked shape (lane scan).
template <class T> void check_value_only_extremes(uint32_t repeat, uint32_t rep_stride, uint32_t lanes, bool specials) {
  RepeatShape sh = npurt::aicore::vec::continuous_mask(vtype_of<T>, lanes);
  sh.repeat = repeat, sh.src_rep_stride = rep_stride;
  std::vector<T> src = make_input<T>((repeat + 1) * rep_stride * (32 / sizeof(T)), 900 + repeat, -50, 50, specials);
  for (uint64_t j = 0; j < kR<T> && repeat > 1; ++j)  // repeat 1: zeros only, -0 first
    src[rep_stride * (32 / sizeof(T)) + j] = T(j % 3 == 0 ? -0.0f : 0.0f);
  for (ReduceOp op : {ReduceOp::kMax, ReduceOp::kMin}) {
    std::vector<T> out(repeat * 3 + 1, T(7.0f));
    ASSERT_TRUE(npurt::aicore::vec::whole_reduce(op, vtype_of<T>, out.data(), src.data(), sh, 3,
                                                 AscendC::ReduceOrder::ORDER_ONLY_VALUE));
    for (uint32_t r = 0; r < repeat; ++r) {
      auto lanes = ref_lanes(src, sh, r);
      T want = lanes[0].second;
      for (auto& [j, v] : lanes) {
        const float w = float(want), x = float(v);
        if (w != w) break;  // the first NaN wins
        if (x != x || (op == ReduceOp::kMax ? x > w : x < w)) want = v;
      }
      EXPECT_TRUE(same_bits(out[3 * r], want)) << (op == ReduceOp::kMax ? "max" : "min") << " repeat " << r
                                               << " got " << float(out[3 * r]) << " want " << float(want);
      EXPECT_TRUE(same_bits(out[3 * r + 1], T(7.0f))) << "only one value per repeat is written";
    }
  }
}

TEST_P(RawReduce, ValueOnlyWholeMaxMinMatchTheLaneScan) {
  for (bool specials : {false, true})
    for (uint32_t repeat : {1u, 2u, 17u, 255u}) {
      check_value_only_extremes<float>(repeat, 8, 64, specials);
      check_value_only_extremes<half>(repeat, 8, 128, specials);
      check_value_only_extremes<float>(repeat, 16, 64, specials);  // every other repeat (a 128-wide row's halves)
      check_value_only_extremes<float>(repeat, 8, 40, specials);   // partial mask: lane scan
    }
}

// The masked paths (gathered repeats, MaskLanes bit operations and the
// vectorized repeat_extreme of simd/reduce.inc) against the per-lane rule on
// random data with NaN / inf / -0 and ties: 1-lane, one-block, partial and
// full prefix masks, sparse / alternating / high-lane bit masks, repeat
// strides 0, 1, 8 and odd, block strides 1 and 2, every ReduceOrder. Max/Min
// pick the first NaN, else the first lane equal to the extreme (+-0 tie);
// sums are the zero-padded tree (bit for bit without specials).
template <class T> std::pair<int, T> ref_pick(bool is_max, const std::vector<std::pair<int, T>>& lanes) {
  std::pair<int, T> best = lanes[0];
  for (const auto& l : lanes) {
    const float b = float(best.second), v = float(l.second);
    if (b != b) break;
    if (v != v || (is_max ? v > b : v < b)) best = l;
  }
  return best;
}

template <class T> void check_masked_shape(const RepeatShape& sh, bool specials) {
  const int per_block = 32 / sizeof(T);
  const uint64_t extent = (uint64_t(sh.repeat) * sh.src_rep_stride + 8 * sh.src_blk_stride + 8) * per_block;
  std::vector<T> src = make_input<T>(extent, 40 + sh.repeat + sh.src_rep_stride, -3, 3, specials);
  for (uint64_t i = 5; i < src.size(); i += 11) src[i] = src[i / 3];  // ties
  for (uint64_t i = 9; i < src.size(); i += 23) src[i] = T(i % 2 ? -0.0f : 0.0f);
  using AscendC::ReduceOrder;
  for (ReduceOp op : {ReduceOp::kMax, ReduceOp::kMin}) {
    const bool is_max = op == ReduceOp::kMax;
    for (ReduceOrder order : {ReduceOrder::ORDER_VALUE_INDEX, ReduceOrder::ORDER_INDEX_VALUE,
                              ReduceOrder::ORDER_ONLY_VALUE, ReduceOrder::ORDER_ONLY_INDEX}) {
      std::vector<T> out(2 * sh.repeat * 3 + 2, T(7.0f));
      ASSERT_TRUE(npurt::aicore::vec::whole_reduce(op, vtype_of<T>, out.data(), src.data(), sh, 3, order));
      const bool pair = order == ReduceOrder::ORDER_VALUE_INDEX || order == ReduceOrder::ORDER_INDEX_VALUE;
      for (uint32_t r = 0; r < sh.repeat; ++r) {
        const auto [j, v] = ref_pick(is_max, ref_lanes(src, sh, r));
        const T* at = &out[r * 3 * (pair ? 2 : 1)];
        const T* value = order == ReduceOrder::ORDER_INDEX_VALUE ? at + 1 : at;
        const T* index = order == ReduceOrder::ORDER_VALUE_INDEX ? at + 1 : at;
        if (order != ReduceOrder::ORDER_ONLY_INDEX) {
          EXPECT_TRUE(same_bits(*value, v)) << "whole repeat " << r << " got " << float(*value) << " want " << float(v);
        }
        if (order != ReduceOrder::ORDER_ONLY_VALUE) {
          EXPECT_EQ(index_of(index), uint64_t(j)) << "whole repeat " << r;
        }
      }
    }
    T red[2];
    ASSERT_TRUE(npurt::aicore::vec::reduce_repeat(op, vtype_of<T>, red, src.data(), sh, true));
    std::vector<std::pair<int, T>> all;
    for (uint32_t r = 0; r < sh.repeat; ++r)
      for (const auto& [j, v] : ref_lanes(src, sh, r)) all.push_back({int(r * kR<T>) + j, v});
    const auto [j, v] = ref_pick(is_max, all);
    EXPECT_TRUE(same_bits(red[0], v)) << "reduce_repeat got " << float(red[0]) << " want " << float(v);
    EXPECT_EQ(index_of(&red[1]), uint64_t(j)) << "reduce_repeat index";
  }
  std::vector<T> sums(sh.repeat * 2), bsums(sh.repeat * 16), bmax(sh.repeat * 16);
  ASSERT_TRUE(npurt::aicore::vec::whole_reduce(ReduceOp::kSum, vtype_of<T>, sums.data(), src.data(), sh, 2,
                                               AscendC::ReduceOrder::ORDER_ONLY_VALUE));
  ASSERT_TRUE(npurt::aicore::vec::block_reduce(ReduceOp::kSum, vtype_of<T>, bsums.data(), src.data(), sh, 2));
  ASSERT_TRUE(npurt::aicore::vec::block_reduce(ReduceOp::kMax, vtype_of<T>, bmax.data(), src.data(), sh, 2));
  for (uint32_t r = 0; r < sh.repeat; ++r) {
    const auto lanes = ref_lanes(src, sh, r);
    std::vector<T> dense(kR<T>, T(0));
    for (const auto& [j, v] : lanes) dense[j] = v;
    const T want = tree(dense);
    EXPECT_TRUE(specials ? same_value(sums[2 * r], want) : same_bits(sums[2 * r], want)) << "sum repeat " << r;
    for (int b = 0; b < 8; ++b) {
      std::vector<T> block(kR<T>, T(0));
      std::vector<std::pair<int, T>> in_block;
      for (const auto& [j, v] : lanes)
        if (j / per_block == b) block[j] = v, in_block.push_back({j, v});
      const T bs = tree(block), got = bsums[r * 16 + b];
      EXPECT_TRUE(specials ? same_value(got, bs) : same_bits(got, bs)) << "block sum " << b << " repeat " << r;
      const T bm = in_block.empty() ? T(-INFINITY) : ref_pick(true, in_block).second;
      EXPECT_TRUE(same_bits(bmax[r * 16 + b], bm)) << "block max " << b << " repeat " << r << " got "
                                                   << float(bmax[r * 16 + b]) << " want " << float(bm);
    }
  }
}

template <class T> void check_masked_sweep() {
  constexpr uint64_t R = kR<T>;
  const auto vt = vtype_of<T>;
  std::vector<RepeatShape> shapes;
  for (uint32_t lanes : {1u, 8u, 16u, 40u, uint32_t(R) - 1, uint32_t(R)})
    shapes.push_back(npurt::aicore::vec::continuous_mask(vt, lanes));
  const uint64_t bits[][2] = {{0x5555555555555555ull, 0x5555555555555555ull}, {0x8000000000000001ull, 0},
                              {0, 0x8000000000000000ull}, {0xff00ull, 0xf0ull}, {0x8000000000000000ull, 0}};
  for (const auto& b : bits) {
    if (R == 64 && b[0] == 0) continue;  // float masks have no lanes past 63
    RepeatShape sh;
    sh.mask[0] = b[0], sh.mask[1] = R > 64 ? b[1] : 0;
    shapes.push_back(sh);
  }
  const uint32_t strides[][2] = {{1, 8}, {1, 0}, {1, 1}, {1, 9}, {2, 16}};  // {block, repeat}
  for (RepeatShape sh : shapes)
    for (uint32_t repeat : {1u, 3u, 17u})
      for (const auto& st : strides) {
        sh.repeat = repeat, sh.src_blk_stride = st[0], sh.src_rep_stride = st[1];
        for (bool specials : {false, true}) check_masked_shape<T>(sh, specials);
        if (::testing::Test::HasFailure()) return;
      }
}

TEST_P(RawReduce, MaskedWholeAndRepeatReduceMatchThePerLaneRule) {
  check_masked_sweep<float>();
  check_masked_sweep<half>();
}

TEST_P(RawReduce, UnsupportedRejected) {
  int32_t x[2] = {};
  EXPECT_FALSE(npurt::aicore::vec::reduce(ReduceOp::kSum, vtype_of<int32_t>, x, x, 1, false));
  float f[2] = {};
  EXPECT_FALSE(npurt::aicore::vec::reduce(ReduceOp::kSum, vtype_of<float>, f, f, 1, true));
}

VECTEST_INSTANTIATE(RawReduce);

}  // namespace

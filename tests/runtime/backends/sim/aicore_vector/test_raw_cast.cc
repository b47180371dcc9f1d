// Raw layer: Cast with every supported (dst, src, RoundMode) against an
// independent reference: the nearest representable neighbours of the exact
// source value are found by binary search in a sorted table of every finite
// value of the target format; the mode then picks one. Exact match required
// (bit-for-bit, NaN == NaN). Inputs include every halfway case between
// adjacent targets, subnormals, overflow to inf, -0, inf and NaN.
#include <algorithm>
#include <cstring>
#include <map>

#include "vec_test_util.h"

namespace {

using namespace vectest;
using AscendC::RoundMode;
using npurt::aicore::vec::VType;
using npurt::aicore::vec::vtype_of;

const RoundMode kModes[] = {RoundMode::CAST_NONE, RoundMode::CAST_RINT, RoundMode::CAST_FLOOR, RoundMode::CAST_CEIL,
                            RoundMode::CAST_ROUND, RoundMode::CAST_TRUNC, RoundMode::CAST_ODD};

// All finite values of a 16-bit float format, sorted, with their bit patterns.
struct Table16 {
  std::vector<std::pair<double, uint16_t>> v;
  double max_finite = 0, beyond = 0;  // beyond: the next power of two after max finite
};

template <class N> const Table16& table16() {
  static const Table16 t = [] {
    Table16 r;
    for (uint32_t u = 0; u < 65536; ++u) {
      N x;
      std::memcpy(&x, &u, 2);
      double d = static_cast<float>(x);
      if (std::isfinite(d) && !(d == 0 && (u & 0x8000))) r.v.push_back({d, static_cast<uint16_t>(u)});
    }
    std::sort(r.v.begin(), r.v.end());
    r.max_finite = r.v.back().first;
    r.beyond = std::exp2(std::ceil(std::log2(r.max_finite)));
    return r;
  }();
  return t;
}

// Reference float -> 16-bit float in a mode.
template <class N> uint16_t ref_round16(float x, RoundMode m) {
  const Table16& t = table16<N>();
  const uint16_t inf_bits = std::is_same_v<N, half> ? 0x7c00 : 0x7f80;
  if (is_nan(x)) return 0xffff;  // any NaN: compared with same_value
  const bool neg = std::signbit(x);
  const double a = std::fabs(static_cast<double>(x));
  const uint16_t sign = neg ? 0x8000 : 0;
  if (std::isinf(x)) return sign | inf_bits;
  auto it = std::lower_bound(t.v.begin(), t.v.end(), std::make_pair(a, uint16_t{0}));
  if (it != t.v.end() && it->first == a) return sign | it->second;  // exact (keeps -0)
  // Magnitudes: lo < a < hi (hi may be "beyond" = inf).
  const auto lo = *(it - 1);
  const bool hi_inf = it == t.v.end();
  const double hi_val = hi_inf ? t.beyond : it->first;
  const uint16_t hi_bits = hi_inf ? inf_bits : it->second;
  const double mid = (lo.first + hi_val) / 2;
  uint16_t toward_zero = lo.second, away = hi_bits;
  switch (m) {
    case RoundMode::CAST_TRUNC: return sign | toward_zero;
    case RoundMode::CAST_FLOOR: return sign | (neg ? away : toward_zero);
    case RoundMode::CAST_CEIL: return sign | (neg ? toward_zero : away);
    case RoundMode::CAST_ODD: return sign | ((lo.second & 1) ? toward_zero : away);
    case RoundMode::CAST_ROUND: return sign | (a >= mid ? away : toward_zero);
    default:
      if (a != mid) return sign | (a > mid ? away : toward_zero);
      return sign | ((lo.second & 1) ? away : toward_zero);
  }
}

double ref_integral(double d, RoundMode m) {
  switch (m) {
    case RoundMode::CAST_FLOOR: return std::floor(d);
    case RoundMode::CAST_CEIL: return std::ceil(d);
    case RoundMode::CAST_TRUNC: return std::trunc(d);
    case RoundMode::CAST_ROUND: return std::round(d);
    default: {
      double f = std::floor(d), diff = d - f;
      if (diff != 0.5) return diff < 0.5 ? f : f + 1;
      return std::fmod(f, 2.0) == 0 ? f : f + 1;
    }
  }
}

template <class D> D ref_to_int(double d, RoundMode m) {
  if (d != d) return 0;
  double r = ref_integral(d, m);
  if (r < double(std::numeric_limits<D>::min())) return std::numeric_limits<D>::min();
  if (r > double(std::numeric_limits<D>::max())) return std::numeric_limits<D>::max();
  return static_cast<D>(r);
}

template <class D, class S> D reference(S s, RoundMode m) {
  if constexpr (std::is_same_v<D, half> || std::is_same_v<D, bfloat16_t>) {
    uint16_t b = ref_round16<D>(static_cast<float>(s), m);
    D d;
    std::memcpy(&d, &b, 2);
    return d;
  } else if constexpr (std::is_same_v<D, float>) {
    if constexpr (std::is_same_v<S, float>) {
      return std::isfinite(s) ? static_cast<float>(std::copysign(ref_integral(s, m), s)) : s;
    } else if constexpr (std::is_integral_v<S>) {
      // int32 -> float: the two float neighbours of the exact integer, chosen by mode.
      double x = static_cast<double>(s);
      float r = static_cast<float>(x);
      if (double(r) == x || m == RoundMode::CAST_NONE || m == RoundMode::CAST_RINT) return r;
      float lo = double(r) < x ? r : std::nextafter(r, -INFINITY), hi = double(r) > x ? r : std::nextafter(r, INFINITY);
      if (m == RoundMode::CAST_FLOOR) return lo;
      if (m == RoundMode::CAST_CEIL) return hi;
      if (m == RoundMode::CAST_TRUNC) return x > 0 ? lo : hi;
      double mid = (double(lo) + double(hi)) / 2;
      return x == mid ? (x > 0 ? hi : lo) : r;
    } else {
      return static_cast<float>(s);  // exact widening
    }
  } else if constexpr (std::is_integral_v<S>) {
    return static_cast<D>(s);  // int32 -> int64
  } else {
    return ref_to_int<D>(static_cast<double>(static_cast<float>(s)), m);
  }
}

// Inputs: random values, specials, and every halfway point between adjacent 16-bit values
// around a sample of magnitudes (and the same points plus/minus one float ulp).
template <class S> std::vector<S> cast_inputs(uint64_t n, uint32_t seed) {
  std::vector<S> v = make_input<S>(n, seed, -70000.0f, 70000.0f);
  if constexpr (std::is_same_v<S, float>) {
    for (const Table16* t : {&table16<half>(), &table16<bfloat16_t>()}) {
      for (size_t i = 0; i + 1 < t->v.size(); i += 97) {
        float mid = static_cast<float>((t->v[i].first + t->v[i + 1].first) / 2);
        for (float x : {mid, -mid, std::nextafter(mid, 0.0f), std::nextafter(mid, 1e30f)}) v.push_back(x);
      }
    }
    for (float x : {65520.0f, 65519.996f, -65520.0f, 0.5f, 1.5f, 2.5f, -2.5f, 3e9f, -3e9f, 1e20f}) v.push_back(x);
  }
  return v;
}

template <class D, class S> void check_cast(RoundMode m, const std::vector<S>& in) {
  std::vector<D> out(in.size());
  ASSERT_TRUE(npurt::aicore::vec::cast(vtype_of<D>, vtype_of<S>, m, out.data(), in.data(), in.size()));
  // AscendC::Cast's entry (no run-time re-check of the pair) must give the same bytes.
  std::vector<D> pre(in.size());
  npurt::aicore::vec::cast_prechecked(vtype_of<D>, vtype_of<S>, m, pre.data(), in.data(), in.size());
  ASSERT_EQ(0, std::memcmp(pre.data(), out.data(), out.size() * sizeof(D))) << "cast_prechecked differs";
  for (size_t i = 0; i < in.size(); ++i) {
    D want = reference<D, S>(in[i], m);
    ASSERT_TRUE(same_value(out[i], want))
        << vtype_name(vtype_of<S>) << "->" << vtype_name(vtype_of<D>) << " mode " << int(m) << " x=" << double(in[i])
        << " got " << double(out[i]) << " want " << double(want) << " i=" << i;
  }
}

// For one pair: every supported mode is checked, every other mode must be rejected.
template <class D, class S> void check_pair() {
  SCOPED_TRACE(std::string(vtype_name(vtype_of<S>)) + "->" + vtype_name(vtype_of<D>));
  for (RoundMode m : kModes) {
    bool ok = npurt::aicore::vec::cast_unsupported_reason(vtype_of<D>, vtype_of<S>, m) == nullptr;
    if (!ok) {
      D d{};
      S s{};
      EXPECT_FALSE(npurt::aicore::vec::cast(vtype_of<D>, vtype_of<S>, m, &d, &s, 1)) << int(m);
      continue;
    }
    for (uint64_t n : sizes()) check_cast<D, S>(m, cast_inputs<S>(n, 7 * n + int(m)));
  }
}

class RawCast : public IsaTest {};

TEST_P(RawCast, FloatHalfBfloat16) {
  check_pair<half, float>();
  check_pair<float, half>();
  check_pair<bfloat16_t, float>();
  check_pair<float, bfloat16_t>();
  check_pair<float, float>();
}

TEST_P(RawCast, FloatAndHalfToIntegers) {
  check_pair<int32_t, float>();
  check_pair<int16_t, float>();
  check_pair<int64_t, float>();
  check_pair<int32_t, half>();
  check_pair<int16_t, half>();
  check_pair<int8_t, half>();
  check_pair<uint8_t, half>();
  check_pair<int32_t, bfloat16_t>();
}

TEST_P(RawCast, IntegersToFloat) {
  check_pair<float, int32_t>();
  check_pair<float, int16_t>();
  check_pair<half, int16_t>();
  check_pair<half, int8_t>();
  check_pair<half, uint8_t>();
  check_pair<int64_t, int32_t>();
}

TEST_P(RawCast, DocumentedHalfwayCases) {
  // float -> half around 1.0: ulp(half) = 2^-10; 1 + 2^-11 is a tie.
  std::vector<float> in = {1.0f + 0x1p-11f, 1.0f + 3 * 0x1p-11f, -(1.0f + 0x1p-11f), 65520.0f};
  auto run = [&](RoundMode m) {
    std::vector<half> out(in.size());
    EXPECT_TRUE(npurt::aicore::vec::cast(VType::kF16, VType::kF32, m, out.data(), in.data(), in.size()));
    std::vector<float> f;
    for (half h : out) f.push_back(float(h));
    return f;
  };
  const float up = 1.0f + 0x1p-10f, up2 = 1.0f + 0x1p-9f;
  EXPECT_EQ(run(RoundMode::CAST_RINT), (std::vector<float>{1.0f, up2, -1.0f, INFINITY}));
  EXPECT_EQ(run(RoundMode::CAST_ROUND), (std::vector<float>{up, up2, -up, INFINITY}));
  EXPECT_EQ(run(RoundMode::CAST_TRUNC), (std::vector<float>{1.0f, up, -1.0f, 65504.0f}));
  EXPECT_EQ(run(RoundMode::CAST_FLOOR), (std::vector<float>{1.0f, up, -up, 65504.0f}));
  EXPECT_EQ(run(RoundMode::CAST_CEIL), (std::vector<float>{up, up2, -1.0f, INFINITY}));
  EXPECT_EQ(run(RoundMode::CAST_ODD), (std::vector<float>{up, up, -up, 65504.0f}));
}

// float -> bfloat16 nearest-even bit for bit, NaN payloads included (the
// AVX-512 build converts with VCVTNEPS2BF16, which flushes float subnormals:
// a 16-lane chunk holding one must still give the subnormal's rounding).
// Every sign and exponent with the mantissas around the rounding point; the
// subnormals sit among normal lanes and in chunks of their own.
TEST_P(RawCast, Bfloat16BitsOfEveryExponent) {
  std::vector<uint32_t> bits;
  for (uint32_t e = 0; e < 256; ++e)
    for (uint32_t man : {0u, 1u, 0x7fffu, 0x8000u, 0x8001u, 0x18000u, 0x28000u, 0x400000u, 0x7f8000u, 0x7fffffu})
      for (uint32_t sign : {0u, 0x80000000u}) bits.push_back(sign | e << 23 | man);
  for (uint32_t i = 0; i < 40; ++i) bits.push_back(0x3f800000u + i * 0x8000u);  // chunks without subnormals
  std::vector<float> in(bits.size());
  std::memcpy(in.data(), bits.data(), bits.size() * 4);
  for (RoundMode m : {RoundMode::CAST_RINT, RoundMode::CAST_NONE}) {
    if (npurt::aicore::vec::cast_unsupported_reason(VType::kBF16, VType::kF32, m) != nullptr) continue;
    std::vector<uint16_t> out(in.size());
    ASSERT_TRUE(npurt::aicore::vec::cast(VType::kBF16, VType::kF32, m, out.data(), in.data(), in.size()));
    for (size_t i = 0; i < in.size(); ++i) {
      const uint32_t u = bits[i];
      const uint16_t want = (u & 0x7fffffffu) > 0x7f800000u ? static_cast<uint16_t>((u >> 16) | 0x40u)
                                                             : static_cast<uint16_t>((u + 0x7fffu + ((u >> 16) & 1u)) >> 16);
      ASSERT_EQ(out[i], want) << "bits 0x" << std::hex << u << " mode " << int(m);
    }
  }
}

TEST_P(RawCast, UnsupportedPairsRejected) {
  int32_t i = 1;
  half h{};
  EXPECT_NE(npurt::aicore::vec::cast_unsupported_reason(VType::kF16, VType::kI32, RoundMode::CAST_NONE), nullptr);
  EXPECT_FALSE(npurt::aicore::vec::cast(VType::kF16, VType::kI32, RoundMode::CAST_NONE, &h, &i, 1));
  EXPECT_FALSE(npurt::aicore::vec::cast(VType::kBF16, VType::kF16, RoundMode::CAST_RINT, &h, &h, 1));
}

VECTEST_INSTANTIATE(RawCast);

}  // namespace

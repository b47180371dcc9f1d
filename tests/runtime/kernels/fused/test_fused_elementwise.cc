// fused_elementwise (kernels/fused) through the public dispatcher (OpHandle + dispatch), against a
// scalar C++ reference that interprets the same program in float (the kernel computes in float32).
//
// Tolerances, |y - ref| <= atol + rtol |ref|: float32 rtol 2e-6 for add/mul/max/min/compare/select
// programs (one rounding per op, the reference rounds identically: differences come only from
// Div/Exp/Ln/Sqrt, bounded below), rtol 1e-5 + atol 1e-6 for programs with exp/ln/sqrt/tanh (the
// vector unit's approximations, docs/kernels.md); float16/bfloat16 outputs: half an ulp of the
// output dtype after the float32 result (rtol 2^-11 / 2^-8), since the kernel rounds once on the
// way out. Bad programs, dtypes and shapes must throw InvalidArgument naming the argument, and the
// runtime stays usable afterwards.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstring>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "kernels/fused/fused_program.h"
#include "npurt/dispatch.h"
#include "npurt/dtype.h"
#include "npurt/status.h"
#include "runtime/kernels/expect_error.h"
#include "runtime/ops/op_test_util.h"

using namespace npurt;
namespace fk = npurt::kernels::fused;
using npurt_test::download;
using npurt_test::upload;

namespace {

int64_t bits(float f) {
  int32_t b;
  std::memcpy(&b, &f, sizeof b);
  return b;
}

struct Program {
  int inputs = 0;
  int regs = 0;
  std::vector<std::array<int64_t, 5>> code;
  int result = 0;
  Dims words() const {
    Dims w = {fk::kFusedVersion, inputs, regs, result, static_cast<int64_t>(code.size())};
    for (const auto& c : code)
      for (int64_t word : c) w.push_back(word);
    return w;
  }
};

float from_bits(int64_t b) {
  const int32_t v = static_cast<int32_t>(b);
  float f;
  std::memcpy(&f, &v, sizeof f);
  return f;
}

bool compare(float a, float b, int64_t mode) {
  switch (mode) {
    case fk::kLT: return a < b;
    case fk::kGT: return a > b;
    case fk::kEQ: return a == b;
    case fk::kLE: return a <= b;
    case fk::kGE: return a >= b;
    default: return a != b;
  }
}

// The scalar reference: runs the program on one element (inputs as float).
float interpret(const Program& p, const std::vector<float>& in) {
  std::vector<float> s(static_cast<size_t>(p.inputs + p.regs), 0.0f);
  for (int i = 0; i < p.inputs; ++i) s[static_cast<size_t>(i)] = in[static_cast<size_t>(i)];
  for (const auto& c : p.code) {
    const float a = s[static_cast<size_t>(c[2])];
    const float b = (c[0] >= fk::kAdds && c[0] <= fk::kDup) || c[0] == fk::kCmps ? from_bits(c[3])
                                                                                 : s[static_cast<size_t>(c[3])];
    float& d = s[static_cast<size_t>(c[1])];
    switch (c[0]) {
      case fk::kAdd: case fk::kAdds: d = a + b; break;
      case fk::kSub: d = a - b; break;
      case fk::kMul: case fk::kMuls: d = a * b; break;
      case fk::kDiv: d = a / b; break;
      case fk::kMax: case fk::kMaxs: d = std::fmax(a, b); break;
      case fk::kMin: case fk::kMins: d = std::fmin(a, b); break;
      case fk::kDup: d = b; break;
      case fk::kExp: d = std::exp(a); break;
      case fk::kLn: d = std::log(a); break;
      case fk::kSqrt: d = std::sqrt(a); break;
      case fk::kAbs: d = std::fabs(a); break;
      case fk::kNeg: d = -a; break;
      case fk::kTanh: d = std::tanh(a); break;
      case fk::kCmp: case fk::kCmps: d = compare(a, b, c[4]) ? 1.0f : 0.0f; break;
      case fk::kSelect: d = a != 0.0f ? b : s[static_cast<size_t>(c[4])]; break;
      default: ADD_FAILURE() << "opcode " << c[0] << " not in the reference";
    }
  }
  return s[static_cast<size_t>(p.result)];
}

// a * x + y over x0, x1, x2.
Program axpy() { return {3, 2, {{fk::kMul, 3, 0, 1, 0}, {fk::kAdd, 4, 3, 2, 0}}, 4}; }

// where(x0 > 0.5, exp(x0) - x1, tanh(x1) * 2), max with -3, then sqrt(|.|) + ln(x0^2 + 1).
Program mixed() {
  return {2, 9,
          {{fk::kCmps, 2, 0, bits(0.5f), fk::kGT}, {fk::kExp, 3, 0, 0, 0}, {fk::kSub, 3, 3, 1, 0}, {fk::kTanh, 4, 1, 0, 0},
           {fk::kMuls, 5, 4, bits(2.0f), 0}, {fk::kSelect, 6, 2, 3, 5}, {fk::kMaxs, 6, 6, bits(-3.0f), 0},
           {fk::kAbs, 7, 6, 0, 0}, {fk::kSqrt, 7, 7, 0, 0}, {fk::kMul, 8, 0, 0, 0}, {fk::kAdds, 8, 8, bits(1.0f), 0},
           {fk::kLn, 8, 8, 0, 0}, {fk::kAdd, 10, 7, 8, 0}},
          10};
}

std::vector<float> random_floats(size_t n, uint32_t seed) {
  std::mt19937 g(seed);
  std::uniform_real_distribution<float> u(-2.0f, 2.0f);
  std::vector<float> v(n);
  for (auto& x : v) x = u(g);
  return v;
}

// Uploads float values as dtype dt (16-bit types rounded to nearest even) and returns the values
// the device holds, as float.
Tensor upload_as(std::vector<float>& v, const Dims& shape, DType dt) {
  if (dt == DType::kFloat32) return upload(v, shape, dt);
  std::vector<uint16_t> h(v.size());
  for (size_t i = 0; i < v.size(); ++i) {
    h[i] = dt == DType::kFloat16 ? float_to_half_bits(v[i]) : float_to_bf16_bits(v[i]);
    v[i] = dt == DType::kFloat16 ? half_bits_to_float(h[i]) : bf16_bits_to_float(h[i]);
  }
  return upload(h, shape, dt);
}

std::vector<float> download_as_float(const Tensor& y) {
  if (y.dtype() == DType::kFloat32) return download<float>(y);
  std::vector<uint16_t> h = download<uint16_t>(y);
  std::vector<float> f(h.size());
  for (size_t i = 0; i < h.size(); ++i)
    f[i] = y.dtype() == DType::kFloat16 ? half_bits_to_float(h[i]) : bf16_bits_to_float(h[i]);
  return f;
}

Tensor run(const Program& p, const std::vector<Tensor>& xs, DType out) {
  static const OpHandle op = OpHandle::find("fused_elementwise");
  const AttrValue attrs[] = {AttrValue(p.words()), AttrValue(out)};
  return dispatch(op, Span<const Tensor>(xs.data(), xs.size()), Span<const AttrValue>(attrs, 2))[0];
}

double rel_tol(DType out, bool transcendental) {
  if (out == DType::kFloat16) return std::ldexp(1.0, -11) + 1e-5;
  if (out == DType::kBFloat16) return std::ldexp(1.0, -8) + 1e-5;
  return transcendental ? 1e-5 : 2e-6;
}

void expect_close(const std::vector<float>& got, const std::vector<float>& ref, double rtol, double atol,
                  const std::string& what) {
  ASSERT_EQ(got.size(), ref.size()) << what;
  for (size_t i = 0; i < ref.size(); ++i) {
    if (std::isnan(ref[i])) {
      EXPECT_TRUE(std::isnan(got[i])) << what << " at " << i;
      continue;
    }
    EXPECT_LE(std::fabs(got[i] - ref[i]), atol + rtol * std::fabs(ref[i]))
        << what << " at " << i << ": got " << got[i] << " expected " << ref[i];
  }
}

}  // namespace

TEST(FusedElementwise, AxpyEveryDtypeAndSize) {
  for (DType dt : {DType::kFloat32, DType::kFloat16, DType::kBFloat16}) {
    for (int64_t n : {int64_t{1}, int64_t{15}, int64_t{33}, int64_t{1023}, int64_t{300001}}) {
      std::vector<std::vector<float>> h = {random_floats(n, 1), random_floats(n, 2), random_floats(n, 3)};
      std::vector<Tensor> xs;
      for (auto& v : h) xs.push_back(upload_as(v, {n}, dt));
      Tensor y = run(axpy(), xs, dt);
      ASSERT_EQ(y.shape(), (Dims{n}));
      ASSERT_EQ(y.dtype(), dt);
      std::vector<float> ref(static_cast<size_t>(n));
      for (size_t i = 0; i < ref.size(); ++i) ref[i] = interpret(axpy(), {h[0][i], h[1][i], h[2][i]});
      expect_close(download_as_float(y), ref, rel_tol(dt, false), 1e-6, std::string("axpy ") + dtype_name(dt));
    }
  }
}

TEST(FusedElementwise, TranscendentalsComparesAndSelect) {
  const Program p = mixed();
  const int64_t n = 1023;
  std::vector<float> a = random_floats(n, 4), b = random_floats(n, 5);
  a[0] = 0.5f;                 // the compare's boundary
  b[1] = 0.0f;
  a[2] = -0.0f;
  std::vector<Tensor> xs = {upload(a, {n}, DType::kFloat32), upload(b, {n}, DType::kFloat32)};
  std::vector<float> ref(static_cast<size_t>(n));
  for (size_t i = 0; i < ref.size(); ++i) ref[i] = interpret(p, {a[i], b[i]});
  expect_close(download<float>(run(p, xs, DType::kFloat32)), ref, 1e-5, 1e-6, "mixed float32");
  // float32 inputs, float16 output: one rounding of the float32 result
  std::vector<float> got16 = download_as_float(run(p, xs, DType::kFloat16));
  expect_close(got16, ref, rel_tol(DType::kFloat16, true), 1e-6, "mixed -> float16");
}

TEST(FusedElementwise, BroadcastMixedDtypesAndStridedViews) {
  // x0 [33, 1] float16, x1 [15] bfloat16 broadcast to [33, 15]; x2 a transposed float32 view.
  std::vector<float> a = random_floats(33, 6), b = random_floats(15, 7), c = random_floats(15 * 33, 8);
  Tensor x0 = upload_as(a, {33, 1}, DType::kFloat16);
  Tensor x1 = upload_as(b, {15}, DType::kBFloat16);
  Tensor base = upload(c, {15, 33}, DType::kFloat32);
  Tensor x2 = base.view({33, 15}, {1, 33}, 0);  // x2[i][j] = c[j * 33 + i]
  Tensor y = run(axpy(), {x0, x1, x2}, DType::kFloat32);
  ASSERT_EQ(y.shape(), (Dims{33, 15}));
  std::vector<float> ref(33 * 15);
  for (size_t i = 0; i < 33; ++i)
    for (size_t j = 0; j < 15; ++j) ref[i * 15 + j] = interpret(axpy(), {a[i], b[j], c[j * 33 + i]});
  expect_close(download<float>(y), ref, 2e-6, 1e-6, "broadcast + transposed view");

  // 0-d operand and a reversed view: x0 scalar, x1 reversed, x2 a step-2 slice.
  std::vector<float> s = {1.5f}, r = random_floats(1023, 9), q = random_floats(2046, 10);
  Tensor xs0 = upload(s, {}, DType::kFloat32);
  Tensor rbase = upload(r, {1023}, DType::kFloat32);
  Tensor xs1 = rbase.view({1023}, {-1}, 1022 * 4);
  Tensor qbase = upload(q, {2046}, DType::kFloat32);
  Tensor xs2 = qbase.view({1023}, {2}, 4);
  std::vector<float> ref2(1023);
  for (size_t i = 0; i < 1023; ++i) ref2[i] = interpret(axpy(), {1.5f, r[1022 - i], q[2 * i + 1]});
  expect_close(download<float>(run(axpy(), {xs0, xs1, xs2}, DType::kFloat32)), ref2, 2e-6, 1e-6, "0-d/reversed/step");
}

TEST(FusedElementwise, EmptyAndSpecialValues) {
  std::vector<float> none;
  std::vector<Tensor> empty = {upload(none, {0, 3}, DType::kFloat32), upload(none, {0, 3}, DType::kFloat32),
                               upload(none, {0, 3}, DType::kFloat32)};
  Tensor y = run(axpy(), empty, DType::kFloat32);
  EXPECT_EQ(y.shape(), (Dims{0, 3}));
  const float inf = INFINITY, nan = NAN;
  std::vector<float> a = {inf, -inf, nan, 0.0f, -0.0f, 1e30f, 2.0f}, x = {1, 1, 1, inf, 1, 1e30f, 3},
                     b = {-inf, inf, 0, 1, -0.0f, 0, nan};
  std::vector<Tensor> xs = {upload(a, {7}, DType::kFloat32), upload(x, {7}, DType::kFloat32),
                            upload(b, {7}, DType::kFloat32)};
  std::vector<float> got = download<float>(run(axpy(), xs, DType::kFloat32));
  for (size_t i = 0; i < a.size(); ++i) {
    const float ref = interpret(axpy(), {a[i], x[i], b[i]});
    if (std::isnan(ref)) EXPECT_TRUE(std::isnan(got[i])) << i;
    else EXPECT_EQ(got[i], ref) << i;  // +-inf, +-0, overflow to inf: exact
  }
}

TEST(FusedElementwise, BadInputsNameTheArgument) {
  std::vector<float> v = random_floats(15, 11);
  Tensor f32 = upload(v, {15}, DType::kFloat32);
  std::vector<double> d(15, 1.0);
  Tensor f64 = upload(d, {15}, DType::kFloat64);
  Tensor other = upload(v, {3, 5}, DType::kFloat32);
  auto expect_error = [](const std::function<void()>& call, const std::string& needle) {
    npurt_test::expect_invalid_argument(call, "fused_elementwise", needle);
  };
  expect_error([&] { run(axpy(), {f32, f32}, DType::kFloat32); }, "'program'");  // reads 3, 2 given
  Program bad_op = axpy();
  bad_op.code[0][0] = fk::kFusedOpcodeEnd;
  expect_error([&] { run(bad_op, {f32, f32, f32}, DType::kFloat32); }, "'program'");
  Program bad_src = axpy();
  bad_src.code[0][2] = 4;  // reads a temporary written later
  expect_error([&] { run(bad_src, {f32, f32, f32}, DType::kFloat32); }, "'program'");
  Program bad_version = axpy();
  expect_error([&] {
    Dims w = bad_version.words();
    w[0] = 99;
    static const OpHandle op = OpHandle::find("fused_elementwise");
    const Tensor xs[] = {f32, f32, f32};
    const AttrValue attrs[] = {AttrValue(w), AttrValue(DType::kFloat32)};
    dispatch(op, Span<const Tensor>(xs), Span<const AttrValue>(attrs));
  }, "'program'");
  expect_error([&] { run(axpy(), {f32, f32, f32}, DType::kInt32); }, "'dtype'");
  expect_error([&] { run(axpy(), {f32, f64, f32}, DType::kFloat32); }, "x1");
  expect_error([&] { run(axpy(), {f32, other, f32}, DType::kFloat32); }, "cannot be broadcast");
  // the runtime stays usable
  std::vector<float> ref(15);
  for (size_t i = 0; i < 15; ++i) ref[i] = interpret(axpy(), {v[i], v[i], v[i]});
  expect_close(download<float>(run(axpy(), {f32, f32, f32}, DType::kFloat32)), ref, 2e-6, 1e-6, "after errors");
}

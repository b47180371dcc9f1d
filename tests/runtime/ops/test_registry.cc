// Registration: valid and invalid OpDefs, duplicates, lookups.
#include <gtest/gtest.h>

#include "npurt/dispatch.h"
#include "npurt/op_registry.h"
#include "npurt/ops.h"
#include "npurt/status.h"
#include "test_kernels.h"

using namespace npurt;

namespace {

SimKernelEntry entry() { return NPURT_SIM_ENTRY(npurt_test_affine_kernel); }

template <class F>
std::string error_of(F&& f, StatusCode want) {
  try {
    f();
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), want) << e.what();
    return e.what();
  }
  ADD_FAILURE() << "no error thrown";
  return "";
}

}  // namespace

TEST(Registry, BuiltinsRegisteredWithoutErrors) {
  EXPECT_TRUE(registration_errors().empty());
  ASSERT_NE(OpRegistry::instance().find("copy"), nullptr);
  EXPECT_EQ(OpRegistry::instance().find("copy")->source, "builtin");
  EXPECT_EQ(OpRegistry::instance().find("no_such_op_xyz"), nullptr);
}

TEST(Registry, AddFindAndSignature) {
  uint64_t gen = OpRegistry::instance().generation();
  const OpDef& d = OpRegistry::instance().add(npurt_test::affine_def("reg_ok", entry()).take());
  EXPECT_GT(OpRegistry::instance().generation(), gen);
  EXPECT_EQ(OpRegistry::instance().find("reg_ok"), &d);
  EXPECT_EQ(d.signature(),
            "reg_ok(x: float32, a: float, b: float = 0.0, note: str = '', flags: int list = [], "
            "as_int: bool = False) -> (y)");
  auto names = OpRegistry::instance().names();
  EXPECT_TRUE(std::is_sorted(names.begin(), names.end()));
  EXPECT_NE(std::find(names.begin(), names.end(), "reg_ok"), names.end());
}

TEST(Registry, DuplicateNameIsRejected) {
  OpRegistry::instance().add(npurt_test::affine_def("reg_dup", entry()).take());
  std::string msg = error_of([] { OpRegistry::instance().add(npurt_test::affine_def("reg_dup", entry()).take()); },
                             StatusCode::kAlreadyExists);
  EXPECT_NE(msg.find("op 'reg_dup' is already registered"), std::string::npos) << msg;
}

TEST(Registry, InvalidDefinitionsAreRejectedWithReasons) {
  struct Case {
    const char* name;
    OpDefBuilder builder;
    const char* expect;
  };
  std::vector<Case> cases = {
      {"no tiling", OpDefBuilder("reg_bad1").input("x", {DType::kFloat32}).output("y").infer_same_as(0).sim_kernel("k", entry()),
       "has a kernel but no tiling function"},
      {"no kernel", OpDefBuilder("reg_bad2").input("x", {DType::kFloat32}).output("y").infer_same_as(0),
       "has no kernel"},
      {"no infer", OpDefBuilder("reg_bad3").input("x", {DType::kFloat32}).output("y").sim_kernel("k", entry()),
       "no output inference"},
      {"no outputs", OpDefBuilder("reg_bad4").input("x", {DType::kFloat32}), "declares no output"},
      {"same names", OpDefBuilder("reg_bad5").input("x", {DType::kFloat32}).input("x", {DType::kFloat32}).output("y"),
       "input name 'x' is used twice"},
      {"attr clash", OpDefBuilder("reg_bad6").input("x", {DType::kFloat32}).output("y").attr("x", AttrType::kInt),
       "attribute name 'x' is used twice"},
      {"no dtypes", OpDefBuilder("reg_bad7").input("x", DTypeMask(0)).output("y"), "input 'x' allows no dtype"},
      {"bad default", OpDefBuilder("reg_bad8").input("x", {DType::kFloat32}).output("y").attr("n", AttrType::kInt, AttrValue("three")),
       "attribute 'n' is declared int but its default 'three' is str"},
      {"sim-only first", OpDefBuilder("reg_bad9").sim_only({DType::kFloat64}).input("x", {DType::kFloat32}).output("y"),
       ".sim_only() was called before any .input()"},
      {"sim-only not allowed", OpDefBuilder("reg_bad10").input("x", {DType::kFloat32}).sim_only({DType::kFloat64}).output("y"),
       "declares sim-only dtypes it does not allow (float64)"},
      {"bad name", OpDefBuilder("9lives").input("x", {DType::kFloat32}).output("y"), "identifier"},
      {"null entry", OpDefBuilder("reg_bad11").input("x", {DType::kFloat32}).output("y").sim_kernel("k", nullptr),
       "was given a null entry"},
  };
  for (auto& c : cases) {
    std::string msg = error_of([&] { OpRegistry::instance().add(c.builder.take()); }, StatusCode::kInvalidArgument);
    EXPECT_NE(msg.find(c.expect), std::string::npos) << c.name << ": " << msg;
    EXPECT_NE(msg.find("npurt.register_op"), std::string::npos) << msg;
  }
  EXPECT_EQ(OpRegistry::instance().find("reg_bad1"), nullptr);  // nothing half-registered
}

TEST(Registry, UnknownOpSuggestsCloseNames) {
  std::string msg = error_of([] { OpHandle::find("cpy"); }, StatusCode::kNotFound);
  EXPECT_NE(msg.find("unknown op 'cpy'"), std::string::npos) << msg;
  EXPECT_NE(msg.find("copy"), std::string::npos) << msg;
}

TEST(Registry, DescribeShowsSignatureDocAndPlan) {
  std::string text = ops::describe("copy", {TensorSpec{true, DType::kFloat32, {4, 8}, {1, 4}}});
  EXPECT_NE(text.find("copy(x: "), std::string::npos) << text;
  EXPECT_NE(text.find("outputs: float32[4, 8]"), std::string::npos) << text;
  EXPECT_NE(text.find("numBlocks: 1"), std::string::npos) << text;
  EXPECT_NE(text.find("transpose"), std::string::npos) << text;  // transposed view: blocked UB transpose
}

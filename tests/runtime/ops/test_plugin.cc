// Plugin libraries: loading, reloading, name clashes, invalid definitions.
#include <gtest/gtest.h>

#include "npurt/op_registry.h"
#include "npurt/ops.h"
#include "npurt/plugin.h"
#include "op_test_util.h"

using namespace npurt;

TEST(Plugin, LoadRunReloadClashInvalid) {
  LoadedLibrary lib = load_library(NPURT_TEST_PLUGIN_SCALE);
  EXPECT_EQ(lib.ops, std::vector<std::string>{"plugin_scale"});
  const OpDef* def = OpRegistry::instance().find("plugin_scale");
  ASSERT_NE(def, nullptr);
  EXPECT_NE(def->source.find("npurt_test_plugin_scale"), std::string::npos) << def->source;
  Tensor x = npurt_test::upload(std::vector<float>{1, 2}, {2}, DType::kFloat32);
  EXPECT_EQ(npurt_test::download<float>(ops::call("plugin_scale", {x}, {{"a", 3.0}, {"b", 1.0}})[0]),
            (std::vector<float>{4, 7}));

  // The same library again: harmless, same ops.
  EXPECT_EQ(load_library(NPURT_TEST_PLUGIN_SCALE).ops, lib.ops);

  // A second library registering the same name: rejected as a whole.
  try {
    load_library(NPURT_TEST_PLUGIN_CLASH);
    ADD_FAILURE() << "clash accepted";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), StatusCode::kAlreadyExists);
    std::string m = e.what();
    EXPECT_NE(m.find("npurt.load_library"), std::string::npos) << m;
    EXPECT_NE(m.find("op 'plugin_scale' is already registered (by "), std::string::npos) << m;
  }
  EXPECT_EQ(OpRegistry::instance().find("plugin_clash_other"), nullptr);

  try {
    load_library(NPURT_TEST_PLUGIN_INVALID);
    ADD_FAILURE() << "invalid plugin accepted";
  } catch (const InvalidArgument& e) {
    EXPECT_NE(std::string(e.what()).find("op 'plugin_no_tiling': has a kernel but no tiling function"),
              std::string::npos) << e.what();
  }
  EXPECT_THROW(load_library("/nonexistent/libx.so"), NotFound);
  // Still usable.
  EXPECT_EQ(npurt_test::download<float>(ops::call("plugin_scale", {x}, {{"a", 1.0}})[0]), (std::vector<float>{1, 2}));
  EXPECT_GE(loaded_libraries().size(), 1u);
}

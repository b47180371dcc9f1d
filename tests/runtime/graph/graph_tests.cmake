# tests/runtime/graph/graph_tests.cmake: extra wiring of npurt_test_graph (included
# from the top-level CMakeLists). The graph tests run the built-in kernels (add,
# mul, cast, copy, fill), which link the shared libnpurt, so this binary links
# libnpurt + libnpurt_kernels instead of the static twin (one registry per process).
if(TARGET npurt_test_graph AND TARGET npurt_kernels)
  set_property(TARGET npurt_test_graph PROPERTY LINK_LIBRARIES npurt npurt_kernels GTest::gtest_main)
endif()
# The plain C example (examples/c_api, which also shows graphs through the C API) is built and
# run as the ctest `c_api_example` by the top-level CMakeLists (NPURT_BUILD_EXAMPLES).

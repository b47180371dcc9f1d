# tests/runtime/graph/graph_tests.cmake: extra wiring of npurt_test_graph (included
# from the top-level CMakeLists). The graph tests run the built-in kernels (add,
# mul, cast, copy, fill), which link the shared libnpurt, so this binary links
# libnpurt + libnpurt_kernels instead of the static twin (one registry per process).
if(TARGET npurt_test_graph AND TARGET npurt_kernels)
  set_property(TARGET npurt_test_graph PROPERTY LINK_LIBRARIES npurt npurt_kernels GTest::gtest_main)
endif()
# The plain C example (examples/c_api, which also shows graphs through the C API)
# runs as a test of the in-tree build as well as of installed packages.
if(TARGET npurt AND NOT TARGET npurt_c_api_example AND EXISTS ${CMAKE_SOURCE_DIR}/examples/c_api/CMakeLists.txt)
  add_subdirectory(${CMAKE_SOURCE_DIR}/examples/c_api ${CMAKE_BINARY_DIR}/examples/c_api)
endif()

# tests/runtime/ops/ops_tests.cmake: extra wiring of npurt_test_ops (included
# from the top-level CMakeLists). The registry tests run the built-in kernels,
# which link the shared libnpurt, so this binary links libnpurt + libnpurt_kernels
# instead of the static twin (two runtimes in one process would mean two registries).
if(TARGET npurt_test_ops AND TARGET npurt_kernels)
  set_property(TARGET npurt_test_ops PROPERTY LINK_LIBRARIES npurt npurt_kernels GTest::gtest_main)
  foreach(p scale clash invalid)
    npurt_add_op_library(npurt_test_plugin_${p}
      SOURCES ${CMAKE_CURRENT_LIST_DIR}/plugins/plugin_${p}.cc
      INCLUDE_DIRECTORIES ${CMAKE_CURRENT_LIST_DIR}
      COMPILE_OPTIONS ${NPURT_WARNINGS})
    add_dependencies(npurt_test_ops npurt_test_plugin_${p})
    string(TOUPPER ${p} P)
    target_compile_definitions(npurt_test_ops PRIVATE
      NPURT_TEST_PLUGIN_${P}="$<TARGET_FILE:npurt_test_plugin_${p}>")
  endforeach()
  if(EXISTS ${CMAKE_SOURCE_DIR}/examples/custom_layernorm/CMakeLists.txt)
    add_subdirectory(${CMAKE_SOURCE_DIR}/examples/custom_layernorm ${CMAKE_BINARY_DIR}/examples/custom_layernorm)
    add_dependencies(npurt_test_ops npurt_layernorm)
    target_compile_definitions(npurt_test_ops PRIVATE
      NPURT_LAYERNORM_PLUGIN="$<TARGET_FILE:npurt_layernorm>")
    add_test(NAME example_layernorm_c COMMAND layernorm_c $<TARGET_FILE:npurt_layernorm>)
    add_test(NAME example_layernorm_cpp COMMAND layernorm_cpp $<TARGET_FILE:npurt_layernorm>)
  endif()
endif()

# tests/runtime/kernels/kernels_tests.cmake: extra wiring of the kernel-family test binaries
# (tests/runtime/kernels/<family>, included from the top-level CMakeLists). They run built-in
# ops through the public dispatcher; the kernels link the shared libnpurt, so these binaries
# link libnpurt + libnpurt_kernels instead of the static twin (one registry per process).
foreach(family fused linalg matmul)
  if(TARGET npurt_test_kernels_${family} AND TARGET npurt_kernels)
    set_property(TARGET npurt_test_kernels_${family} PROPERTY LINK_LIBRARIES npurt npurt_kernels GTest::gtest_main)
  endif()
endforeach()
foreach(family fused linalg matmul)
  if(TARGET npurt_test_kernels_${family})
    # the families' program/tiling headers ("kernels/fused/fused_program.h"), as //kernels:kernel_headers in Bazel
    target_include_directories(npurt_test_kernels_${family} PRIVATE ${CMAKE_SOURCE_DIR})
  endif()
endforeach()

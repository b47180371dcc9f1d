# Test-only FAKE AscendCL libraries for npurt_test_backends_ascend (not CANN).
#
# Three variants of tests/runtime/backends/ascend/fake/fake_ascendcl.cpp, each
# laid out like a CANN install (<root>/<variant>/lib64/libascendcl.so) so the
# tests drive the backend's real library search through ASCEND_HOME_PATH:
#   full             every entry point npurt resolves
#   minimal          only the required ones (exercises the fallbacks)
#   no_memcpy_async  lacks a required entry point (exercises the report)
if(TARGET npurt_test_backends_ascend)
  set(NPURT_FAKE_ASCEND_ROOT ${CMAKE_BINARY_DIR}/tests/fake_ascendcl)
  set(_npurt_fake_defs_full "")
  set(_npurt_fake_defs_minimal FAKE_ACL_MINIMAL)
  set(_npurt_fake_defs_no_memcpy_async FAKE_ACL_OMIT_MEMCPY_ASYNC)
  foreach(variant full minimal no_memcpy_async)
    set(tgt npurt_fake_ascendcl_${variant})
    add_library(${tgt} SHARED ${CMAKE_CURRENT_LIST_DIR}/fake_ascendcl.cpp)
    target_include_directories(${tgt} PRIVATE ${CMAKE_SOURCE_DIR}/runtime ${CMAKE_SOURCE_DIR}/runtime/include)
    target_compile_definitions(${tgt} PRIVATE ${_npurt_fake_defs_${variant}})
    target_compile_options(${tgt} PRIVATE ${NPURT_WARNINGS})
    target_link_libraries(${tgt} PRIVATE Threads::Threads)
    set_target_properties(${tgt} PROPERTIES OUTPUT_NAME ascendcl
      LIBRARY_OUTPUT_DIRECTORY ${NPURT_FAKE_ASCEND_ROOT}/${variant}/lib64)
    add_dependencies(npurt_test_backends_ascend ${tgt})
  endforeach()
  target_compile_definitions(npurt_test_backends_ascend PRIVATE
    NPURT_FAKE_ASCEND_ROOT="${NPURT_FAKE_ASCEND_ROOT}")
endif()

# npurt_test_backends_ascend_dispatch (tests/runtime/backends/ascend/dispatch):
# registered built-in ops dispatched to an ascend device on the fake, so it
# links libnpurt + libnpurt_kernels (one registry per process) and reads the
# kernels library's symbol table (nm) for the kernel naming rule.
if(TARGET npurt_test_backends_ascend_dispatch AND TARGET npurt_kernels AND TARGET npurt_fake_ascendcl_full)
  set_property(TARGET npurt_test_backends_ascend_dispatch PROPERTY LINK_LIBRARIES
    npurt npurt_kernels GTest::gtest_main ${CMAKE_DL_LIBS})
  add_dependencies(npurt_test_backends_ascend_dispatch npurt_fake_ascendcl_full)
  target_compile_definitions(npurt_test_backends_ascend_dispatch PRIVATE
    NPURT_FAKE_ASCEND_ROOT="${NPURT_FAKE_ASCEND_ROOT}"
    NPURT_KERNELS_LIBRARY="$<TARGET_FILE:npurt_kernels>")
endif()

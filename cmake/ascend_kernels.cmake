# cmake/ascend_kernels.cmake: -DNPURT_ASCEND_KERNELS=ON builds npurt's kernels for real NPUs.
#
# Included unconditionally by the top-level CMakeLists.txt; a no-op unless
# NPURT_ASCEND_KERNELS is ON. When ON it needs a CANN toolkit (this file has
# never been run on our machines: there is no CANN here; see docs/backends.md).
#
# What it does, following CANN's documented kernel build (ascendc.cmake from
# <CANN>/compiler/tikcpp/ascendc_kernel_cmake or <CANN>/tools/tikcpp/...):
#   - one kernel binary per kernel family: every kernels/<family>/*_kernel.cc
#     is compiled for NPURT_ASCEND_SOC with ascendc_fatbin_library, which links
#     a device object loadable by aclrtBinaryLoadFromFile;
#   - the binaries are collected in <build>/ascend_kernels/npurt_<family>.o and
#     installed next to libnpurt (<libdir>/ascend_kernels, or npurt/lib/ascend_kernels
#     in the Python wheel), where the ascend backend looks for them at run time
#     (runtime/backends/ascend/kernel_launcher.h); the build directory is also
#     compiled in as NPURT_ASCEND_KERNEL_DIR so an uninstalled build finds them.
#   - kernel sources are compiled with NPURT_ASCEND_DEVICE_BUILD=1 so sim-only
#     lines (NPURT_SIM_ENTRY thunks, host headers) can be excluded from device code.
# Plugins built with npurt_add_op_library can call npurt_add_ascend_kernels().
if(NOT NPURT_ASCEND_KERNELS)
  return()
endif()

set(NPURT_ASCEND_SOC "Ascend910B3" CACHE STRING
    "SoC the kernels are compiled for (CANN SOC_VERSION: Ascend910B1..B4, Ascend910_93xx, Ascend310P3)")
if(DEFINED ENV{ASCEND_HOME_PATH})
  set(_npurt_cann_default "$ENV{ASCEND_HOME_PATH}")
else()
  set(_npurt_cann_default "/usr/local/Ascend/ascend-toolkit/latest")
endif()
set(ASCEND_CANN_PACKAGE_PATH "${_npurt_cann_default}" CACHE PATH "CANN toolkit root (set_env.sh sets ASCEND_HOME_PATH)")

string(TOLOWER "${NPURT_ASCEND_SOC}" _npurt_soc_lower)
if(NOT _npurt_soc_lower MATCHES "^ascend(910b[1-4]|910b2c|910b4-1|910_93[0-9][0-9]|310p[1357])$")
  message(FATAL_ERROR "NPURT_ASCEND_SOC='${NPURT_ASCEND_SOC}' is not a SoC npurt has a chip profile for "
                      "(Ascend910B1..B4, Ascend910_93xx, Ascend310P1/3/5/7)")
endif()

set(_npurt_ascendc_cmake_dir "")
foreach(sub compiler/tikcpp/ascendc_kernel_cmake tools/tikcpp/ascendc_kernel_cmake)
  if(NOT _npurt_ascendc_cmake_dir AND EXISTS "${ASCEND_CANN_PACKAGE_PATH}/${sub}/ascendc.cmake")
    set(_npurt_ascendc_cmake_dir "${ASCEND_CANN_PACKAGE_PATH}/${sub}")
  endif()
endforeach()
if(NOT _npurt_ascendc_cmake_dir)
  message(FATAL_ERROR "NPURT_ASCEND_KERNELS=ON needs CANN's Ascend C toolchain: no ascendc.cmake under "
                      "${ASCEND_CANN_PACKAGE_PATH}/compiler/tikcpp/ascendc_kernel_cmake or .../tools/tikcpp/"
                      "ascendc_kernel_cmake. Source <CANN>/set_env.sh or pass -DASCEND_CANN_PACKAGE_PATH=...")
endif()

# Variables CANN's ascendc.cmake reads.
set(SOC_VERSION "${NPURT_ASCEND_SOC}")
set(RUN_MODE npu)
include("${_npurt_ascendc_cmake_dir}/ascendc.cmake")
if(NOT COMMAND ascendc_fatbin_library)
  message(FATAL_ERROR "${_npurt_ascendc_cmake_dir}/ascendc.cmake does not define ascendc_fatbin_library "
                      "(needed to build kernel binaries for aclrtBinaryLoadFromFile; CANN 8.3 or newer)")
endif()

set(NPURT_ASCEND_KERNEL_BUILD_DIR "${CMAKE_BINARY_DIR}/ascend_kernels")
file(MAKE_DIRECTORY "${NPURT_ASCEND_KERNEL_BUILD_DIR}")
if(NPURT_BUILD_PYTHON)
  set(NPURT_ASCEND_KERNEL_INSTALL_DIR "npurt/lib/ascend_kernels")
else()
  set(NPURT_ASCEND_KERNEL_INSTALL_DIR "${CMAKE_INSTALL_LIBDIR}/ascend_kernels")
endif()

# npurt_add_ascend_kernels(<name> <sources...>): one kernel binary npurt_<name>.o.
function(npurt_add_ascend_kernels name)
  set(tgt npurt_ascend_${name})
  ascendc_fatbin_library(${tgt} ${ARGN})
  ascendc_include_directories(${tgt} PRIVATE
    ${PROJECT_SOURCE_DIR}/kernels ${PROJECT_SOURCE_DIR}/runtime/include)
  ascendc_compile_definitions(${tgt} PRIVATE NPURT_ASCEND_DEVICE_BUILD=1)
  # ascendc_fatbin_library links the device object into
  # ${CMAKE_INSTALL_PREFIX}/fatbin/<target>/<target>.o from its lld_copy_<target> step.
  set(produced "${CMAKE_INSTALL_PREFIX}/fatbin/${tgt}/${tgt}.o")
  set(collected "${NPURT_ASCEND_KERNEL_BUILD_DIR}/npurt_${name}.o")
  add_custom_target(${tgt}_collect ALL
    COMMAND ${CMAKE_COMMAND} -E copy_if_different "${produced}" "${collected}"
    COMMENT "npurt: kernel binary ${collected}")
  add_dependencies(${tgt}_collect lld_copy_${tgt})
  install(FILES "${collected}" DESTINATION "${NPURT_ASCEND_KERNEL_INSTALL_DIR}")
endfunction()

file(GLOB _npurt_kernel_families LIST_DIRECTORIES true "${PROJECT_SOURCE_DIR}/kernels/*")
foreach(dir ${_npurt_kernel_families})
  if(IS_DIRECTORY "${dir}")
    file(GLOB _npurt_family_sources "${dir}/*_kernel.cc" "${dir}/*_kernels.cc" "${dir}/*_kernels_*.cc")
    if(_npurt_family_sources)
      get_filename_component(family "${dir}" NAME)
      npurt_add_ascend_kernels(${family} ${_npurt_family_sources})
    endif()
  endif()
endforeach()

target_compile_definitions(npurt_objects PRIVATE NPURT_ASCEND_KERNEL_DIR="${NPURT_ASCEND_KERNEL_BUILD_DIR}")
message(STATUS "npurt: Ascend C kernels for ${NPURT_ASCEND_SOC} with ${_npurt_ascendc_cmake_dir}")

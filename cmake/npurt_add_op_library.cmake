# npurt_add_op_library(<name> SOURCES <src>... [INCLUDE_DIRECTORIES <dir>...]
#                      [COMPILE_OPTIONS <opt>...] [LINK_LIBRARIES <lib>...]
#                      [OUTPUT_DIRECTORY <dir>])
#
# Builds an op plugin: a shared library whose sources are Ascend C kernels
# (compiled by the host compiler against npurt's simulated "kernel_operator.h")
# plus host tiling and NPURT_REGISTER_OP registrations. Load it with
# npurt::load_library(path) / nr.load_library(path) / npurtLoadLibrary(path),
# or link it. Works in the npurt tree and with an installed package
# (find_package(npurt) includes this file).
#
# Invariants: the plugin links libnpurt (shared) so it registers into the
# process's one registry; undefined symbols fail at link time, not at load time;
# only the registrations' static initializers matter, so symbols stay hidden.
include_guard(GLOBAL)

function(npurt_add_op_library name)
  cmake_parse_arguments(PARSE_ARGV 1 ARG "" "OUTPUT_DIRECTORY"
                        "SOURCES;INCLUDE_DIRECTORIES;COMPILE_OPTIONS;LINK_LIBRARIES")
  if(NOT ARG_SOURCES)
    message(FATAL_ERROR "npurt_add_op_library(${name}): SOURCES is required")
  endif()
  if(ARG_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "npurt_add_op_library(${name}): unknown arguments: ${ARG_UNPARSED_ARGUMENTS}")
  endif()
  if(TARGET npurt::npurt)
    set(_npurt_lib npurt::npurt)
  elseif(TARGET npurt)
    set(_npurt_lib npurt)
  else()
    message(FATAL_ERROR "npurt_add_op_library(${name}): no npurt target; call find_package(npurt) first")
  endif()
  add_library(${name} SHARED ${ARG_SOURCES})
  target_link_libraries(${name} PRIVATE ${_npurt_lib} ${ARG_LINK_LIBRARIES})
  target_compile_features(${name} PRIVATE cxx_std_17)
  target_include_directories(${name} PRIVATE ${ARG_INCLUDE_DIRECTORIES})
  target_compile_options(${name} PRIVATE ${ARG_COMPILE_OPTIONS})
  set_target_properties(${name} PROPERTIES
    CXX_VISIBILITY_PRESET hidden
    VISIBILITY_INLINES_HIDDEN ON
    POSITION_INDEPENDENT_CODE ON)
  if(CMAKE_SYSTEM_NAME STREQUAL "Linux")
    target_link_options(${name} PRIVATE "LINKER:--no-undefined")
  endif()
  if(ARG_OUTPUT_DIRECTORY)
    set_target_properties(${name} PROPERTIES LIBRARY_OUTPUT_DIRECTORY ${ARG_OUTPUT_DIRECTORY})
  endif()
endfunction()

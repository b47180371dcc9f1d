#!/usr/bin/env bash
# Bazel 4, conan, the CMake package + symbol check, conda metadata (packaging; see the script).
NPURT_CMAKE_BUILD_DIR="${NPURT_CMAKE_BUILD_DIR:-build/test-cpp}" exec bash "$(dirname "${BASH_SOURCE[0]}")/../build_checks.sh"

#!/bin/sh
# Bazel 4 offline shim: the real coverage tools are downloaded from
# mirror.bazel.build, which is unreachable here. `bazel coverage` is not
# supported on the Bazel 4 offline path; use gcov/CMake for coverage.
echo "coverage not supported on the Bazel 4 offline path (third_party/bazel4)" >&2
exit 1

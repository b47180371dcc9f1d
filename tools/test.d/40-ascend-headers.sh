#!/usr/bin/env bash
# Compile-checks the ascend backend against the real AscendCL headers of the
# torch-npu wheel on PyPI (issue 10). Skips with a printed reason when PyPI is
# unreachable; see tools/check_ascend_headers.sh.
exec bash "$(dirname "${BASH_SOURCE[0]}")/../check_ascend_headers.sh"

#!/usr/bin/env bash
# The ascend build paths that can be checked without CANN (issue 10):
#   1. the kernels' NPURT_ASCEND_DEVICE_BUILD guards (tests/packaging/check_kernel_device_guard.sh);
#   2. -DNPURT_ASCEND_KERNELS=ON without CANN must stop at configure time with a
#      message naming what is missing (never a half-configured build);
#   3. the ascend backend compiled against the real AscendCL headers of the
#      torch-npu wheel on PyPI (tools/check_ascend_headers.sh; skips with a
#      printed reason when PyPI is unreachable).
# Ends with the guard check's "kernel device guards: N passed, M failed" line
# (counted by tools/test.sh) and exits non-zero when any part failed.
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$root" || exit 1
rc=0

echo "--- -DNPURT_ASCEND_KERNELS=ON without CANN"
dir=build/ascend-kernels-without-cann
rm -rf "$dir"
if cmake -S . -B "$dir" -G Ninja -DNPURT_BUILD_TESTS=OFF -DNPURT_BUILD_EXAMPLES=OFF -DNPURT_ASCEND_KERNELS=ON \
     -DASCEND_CANN_PACKAGE_PATH=/nonexistent/cann >"$dir.log" 2>&1; then
  echo "FAIL: configuring with NPURT_ASCEND_KERNELS=ON and no CANN succeeded"; rc=1
elif grep -q "NPURT_ASCEND_KERNELS=ON needs CANN's Ascend C toolchain" "$dir.log"; then
  echo "ok   configure stops: $(grep -m1 -o "NPURT_ASCEND_KERNELS=ON needs CANN's Ascend C toolchain[^.]*" "$dir.log")"
else
  echo "FAIL: configure failed without the expected message:"; tail -n 15 "$dir.log"; rc=1
fi
rm -rf "$dir" "$dir.log"

echo "--- AscendCL headers"
bash tools/check_ascend_headers.sh || rc=1

echo "--- kernel device guards"
bash tests/packaging/check_kernel_device_guard.sh || rc=1
exit "$rc"

#!/usr/bin/env bash
# tools/check_ascend_headers.sh: compile the ascend backend against the REAL AscendCL headers.
#
# npurt's ascend backend declares the AscendCL functions it calls itself
# (runtime/backends/ascend/acl_types.h, acl_api.h) and loads libascendcl.so with
# dlopen, so nothing in a normal build checks those declarations against CANN.
# This script does: it downloads the torch-npu wheel from PyPI into a throwaway
# folder, extracts only its torch_npu/include/acl headers (the wheel is not a
# dependency of npurt and nothing else from it is used), and compiles every
# runtime/backends/ascend/*.cc with -DNPURT_ASCEND_REAL_HEADERS -Werror against
# them. In that mode acl_signature_check.cc static_asserts that each function
# pointer type of the table equals decltype(&aclXxx) and each constant equals
# the real enumerator. A self-test then proves the check is live (a deliberately
# wrong signature must fail to compile).
#
# Usage: tools/check_ascend_headers.sh
#   TORCH_NPU_VERSION=2.14.0      wheel version to fetch (default 2.14.0: ACL 1.17.0 headers)
#   NPURT_TORCH_NPU_WHEEL=path    use this wheel file instead of downloading
#   NPURT_REQUIRE_ASCEND_HEADERS=1  fail (exit 1) instead of skipping when PyPI is unreachable
#   CXX=...                       compiler (default c++)
# Exit: 0 passed (or skipped, with "SKIPPED:" printed), 1 failed.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
version="${TORCH_NPU_VERSION:-2.14.0}"
cxx="${CXX:-c++}"
python="${PYTHON:-python3}"
work="$(mktemp -d "${TMPDIR:-/tmp}/npurt-acl-headers.XXXXXX")"
trap 'rm -rf "$work"' EXIT

skip() {
  echo "SKIPPED: $*"
  if [[ "${NPURT_REQUIRE_ASCEND_HEADERS:-0}" == "1" ]]; then exit 1; fi
  exit 0
}

# 1. The wheel.
wheel="${NPURT_TORCH_NPU_WHEEL:-}"
if [[ -z "$wheel" ]]; then
  echo "downloading torch-npu==$version from PyPI (headers only are used) ..."
  # One fixed wheel flavour whatever the host Python/arch: the headers are the
  # same in every flavour, and this keeps the check reproducible.
  if ! "$python" -m pip download "torch-npu==$version" --no-deps --only-binary=:all: \
        --platform manylinux_2_28_x86_64 --python-version 3.11 --implementation cp --abi cp311 \
        -d "$work/wheel" --quiet --disable-pip-version-check >"$work/pip.log" 2>&1; then
    skip "could not download torch-npu==$version from PyPI: $(grep -v '^WARNING' "$work/pip.log" | tail -n 2 | tr '\n' ' ')"
  fi
  wheel="$(ls "$work"/wheel/torch_npu-*.whl 2>/dev/null | head -n 1)"
  [[ -n "$wheel" ]] || skip "pip reported success but left no torch_npu wheel in $work/wheel"
fi

# 2. Only include/acl from it.
"$python" - "$wheel" "$work/include" <<'PY'
import sys, zipfile, os
wheel, out = sys.argv[1], sys.argv[2]
prefix = "torch_npu/include/acl/"
n = 0
with zipfile.ZipFile(wheel) as z:
    for name in z.namelist():
        if name.startswith(prefix) and not name.endswith("/"):
            dest = os.path.join(out, "acl", name[len(prefix):])
            os.makedirs(os.path.dirname(dest), exist_ok=True)
            with z.open(name) as src, open(dest, "wb") as dst:
                dst.write(src.read())
            n += 1
if n == 0:
    sys.exit("no torch_npu/include/acl headers in " + wheel)
print(f"extracted {n} AscendCL headers from {os.path.basename(wheel)}")
PY
acl_rt="$work/include/acl/acl_rt.h"
ver() { sed -n "s/^#define[[:space:]]*$1[[:space:]]*\([0-9]*\).*/\1/p" "$acl_rt" | head -n 1; }
echo "AscendCL headers: ACL $(ver ACL_MAJOR_VERSION).$(ver ACL_MINOR_VERSION).$(ver ACL_PATCH_VERSION) (torch-npu $(basename "$wheel" | cut -d- -f2))"

flags=(-std=c++17 -Wall -Wextra -Werror -DNPURT_ASCEND_REAL_HEADERS
       -I"$work/include" -I"$root/runtime" -I"$root/runtime/include")

# 3. Every backend source against the real declarations.
status=0
count=0
for src in "$root"/runtime/backends/ascend/*.cc; do
  count=$((count + 1))
  if "$cxx" "${flags[@]}" -c "$src" -o "$work/$(basename "$src").o" 2>"$work/err.txt"; then
    echo "ok   $(basename "$src")"
  else
    echo "FAIL $(basename "$src")"; cat "$work/err.txt"; status=1
  fi
done

# 4. Self-test: the real headers are in use and a wrong signature is rejected.
cat >"$work/selftest_headers.cc" <<'CC'
#include "backends/ascend/acl_types.h"
#ifndef ACL_MAJOR_VERSION
#error "NPURT_ASCEND_REAL_HEADERS did not pull in the real <acl/acl.h>"
#endif
CC
cat >"$work/selftest_mismatch.cc" <<'CC'
#include <type_traits>
#include "backends/ascend/acl_api.h"
static_assert(std::is_same<npurt::ascend::AclApi::aclrtMemcpy_fn, decltype(&::aclrtMemcpyAsync)>::value,
              "expected to fail: different signatures");
CC
if ! "$cxx" "${flags[@]}" -fsyntax-only "$work/selftest_headers.cc"; then
  echo "FAIL self-test: real headers not used"; status=1
elif "$cxx" "${flags[@]}" -fsyntax-only "$work/selftest_mismatch.cc" 2>/dev/null; then
  echo "FAIL self-test: a wrong signature compiled, the check is not live"; status=1
else
  echo "ok   self-test (real headers used; a wrong signature is rejected)"
fi

if [[ $status -eq 0 ]]; then
  echo "PASSED: $count ascend backend sources compile with -Werror against the real AscendCL headers"
else
  echo "FAILED: see above"
fi
exit $status

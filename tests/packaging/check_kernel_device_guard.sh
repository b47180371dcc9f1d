#!/usr/bin/env bash
# tests/packaging/check_kernel_device_guard.sh: checks the NPURT_ASCEND_DEVICE_BUILD
# guards of the kernel sources (issue 10).
#
# cmake/ascend_kernels.cmake compiles every kernels/<family>/*_kernel.cc,
# *_kernels.cc and *_kernels_*.cc with CANN's Ascend C compiler and
# -DNPURT_ASCEND_DEVICE_BUILD=1; in that build only the extern "C" __global__
# __aicore__ entries may remain (the sim entry thunks, NPURT_SIM_ENTRY, and the
# host-side op info are compiled out). There is no CANN here, so each source is
# compiled twice with the host compiler against npurt's sim kernel_operator.h:
#   - with -DNPURT_ASCEND_DEVICE_BUILD: the object must define the extern "C"
#     npurt_*kernel entries and contain no sim thunk (npurt_sim_thunk), no
#     SimKernelEntry object (k*Entry / npurt_matmul_entry) and no op info (kInfo_);
#   - without it (control): it must contain a sim thunk, so the guard, not the
#     check, is what removed them.
# This checks the guards, not that the kernels compile with CANN's compiler.
# Ends with "kernel device guards: N passed, M failed".
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cxx="${CXX:-c++}"
work="$(mktemp -d "${TMPDIR:-/tmp}/npurt-kguard.XXXXXX")"
trap 'rm -rf "$work"' EXIT
flags=(-std=c++17 -E -P -I"$root/runtime/include" -I"$root/runtime/backends/sim/aicore/include" -I"$root/kernels")
sim_only='npurt_sim_thunk<&|EwOpInfo kInfo_'
passed=0 failed=0
shopt -s nullglob
for src in "$root"/kernels/*/*_kernel.cc "$root"/kernels/*/*_kernels.cc "$root"/kernels/*/*_kernels_*.cc; do
  rel=${src#"$root"/}
  if ! "$cxx" "${flags[@]}" -DNPURT_ASCEND_DEVICE_BUILD=1 "$src" -o "$work/dev.ii" 2>"$work/err" ||
     ! "$cxx" "${flags[@]}" "$src" -o "$work/sim.ii" 2>>"$work/err"; then
    echo "FAIL $rel: preprocessing failed"; head -n 20 "$work/err"; failed=$((failed + 1)); continue
  fi
  # Entry definitions: extern "C" ... void npurt_<name>kernel( (one line or split by the macros)
  entries=$(tr '\n' ' ' <"$work/dev.ii" | grep -oE 'extern "C"[^;{(]*void npurt_[a-z0-9_]*kernel *\(' | wc -l)
  leaks=$(grep -oE "$sim_only" "$work/dev.ii" | sort -u | tr '\n' ' ')
  controls=$(grep -cE 'npurt_sim_thunk<&' "$work/sim.ii")
  if [[ $entries -eq 0 ]]; then
    echo "FAIL $rel: no extern \"C\" npurt_*kernel entry left in the device build"; failed=$((failed + 1))
  elif [[ -n $leaks ]]; then
    echo "FAIL $rel: sim-only code left in the device build: $leaks"; failed=$((failed + 1))
  elif [[ $controls -eq 0 ]]; then
    echo "FAIL $rel: control: the sim build has no npurt_sim_thunk<&...> (is the check still live?)"
    failed=$((failed + 1))
  else
    echo "ok   $rel ($entries device entries; sim thunks only without the macro)"; passed=$((passed + 1))
  fi
done
echo "kernel device guards: $passed passed, $failed failed"
[[ $failed -eq 0 && $passed -gt 0 ]]

#!/usr/bin/env bash
# tools/test.sh: the project's one test command (README; .ci/run calls exactly this).
#
# Works on a fresh machine as root, without stdin. Steps, each logged to
# build/test-logs/<step>.log and echoed:
#   deps       apt packages (only the missing ones; apt-get update first only then)
#              and the pip packages the build and the tests need
#   cpp        CMake + Ninja build in build/test-cpp, then ctest
#   python     pip install -e . --no-build-isolation (build dir build/test-py), pytest with
#              one pytest-xdist worker per core (tools/test_lib.sh pytest_parallel; a test
#              that must share a worker with others says @pytest.mark.xdist_group(name))
#   simfull    the same pytest run on the python step's install with NPURT_SIM_CHECK=full:
#              every kernel under all of the sim's checks (full pipe syncs, GM ordering,
#              initcheck), which the default level (basic) leaves out for speed
#   tsan       the C++ pool, stream and sim-backend test binaries (npurt_test_memory,
#              npurt_test_exec, npurt_test_backends_sim, npurt_test_backends_sim_aicore:
#              multi-block launches on the simulated AI cores, npurt_test_backends_ascend:
#              the ascend backend on the fake AscendCL's stream threads) and the embedding service
#              examples/cpp_service built with ThreadSanitizer (build/tsan), and run
#   asan       the extension built with AddressSanitizer (build/asan), installed in its own
#              venv (build/asan-venv) so the normal install is untouched, pytest (xdist
#              workers as above) with LD_PRELOAD=libasan and ASAN_OPTIONS=detect_leaks=0
#              (CPython's own leaks);
#              then examples/cpp_service from the same build, with leak checks
#   extra      every tools/test.d/*.sh, in name order (Bazel, conan, ... add theirs there)
# Exits non-zero when any step fails. Ends with each runner's summary line and a
# combined line "total: N passed, M failed" (a failed step without a count adds 1 failure).
#
# Environment: PYTHON (default python3), NPURT_TEST_SKIP="tsan asan extra ..." to skip
# steps while developing (CI never sets it; "extra" = all tools/test.d steps), JOBS (default: nproc),
# PYTEST_WORKERS (pytest-xdist workers, default JOBS; 1 = serial), NPURT_TEST_LOGS (default
# build/test-logs), CC / CXX (default: PYTHON's sysconfig compilers, the ones scikit-build-core
# uses, exported for every build so ccache shares the cpp and python steps' objects).
# Both pytest runs print their 15 slowest tests (--durations) to show where CI time goes.
set -uo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
PY="${PYTHON:-python3}"
JOBS="${JOBS:-$(nproc)}"
LOGS="${NPURT_TEST_LOGS:-$ROOT/build/test-logs}"
mkdir -p "$LOGS"
export PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_NO_INPUT=1 DEBIAN_FRONTEND=noninteractive
export CCACHE_BASEDIR="$ROOT"

APT_PACKAGES=(cmake g++ ninja-build ccache libgtest-dev libgmock-dev googletest libbenchmark-dev)
PIP_PACKAGES=(nanobind scikit-build-core numpy ml_dtypes pytest pytest-xdist hypothesis array-api-strict jsonschema tqdm)
# Third-party array-API consumers that tests/python/array_api/third_party runs on npurt arrays
# (pinned: their internals are what is tested). Only the main interpreter gets them; the ASan
# venv does not, and those tests skip there with the reason.
THIRD_PARTY_PACKAGES=(array-api-compat==1.16.0 array-api-extra==0.11.5 scipy==1.17.1 scikit-learn==1.9.1 einops==0.8.2)
SERVICE_ARGS="--workers 4 --producers 2 --batches 24"  # examples/cpp_service under the sanitizers
CCACHE_LAUNCHER=()
command -v ccache >/dev/null && CCACHE_LAUNCHER=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)

# ---- bookkeeping --------------------------------------------------------------
# shellcheck source=tools/test_lib.sh
source "$ROOT/tools/test_lib.sh"  # TOTAL_*, SUMMARY_LINES, the *_counts parsers, pytest_parallel
# The sanitizer builds' -g compiles stay ccache hits from any clone path (see test_lib.sh).
DEBUG_PREFIX_MAP="$(debug_prefix_map "$ROOT")"
# One compiler name for the cpp, python, tsan and asan builds and the build checks, so
# the cpp and python steps share their Release objects in ccache (see test_lib.sh).
read -r CC CXX < <(build_compilers "$PY")
export CC CXX
echo "build compilers: CC=$CC CXX=$CXX"
STEP_LINES=()     # "step: ok|FAILED (Ns)"

# NPURT_TEST_SKIP names steps; "extra" skips every tools/test.d step.
skipped() { [[ " ${NPURT_TEST_SKIP:-} " == *" $1 "* || ($1 == extra-* && " ${NPURT_TEST_SKIP:-} " == *" extra "*) ]]; }

# run_step NAME FUNCTION: runs FUNCTION with output to the console and the log.
run_step() {
  local name="$1" fn="$2" start rc
  echo
  echo "===== [$name] $(date -u +%H:%M:%S) ====="
  start=$SECONDS
  "$fn" 2>&1 | tee "$LOGS/$name.log"
  rc=${PIPESTATUS[0]}
  if [[ $rc -eq 0 ]]; then
    STEP_LINES+=("$name: ok ($((SECONDS - start))s)")
  else
    STEP_LINES+=("$name: FAILED with exit $rc ($((SECONDS - start))s), log: ${LOGS#"$ROOT"/}/$name.log")
  fi
  return "$rc"
}

# ---- steps ----------------------------------------------------------------------
deps() {
  local missing=() p
  for p in "${APT_PACKAGES[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  if [[ ${#missing[@]} -gt 0 ]]; then
    echo "apt: installing ${missing[*]}"
    local sudo=()
    [[ $(id -u) -ne 0 ]] && sudo=(sudo -n)
    "${sudo[@]}" apt-get update -q && "${sudo[@]}" apt-get install -y -q "${missing[@]}" || return 1
  else
    echo "apt: all of ${APT_PACKAGES[*]} present"
  fi
  "$PY" -m pip install -q --root-user-action=ignore "${PIP_PACKAGES[@]}" "${THIRD_PARTY_PACKAGES[@]}" || return 1
  "$PY" -m pip list 2>/dev/null |
    grep -iE '^(nanobind|scikit.build.core|numpy|ml.dtypes|pytest|pytest.xdist|hypothesis|array.api.(strict|compat|extra)|scipy|scikit.learn|einops) '
}

cpp() {
  # Release like the Python build, so ccache shares libnpurt objects between the two builds
  cmake -S . -B build/test-cpp -G Ninja -DCMAKE_BUILD_TYPE=Release "${CCACHE_LAUNCHER[@]}" &&
    cmake --build build/test-cpp -j "$JOBS" &&
    ctest --test-dir build/test-cpp --output-on-failure -j "$JOBS"
}

install_package() {  # the editable install both pytest steps run on (incremental)
  "$PY" -m pip install -q --root-user-action=ignore -e . --no-build-isolation -Cbuild-dir=build/test-py \
    -Ccmake.define.CMAKE_CXX_COMPILER_LAUNCHER=ccache
}

python_tests() {
  install_package || return 1
  local rc=0 parallel
  mapfile -t parallel < <(pytest_parallel "$PY")
  "$PY" -m pytest -q --durations=15 "${parallel[@]}" tests/python || rc=$?
  [[ $rc -eq 5 ]] && echo "pytest collected no tests: the suite is missing"
  return "$rc"
}

# The suite again at the sim's full check level (docs/backends.md): a kernel that a real
# NPU would punish (a missing flag between pipes, an unordered GM write) faults here even
# where the default level lets it pass. ~2 min on 2 cores.
sim_full_tests() {
  install_package || return 1
  local parallel
  mapfile -t parallel < <(pytest_parallel "$PY")
  NPURT_SIM_CHECK=full "$PY" -m pytest -q -p no:cacheprovider "${parallel[@]}" tests/python
}

tsan() {
  cmake -S . -B build/tsan -G Ninja -DCMAKE_BUILD_TYPE=Debug "${CCACHE_LAUNCHER[@]}" \
    "-DCMAKE_CXX_FLAGS=-fsanitize=thread -g -O1 $DEBUG_PREFIX_MAP" \
    -DCMAKE_EXE_LINKER_FLAGS=-fsanitize=thread -DCMAKE_SHARED_LINKER_FLAGS=-fsanitize=thread || return 1
  local targets
  targets=$(ninja -C build/tsan -t targets all |
    grep -oE '^(npurt_test_(memory|exec|backends_sim|backends_sim_aicore|backends_ascend)|npurt_cpp_service):' | tr -d ':' | sort -u)
  if [[ -z "$targets" ]]; then
    echo "no pool/stream test binaries (npurt_test_memory*, npurt_test_exec*) defined"
    return 1
  fi
  echo "ThreadSanitizer binaries: $targets"
  # shellcheck disable=SC2086
  cmake --build build/tsan -j "$JOBS" --target $targets || return 1
  local t rc=0
  for t in $targets; do
    echo "--- $t"
    local run=("build/tsan/$t")  # the embedding service: several threads, streams, both APIs
    [[ $t == npurt_cpp_service ]] && run=(build/tsan/examples/cpp_service/$t $SERVICE_ARGS)
    # tools/tsan.supp: races that fault tests make on purpose (the kernel under test is the race).
    TSAN_OPTIONS="${TSAN_OPTIONS:-second_deadlock_stack=1} suppressions=$ROOT/tools/tsan.supp" "${run[@]}" || rc=1
  done
  return "$rc"
}

asan() {
  local venv=build/asan-venv
  [[ -x $venv/bin/python ]] || "$PY" -m venv "$venv" || return 1
  "$venv/bin/python" -m pip install -q --root-user-action=ignore "${PIP_PACKAGES[@]}" || return 1
  "$venv/bin/python" -m pip install --root-user-action=ignore -e . --no-build-isolation -Cbuild-dir=build/asan \
    -Ccmake.build-type=RelWithDebInfo -Ccmake.define.CMAKE_CXX_COMPILER_LAUNCHER=ccache \
    "-Ccmake.define.CMAKE_CXX_FLAGS=-fsanitize=address -fno-omit-frame-pointer $DEBUG_PREFIX_MAP" \
    "-Ccmake.define.CMAKE_C_FLAGS=$DEBUG_PREFIX_MAP" \
    "-Ccmake.define.CMAKE_MODULE_LINKER_FLAGS=-fsanitize=address" \
    "-Ccmake.define.CMAKE_SHARED_LINKER_FLAGS=-fsanitize=address" \
    "-Ccmake.define.CMAKE_EXE_LINKER_FLAGS=-fsanitize=address" -Ccmake.define.NPURT_BUILD_EXAMPLES=ON || return 1
  # libstdc++ is preloaded too: python itself does not link it, so without it ASan's
  # __cxa_throw interceptor finds no real function and the first C++ throw aborts.
  # Reports go to files because pytest's fd capture would swallow them on abort.
  local preload reports="$LOGS/asan-report" rc=0 parallel
  mapfile -t parallel < <(pytest_parallel "$venv/bin/python")
  preload="$(gcc -print-file-name=libasan.so) $(gcc -print-file-name=libstdc++.so.6)"
  rm -f "$reports".*
  LD_PRELOAD="$preload" ASAN_OPTIONS="detect_leaks=0:abort_on_error=0:log_path=$reports" \
    "$venv/bin/python" -m pytest -q -p no:cacheprovider --durations=15 "${parallel[@]}" tests/python || rc=$?
  # The embedding service (built in the same ASan build): a standalone program,
  # so leaks are checked too.
  echo "--- npurt_cpp_service under AddressSanitizer"
  ASAN_OPTIONS="detect_leaks=1:abort_on_error=0:log_path=$reports" \
    build/asan/examples/cpp_service/npurt_cpp_service $SERVICE_ARGS || rc=1
  if compgen -G "$reports.*" >/dev/null; then
    echo "AddressSanitizer reports:"
    cat "$reports".*
    rc=1
  fi
  return "$rc"
}

# ---- extra steps ------------------------------------------------------------------
# Bazel, conan and other build systems plug in here: add tools/test.d/NN-name.sh
# (it runs from the repo root with $PYTHON set; exit 0 = pass, and it may skip
# itself with a clear message when its tool is missing and cannot be installed).
extra_step() { PYTHON="$PY" bash "$EXTRA_SCRIPT"; }

# ---- main -----------------------------------------------------------------------------
overall=0

# step NAME FUNCTION [COUNTER LABEL]: runs the step, adds its runner's counts; a
# failed step whose log yields no failure count adds one failure.
step() {
  local name=$1 fn=$2 counter=${3:-} label=${4:-} before=$TOTAL_FAILED rc=0
  skipped "$name" && { STEP_LINES+=("$name: skipped (NPURT_TEST_SKIP)"); return; }
  run_step "$name" "$fn" || rc=$?
  [[ -n $counter ]] && { "$counter" "$LOGS/$name.log" "$label" || true; }
  if [[ $rc -ne 0 ]]; then
    overall=1
    [[ $TOTAL_FAILED -eq $before ]] && add_counts 0 1
  fi
}

step deps deps
step cpp cpp ctest_counts ctest
step python python_tests pytest_counts pytest
step simfull sim_full_tests pytest_counts "pytest (NPURT_SIM_CHECK=full)"
step tsan tsan gtest_counts tsan
step asan asan pytest_counts "pytest (ASan)"
for EXTRA_SCRIPT in tools/test.d/*.sh; do
  [[ -e $EXTRA_SCRIPT ]] || continue
  name="extra-$(basename "$EXTRA_SCRIPT" .sh)"
  step "$name" extra_step plain_counts "$name"
done

echo
echo "===== summary ====="
printf '%s\n' "${STEP_LINES[@]}"
printf '%s\n' "${SUMMARY_LINES[@]}"
echo "total: $TOTAL_PASSED passed, $TOTAL_FAILED failed"
exit "$overall"

#!/usr/bin/env bash
# tools/build_checks.sh: every way to build and consume npurt besides the main
# CMake/pip path, each really exercised (tools/test.sh runs it as an extra step).
#
#   bazel-files  MODULE.bazel / BUILD / .bzl structure check (no modern Bazel and
#                no buildifier can be had here: tests/packaging/check_bazel_files.py)
#   conda        environment.yml + conda/recipe/recipe.yaml: YAML, keys, MatchSpecs
#                (py-rattler) and a self-test of the validator; never built or solved
#   cmake-pkg    cmake --install into build/pkg-install, the exported-symbol check of
#                libnpurt (plus a negative control that must be caught), and the
#                consumer project tests/packaging/cmake_consumer (find_package) + ctest
#   wheel-cmake  the CMake package inside the installed Python package: the same
#                consumer project configured with -Dnpurt_DIR=$(python -m npurt
#                --cmake-dir), built and run (needs `pip install .` of npurt in $PY)
#   wheel        pip wheel . (no build isolation, reusing the python step's build
#                dir build/test-py) and tests/packaging/check_library_copies.py on
#                it: one libnpurt in npurt/lib, not versioned copies (a wheel holds
#                no symlinks); the installed package's npurt/lib is checked by
#                wheel-cmake and by tests/python/tools/test_library_copies.py
#   conan        conan create . --build=missing -nr (CONAN_HOME=build/conan-home),
#                which builds, packages and runs test_package/
#   conan-static (not run by default: only when NPURT_BUILD_CHECKS names it, to keep
#                tools/test.sh's time) conan create with shared=False and
#                sim_check=full: the static archives, whole-archive kernels, test_package
#   bazel        Debian's Bazel 4 offline: bazel-4 test --config=bazel4 //... (every
#                gtest, and //tests:python_tests: a subset of the Python suite on the
#                Bazel package) and the exported-symbol check of //runtime:shared/libnpurt.so
# A step is skipped (with the reason printed) only when its tool cannot be installed.
# Ends with "build checks: N passed, M failed, K skipped"; exits 1 when M > 0.
#
# Environment: PYTHON (default python3; Bazel and pytest use the python3 on PATH,
# so run from the project's env), NPURT_BUILD_CHECKS="conda bazel" to run only
# some steps, NPURT_CMAKE_BUILD_DIR (default build/test-cpp, tools/test.sh's C++
# build) to install from an existing non-Python CMake build instead of building
# build/packaging.
set -uo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
PY="${PYTHON:-python3}"
LOGS="$ROOT/build/build-checks"
mkdir -p "$LOGS"
export PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_NO_INPUT=1 DEBIAN_FRONTEND=noninteractive
export CCACHE_BASEDIR="$ROOT"
command -v ccache >/dev/null && export CMAKE_CXX_COMPILER_LAUNCHER=ccache CMAKE_C_COMPILER_LAUNCHER=ccache

PASSED=0 FAILED=0 SKIPPED=0
RESULTS=()

wanted() { [[ -z "${NPURT_BUILD_CHECKS:-}" || " $NPURT_BUILD_CHECKS " == *" $1 "* ]]; }

# check NAME FUNCTION: runs one step; exit 0 pass, 77 skip (reason printed), else fail.
check() {
  local name=$1 fn=$2 start=$SECONDS rc=0
  wanted "$name" || return 0
  echo
  echo "----- build check [$name] $(date -u +%H:%M:%S) -----"
  "$fn" 2>&1 | tee "$LOGS/$name.log"
  rc=${PIPESTATUS[0]}
  local took="$((SECONDS - start))s"
  case $rc in
    0) PASSED=$((PASSED + 1)); RESULTS+=("$name: ok ($took)") ;;
    77) SKIPPED=$((SKIPPED + 1)); RESULTS+=("$name: SKIPPED ($took): $(tail -n 1 "$LOGS/$name.log")") ;;
    *) FAILED=$((FAILED + 1)); RESULTS+=("$name: FAILED, exit $rc ($took), log build/build-checks/$name.log") ;;
  esac
}

apt_install() {  # apt_install PKG...: installs the missing ones; 1 when impossible
  local missing=() p
  for p in "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  [[ ${#missing[@]} -eq 0 ]] && return 0
  command -v apt-get >/dev/null || { echo "apt-get not available to install ${missing[*]}"; return 1; }
  local sudo=()
  [[ $(id -u) -ne 0 ]] && sudo=(sudo -n)
  echo "apt: installing ${missing[*]}"
  "${sudo[@]}" apt-get update -q >/dev/null && "${sudo[@]}" apt-get install -y -q "${missing[@]}" >/dev/null
}

pip_install() {  # pip_install PKG...: into the current env, only when missing
  local mod=$1; shift
  "$PY" -c "import $mod" 2>/dev/null && return 0
  echo "pip: installing $*"
  "$PY" -m pip install -q "$@"
}

# ---- steps ----------------------------------------------------------------------
bazel_files() {
  "$PY" tests/packaging/check_bazel_files.py
}

conda_meta() {
  pip_install yaml pyyaml || { echo "skipped: pyyaml cannot be installed"; return 77; }
  pip_install rattler py-rattler || { echo "skipped: py-rattler cannot be installed from PyPI"; return 77; }
  "$PY" conda/validate.py --self-test
}

symbols_negative_control() {
  # A library that leaks internal names must be caught by the checker.
  local dir=build/build-checks/leaky
  mkdir -p "$dir"
  cat >"$dir/leaky.cc" <<'EOF'
namespace npurt { namespace sim { struct SimBackend { int run(); }; int SimBackend::run() { return 1; } } }
namespace npurt { struct ThreadPool { void start(); }; void ThreadPool::start() {} }
extern "C" int npurtGetVersion() { return 0; }
EOF
  g++ -shared -fPIC -o "$dir/libleaky.so" "$dir/leaky.cc" || return 1
  if "$PY" tests/packaging/check_exported_symbols.py "$dir/libleaky.so" >"$dir/out.txt" 2>&1; then
    echo "negative control: the symbol check accepted a leaking library"; cat "$dir/out.txt"; return 1
  fi
  grep -q "SimBackend" "$dir/out.txt" && grep -q "ThreadPool" "$dir/out.txt" ||
    { echo "negative control: leaks not named"; cat "$dir/out.txt"; return 1; }
  echo "negative control: leaking library rejected ($(tail -n 1 "$dir/out.txt"))"
}

cmake_pkg() {
  local build="${NPURT_CMAKE_BUILD_DIR:-build/test-cpp}" prefix="$ROOT/build/pkg-install"
  if [[ -f $build/CMakeCache.txt ]] && grep -q '^NPURT_BUILD_PYTHON:BOOL=OFF' "$build/CMakeCache.txt"; then
    echo "installing from the existing build $build (brought up to date first)"
    cmake --build "$build" -j 2 || return 1
  else
    build=build/packaging
    cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DNPURT_BUILD_TESTS=OFF \
      -DCMAKE_INSTALL_PREFIX="$prefix" >"$LOGS/cmake-pkg-configure.log" || { cat "$LOGS/cmake-pkg-configure.log"; return 1; }
    cmake --build "$build" -j 2 || return 1
  fi
  rm -rf "$prefix"
  cmake --install "$build" --prefix "$prefix" >"$LOGS/cmake-pkg-install.log" || { cat "$LOGS/cmake-pkg-install.log"; return 1; }
  local f
  for f in include/npurt/npurt.h include/npurt/runtime.h include/npurt/aicore/kernel_operator.h \
           lib/libnpurt.so lib/libnpurt_kernels.so lib/cmake/npurt/npurtConfig.cmake \
           lib/cmake/npurt/npurtConfigVersion.cmake lib/cmake/npurt/npurtTargets.cmake; do
    [[ -e $prefix/$f ]] || { echo "install: $f is missing"; return 1; }
  done
  echo "install: headers, libraries and CMake package files present in build/pkg-install"
  "$PY" tests/packaging/check_exported_symbols.py "$prefix/lib/libnpurt.so" || return 1
  "$PY" tests/packaging/check_library_copies.py "$prefix/lib" || return 1  # symlinks, one file
  symbols_negative_control || return 1
  local consumer=build/pkg-consumer
  rm -rf "$consumer"
  cmake -S tests/packaging/cmake_consumer -B "$consumer" -G Ninja -DCMAKE_PREFIX_PATH="$prefix" || return 1
  cmake --build "$consumer" || return 1
  ctest --test-dir "$consumer" --output-on-failure
}

wheel_cmake() {
  local dir consumer=build/wheel-consumer
  dir=$("$PY" -m npurt --cmake-dir) ||
    { echo "python -m npurt --cmake-dir failed: install npurt into $PY first (tools/test.sh's python step)"; return 1; }
  echo "npurt_DIR=$dir"
  "$PY" tests/packaging/check_library_copies.py "$(dirname "$(dirname "$dir")")" || return 1
  rm -rf "$consumer"
  cmake -S tests/packaging/cmake_consumer -B "$consumer" -G Ninja -Dnpurt_DIR="$dir" || return 1
  cmake --build "$consumer" -j 2 || return 1
  ctest --test-dir "$consumer" --output-on-failure
}

wheel_pkg() {
  local dist="$LOGS/wheel"
  rm -rf "$dist"
  "$PY" -m pip wheel -q --no-deps --no-build-isolation \
    -Cbuild-dir=build/test-py -Ccmake.define.CMAKE_CXX_COMPILER_LAUNCHER=ccache -w "$dist" . || return 1
  "$PY" tests/packaging/check_library_copies.py "$dist"/npurt-*.whl
}

conan_pkg() {  # conan_pkg [extra conan create arguments]
  pip_install conans conan || { echo "skipped: conan cannot be installed from PyPI"; return 77; }
  export CONAN_HOME="$ROOT/build/conan-home"
  conan profile detect --exist-ok >/dev/null 2>&1 || true
  conan create . --build=missing -nr -c tools.cmake.cmaketoolchain:generator=Ninja \
    -c tools.cmake.cmaketoolchain:user_presets= \
    -c tools.build:jobs=2 "$@"
}

conan_static() {
  conan_pkg -o "npurt/*:shared=False" -o "npurt/*:sim_check=full"
}

bazel4() {
  apt_install bazel-bootstrap googletest ||
    { echo "skipped: Debian's bazel-bootstrap/googletest cannot be installed here"; return 77; }
  command -v bazel-4 >/dev/null || { echo "skipped: bazel-4 not on PATH after installing bazel-bootstrap"; return 77; }
  "$PY" -c "import nanobind, pytest, numpy" ||
    { echo "the Python env ($PY) lacks nanobind/pytest/numpy (tools/test.sh installs them)"; return 1; }
  local rc=0 cache="${XDG_CACHE_HOME:-$HOME/.cache}/npurt/bazel-disk-cache"
  # The py_test and the nanobind repository rule use python3 from PATH: make it $PY's.
  local pybin
  pybin=$(dirname "$("$PY" -c 'import sys; print(sys.executable)')")
  # Build first, then test with nothing compiling next to the tests (a few
  # runtime tests measure latencies), one test at a time.
  local flags=(--config=bazel4 --disk_cache="$cache")
  # //tests:python_tests runs a subset of the Python suite on the -O0
  # (k8-fastbuild) package: the package's own tests and one module per
  # tests/python folder (tests/BUILD.bazel says which and why; the whole suite
  # runs in tools/test.sh's python and asan steps, and on this package by name:
  # //tests:python_tests_all). One pytest-xdist worker per core, as the python step.
  # Not -c opt: opt compiles every file twice (PIC and not) at ~3.5x the CPU
  # per file, and the suite takes the same CPU on either package (wave 12,
  # docs/performance.md).
  local xdist_args
  xdist_args=$(source "$ROOT/tools/test_lib.sh" && pytest_parallel "$PY" | tr '\n' ' ')
  [[ -n $xdist_args ]] && flags+=("--test_env=NPURT_BAZEL_PYTEST_ARGS=${xdist_args% }")
  export PATH="$pybin:$PATH" PYTHON_BIN_PATH="$pybin/python3"
  nice -n 10 bazel-4 build "${flags[@]}" //... || rc=$?
  if [[ $rc -eq 0 ]]; then
    bazel-4 test "${flags[@]}" --local_test_jobs=1 //... || rc=$?
  fi
  if [[ $rc -eq 0 ]]; then
    "$PY" tests/packaging/check_exported_symbols.py build/bazel-bin/runtime/shared/libnpurt.so || rc=1
    # gold's TLS mis-relocation (wave 10's crash): every shared object Bazel
    # built (Python package, example and test plugins, fake AscendCL) is sound
    # and linked by GNU ld (runtime/shared_object.bzl), not gold. Named from the
    # BUILD files (cc_binary targets *.so), not found in bazel-bin, where the
    # outputs of targets that no longer exist stay behind.
    local sos=() t
    while read -r t; do t=${t#//}; sos+=("build/bazel-bin/${t%%:*}/${t#*:}"); done < \
      <(bazel-4 query 'kind("cc_binary", //...)' 2>/dev/null | grep '\.so$')
    mapfile -t -O "${#sos[@]}" sos < <(find -L build/bazel-bin/sdk_python/npurt -name '*.so' -type f)
    echo "shared objects Bazel built: ${#sos[@]}"
    "$PY" tests/packaging/check_tls_relocations.py --no-gold "${sos[@]}" || rc=1
  fi
  bazel-4 shutdown >/dev/null 2>&1 || true   # free the JVM's memory on a 2-core box
  return "$rc"
}

check bazel-files bazel_files
check conda conda_meta
check cmake-pkg cmake_pkg
check wheel-cmake wheel_cmake
check wheel wheel_pkg
check conan conan_pkg
# Opt-in only (a second full build of the runtime and kernels): see the header.
[[ " ${NPURT_BUILD_CHECKS:-} " == *" conan-static "* ]] && check conan-static conan_static
check bazel bazel4

echo
echo "===== build checks ====="
printf '%s\n' "${RESULTS[@]}"
echo "build checks: $PASSED passed, $FAILED failed, $SKIPPED skipped"
[[ $FAILED -eq 0 ]]

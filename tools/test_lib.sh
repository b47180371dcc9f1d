#!/usr/bin/env bash
# tools/test_lib.sh: the bookkeeping of tools/test.sh, sourced by it (and by
# tests/python/tools/test_test_sh.py, which feeds it runners' output).
#
# Invariants: TOTAL_PASSED / TOTAL_FAILED only grow, through add_counts; every
# *_counts parser reads the LAST closing line of its runner in a log, adds its
# counts and appends "LABEL: <line>" to SUMMARY_LINES, or returns 1 (adding
# nothing) when the log has no such line. pytest_parallel prints the pytest
# arguments that spread a run over worker processes (pytest-xdist), one per line.
# debug_prefix_map prints the compiler flag that keeps -g builds cacheable by ccache
# from any checkout path; build_compilers the one C and C++ compiler name every build uses.

TOTAL_PASSED=0
TOTAL_FAILED=0
SUMMARY_LINES=()  # each runner's closing line, repeated at the end

add_counts() {  # add_counts PASSED FAILED
  TOTAL_PASSED=$((TOTAL_PASSED + $1))
  TOTAL_FAILED=$((TOTAL_FAILED + $2))
}

# pytest's closing line "=== 12 passed, 1 skipped in 3.1s ===" -> counts.
pytest_counts() {  # pytest_counts LOG LABEL
  local line passed failed errors
  line=$(grep -E '[0-9]+ (passed|failed|error)' "$1" | tail -n 1)
  [[ -z "$line" ]] && return 1
  passed=$(grep -oE '[0-9]+ passed' <<<"$line" | grep -oE '[0-9]+' || echo 0)
  failed=$(grep -oE '[0-9]+ failed' <<<"$line" | grep -oE '[0-9]+' || echo 0)
  errors=$(grep -oE '[0-9]+ errors?' <<<"$line" | grep -oE '[0-9]+' || echo 0)
  add_counts "${passed:-0}" $(( ${failed:-0} + ${errors:-0} ))
  SUMMARY_LINES+=("$2: $(sed -E 's/^=+ //; s/ =+$//' <<<"$line")")
}

# ctest's closing line -> counts. CMake 3 prints "100% tests passed, 0 tests failed out
# of 42"; CMake 4 drops the failed clause when nothing failed ("100% tests passed out of 42").
ctest_counts() {  # ctest_counts LOG LABEL
  local line failed total
  line=$(grep -E '[0-9]+% tests passed(, [0-9]+ tests? failed)? out of [0-9]+' "$1" | tail -n 1)
  [[ -z "$line" ]] && return 1
  failed=0
  [[ $line =~ ([0-9]+)\ tests?\ failed ]] && failed=${BASH_REMATCH[1]}
  total=$(sed -E 's/.*out of ([0-9]+).*/\1/' <<<"$line")
  add_counts $((total - failed)) "$failed"
  SUMMARY_LINES+=("$2: $line")
}

# gtest's "[  PASSED  ] N tests." / "[  FAILED  ] N tests," -> counts (TSan binaries).
gtest_counts() {  # gtest_counts LOG LABEL
  local passed failed
  passed=$(grep -E '^\[  PASSED  \] [0-9]+ test' "$1" | grep -oE '[0-9]+' | awk '{s+=$1} END {print s+0}')
  failed=$(grep -E '^\[  FAILED  \] [0-9]+ test' "$1" | grep -oE '[0-9]+' | head -n 1 | awk '{s+=$1} END {print s+0}')
  add_counts "$passed" "$failed"
  SUMMARY_LINES+=("$2: gtest under ThreadSanitizer: $passed passed, $failed failed")
}

# An extra step's own closing line "label: N passed, M failed[, K skipped]" -> counts.
plain_counts() {  # plain_counts LOG LABEL
  local line
  line=$(grep -E '^([A-Za-z][A-Za-z ()-]*: )?[0-9]+ passed, [0-9]+ failed' "$1" | tail -n 1)
  [[ -z "$line" ]] && return 1
  add_counts "$(sed -E 's/.*[^0-9]?\b([0-9]+) passed.*/\1/' <<<"$line")" "$(sed -E 's/.* ([0-9]+) failed.*/\1/' <<<"$line")"
  SUMMARY_LINES+=("$2: $line")
}

# pytest-xdist arguments for PYTHON: "-n N --dist loadgroup" (tests marked
# @pytest.mark.xdist_group(name) share one worker) when N = PYTEST_WORKERS (default
# JOBS, default nproc) > 1 and the plugin is importable; nothing (a serial run) otherwise,
# with the reason on stderr. One worker per core: the suite is mostly single-threaded Python.
pytest_parallel() {  # pytest_parallel PYTHON
  local n="${PYTEST_WORKERS:-${JOBS:-$(nproc)}}"
  [[ $n =~ ^[0-9]+$ && $n -gt 1 ]] || return 0
  if ! "$1" -c "import xdist" 2>/dev/null; then
    echo "pytest-xdist is not installed for $1: pytest runs serially" >&2
    return 0
  fi
  printf '%s\n' -n "$n" --dist loadgroup
}

# Builds with debug info (tsan, asan): ccache hashes the working directory into the key of
# every -g compile (its hash_dir setting) unless a debug prefix map makes it relative, so
# without this flag a fresh clone at another path recompiles both sanitizer builds.
debug_prefix_map() {  # debug_prefix_map CHECKOUT
  printf '%s\n' "-fdebug-prefix-map=$1=."
}

# The C and C++ compilers every CMake build of tools/test.sh uses ("CC CXX" on one line):
# $CC / $CXX when set, else PYTHON's sysconfig CC / CXX without their flags, which is
# what scikit-build-core gives the python and asan steps' builds. ccache keys a compile
# on the compiler's name, and plain CMake picks c++ where scikit-build-core picks g++
# (the same binary on Debian): without one name the cpp and python steps compiled the
# same runtime and kernel objects twice on a cold cache (wave 13, docs/team-notes.md).
build_compilers() {  # build_compilers PYTHON
  local cc="${CC:-}" cxx="${CXX:-}"
  [[ -z $cc ]] && cc=$("$1" -c 'import sysconfig; print((sysconfig.get_config_var("CC") or "").split(" ")[0])' 2>/dev/null)
  [[ -z $cxx ]] && cxx=$("$1" -c 'import sysconfig; print((sysconfig.get_config_var("CXX") or "").split(" ")[0])' 2>/dev/null)
  printf '%s %s\n' "${cc:-cc}" "${cxx:-c++}"
}

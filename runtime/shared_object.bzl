"""Link options of the shared objects the Bazel-built Python package ships.

SHARED_OBJECT_LINKOPTS: GNU ld, not the gold that Bazel's auto-configured
Linux toolchain selects (-fuse-ld=gold; a later -fuse-ld wins). gold writes
the dynamic relocations of initial-exec TLS variables with internal linkage
against empty, undefined .dynsym entries with addend 0, so the loader puts
all of them at offset 0 of the library's TLS block: in libnpurt the sim's
copy-elision counter shard pointer and the cube prefetcher's state pointer
became one word, and the prefetcher's writes corrupted the heap (the wave-10
crash in launch_regions; -O0 code, as k8-fastbuild compiles, triggers it).
SHARED_OBJECT_FEATURES turns off what the toolchain enables only for gold:
--start-lib/--end-lib object groups, which GNU ld does not know.
tests/packaging/check_tls_relocations.py checks the libraries a process
loaded (tests/python/tools/test_tls_relocations.py, which //tests:python_tests
runs on the Bazel-built package).
"""

SHARED_OBJECT_LINKOPTS = ["-fuse-ld=bfd"]

SHARED_OBJECT_FEATURES = ["-supports_start_end_lib"]

"""Shared objects built by Bazel: every linkshared library goes through here.

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

shared_object(): a cc_binary(linkshared = True) with both, for the runtime,
the kernels, the example and test op plugins and the fake AscendCL (a plugin
with thread-locals of its own would hit the same bug). Rules that are not a
cc_binary (nanobind_extension) take the two lists directly.
tools/build_checks.sh runs tests/packaging/check_tls_relocations.py
--no-gold over every .so Bazel built (gold's .note.gnu.gold-version marks a
gold link), and tests/python/tools/test_tls_relocations.py checks the
libraries a process loaded (//tests:python_tests runs it on the Bazel package).
"""

load("@rules_cc//cc:defs.bzl", "cc_binary")

SHARED_OBJECT_LINKOPTS = ["-fuse-ld=bfd"]

SHARED_OBJECT_FEATURES = ["-supports_start_end_lib"]

def shared_object(name, features = [], linkopts = [], **kwargs):
    """cc_binary(name, linkshared = True, ...) linked by GNU ld (see above)."""
    cc_binary(
        name = name,
        features = features + SHARED_OBJECT_FEATURES,
        linkopts = linkopts + SHARED_OBJECT_LINKOPTS,
        linkshared = True,
        **kwargs
    )

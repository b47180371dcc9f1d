# Bazel 4 offline shim for @rules_python: the BUILD files load the real name
# @rules_python//python:defs.bzl; here it forwards to Bazel 4's native rules.
# The interpreter is the `python3` on PATH (run Bazel from the project's env).

def py_library(**attrs):
    native.py_library(**attrs)

def py_binary(**attrs):
    native.py_binary(**attrs)

def py_test(**attrs):
    native.py_test(**attrs)

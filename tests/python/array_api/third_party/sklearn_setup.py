"""Imports scikit-learn with array-API dispatch on, or tells why it cannot (for a skip).

scikit-learn's dispatch needs scipy's own array-API mode, which scipy reads from the
environment variable SCIPY_ARRAY_API once, at its first import: the variable is set here
before importing either; if scipy was already imported without it in this process, the
scipy/sklearn tests skip (no other test of the suite imports scipy).
"""
import os
import sys


def scipy_array_api():
    """None when scipy is importable in array-API mode, else the reason why not."""
    if "scipy" not in sys.modules:
        os.environ.setdefault("SCIPY_ARRAY_API", "1")
    try:
        from scipy._lib._array_api import SCIPY_ARRAY_API
    except ImportError:
        return "scipy not installed (tools/test.sh installs it)"
    if not SCIPY_ARRAY_API or os.environ.get("SCIPY_ARRAY_API") != "1":
        return "scipy was imported before SCIPY_ARRAY_API=1 was set in this process"
    return None

"""``python -m npurt --cmake-dir`` (also ``cmake-dir``): the folder holding npurtConfig.cmake.

The wheel carries npurt's CMake package (headers, libnpurt, libnpurt_kernels,
npurtConfig.cmake with its version and targets files, npurt_add_op_library)
under ``npurt/lib/cmake/npurt``, next to the compiled extension, so a C++
project builds against the same runtime the Python package uses::

    cmake -S app -B build -Dnpurt_DIR="$(python -m npurt --cmake-dir)"

The folder is found from the extension module's location (not from the
package's source folder), so it is right for editable installs too.
"""
import pathlib
import sys

FLAGS = ("--cmake-dir", "cmake-dir")


def cmake_dir():
    """Path of the folder with npurtConfig.cmake; RuntimeError when the install has none."""
    from . import _npurt

    folder = pathlib.Path(_npurt.__file__).resolve().parent / "lib" / "cmake" / "npurt"
    if not (folder / "npurtConfig.cmake").is_file():
        raise RuntimeError(f"npurt: no CMake package in this installation ({folder}/npurtConfig.cmake is missing)")
    return folder


def handle_argv(argv):
    """Prints the folder and returns True when argv is exactly one of FLAGS."""
    if list(argv) not in ([f] for f in FLAGS):
        return False
    try:
        print(cmake_dir())
    except RuntimeError as e:
        print(e, file=sys.stderr)
        raise SystemExit(1)
    return True

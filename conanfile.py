"""Conan 2 recipe for npurt's C++ runtime (libnpurt + the built-in kernels).

Offline by design: no `requires` (ConanCenter is not reachable from our
machines), tests off; `conan create . --build=missing -nr` builds it with the
top-level CMakeLists.txt, installs it with `cmake --install` and runs
test_package/ (a stream, a pool allocation, a copy round trip and an op).
Consumers: `find_package(npurt CONFIG REQUIRED)` and link `npurt::npurt`
(and `npurt::kernels` for the built-in ops) - the same names as the CMake
package. See docs/embedding-build.md.
"""
import os
import re

from conan import ConanFile
from conan.tools.cmake import CMake, CMakeToolchain, cmake_layout
from conan.tools.files import load


class NpurtConan(ConanFile):
    name = "npurt"
    description = ("Standalone runtime for Ascend NPUs with a simulated NPU on the host CPU "
                   "(C++ library, C API, built-in kernels)")
    license = "Apache-2.0"
    topics = ("npu", "ascend", "runtime", "simulator")
    package_type = "library"
    settings = "os", "compiler", "build_type", "arch"
    options = {
        "shared": [True, False],
        "fPIC": [True, False],
        # Sim kernel check level when NPURT_SIM_CHECK is unset at run time.
        "sim_check": ["off", "basic", "full"],
    }
    default_options = {"shared": True, "fPIC": True, "sim_check": "basic"}
    exports_sources = ("CMakeLists.txt", "cmake/*", "runtime/*", "kernels/*",
                       "!*/BUILD.bazel")

    def set_version(self):
        # One source of truth: project(npurt VERSION x.y.z) in CMakeLists.txt.
        text = load(self, os.path.join(self.recipe_folder, "CMakeLists.txt"))
        self.version = re.search(r"project\(npurt VERSION ([0-9.]+)", text).group(1)

    def config_options(self):
        if self.settings.os == "Windows":
            del self.options.fPIC

    def configure(self):
        if self.options.shared:
            self.options.rm_safe("fPIC")

    def validate(self):
        from conan.errors import ConanInvalidConfiguration
        from conan.tools.build import check_min_cppstd
        if self.settings.os != "Linux":
            raise ConanInvalidConfiguration("npurt's sim backend targets Linux only")
        check_min_cppstd(self, 17)

    def layout(self):
        cmake_layout(self)

    def generate(self):
        tc = CMakeToolchain(self)
        tc.cache_variables["NPURT_BUILD_TESTS"] = False
        tc.cache_variables["NPURT_BUILD_BENCH"] = False
        tc.cache_variables["NPURT_BUILD_PYTHON"] = False
        tc.cache_variables["NPURT_INSTALL_STATIC"] = not self.options.shared
        tc.cache_variables["NPURT_SIM_CHECK_DEFAULT"] = str(self.options.sim_check)
        tc.generate()

    def build(self):
        cmake = CMake(self)
        cmake.configure()
        cmake.build()

    def package(self):
        CMake(self).install()

    def package_info(self):
        self.cpp_info.set_property("cmake_file_name", "npurt")
        self.cpp_info.set_property("cmake_target_name", "npurt::npurt")
        core = self.cpp_info.components["runtime"]
        core.set_property("cmake_target_name", "npurt::npurt")
        core.libs = ["npurt"]
        core.includedirs = ["include", "include/npurt/aicore"]
        core.system_libs = ["pthread", "dl"]
        kernels = self.cpp_info.components["kernels"]
        kernels.set_property("cmake_target_name", "npurt::kernels")
        kernels.requires = ["runtime"]
        kernels.includedirs = []
        if self.options.shared:
            kernels.libs = ["npurt_kernels"]
            # Nothing references the kernels library by symbol (ops register
            # from static initializers): keep --as-needed from dropping it.
            kernels.exelinkflags = ["-Wl,--no-as-needed"]
            kernels.sharedlinkflags = ["-Wl,--no-as-needed"]
        else:
            lib = os.path.join(self.package_folder, "lib", "libnpurt_kernels.a")
            whole = ["-Wl,--whole-archive", lib, "-Wl,--no-whole-archive"]
            kernels.exelinkflags = whole
            kernels.sharedlinkflags = whole

"""conan create's test: builds test_package.cc against the package with
CMakeDeps (find_package(npurt CONFIG)) and runs it with the package's
sim_check option, which the program compares with the library's default."""
import os

from conan import ConanFile
from conan.tools.build import can_run
from conan.tools.cmake import CMake, cmake_layout


class NpurtTestPackage(ConanFile):
    settings = "os", "compiler", "build_type", "arch"
    generators = "CMakeDeps", "CMakeToolchain"

    def requirements(self):
        self.requires(self.tested_reference_str)

    def layout(self):
        cmake_layout(self)

    def build(self):
        cmake = CMake(self)
        cmake.configure()
        cmake.build()

    def test(self):
        if can_run(self):
            exe = os.path.join(self.cpp.build.bindir, "test_package")
            # The package's sim_check option: the compiled-in default must match it.
            level = self.dependencies["npurt"].options.sim_check
            self.run(f"{exe} {level}", env="conanrun")

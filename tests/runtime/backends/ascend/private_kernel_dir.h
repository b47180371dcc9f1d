// tests/runtime/backends/ascend/private_kernel_dir.h: per-process kernel
// directories for the tests on the FAKE AscendCL, removed when the process exits.
//
// Invariants:
// - The directory name holds the process id: ctest runs the test cases of one
//   binary as parallel processes (-j2), which must not rewrite each other's
//   fake kernel binaries (FaultInReplay failed ~1 in 4 runs when they shared one).
// - private_kernel_dir() creates the directory (empty or not) and returns its path.
// - A directory is removed, with its files, at the normal exit of the process
//   that created it (static destruction), never by another process: a fork()ed
//   child that exits normally removes only the directories it created itself.
//   A crashed or killed process leaves its directory (a later process with the
//   same id reuses it).
#pragma once

#include <unistd.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <mutex>
#include <string>
#include <system_error>
#include <utility>
#include <vector>

namespace npurt::ascend::testing {

// The directories created by this process image, removed by its destructor.
class PrivateDirRegistry {
 public:
  ~PrivateDirRegistry() { remove_own(); }
  // Removes the directories this process created (not those inherited over fork()).
  void remove_own() {
    std::lock_guard<std::mutex> lock(mu_);
    const pid_t self = getpid();
    for (const auto& [pid, dir] : dirs_) {
      std::error_code ignored;  // a test may have removed it already
      if (pid == self) std::filesystem::remove_all(dir, ignored);
    }
  }
  void add(const std::string& dir) {
    std::lock_guard<std::mutex> lock(mu_);
    for (const auto& d : dirs_)
      if (d.first == getpid() && d.second == dir) return;
    dirs_.emplace_back(getpid(), dir);
  }

 private:
  std::mutex mu_;
  std::vector<std::pair<pid_t, std::string>> dirs_;
};

inline PrivateDirRegistry& private_dir_registry() {
  static PrivateDirRegistry registry;  // destroyed at exit, after the tests ran
  return registry;
}

// <gtest temp dir><name>_<pid>, created now and removed at this process's exit.
inline std::string private_kernel_dir(const std::string& name) {
  const std::string dir = ::testing::TempDir() + name + "_" + std::to_string(getpid());
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  EXPECT_FALSE(ec) << "private_kernel_dir: cannot create '" << dir << "': " << ec.message();
  private_dir_registry().add(dir);
  return dir;
}

}  // namespace npurt::ascend::testing

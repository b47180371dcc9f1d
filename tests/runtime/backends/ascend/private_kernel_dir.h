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
//   A crashed or killed process leaves its directory; the next
//   private_kernel_dir(name) of any process removes every <name>_<pid> whose
//   process no longer exists (remove_stale_dirs), so none stays forever.
//   A directory whose id was reused by a live process stays until that
//   process is gone too; a live process's directory is never touched.
#pragma once

#include <signal.h>
#include <unistd.h>
#include <gtest/gtest.h>

#include <cerrno>
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

// True when no process has this id (kill with signal 0 only checks; EPERM
// means a process of another user has it: alive).
inline bool process_is_gone(pid_t pid) { return kill(pid, 0) != 0 && errno == ESRCH; }

// Removes <parent>/<name>_<pid> directories left by processes that no longer
// exist (killed or crashed before their exit-time removal); returns how many.
inline int remove_stale_dirs(const std::string& parent, const std::string& name) {
  namespace fs = std::filesystem;
  const std::string prefix = name + "_";
  int removed = 0;
  std::error_code ec;
  for (fs::directory_iterator it(parent, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string entry = it->path().filename().string();
    if (entry.size() <= prefix.size() || entry.compare(0, prefix.size(), prefix) != 0) continue;
    const std::string id = entry.substr(prefix.size());
    if (id.size() > 9 || id.find_first_not_of("0123456789") != std::string::npos) continue;
    const pid_t pid = static_cast<pid_t>(std::stol(id));
    std::error_code ignored;  // another process may be removing it at the same time
    if (pid > 0 && process_is_gone(pid) && fs::remove_all(it->path(), ignored) > 0) ++removed;
  }
  return removed;
}

// <gtest temp dir><name>_<pid>, created now and removed at this process's exit
// (stale directories of the same name from dead processes are removed first).
inline std::string private_kernel_dir(const std::string& name) {
  remove_stale_dirs(::testing::TempDir(), name);
  const std::string dir = ::testing::TempDir() + name + "_" + std::to_string(getpid());
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  EXPECT_FALSE(ec) << "private_kernel_dir: cannot create '" << dir << "': " << ec.message();
  private_dir_registry().add(dir);
  return dir;
}

}  // namespace npurt::ascend::testing

// The per-process kernel directories of the fake AscendCL tests
// (private_kernel_dir.h): created with the process id in the name, removed when
// the creating process exits normally, never by a fork()ed child; the directory
// of a killed process is removed by the next process that asks for that name.
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "private_kernel_dir.h"

namespace npurt::ascend::testing {
namespace {

namespace fs = std::filesystem;

// The child process of the tests below (skipped unless NPURT_TEST_PRIVATE_DIR_CHILD
// is set; not DISABLED_: gtest_discover_tests runs disabled tests): creates a
// directory with a file and prints its path; then, with the variable set to
// "exit", returns to gtest's main, which exits normally; with "kill", is
// killed by SIGKILL (no destructor runs, as when ctest's timeout kills it).
TEST(PrivateKernelDirChild, CreateAndExit) {
  const char* how = std::getenv("NPURT_TEST_PRIVATE_DIR_CHILD");
  if (how == nullptr) GTEST_SKIP() << "runs as a child process only";
  const std::string dir = private_kernel_dir(std::string("npurt_private_dir_") + how);
  std::ofstream(dir + "/k.o") << "FAKEBIN\nfake_add_one\n";
  ASSERT_TRUE(fs::exists(dir + "/k.o"));
  std::printf("PRIVATE_DIR=%s\n", dir.c_str());
  std::fflush(stdout);
  if (std::string(how) == "kill") raise(SIGKILL);
}

// Runs this binary as the child above; returns the directory it printed.
std::string run_child(const char* how, bool killed) {
  // exec: the shell becomes the child, so a SIGKILL is the status itself (no "Killed" line).
  const std::string cmd = std::string("exec env NPURT_TEST_PRIVATE_DIR_CHILD=") + how + " '" +
                          fs::read_symlink("/proc/self/exe").string() +
                          "' --gtest_filter=PrivateKernelDirChild.CreateAndExit";
  FILE* child = popen(cmd.c_str(), "r");
  EXPECT_NE(child, nullptr);
  if (child == nullptr) return "";
  std::string out;
  char line[4096];
  while (std::fgets(line, sizeof line, child)) out += line;
  const int status = pclose(child);
  if (killed) EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL) << out;
  else EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << out;
  const size_t at = out.find("PRIVATE_DIR=");
  EXPECT_NE(at, std::string::npos) << out;
  if (at == std::string::npos) return "";
  return out.substr(at + 12, out.find('\n', at) - at - 12);
}

TEST(PrivateKernelDir, NamedByProcessAndCreated) {
  const std::string dir = private_kernel_dir("npurt_private_dir_self");
  EXPECT_TRUE(fs::is_directory(dir));
  EXPECT_NE(dir.find("npurt_private_dir_self_" + std::to_string(getpid())), std::string::npos) << dir;
  EXPECT_EQ(private_kernel_dir("npurt_private_dir_self"), dir);  // same process, same directory
}

TEST(PrivateKernelDir, ExitRemovesTheDirectoryAndItsFiles) {
  const std::string dir = run_child("exit", false);
  ASSERT_NE(dir.find("npurt_private_dir_exit_"), std::string::npos) << dir;
  EXPECT_FALSE(fs::exists(dir)) << "the child's directory outlived it: " << dir;
}

TEST(PrivateKernelDir, AKilledProcessesDirectoryIsRemovedByTheNextOne) {
  const std::string dir = run_child("kill", true);
  ASSERT_NE(dir.find("npurt_private_dir_kill_"), std::string::npos) << dir;
  ASSERT_TRUE(fs::exists(dir + "/k.o")) << "a killed process runs no destructor: " << dir;
  const std::string mine = private_kernel_dir("npurt_private_dir_kill");  // this process's own
  EXPECT_FALSE(fs::exists(dir)) << "the killed child's directory was left: " << dir;
  EXPECT_TRUE(fs::is_directory(mine));
}

TEST(PrivateKernelDir, StaleSweepKeepsLiveProcessesAndOtherNames) {
  const std::string parent = ::testing::TempDir(), name = "npurt_private_dir_sweep";
  const pid_t live = fork();  // alive until killed below
  ASSERT_GE(live, 0);
  if (live == 0) {
    pause();
    _exit(0);
  }
  const pid_t dead = fork();  // exited and reaped: its id names no process
  ASSERT_GE(dead, 0);
  if (dead == 0) _exit(0);
  int status = 0;
  ASSERT_EQ(waitpid(dead, &status, 0), dead);
  const std::string of_live = parent + name + "_" + std::to_string(live),
                    of_dead = parent + name + "_" + std::to_string(dead), other = parent + name + "_x1";
  for (const std::string& d : {of_live, of_dead, other}) {
    fs::create_directories(d);
    std::ofstream(d + "/k.o") << "FAKEBIN\n";
  }
  EXPECT_EQ(remove_stale_dirs(parent, name), 1);
  EXPECT_FALSE(fs::exists(of_dead));
  EXPECT_TRUE(fs::exists(of_live + "/k.o"));  // its process may still use it
  EXPECT_TRUE(fs::exists(other + "/k.o"));    // not <name>_<pid>: not ours to judge
  kill(live, SIGKILL);
  ASSERT_EQ(waitpid(live, &status, 0), live);
  EXPECT_EQ(remove_stale_dirs(parent, name), 1);
  EXPECT_FALSE(fs::exists(of_live));
  fs::remove_all(other);
}

TEST(PrivateKernelDir, AForkedChildLeavesTheParentsDirectory) {
  const std::string dir = private_kernel_dir("npurt_private_dir_parent");
  std::ofstream(dir + "/k.o") << "FAKEBIN\n";
  const pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {  // what the registry's destructor would do at the child's exit
    private_dir_registry().remove_own();
    _exit(0);
  }
  int status = 0;
  ASSERT_EQ(waitpid(pid, &status, 0), pid);
  ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  EXPECT_TRUE(fs::exists(dir + "/k.o"));  // removed at this process's exit instead
}

}  // namespace
}  // namespace npurt::ascend::testing

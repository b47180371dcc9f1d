// The per-process kernel directories of the fake AscendCL tests
// (private_kernel_dir.h): created with the process id in the name, removed when
// the creating process exits normally, never by a fork()ed child.
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

// The child process of ExitRemovesTheDirectoryAndItsFiles (skipped unless
// NPURT_TEST_PRIVATE_DIR_CHILD is set; not DISABLED_: gtest_discover_tests runs
// disabled tests): creates a directory with a file, prints its path, then
// returns to gtest's main, which exits normally.
TEST(PrivateKernelDirChild, CreateAndExit) {
  if (std::getenv("NPURT_TEST_PRIVATE_DIR_CHILD") == nullptr) GTEST_SKIP() << "runs as a child process only";
  const std::string dir = private_kernel_dir("npurt_private_dir_probe");
  std::ofstream(dir + "/k.o") << "FAKEBIN\nfake_add_one\n";
  ASSERT_TRUE(fs::exists(dir + "/k.o"));
  std::printf("PRIVATE_DIR=%s\n", dir.c_str());
}

TEST(PrivateKernelDir, NamedByProcessAndCreated) {
  const std::string dir = private_kernel_dir("npurt_private_dir_self");
  EXPECT_TRUE(fs::is_directory(dir));
  EXPECT_NE(dir.find("npurt_private_dir_self_" + std::to_string(getpid())), std::string::npos) << dir;
  EXPECT_EQ(private_kernel_dir("npurt_private_dir_self"), dir);  // same process, same directory
}

TEST(PrivateKernelDir, ExitRemovesTheDirectoryAndItsFiles) {
  const std::string cmd = "NPURT_TEST_PRIVATE_DIR_CHILD=1 '" + fs::read_symlink("/proc/self/exe").string() +
                          "' --gtest_filter=PrivateKernelDirChild.CreateAndExit";
  FILE* child = popen(cmd.c_str(), "r");
  ASSERT_NE(child, nullptr);
  std::string out, dir;
  char line[4096];
  while (std::fgets(line, sizeof line, child)) out += line;
  const int status = pclose(child);
  ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << out;
  const size_t at = out.find("PRIVATE_DIR=");
  ASSERT_NE(at, std::string::npos) << out;
  dir = out.substr(at + 12, out.find('\n', at) - at - 12);
  ASSERT_NE(dir.find("npurt_private_dir_probe_"), std::string::npos) << dir;
  EXPECT_FALSE(fs::exists(dir)) << "the child's directory outlived it: " << dir;
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

// sdk_python/bindings/temporary_check.cpp: see temporary_check.h.
#include "temporary_check.h"

#include <dlfcn.h>
#include <execinfo.h>

#include "bindings.h"

namespace npurt::python {
namespace {

struct Images {
  const void* extension = nullptr;  // this module's load base
  const void* python = nullptr;     // libpython's (or the python executable's) load base
  const void* eval_loop = nullptr;  // _PyEval_EvalFrameDefault
};

const void* image_base(const void* address) {
  Dl_info info;
  return dladdr(address, &info) != 0 ? info.dli_fbase : nullptr;
}

Images find_images() {
  Images im;
  im.extension = image_base(reinterpret_cast<const void*>(&called_from_interpreter));
  im.python = image_base(reinterpret_cast<const void*>(&PyNumber_Add));
  im.eval_loop = dlsym(RTLD_DEFAULT, "_PyEval_EvalFrameDefault");
  return im;
}

}  // namespace

bool called_from_interpreter() {
  static const Images im = find_images();
  if (im.extension == nullptr || im.python == nullptr || im.eval_loop == nullptr) return false;
  void* frames[24];
  const int n = backtrace(frames, 24);
  for (int i = 1; i < n; ++i) {
    Dl_info info;
    if (dladdr(frames[i], &info) == 0) return false;
    if (info.dli_fbase == im.extension) continue;      // nanobind's dispatch, this module
    if (info.dli_fbase != im.python) return false;     // foreign C code between us and Python
    if (info.dli_saddr == im.eval_loop) return true;   // reached the bytecode loop
  }
  return false;
}

}  // namespace npurt::python

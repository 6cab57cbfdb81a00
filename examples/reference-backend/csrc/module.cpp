// The Python extension module onramp_ref._C.
//
// Loading it is what registers the backend: the allocator, the device guard
// and the ATen kernels register themselves from static initializers in the
// other translation units, so the module itself exports no functions.
#include <Python.h>
#include <dlfcn.h>
#include <sys/time.h>
#include <unistd.h>

#include <cstdio>
#include <ctime>

namespace {

// Native runtimes announce themselves when loaded, with a glog-style line on
// stderr that bypasses Python's logging and warnings filters (PJRT's
// "GetPjrtApi was found for tpu at ..." is the common one). The backend does
// the same so that users, and tools that measure imports, see what such
// backends really print.
void log_runtime_found() {
  Dl_info self{};
  const char* path = dladdr(reinterpret_cast<void*>(&log_runtime_found), &self) && self.dli_fname ? self.dli_fname : "?";
  timeval now{};
  gettimeofday(&now, nullptr);
  tm local{};
  localtime_r(&now.tv_sec, &local);
  std::fprintf(stderr, "I%02d%02d %02d:%02d:%02d.%06ld %7d module.cpp:%d] HostRuntimeApi was found for ref at %s\n",
               local.tm_mon + 1, local.tm_mday, local.tm_hour, local.tm_min, local.tm_sec,
               static_cast<long>(now.tv_usec), static_cast<int>(getpid()), __LINE__, path);
}

PyModuleDef ref_module = {PyModuleDef_HEAD_INIT, "onramp_ref._C",
                          "ATen kernels, allocator and device guard of the ref backend (PrivateUse1).", -1, nullptr};

}  // namespace

PyMODINIT_FUNC PyInit__C() {
  log_runtime_found();
  return PyModule_Create(&ref_module);
}

// alu_capture DIR [--device N]: runs the kernels make_alu_capture --plan assembled (DIR/plan.txt,
// DIR/*.cubin) on the GPU, one block of `cases` threads per form, with DIR/inputs.bin as their
// operands; writes DIR/outputs.bin (the same layout, destinations as the GPU stored them) and
// DIR/device.txt (device name, compute capability, driver). CUDA driver API only.
#include <cuda.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace {

void check(CUresult r, const char* what, const std::string& detail = "") {
  if (r == CUDA_SUCCESS) return;
  const char* name = nullptr;
  cuGetErrorName(r, &name);
  std::fprintf(stderr, "alu_capture: %s failed: %s %s\n", what, name ? name : "?", detail.c_str());
  std::exit(1);
}

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    std::fprintf(stderr, "alu_capture: %s: cannot open\n", path.c_str());
    std::exit(1);
  }
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: alu_capture DIR [--device N]\n");
    return 2;
  }
  const std::string dir = argv[1];
  const int device = argc >= 4 && std::string(argv[2]) == "--device" ? std::atoi(argv[3]) : 0;
  check(cuInit(0), "cuInit");
  CUdevice dev;
  check(cuDeviceGet(&dev, device), "cuDeviceGet");
  CUcontext ctx;
  check(cuDevicePrimaryCtxRetain(&ctx, dev), "cuDevicePrimaryCtxRetain");
  check(cuCtxSetCurrent(ctx), "cuCtxSetCurrent");
  char name[256] = {};
  check(cuDeviceGetName(name, sizeof name, dev), "cuDeviceGetName");
  int major = 0, minor = 0, driver = 0;
  check(cuDeviceGetAttribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, dev), "cuDeviceGetAttribute");
  check(cuDeviceGetAttribute(&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, dev), "cuDeviceGetAttribute");
  check(cuDriverGetVersion(&driver), "cuDriverGetVersion");

  const std::string inputs = read_file(dir + "/inputs.bin");
  std::string outputs(inputs.size(), '\0');
  std::istringstream plan(read_file(dir + "/plan.txt"));
  std::string word;
  int cases = 0;
  plan >> word >> cases;
  if (word != "cases" || cases < 1 || cases > 1024) {
    std::fprintf(stderr, "alu_capture: %s/plan.txt: first line is not 'cases N'\n", dir.c_str());
    return 1;
  }
  CUmodule mod = nullptr;
  std::size_t at = 0;
  int forms = 0;
  while (plan >> word) {
    if (word == "module") {
      std::string file;
      plan >> file;
      if (mod) check(cuModuleUnload(mod), "cuModuleUnload");
      check(cuModuleLoad(&mod, (dir + "/" + file).c_str()), "cuModuleLoad", file);
      continue;
    }
    std::string kernel;
    std::size_t slots = 0;
    plan >> kernel >> slots;
    if (word != "kernel" || !mod || slots == 0 || slots > 16) {
      std::fprintf(stderr, "alu_capture: plan.txt: bad line '%s %s'\n", word.c_str(), kernel.c_str());
      return 1;
    }
    const std::size_t bytes = 8 * slots * static_cast<std::size_t>(cases);
    if (at + bytes > inputs.size()) {
      std::fprintf(stderr, "alu_capture: inputs.bin is too short for %s\n", kernel.c_str());
      return 1;
    }
    CUfunction fn;
    check(cuModuleGetFunction(&fn, mod, kernel.c_str()), "cuModuleGetFunction", kernel);
    CUdeviceptr in, out;
    check(cuMemAlloc(&in, bytes), "cuMemAlloc");
    check(cuMemAlloc(&out, bytes), "cuMemAlloc");
    check(cuMemcpyHtoD(in, inputs.data() + at, bytes), "cuMemcpyHtoD");
    check(cuMemsetD8(out, 0, bytes), "cuMemsetD8");
    void* params[] = {&in, &out};
    check(cuLaunchKernel(fn, 1, 1, 1, static_cast<unsigned>(cases), 1, 1, 0, nullptr, params, nullptr), "cuLaunchKernel", kernel);
    check(cuCtxSynchronize(), "cuCtxSynchronize", kernel);
    check(cuMemcpyDtoH(&outputs[at], out, bytes), "cuMemcpyDtoH");
    check(cuMemFree(in), "cuMemFree");
    check(cuMemFree(out), "cuMemFree");
    at += bytes;
    ++forms;
  }
  if (at != inputs.size()) {
    std::fprintf(stderr, "alu_capture: plan.txt covers %zu of the %zu bytes of inputs.bin\n", at, inputs.size());
    return 1;
  }
  std::ofstream(dir + "/outputs.bin", std::ios::binary) << outputs;
  std::string kernel_driver = "unknown";
  std::ifstream proc("/proc/driver/nvidia/version");
  if (proc) std::getline(proc, kernel_driver);
  std::ofstream(dir + "/device.txt") << "device " << name << "\nsm sm_" << major << minor << "\ndriver_version " << driver
                                     << "\ndriver " << kernel_driver << "\n";
  std::printf("alu_capture: %d forms x %d cases on %s (sm_%d%d, driver %d)\n", forms, cases, name, major, minor, driver);
  return 0;
}

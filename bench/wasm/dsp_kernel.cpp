// The fixed-size DSP kernel (../dsp_kernel.hpp) as a standalone wasm module, so that the
// `limit` section of bench/run.mjs compares the library's wasm step with the same kernel
// compiled by the same toolchain (built on demand there with em++: not part of the build).
// Built twice: the kernel given its parameters at run time (the floor), and with
// -DKERNEL_LITERALS given h, g and the unit masses and lengths as literals, which the
// compiler folds (dsp_kernel.hpp). One loop per module: the step inlined into it, its
// values in locals (two loops in one module leave the step out of line, ~10 % slower).
#include "../dsp_kernel.hpp"

namespace {
double q0[6], p0[6];
}

extern "C" {
// The starting state and the parameters, written to state() before run(): q (6), p (6),
// h, g, the masses (2) and the lengths (2); the final q and p are left in the first 12.
double* state() {
  static double s[18];
  return s;
}
// steps steps of the kernel from the state in state(); returns the Newton iterations.
double run(int steps) {
  double* s = state();
  for (int i = 0; i < 6; ++i) q0[i] = s[i], p0[i] = s[6 + i];
#ifdef KERNEL_LITERALS
  vilabbench::DspKernel k(q0, p0, 0.01, 9.81);
#else
  vilabbench::DspKernel k(q0, p0, s[12], s[13], s + 14, s + 16);
#endif
  double iterations = 0;
  for (int i = 0; i < steps; ++i) iterations += k.step();
  for (int i = 0; i < 6; ++i) s[i] = k.q[i], s[6 + i] = k.p[i];
  return iterations;
}
}

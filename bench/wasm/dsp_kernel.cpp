// The fixed-size DSP kernel (../dsp_kernel.hpp) as a standalone wasm module, so that the
// `limit` section of bench/run.mjs compares the library's wasm step with the same kernel
// compiled by the same toolchain (built on demand there with em++: not part of the build).
#include "../dsp_kernel.hpp"

namespace {
double q0[6], p0[6];
}

extern "C" {
// The starting state: 12 numbers (q then p) written to state() before run().
double* state() {
  static double s[12];
  return s;
}
// steps steps of the kernel from the starting state; returns the Newton iterations.
double run(int steps) {
  const double* s = state();
  for (int i = 0; i < 6; ++i) q0[i] = s[i], p0[i] = s[6 + i];
  vilabbench::DspKernel k(q0, p0, 0.01, 9.81);
  double iterations = 0;
  for (int i = 0; i < steps; ++i) iterations += k.step();
  for (int i = 0; i < 6; ++i) state()[i] = k.q[i], state()[6 + i] = k.p[i];
  return iterations;
}
}

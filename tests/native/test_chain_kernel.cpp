// The library's DSP midpoint step against the fixed-size reference kernel of the
// benchmarks (bench/dsp_kernel.hpp): the same arithmetic in the same order, so the same
// bits and Newton iterations at every step. The kernel is the floor the step's speed is
// measured against; this keeps that comparison one of equals.
#include <catch2/catch.hpp>
#include <cmath>
#include <cstring>

#include "../../bench/dsp_kernel.hpp"
#include "support.hpp"

using namespace vilab;

TEST_CASE("the DSP midpoint step gives the reference kernel's bits over 1e4 steps", "[chain][determinism]") {
  Simulation sim = test::simulate(R"({"system":"double-spherical-pendulum","integrator":"midpoint","h":0.01})");
  vilabbench::DspKernel kernel(sim.q().data(), sim.p().data(), 0.01, 9.81);
  int agreeing = 0;
  long iterations = 0;
  for (; agreeing < 10000; ++agreeing) {
    sim.advance(1);
    iterations += kernel.step();
    if (std::memcmp(sim.q().data(), kernel.q, sizeof kernel.q) != 0 ||
        std::memcmp(sim.p().data(), kernel.p, sizeof kernel.p) != 0)
      break;
  }
  CHECK(agreeing == 10000);
  CHECK(iterations >= 2 * 10000);  // Newton really ran
}

TEST_CASE("the kernel comparison tells apart a 1e-12 difference", "[chain][determinism]") {
  // Negative control: a kernel started 1e-12 away in one momentum component (one ulp
  // there is absorbed by the rounding of q + h M⁻¹p) leaves the
  // library's bits within the run the test above watches.
  Simulation sim = test::simulate(R"({"system":"double-spherical-pendulum","integrator":"midpoint","h":0.01})");
  double p0[6];
  std::memcpy(p0, sim.p().data(), sizeof p0);
  p0[1] += 1e-12;
  vilabbench::DspKernel kernel(sim.q().data(), p0, 0.01, 9.81);
  bool differs = false;
  for (int k = 0; k < 10000 && !differs; ++k) {
    sim.advance(1);
    kernel.step();
    differs = std::memcmp(sim.q().data(), kernel.q, sizeof kernel.q) != 0;
  }
  CHECK(differs);
}

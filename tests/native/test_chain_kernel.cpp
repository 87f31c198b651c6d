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

TEST_CASE("the kernel given its parameters at run time, as the benchmark times it, gives the library's bits",
          "[chain][determinism]") {
  // The benchmark's floor reads h, g, the masses and the lengths from the scenario (given
  // as literals the compiler folds the unit ones away); a chain of other masses and
  // lengths checks that the kernel then computes what the library computes.
  const char* scenarios[] = {
      R"({"system":"double-spherical-pendulum","integrator":"midpoint","h":0.01})",
      R"({"system":"double-spherical-pendulum","integrator":"midpoint","h":0.005,
          "params":{"masses":[0.7,1.9],"lengths":[1.3,0.6],"g":3.7}})",
  };
  for (const char* text : scenarios) {
    Simulation sim = test::simulate(text);
    const auto& chain = std::get<ChainModel>(sim.scenario().model);
    vilabbench::DspKernel kernel(sim.q().data(), sim.p().data(), sim.scenario().h, chain.g, chain.masses.data(),
                                 chain.lengths.data());
    int agreeing = 0;
    for (; agreeing < 10000; ++agreeing) {
      sim.advance(1);
      kernel.step();
      if (std::memcmp(sim.q().data(), kernel.q, sizeof kernel.q) != 0 ||
          std::memcmp(sim.p().data(), kernel.p, sizeof kernel.p) != 0)
        break;
    }
    CAPTURE(text);
    CHECK(agreeing == 10000);
  }
}

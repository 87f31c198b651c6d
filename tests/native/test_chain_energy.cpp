// chainEnergy (simulation.hpp, the chain steps' energy): ChainModel::energy's bits, by
// T + V alone when a rounding-error bound proves that the radial part r (radialKinetic)
// cannot change them, r ≤ 2⁻⁵⁵ T. Checked bit for bit along multiplier runs (where the
// bound must decide every step: that is the speed), across the margin (a radial part
// swept through the rounding of T), and where the bound must leave the answer to
// radialKinetic.
#include <catch2/catch.hpp>
#include <cmath>
#include <cstring>
#include <limits>

#include "chain_states.hpp"
#include "vilab/simulation.hpp"

using namespace vilab;

namespace {

bool sameBits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

// chainEnergy against ChainModel::energy on s: the same bits, and the same link lengths;
// returns whether the bound decided.
bool agrees(const ChainModel& m, const ChainEnergyBound& bound, const State& s) {
  const auto n = static_cast<std::size_t>(m.bobs());
  std::vector<double> fast(n, -1.0), exact(n, -1.0);
  bool shortcut = false;
  const double energy = chainEnergy(m, bound, s, fast.data(), &shortcut);
  const double reference = m.energy(s, exact.data());
  CHECK(sameBits(energy, reference));
  for (std::size_t i = 0; i < n; ++i) CHECK(sameBits(fast[i], exact[i]));
  return shortcut;
}

// Masses and lengths that are not powers of two: radialKinetic divides by them.
ChainModel unevenChain(int n) {
  ChainModel m;
  for (int i = 0; i < n; ++i) {
    m.masses.push_back(0.6 + 0.13 * i);
    m.lengths.push_back(0.3 + 0.07 * i);
  }
  return m;
}

// The benchmark's long chain: 0.1 kg bobs on 0.25 m links.
ChainModel lightChain(int n) {
  ChainModel m;
  m.masses.assign(static_cast<std::size_t>(n), 0.1);
  m.lengths.assign(static_cast<std::size_t>(n), 0.25);
  return m;
}

}  // namespace

TEST_CASE("chainEnergy gives ChainModel::energy's bits along multiplier runs, decided by its bound",
          "[chain][simulation]") {
  for (int n : {1, 2, 3, 8, 64}) {
    const std::vector<ChainModel> models =
        n > 8 ? std::vector<ChainModel>{lightChain(n)} : std::vector<ChainModel>{test::chainModel(n), unevenChain(n)};
    for (const ChainModel& m : models) {
      for (const DiscreteRule rule : {DiscreteRule::midpoint(), DiscreteRule::trapezoid()}) {
        INFO("N = " << n << ", first mass " << m.masses[0]);
        const ChainEnergyBound bound(m);
        REQUIRE(bound.usable);
        ChainMultiplierIntegrator integrator(m, rule, 0.01);
        State s = test::chainState(m, 0.3);
        if (n > 8) s.p *= 0.02;  // chainState's speeds add up down a long chain
        const int steps = n > 8 ? 60 : 300;
        int decided = 0;
        for (int k = 0; k < steps; ++k) {
          REQUIRE(integrator.step(s.q, s.p).ok);
          decided += agrees(m, bound, s);
        }
        CHECK(decided == steps);  // the tangent projection leaves r ~ ε² T: the bound decides every step
      }
    }
  }
}

TEST_CASE("chainEnergy's bound holds at the margin: a radial part swept through the rounding of T",
          "[chain][simulation]") {
  for (int n : {1, 2, 3, 8}) {
    INFO("N = " << n);
    const ChainModel m = unevenChain(n);
    const ChainEnergyBound bound(m);
    State tangent = test::chainState(m, 0.7);
    ChainMultiplierIntegrator integrator(m, DiscreteRule::midpoint(), 0.01);
    REQUIRE(integrator.step(tangent.q, tangent.p).ok);
    const double T = m.kinetic(tangent.p.data());
    const Vec3 e = tangent.q.segment<3>(0).normalized();  // link 1's direction: a rate along it is radial
    double largestDecided = 0, smallestLeft = std::numeric_limits<double>::infinity();
    // r/T from about 1e-40 to 1e-6: through 2⁻⁵⁵ (the bound's threshold) and 2⁻⁵³ (where T − r ≠ T).
    for (double alpha = 1e-20; alpha < 1e-3; alpha *= 1.25) {
      State s = tangent;
      s.p.segment<3>(0) += alpha * std::sqrt(2 * T * m.masses[0]) * e;
      const double r = m.radialKinetic(s.q.data(), s.p.data()), kinetic = m.kinetic(s.p.data());
      if (agrees(m, bound, s)) {
        CHECK(r <= kinetic * 0x1p-55);  // the proof's premise holds, not only its conclusion
        largestDecided = std::max(largestDecided, r / kinetic);
      } else {
        smallestLeft = std::min(smallestLeft, r / kinetic);
      }
    }
    CHECK(largestDecided > 1e-30);               // the bound decides small radial parts ...
    CHECK(smallestLeft <= 0x1p-53);              // ... and leaves those near the rounding of T
    CHECK(largestDecided < smallestLeft * 1e6);  // within six decades of each other (conservative, not idle)
  }
}

TEST_CASE("chainEnergy leaves to radialKinetic what its bound cannot decide", "[chain][simulation]") {
  const ChainModel m = unevenChain(3);
  const ChainEnergyBound bound(m);
  State s = test::chainState(m, 0.2);
  ChainMultiplierIntegrator integrator(m, DiscreteRule::midpoint(), 0.01);
  REQUIRE(integrator.step(s.q, s.p).ok);
  REQUIRE(agrees(m, bound, s));  // positive control
  SECTION("momenta off the hidden constraint: a radial part of the order of T") {
    State off = s;
    off.p.segment<3>(3) += 0.5 * (off.q.segment<3>(3) - off.q.segment<3>(0));
    CHECK(m.radialKinetic(off.q.data(), off.p.data()) > 1e-3 * m.kinetic(off.p.data()));
    CHECK_FALSE(agrees(m, bound, off));
  }
  SECTION("at rest and nearly at rest: T = 0, or T too small for the bound's floor") {
    State rest = s;
    rest.p.setZero();
    CHECK_FALSE(agrees(m, bound, rest));
    State tiny = s;
    tiny.p *= 1e-160;
    CHECK_FALSE(agrees(m, bound, tiny));
  }
  SECTION("a link far from its length, and a state that is not finite") {
    State folded = s;
    folded.q.segment<3>(3) = folded.q.segment<3>(0) + 0.1 * (folded.q.segment<3>(3) - folded.q.segment<3>(0));
    CHECK_FALSE(agrees(m, bound, folded));
    State nan = s;
    nan.p[4] = std::numeric_limits<double>::quiet_NaN();
    CHECK_FALSE(agrees(m, bound, nan));
  }
  SECTION("masses growing by large ratios down the chain: the pivots' floors fail, so never the bound") {
    ChainModel steep = m;
    steep.masses = {1e-3, 1.0, 1e6};
    const ChainEnergyBound none(steep);
    CHECK_FALSE(none.usable);
    State t = test::chainState(steep, 0.2);
    ChainMultiplierIntegrator steepStep(steep, DiscreteRule::midpoint(), 0.01);
    REQUIRE(steepStep.step(t.q, t.p).ok);
    CHECK_FALSE(agrees(steep, none, t));
    CHECK(ChainEnergyBound(lightChain(64)).usable);  // equal masses: 64 bobs keep the floors
  }
}

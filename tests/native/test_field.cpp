// One-dimensional fields: the semi-discrete wave and its time integrators.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>

#include "fields.hpp"
#include "vilab/detmath.hpp"
#include "vilab/models/field.hpp"
#include "vilab/models/field_box.hpp"
#include "vilab/models/field_data.hpp"
#include "vilab/models/field_ode.hpp"

// Its own namespace: in a unity batch its helpers keep their names apart from the
// other files'.
namespace vilab::field::test_field {

using namespace vilab::testing::fields;

TEST_CASE("field: the leapfrog's energy stays in its window over 1e5 steps, RK4's drifts out", "[field]") {
  const Density d;
  const Grid g{1.0, 256, Ends::Fixed};
  const double dt = 0.5 * g.spacing();
  const double leapfrog = energyWindowRatio<Leapfrog>(d, g, bump(g), dt, 100000);
  const double rk4 = energyWindowRatio<RungeKutta4>(d, g, bump(g), dt, 100000);
  INFO("leapfrog " << leapfrog << ", RK4 " << rk4);
  CHECK(leapfrog <= 1.5);
  CHECK(rk4 >= 3);  // the negative control: same grid, same h
}

TEST_CASE("field: the leapfrog is of order 2 in space-time against d'Alembert's solution", "[field]") {
  const double e64 = standingWaveError(64), e128 = standingWaveError(128), e256 = standingWaveError(256);
  const double p1 = std::log2(e64 / e128), p2 = std::log2(e128 / e256);
  INFO("errors " << e64 << " " << e128 << " " << e256 << ", orders " << p1 << " " << p2);
  CHECK(std::abs(p1 - 2) <= 0.1);
  CHECK(std::abs(p2 - 2) <= 0.1);
}

TEST_CASE("field: periodic ends keep the momentum of translation", "[field]") {
  const Density d;
  const Grid g{1.0, 128, Ends::Periodic};
  State s = sineWave(g, true);
  const double p0 = momentum(d, g, s);
  Leapfrog m;
  for (int k = 0; k < 10000; ++k) m.step(d, g, s, 0.5 * g.spacing());
  CHECK(std::abs(momentum(d, g, s) - p0) <= 1e-12);
}

TEST_CASE("field: bad grids and densities are refused by field", "[field]") {
  const Density good;
  CHECK(validate(good, Grid{1.0, 256, Ends::Fixed}).empty());
  CHECK(validate(good, Grid{1.0, 1, Ends::Fixed}).rfind("grid.points:", 0) == 0);
  CHECK(validate(good, Grid{1.0, kMaxFieldPoints + 1, Ends::Free}).rfind("grid.points:", 0) == 0);
  CHECK(validate(good, Grid{1.0, 2, Ends::Periodic}).rfind("grid.points:", 0) == 0);
  CHECK(validate(good, Grid{0.0, 16, Ends::Fixed}).rfind("grid.length:", 0) == 0);
  CHECK(validate(good, Grid{NAN, 16, Ends::Fixed}).rfind("grid.length:", 0) == 0);
  Density bad;
  bad.rho = -1;
  CHECK(validate(bad, Grid{1.0, 16, Ends::Fixed}).rfind("density.rho:", 0) == 0);
  bad = Density{};
  bad.kappa = INFINITY;
  CHECK(validate(bad, Grid{1.0, 16, Ends::Fixed}).rfind("density.kappa:", 0) == 0);
  bad = Density{};
  bad.kappas.assign(15, 1.0);
  CHECK(validate(bad, Grid{1.0, 16, Ends::Fixed}).empty());
  CHECK(validate(bad, Grid{1.0, 16, Ends::Periodic}).rfind("density.kappa:", 0) == 0);  // 16 cells
  bad.kappas[7] = 0;
  CHECK(validate(bad, Grid{1.0, 16, Ends::Fixed}).rfind("density.kappa[7]:", 0) == 0);
}

// The cells' form of the acceleration (κ_c per cell) with every κ_c equal is the constant
// one's, at each kind of end (the free end's half cell, the periodic wrap), to rounding.
TEST_CASE("field: the acceleration with one κ_c per cell, all equal, is the constant κ's", "[field]") {
  for (const Ends ends : {Ends::Fixed, Ends::Free, Ends::Periodic}) {
    const Grid g{1.0, 64, ends};
    Density constant = sineGordon(), cells = sineGordon();
    constant.kappa = cells.kappa = 3;
    cells.kappas.assign(ends == Ends::Periodic ? 64 : 63, 3.0);
    const State s = sineWave(g, true);
    std::vector<double> a, b;
    acceleration(constant, g, s.u, a);
    acceleration(cells, g, s.u, b);
    double gap = 0, size = 0;
    for (int i = 0; i < g.points; ++i)
      gap = std::max(gap, std::abs(a[i] - b[i])), size = std::max(size, std::abs(a[i]));
    INFO("ends " << static_cast<int>(ends) << ": largest difference " << gap << " of " << size);
    CHECK(gap <= 1e-13 * size);
    CHECK(energy(constant, g, s) == energy(cells, g, s));
  }
}

TEST_CASE("field: the box scheme's energy stays in its window over 1e5 steps", "[field]") {
  const Density d;
  const Grid g{1.0, 256, Ends::Fixed};
  const double ratio = energyWindowRatio<BoxScheme>(d, g, bump(g), 0.5 * g.spacing(), 100000);
  INFO("box " << ratio);
  CHECK(ratio <= 1.5);
}

TEST_CASE("field: the box scheme is of order 2 against d'Alembert's solution with periodic ends", "[field]") {
  const double e64 = standingWaveError<BoxScheme>(64), e128 = standingWaveError<BoxScheme>(128),
               e256 = standingWaveError<BoxScheme>(256);
  const double p1 = std::log2(e64 / e128), p2 = std::log2(e128 / e256);
  INFO("errors " << e64 << " " << e128 << " " << e256 << ", orders " << p1 << " " << p2);
  CHECK(std::abs(p1 - 2) <= 0.1);
  CHECK(std::abs(p2 - 2) <= 0.1);
  CHECK(e256 <= 1e-3);
}

TEST_CASE("field: the box scheme keeps the periodic momentum, free ends move, a refused step keeps the state",
          "[field]") {
  const Density d;
  const Grid g{1.0, 128, Ends::Periodic};
  State s = sineWave(g, true);
  const double p0 = momentum(d, g, s);
  BoxScheme m;
  for (int k = 0; k < 2000; ++k) REQUIRE(m.step(d, g, s, 0.5 * g.spacing()).ok);
  CHECK(std::abs(momentum(d, g, s) - p0) <= 1e-12);

  // Free ends: a bump drifting at speed 1 until t = 1.56; the energy error over the run
  // is O(Δx²) (the lumped velocity's): measured 3.8e-3 of E at N = 256, 4.3× less than at 128.
  double error[2];
  for (int pass = 0; pass < 2; ++pass) {
    const Grid free{1.0, 128 << pass, Ends::Free};
    State f = bump(free);
    f.v.assign(free.points, 1.0);
    const double e0 = energy(d, free, f);
    error[pass] = 0;
    for (int k = 0; k < 400 << pass; ++k) {
      REQUIRE(m.step(d, free, f, 0.5 * free.spacing()).ok);
      error[pass] = std::max(error[pass], std::abs(energy(d, free, f) - e0) / e0);
    }
    CHECK(f.u[0] > 1.5);
  }
  INFO("relative energy errors " << error[0] << " " << error[1]);
  CHECK(error[1] <= 5e-3);
  CHECK(error[0] / error[1] >= 3.5);

  State bad = bump(g);
  bad.u[7] = NAN;
  const std::vector<double> before = bad.v;
  const auto out = m.step(d, g, bad, 0.01);
  CHECK_FALSE(out.ok);
  CHECK(bad.v == before);
  CHECK(bad.t == 0);
}

namespace {

// Rows n − 1, n, n + 1 of a run from two initial states (two solutions of the linear
// wave, which is its own variational equation) after `steps` steps.
template <class Method>
void lastRows(const Density& d, const Grid& g, State s, double dt, int steps, std::vector<double>* rows) {
  Method m;
  for (int k = 0; k <= steps + 1; ++k) {
    if (k >= steps - 1) rows[k - (steps - 1)] = s.u;
    if (k <= steps) advance(m, d, g, s, dt);
  }
}

State sineState(const Grid& g) {
  State s;
  for (int i = 0; i < g.points; ++i) {
    s.u.push_back(vilab::dm::sin(3 * kPi * g.x(i)));
    s.v.push_back(vilab::dm::sin(kPi * g.x(i)));
  }
  return s;
}

template <class Method, class Cell>
double lawResidual(const Density& d, const Grid& g, double dt) {
  std::vector<double> xi[3], eta[3];
  lastRows<Method>(d, g, bump(g), dt, 300, xi);
  lastRows<Method>(d, g, sineState(g), dt, 300, eta);
  return multisymplecticResidual<Cell>(d, g, dt, xi, xi, eta);
}

}  // namespace

TEST_CASE("field: the local multisymplectic law holds per cell for the box and the leapfrog, not for RK4", "[field]") {
  const Density d;
  const Grid g{1.0, 256, Ends::Fixed};
  const double dt = 0.5 * g.spacing();
  const double box = lawResidual<BoxScheme, MidpointCell>(d, g, dt);
  const double leapfrog = lawResidual<Leapfrog, TrapezoidCell>(d, g, dt);
  const double rk4Box = lawResidual<RungeKutta4, MidpointCell>(d, g, dt);
  const double rk4Trapezoid = lawResidual<RungeKutta4, TrapezoidCell>(d, g, dt);
  INFO("box " << box << ", leapfrog " << leapfrog << ", RK4 " << rk4Box << " / " << rk4Trapezoid);
  CHECK(box <= 1e-12);
  CHECK(leapfrog <= 1e-12);
  CHECK(rk4Box >= 1e-8);
  CHECK(rk4Trapezoid >= 1e-8);
}

TEST_CASE("field: with κ varying along x the law holds with each cell's κ_c, and fails with one κ for all", "[field]") {
  const Grid g{1.0, 256, Ends::Fixed};
  const Density stiff = stiffSegment(g), uniform;
  const double dt = 0.125 * g.spacing();  // half the stiff cells' limit Δx/4: the leapfrog is stable
  std::vector<double> xi[3], eta[3];
  lastRows<Leapfrog>(stiff, g, bump(g), dt, 300, xi);
  lastRows<Leapfrog>(stiff, g, sineState(g), dt, 300, eta);
  const double leapfrog = multisymplecticResidual<TrapezoidCell>(stiff, g, dt, xi, xi, eta);
  const double leapfrogOneKappa = multisymplecticResidual<TrapezoidCell>(uniform, g, dt, xi, xi, eta);
  lastRows<BoxScheme>(stiff, g, bump(g), dt, 300, xi);
  lastRows<BoxScheme>(stiff, g, sineState(g), dt, 300, eta);
  const double box = multisymplecticResidual<MidpointCell>(stiff, g, dt, xi, xi, eta);
  const double boxOneKappa = multisymplecticResidual<MidpointCell>(uniform, g, dt, xi, xi, eta);
  INFO("leapfrog " << leapfrog << " (κ = 1 for all: " << leapfrogOneKappa << "), box " << box
                   << " (κ = 1 for all: " << boxOneKappa << ")");
  CHECK(leapfrog <= 1e-12);
  CHECK(box <= 1e-12);
  CHECK(leapfrogOneKappa >= 1e-6);
  CHECK(boxOneKappa >= 1e-6);
}

TEST_CASE("field: DOPRI5 at atol = rtol = 1e-10 drifts in energy where the box scheme stays in its window", "[field]") {
  const Density d;
  const Grid g{1.0, 256, Ends::Fixed};
  const double dt = 0.5 * g.spacing();
  const int steps = 20000;
  State s = bump(g);
  FieldDormandPrince dopri(d, g, dt, 1e-10);
  dopri.load(s);
  const double e0 = energy(d, g, s);
  double lo = 0, hi = 0, early = 0;
  int substeps = 0;
  for (int k = 1; k <= steps; ++k) {
    const auto out = dopri.step(dt, s);
    REQUIRE(out.ok);
    substeps += out.iterations;
    const double e = energy(d, g, s) - e0;
    lo = std::min(lo, e), hi = std::max(hi, e);
    if (k == steps / 10) early = hi - lo;
  }
  const double ratio = (hi - lo) / early, drift = (energy(d, g, s) - e0) / e0;
  const double box = energyWindowRatio<BoxScheme>(d, g, bump(g), dt, steps);
  INFO("DOPRI5: window ratio " << ratio << ", relative drift " << drift << " at t = " << s.t << ", "
                               << double(substeps) / steps << " substeps per step, " << dopri.rejectedSubsteps()
                               << " rejected; box ratio " << box);
  CHECK(ratio >= 5);
  CHECK(box <= 1.5);
}

namespace {

// The exact sine-Gordon kink 4 atan(exp(γ(x − x0 − ct))) and its u_t, at t = 0.
void addKink(const Grid& g, double x0, double c, double sign, State& s) {
  const double gamma = 1 / std::sqrt(1 - c * c);
  s.u.resize(g.points, 0.0), s.v.resize(g.points, 0.0);
  for (int i = 0; i < g.points; ++i) {
    const double xi = gamma * (g.x(i) - x0);
    s.u[i] += sign * 4 * vilab::dm::atan2(vilab::dm::exp(xi), 1.0);
    s.v[i] += sign * -2 * c * gamma / (0.5 * (vilab::dm::exp(xi) + vilab::dm::exp(-xi)));
  }
}

// Where u crosses `level`, interpolated linearly between the nodes around it (first crossing).
double crossing(const Grid& g, const std::vector<double>& u, double level) {
  for (int i = 0; i + 1 < g.points; ++i)
    if ((u[i] - level) * (u[i + 1] - level) <= 0 && u[i] != u[i + 1])
      return g.x(i) + g.spacing() * (level - u[i]) / (u[i + 1] - u[i]);
  return NAN;
}

template <class Method>
double kinkSpeed(const Density& d, const Grid& g, double c, double dt, int steps) {
  State s;
  addKink(g, 15, c, 1, s);
  const double x0 = crossing(g, s.u, kPi);
  Method m;
  for (int k = 0; k < steps; ++k) advance(m, d, g, s, dt);
  return (crossing(g, s.u, kPi) - x0) / s.t;
}

}  // namespace

TEST_CASE("field: a sine-Gordon kink moves at its exact speed, box and leapfrog", "[field]") {
  const Density d = sineGordon();
  const Grid g{40.0, 1024, Ends::Fixed};
  const double dt = 0.02;
  const double box = kinkSpeed<BoxScheme>(d, g, 0.5, dt, 1000), leapfrog = kinkSpeed<Leapfrog>(d, g, 0.5, dt, 1000);
  INFO("speeds after t = 20: box " << box << ", leapfrog " << leapfrog << " (exact 0.5)");
  CHECK(std::abs(box - 0.5) <= 1e-4);
  CHECK(std::abs(leapfrog - 0.5) <= 1e-4);
  // The negative control: a kink started at 0.45 is told apart.
  CHECK(std::abs(kinkSpeed<BoxScheme>(d, g, 0.45, dt, 1000) - 0.5) >= 1e-2);
}

TEST_CASE("field: a sine-Gordon kink and antikink collide and pass, energy kept by box and leapfrog", "[field]") {
  const Density d = sineGordon();
  const Grid g{40.0, 1024, Ends::Fixed};
  const double dt = 0.02;
  State start;
  addKink(g, 10, 0.5, 1, start);
  addKink(g, 30, -0.5, -1, start);  // the antikink 2π − 4 atan(…), moving left
  const double e0 = energy(d, g, start);
  double worst[2] = {0, 0}, middle[2] = {0, 0};
  for (int pass = 0; pass < 2; ++pass) {
    State s = start;
    BoxScheme box;
    Leapfrog leapfrog;
    for (int k = 0; k < 2000; ++k) {  // the centres meet at t = 20; run to t = 40
      if (pass == 0)
        REQUIRE(box.step(d, g, s, dt).ok);
      else
        leapfrog.step(d, g, s, dt);
      worst[pass] = std::max(worst[pass], std::abs(energy(d, g, s) - e0) / e0);
    }
    middle[pass] = s.u[g.points / 2];
  }
  INFO("E0 " << e0 << "; largest relative energy error: box " << worst[0] << ", leapfrog " << worst[1]
             << "; u between them at t = 40: box " << middle[0] << ", leapfrog " << middle[1]);
  CHECK(worst[0] <= 1e-3);
  CHECK(worst[1] <= 1e-3);
  // They passed through each other: between them u went from 2π to −2π (a bounce keeps 2π).
  CHECK(middle[0] < -6);
  CHECK(middle[1] < -6);
}

namespace {

// cos(ωΔt) of a Fourier mode of amplitude `amp` from three rows of a run: the scheme's
// rows of a pure mode obey c_{n+1} + c_{n−1} = 2 cos(ωΔt) c_n.
template <class Method>
double measuredFrequency(const Density& d, const Grid& g, int mode, double amp, double dt) {
  State s;
  for (int i = 0; i < g.points; ++i) {
    s.u.push_back(amp * vilab::dm::cos(2 * kPi * mode * g.x(i)));
    s.v.push_back(0);
  }
  double c[3];
  Method m;
  for (int n = 0; n < 3; ++n) {
    c[n] = 0;
    for (int i = 0; i < g.points; ++i) c[n] += s.u[i] * vilab::dm::cos(2 * kPi * mode * g.x(i));
    advance(m, d, g, s, dt);
  }
  const double cosine = (c[2] + c[0]) / (2 * c[1]);
  return vilab::dm::atan2(std::sqrt(1 - cosine * cosine), cosine) / dt;
}

}  // namespace

TEST_CASE("field: the box scheme's small waves follow its discrete dispersion relation", "[field]") {
  const Density d = sineGordon();
  const Grid g{1.0, 64, Ends::Periodic};
  double worst = 0, leapfrogOff = 0;
  for (double ratio : {0.5, 4.0})  // the box has no CFL limit: Δt = 4Δx too
    for (int mode : {1, 5, 16, 31}) {
      const double dt = ratio * g.spacing(), k = 2 * kPi * mode;
      const double exact = boxFrequency(d, g, dt, k, 1.0);
      const double box = measuredFrequency<BoxScheme>(d, g, mode, 1e-7, dt);
      worst = std::max(worst, std::abs(box - exact) / exact);
      if (ratio < 1)
        leapfrogOff =
            std::max(leapfrogOff, std::abs(measuredFrequency<Leapfrog>(d, g, mode, 1e-7, dt) - exact) / exact);
    }
  INFO("box against its relation " << worst << ", the leapfrog against it " << leapfrogOff);
  CHECK(worst <= 1e-10);
  CHECK(leapfrogOff >= 1e-3);  // the negative control: another scheme, another relation
}

TEST_CASE("field: the leapfrog's largest stable step is where it blows up", "[field]") {
  Density kg;  // Klein–Gordon, V = ½u²: the bound includes V''
  kg.setPotential([](double u) { return 0.5 * u * u; }, [](double u) { return u; }, [](double) { return 1.0; });
  for (const Ends ends : {Ends::Fixed, Ends::Free, Ends::Periodic})
    for (const bool withMass : {false, true}) {
      const Density d = withMass ? kg : Density{};
      const Grid g{1.0, 65, ends};
      const double hMax = leapfrogLargestStep(d, g, withMass ? 1.0 : 0.0);
      double peak[2];
      for (int side = 0; side < 2; ++side) {
        State s = bump(g);
        Leapfrog m;
        peak[side] = 0;
        for (int k = 0; k < 5000; ++k) {
          m.step(d, g, s, hMax * (side == 0 ? 0.995 : 1.005));
          for (double u : s.u) peak[side] = std::max(peak[side], std::abs(u));
        }
      }
      INFO("ends " << int(ends) << ", mass " << withMass << ": h_max " << hMax << ", peaks " << peak[0] << " "
                   << peak[1]);
      CHECK(peak[0] <= 2);
      CHECK(peak[1] >= 1e3);
    }
}

TEST_CASE("field: a density typed as text runs the box scheme as the built-in one does", "[field]") {
  const Grid g{40.0, 512, Ends::Fixed};
  const double dt = 0.04;
  struct Case {
    const char* text;
    Density builtIn;
  };
  Density kleinGordon;  // ρ = 2, κ = 3, V = ½u²
  kleinGordon.rho = 2, kleinGordon.kappa = 3;
  kleinGordon.setPotential([](double u) { return 0.5 * u * u; }, [](double u) { return u; },
                           [](double) { return 1.0; });
  const Case cases[] = {{"0.5*u_t^2 - 0.5*u_x^2 - (1 - cos(u))", sineGordon()},
                        {"u_t^2 - 1.5*u_x^2 - 0.5*u^2", kleinGordon}};
  for (const Case& c : cases) {
    const DataDensity data(c.text);
    State a;
    addKink(g, 15, 0.5, 1, a);
    State b = a;
    BoxScheme builtIn;
    BoxSchemeT<DataDensity> typed;
    double gap = 0;
    for (int k = 0; k < 250; ++k) {
      REQUIRE(builtIn.step(c.builtIn, g, a, dt).ok);
      REQUIRE(typed.step(data, g, b, dt).ok);
      for (int i = 0; i < g.points; ++i) gap = std::max({gap, std::abs(a.u[i] - b.u[i]), std::abs(a.v[i] - b.v[i])});
    }
    INFO(c.text << ": largest difference " << gap);
    CHECK(gap <= 1e-11);
  }
}

TEST_CASE("field: a typed density that is not a field's is refused by field, the state kept", "[field]") {
  try {
    DataDensity("0.5*u_t^2 - u_y^2");
    FAIL("accepted an unknown name");
  } catch (const vilab::expr::ExpressionError& e) {
    const std::string what = e.what();
    INFO(what);
    CHECK(what.rfind("density.lagrangian:", 0) == 0);
    CHECK(e.column() == 13);
  }
  const DataDensity noKinetic("0.5*u_x^2");  // ∂²ℒ/∂u_t² = 0: no velocity from a momentum
  const Grid g{1.0, 32, Ends::Periodic};
  State s = bump(g);
  const State before = s;
  BoxSchemeT<DataDensity> box;
  const auto out = box.step(noKinetic, g, s, 0.01);
  CHECK_FALSE(out.ok);
  CHECK(s.u == before.u);
  CHECK(s.v == before.v);
}

namespace {

// The largest relative gap between a method's tangent step along ds and the central
// difference of its step at ±ε ds (Pinocchio-style derivative check).
template <class StepBoth, class StepPlain>
double tangentGap(const Grid& g, const State& s, const State& ds, StepBoth both, StepPlain plain) {
  State base = s, tangent = ds;
  both(base, tangent);
  const double eps = 1e-6;
  State plus = s, minus = s;
  for (int i = 0; i < g.points; ++i) plus.u[i] += eps * ds.u[i], minus.u[i] -= eps * ds.u[i];
  for (int i = 0; i < g.points; ++i) plus.v[i] += eps * ds.v[i], minus.v[i] -= eps * ds.v[i];
  plain(plus);
  plain(minus);
  double gap = 0, size = 0;
  for (int i = 0; i < g.points; ++i) {
    gap = std::max({gap, std::abs((plus.u[i] - minus.u[i]) / (2 * eps) - tangent.u[i]),
                    std::abs((plus.v[i] - minus.v[i]) / (2 * eps) - tangent.v[i])});
    size = std::max({size, std::abs(tangent.u[i]), std::abs(tangent.v[i])});
  }
  return gap / size;
}

State smoothVariation(const Grid& g) {
  State ds;
  for (int i = 0; i < g.points; ++i) {
    const bool moves = nodeMoves(g, i);
    ds.u.push_back(moves ? vilab::dm::sin(3 * kPi * g.x(i)) : 0.0);
    ds.v.push_back(moves ? vilab::dm::cos(kPi * g.x(i)) : 0.0);
  }
  return ds;
}

}  // namespace

TEST_CASE("field: the steps' linearizations equal their central differences on sine-Gordon", "[field]") {
  const Density d = sineGordon();
  const Grid g{1.0, 64, Ends::Fixed};
  const double dt = 0.5 * g.spacing();
  State s = bump(g);
  for (double& u : s.u) u *= 2;  // well into the nonlinear range of V = 1 − cos u
  const State ds = smoothVariation(g);
  const double leapfrog = tangentGap(
      g, s, ds, [&](State& a, State& b) { Leapfrog::stepWithTangents(d, g, a, &b, 1, dt); },
      [&](State& a) { Leapfrog().step(d, g, a, dt); });
  const double rk4 = tangentGap(
      g, s, ds, [&](State& a, State& b) { RungeKutta4::stepWithTangents(d, g, a, &b, 1, dt); },
      [&](State& a) { RungeKutta4().step(d, g, a, dt); });
  // The box scheme carries (δu, δp): its plain step's v is p/(ρΔx) here (ρ = 1, interior).
  const double box = tangentGap(
      g, s, ds,
      [&](State& a, State& b) {
        const std::vector<double> old = a.u;
        BoxScheme m;
        REQUIRE(m.step(d, g, a, dt).ok);
        for (double& v : b.v) v *= g.spacing();  // δp = ρΔx δv
        REQUIRE(m.tangent(d, g, dt, 0.0, old, a.u, b.u, b.v));
        for (double& v : b.v) v /= g.spacing();
      },
      [&](State& a) { REQUIRE(BoxScheme().step(d, g, a, dt).ok); });
  INFO("relative gaps: leapfrog " << leapfrog << ", RK4 " << rk4 << ", box " << box);
  CHECK(leapfrog <= 1e-8);
  CHECK(rk4 <= 1e-8);
  CHECK(box <= 1e-7);
}

TEST_CASE("field: the leapfrog's and RK4's steps with a tangent take the plain steps' bits", "[field]") {
  const Density d = sineGordon();
  const Grid g{1.0, 64, Ends::Periodic};
  const double dt = 0.5 * g.spacing();
  State a = bump(g), b = bump(g), ds = smoothVariation(g);
  Leapfrog plain;
  for (int k = 0; k < 20; ++k) plain.step(d, g, a, dt), Leapfrog::stepWithTangents(d, g, b, &ds, 1, dt);
  CHECK(a.u == b.u);
  CHECK(a.v == b.v);
  State c = bump(g), e = bump(g);
  RungeKutta4 rk4;
  for (int k = 0; k < 20; ++k) rk4.step(d, g, c, dt), RungeKutta4::stepWithTangents(d, g, e, &ds, 1, dt);
  CHECK(c.u == e.u);
  CHECK(c.v == e.v);
}

}  // namespace vilab::field::test_field

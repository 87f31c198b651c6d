// Simulation::linearize: the step's Jacobian from the integrators' own derivatives,
// checked against a central finite difference of the step, and its structure: det 1
// for the symplectic steps, Kapitza's Floquet multipliers, the midpoint rule's
// rotation angle 2·atan(hω/2) (Lu's modified clock).
#include <catch2/catch.hpp>
#include <cmath>
#include <complex>
#include <string>
#include <variant>
#include <vector>

#include "support.hpp"
#include "vilab/chain_linearization.hpp"
#include "vilab/registry.hpp"

using namespace vilab;
using namespace vilab::test;

namespace {

// A system defined by data with no bodies to draw but one point.
Json dataScenario(const std::string& integrator, double h, const std::vector<std::string>& coordinates,
                  const std::string& lagrangian, const Json& q, const Json& qdot, const Json& extra = Json::object()) {
  Json params = {{"coordinates", coordinates},
                 {"constants", Json::object()},
                 {"lagrangian", lagrangian},
                 {"constraints", Json::array()},
                 {"conserved", Json::object()},
                 {"symmetries", Json::object()},
                 {"bodies", Json::array({Json{{"position", {coordinates[0], "0", "0"}}, {"radius", 0.05}}})}};
  for (auto it = extra.begin(); it != extra.end(); ++it) params[it.key()] = it.value();
  return {{"system", "lagrangian"},
          {"integrator", integrator},
          {"h", h},
          {"params", params},
          {"initial", {{"q", q}, {"qdot", qdot}}}};
}

// One step from s (the clock at 0, as setState leaves it), as a vector (q, p).
VecX stepFrom(const Json& scenario, const State& s) {
  Simulation sim(parseScenario(scenario));
  sim.setState(s);
  sim.advance(1);
  VecX out(2 * sim.q().size());
  out << sim.q(), sim.p();
  return out;
}

// The largest entry of |J − J_fd| over the largest of 1 and |J|, with J_fd the central
// difference of the step with a relative increment of 1e-5 in each coordinate.
double finiteDifferenceMismatch(const Json& scenario, const State& s, Eigen::MatrixXd& J) {
  Simulation sim(parseScenario(scenario));
  sim.setState(s);
  J = sim.linearize();
  const int n = static_cast<int>(s.q.size());
  Eigen::MatrixXd fd(2 * n, 2 * n);
  for (int j = 0; j < 2 * n; ++j) {
    State plus = s, minus = s;
    VecX& coordinate = j < n ? plus.q : plus.p;
    const int i = j < n ? j : j - n;
    const double e = 1e-5 * std::max(1.0, std::abs(coordinate[i]));
    coordinate[i] += e;
    (j < n ? minus.q : minus.p)[i] -= e;
    fd.col(j) = (stepFrom(scenario, plus) - stepFrom(scenario, minus)) / (2 * e);
  }
  return (J - fd).cwiseAbs().maxCoeff() / std::max(1.0, J.cwiseAbs().maxCoeff());
}

State stateAfter(const Json& scenario, int steps) {
  Simulation sim(parseScenario(scenario));
  sim.advance(static_cast<std::uint64_t>(steps));
  return sim.state();
}

// The monodromy matrix of Kapitza's pendulum about the inverted position over one
// period 2π/ω, in N steps of the midpoint rule, and its multipliers.
std::vector<std::complex<double>> kapitzaMultipliers(double omega, int stepsPerPeriod) {
  Json scenario = lagrangianScene("kapitza");
  scenario["params"]["constants"]["w"] = omega;
  scenario["h"] = 2 * M_PI / omega / stepsPerPeriod;
  scenario["initial"] = {{"q", {M_PI}}, {"qdot", {0.0}}};
  Simulation sim(parseScenario(scenario));
  Eigen::MatrixXd monodromy = Eigen::MatrixXd::Identity(2, 2);
  for (int k = 0; k < stepsPerPeriod; ++k) {
    monodromy = sim.linearize() * monodromy;
    sim.advance(1);
  }
  const Eigen::VectorXcd mu = monodromy.eigenvalues();
  return {mu[0], mu[1]};
}

}  // namespace

TEST_CASE("linearize equals a central difference of the step", "[linearize]") {
  const Json pendulum = dataScenario("midpoint", 0.05, {"th"}, "th'^2/2 + 9.81*cos(th)", {1.2}, {0.4});
  const Json gyroscopic =
      dataScenario("midpoint", 0.05, {"x", "y"}, "(x'^2 + y'^2)/2 + 1.3*(x*y' - y*x')/2 - (x^2 + 2*y^2)/2 - x^2*y/3",
                   {0.4, -0.2}, {0.3, 0.5});
  const Json forced = dataScenario("midpoint", 0.05, {"th"}, "th'^2/2 + cos(th)", {0.7}, {0.3},
                                   {{"damping", 0.5}, {"forces", {"0.8*cos(0.7*t) + 0.3*sin(th)*th'"}}});
  Json alpha = dataScenario("alpha", 0.05, {"x", "y"}, "(x'^2 + y'^2)/2 - (x^2 + y^2)/2 - x^2*y + y^3/3", {0.1, 0.2},
                            {0.35, 0.3});
  alpha["options"] = {{"alpha", 0.3}};
  const Json kepler = lagrangianScene("kepler");
  Json kapitza = lagrangianScene("kapitza");
  kapitza["initial"] = {{"q", {2.9}}, {"qdot", {0.4}}};
  const Json doublePendulum = lagrangianScene("double-pendulum");
  const Json oscillatorRk4 = {{"system", "oscillator"}, {"integrator", "rk4"}, {"h", 0.1}};
  const Json oscillatorEuler = {{"system", "oscillator"}, {"integrator", "euler"}, {"h", 0.01}};
  struct Case {
    const char* name;
    const Json& scenario;
  };
  for (const Case& c :
       {Case{"pendulum", pendulum}, Case{"gyroscopic", gyroscopic}, Case{"forced", forced}, Case{"alpha 0.3", alpha},
        Case{"kepler", kepler}, Case{"kapitza", kapitza}, Case{"double pendulum", doublePendulum},
        Case{"oscillator rk4", oscillatorRk4}, Case{"oscillator euler", oscillatorEuler}}) {
    INFO(c.name);
    Eigen::MatrixXd J;
    const double mismatch = finiteDifferenceMismatch(c.scenario, stateAfter(c.scenario, 7), J);
    CHECK(mismatch <= 1e-7);
    // A wrong Jacobian would miss: the identity, or the one of a step twice as long.
    CHECK((J - Eigen::MatrixXd::Identity(J.rows(), J.cols())).cwiseAbs().maxCoeff() > 1e-4);
  }
}

TEST_CASE("linearize: determinant 1 for the symplectic steps, not for RK4", "[linearize]") {
  const Json gyroscopic =
      dataScenario("midpoint", 0.05, {"x", "y"}, "(x'^2 + y'^2)/2 + 1.3*(x*y' - y*x')/2 - (x^2 + 2*y^2)/2 - x^2*y/3",
                   {0.4, -0.2}, {0.3, 0.5});
  Simulation sim(parseScenario(gyroscopic));
  for (int k = 0; k < 20; ++k) {
    const Eigen::MatrixXd J = sim.linearize();
    CHECK(std::abs(J.determinant() - 1) <= 1e-12);
    // Symplectic, not only volume-preserving: JᵀΩJ = Ω.
    Eigen::MatrixXd omega = Eigen::MatrixXd::Zero(4, 4);
    omega.topRightCorner(2, 2) = Eigen::MatrixXd::Identity(2, 2);
    omega.bottomLeftCorner(2, 2) = -Eigen::MatrixXd::Identity(2, 2);
    CHECK((J.transpose() * omega * J - omega).cwiseAbs().maxCoeff() <= 1e-12);
    sim.advance(5);
  }
  Simulation rk4(parseScenario(Json{{"system", "oscillator"}, {"integrator", "rk4"}, {"h", 0.1}}));
  const double defect = std::abs(rk4.linearize().determinant() - 1);
  CHECK(defect > 1e-9);  // (hω)⁶/72 for RK4's stability polynomial on a rotation
}

namespace {

// A chain's step Jacobian in the tangent bases (chain_linearization.hpp) by a central
// difference along the basis vectors at the start (setState projects the O(ε²) offset).
Eigen::MatrixXd chainFiniteDifference(const Json& scenario, const State& a) {
  const ChainModel m = std::get<ChainModel>(parseScenario(scenario).model);
  const Eigen::MatrixXd basisA = chainTangentBasis(m, a);
  const int N = static_cast<int>(a.q.size());
  VecX b = stepFrom(scenario, a);
  const Eigen::MatrixXd basisB = chainTangentBasis(m, State{b.head(N), b.tail(N)});
  Eigen::MatrixXd fd(basisA.rows(), basisA.cols());
  const double e = 1e-6;  // the O(ε²) offset stays within setState's tolerance of the manifold
  for (int j = 0; j < basisA.cols(); ++j) {
    State plus = a, minus = a;
    plus.q += e * basisA.col(j).head(N);
    plus.p += e * basisA.col(j).tail(N);
    minus.q -= e * basisA.col(j).head(N);
    minus.p -= e * basisA.col(j).tail(N);
    fd.col(j) = (stepFrom(scenario, plus) - stepFrom(scenario, minus)) / (2 * e);
  }
  return chainTangentCoordinates(basisB, fd);
}

Eigen::MatrixXd standardOmega(int n) {
  Eigen::MatrixXd omega = Eigen::MatrixXd::Zero(2 * n, 2 * n);
  omega.topRightCorner(n, n) = Eigen::MatrixXd::Identity(n, n);
  omega.bottomLeftCorner(n, n) = -Eigen::MatrixXd::Identity(n, n);
  return omega;
}

}  // namespace

TEST_CASE("linearize on chains: a symplectic basis of T(T*N), a central difference, det 1 — RK4 not", "[linearize]") {
  for (const char* system : {"double-spherical-pendulum", "pendulum", "chain"})
    for (const char* integrator : {"midpoint", "rattle", "trapezoid"}) {
      INFO(system << " by " << integrator);
      const Json scenario = {{"system", system}, {"integrator", integrator}, {"h", 0.02}};
      const State a = stateAfter(scenario, 11);
      Simulation sim(parseScenario(scenario));
      sim.setState(a);
      const Eigen::MatrixXd J = sim.linearize();
      const ChainModel m = std::get<ChainModel>(sim.scenario().model);
      const int dof = static_cast<int>(a.q.size()) - (m.planar ? 2 : 1) * m.bobs();
      REQUIRE(J.rows() == 2 * dof);
      REQUIRE(J.cols() == 2 * dof);
      const Eigen::MatrixXd fd = chainFiniteDifference(scenario, a);
      CHECK((J - fd).cwiseAbs().maxCoeff() / std::max(1.0, J.cwiseAbs().maxCoeff()) <= 1e-7);
      CHECK(std::abs(J.determinant() - 1) <= 1e-12);
      CHECK((J.transpose() * standardOmega(dof) * J - standardOmega(dof)).cwiseAbs().maxCoeff() <= 1e-12);
      // the basis itself: symplectic, tangent
      const Eigen::MatrixXd basis = chainTangentBasis(m, a);
      CHECK((basis.transpose() * standardOmega(static_cast<int>(a.q.size())) * basis - standardOmega(dof))
                .cwiseAbs()
                .maxCoeff() <= 1e-12);
    }
  // Negative control: RK4 (projected) on the DSP, its Jacobian by the same difference.
  const Json rk4 = {{"system", "double-spherical-pendulum"}, {"integrator", "rk4"}, {"h", 0.05}};
  const Eigen::MatrixXd J = chainFiniteDifference(rk4, stateAfter(rk4, 11));
  const double defect = std::abs(J.determinant() - 1);
  INFO("RK4 on the DSP: |det − 1| = " << defect);
  CHECK(defect > 1e-7);
  Simulation damped(parseScenario(
      Json{{"system", "double-spherical-pendulum"}, {"integrator", "midpoint"}, {"params", {{"damping", 0.1}}}}));
  CHECK_THROWS_AS(damped.linearize(), InputError);
}

TEST_CASE("linearize refuses where its entry does not declare it, and keeps the run", "[linearize]") {
  Simulation chain(parseScenario(Json{{"system", "double-spherical-pendulum"}, {"integrator", "energy-momentum"}}));
  try {
    chain.linearize();
    FAIL("a chain's energy-momentum step gave a Jacobian");
  } catch (const InputError& e) {
    CHECK(e.field() == "integrator");
    CHECK(e.message().find("Jacobian") != std::string::npos);
  }
  const Json kepler = lagrangianScene("kepler");
  Simulation a(parseScenario(kepler)), b(parseScenario(kepler));
  for (int k = 0; k < 50; ++k) {
    a.linearize();
    a.advance(3);
    b.advance(3);
  }
  CHECK(a.hash() == b.hash());
  for (const IntegratorEntry* entry : integratorRegistry())
    for (const std::string& system : systemsOf(*entry)) {
      const SystemEntry* s = findSystem(system);
      if (!entry->linearizesOn(s->model) || !acceptsDefault(system, entry->id)) continue;
      INFO(entry->id << " on " << system);
      Simulation sim(parseScenario(Json{{"system", system}, {"integrator", entry->id}}));
      const Eigen::MatrixXd J = sim.linearize();
      // 2n × 2n: n = q.length, or the degrees of freedom on a constrained system
      CHECK(J.rows() == J.cols());
      CHECK(J.rows() % 2 == 0);
      CHECK(J.rows() <= 2 * sim.q().size());
      CHECK(J.allFinite());
    }
}

TEST_CASE("Kapitza's Floquet multipliers: stable at w = 60, unstable at w = 30", "[linearize]") {
  for (const auto& mu : kapitzaMultipliers(60, 200)) CHECK(std::abs(std::abs(mu) - 1) <= 1e-9);
  const auto unstable = kapitzaMultipliers(30, 200);
  CHECK(std::max(std::abs(unstable[0]), std::abs(unstable[1])) > 1.01);
}

TEST_CASE("the midpoint rule's rotation angle is 2 atan(h w / 2)", "[linearize]") {
  for (double h : {0.01, 0.1, 0.5, 1.0}) {
    const double k = 4.0, m = 1.0, w = std::sqrt(k / m);
    const Json oscillator = dataScenario("midpoint", h, {"x"}, "x'^2/2 - 4*x^2/2", {1.0}, {0.0});
    Simulation sim(parseScenario(oscillator));
    const Eigen::MatrixXd J = sim.linearize();
    const double half = J.trace() / 2, angle = std::atan2(std::sqrt(J.determinant() - half * half), half);
    INFO("h = " << h);
    CHECK(std::abs(angle - 2 * std::atan(h * w / 2)) <= 1e-13);
    CHECK(std::abs(angle - h * w) > 1e-7);  // not the exact flow's angle hω
  }
}

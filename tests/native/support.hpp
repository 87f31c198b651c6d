// Shared helpers for the native tests.
#pragma once

#include <algorithm>
#include <cmath>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>
#include <vector>

#include "vilab/detmath.hpp"
#include "vilab/simulation.hpp"

namespace vilab::test {

inline Simulation simulate(const std::string& json, int stride = 1, int capacity = 1 << 15) {
  SimulationOptions o;
  o.historyStride = stride;
  o.historyCapacity = capacity;
  return Simulation(parseScenario(json), o);
}

// A run of `steps` steps in one call against `steps` calls of one step: "" when both give
// the same state, history, energy and refusal, and a refusal exactly when `refused`;
// else the first difference.
inline std::string batchedDiffersFromSingle(const std::string& json, int stride, bool refused,
                                            std::uint64_t steps = 500) {
  Simulation batch = simulate(json, stride), single = simulate(json, stride);
  std::string batchWhy, singleWhy;
  std::uint64_t batchTaken = steps;
  try {
    batch.advance(steps);
  } catch (const StepFailure& e) {
    batchWhy = e.refusal().reason;
    batchTaken = e.stepsTaken();
    if (e.step() != batch.step() + 1) return "the refused step is not the one after the state";
  }
  for (std::uint64_t k = 0; k < steps && singleWhy.empty(); ++k) {
    try {
      single.advance(1);
    } catch (const StepFailure& e) {
      singleWhy = e.refusal().reason;
    }
  }
  if (batchWhy.empty() == refused) return refused ? "not refused" : "refused: " + batchWhy;
  if (batchWhy != singleWhy) return "refusals differ: '" + batchWhy + "' and '" + singleWhy + "'";
  if (batch.step() != batchTaken) return "steps taken and the state's step differ";
  if (batch.step() != single.step()) return "steps differ";
  if (batch.hash() != single.hash()) return "states differ";
  std::vector<double> a, b;
  std::uint64_t na = 0, nb = 0;
  batch.history().read(0, a, na);
  single.history().read(0, b, nb);
  if (na != nb || a != b) return "histories differ";
  if (batch.diagnostics().energy != single.diagnostics().energy) return "energies differ";
  return "";
}

// The field a scenario is refused at, or "" when it is accepted.
inline std::string refusedAt(const Json& scenario) {
  try {
    parseScenario(scenario);
  } catch (const InputError& e) {
    return e.field();
  }
  return "";
}

inline void run(Simulation& sim, long n) { sim.advance(static_cast<std::uint64_t>(n)); }

// Does the integrator accept the system's default scenario? Some integrators on systems
// defined by data need a constant mass matrix or no constraints, which the default
// definition (the elastic pendulum, M depending on r) does not have.
inline bool acceptsDefault(const std::string& system, const std::string& integrator) {
  try {
    makeIntegrator(parseScenario(Json{{"system", system}, {"integrator", integrator}}));
    return true;
  } catch (const InputError&) {
    return false;
  }
}

// A scene of scenes/lagrangian/ as a scenario (without its `about` block). The sweeps use
// "henon-heiles" (constant mass, no constraints, nonlinear) for integrators that refuse
// the default definition.
inline Json lagrangianScene(const std::string& name) {
  std::ifstream in(std::string(VILAB_SCENES_DIR) + "/lagrangian/" + name + ".json");
  std::stringstream text;
  text << in.rdbuf();
  Json j = Json::parse(text.str());
  j.erase("about");
  return j;
}

// The default DSP typed as data (Cartesian, two constraints, unit masses, J_z as a
// symmetry), midpoint, from a state on its constraints.
inline Json dspAsData() {
  return Json{{"system", "lagrangian"},
              {"integrator", "midpoint"},
              {"h", 0.01},
              {"params",
               {{"coordinates", {"x1", "y1", "z1", "x2", "y2", "z2"}},
                {"constants", {{"g", 9.81}}},
                {"lagrangian", "(x1'^2+y1'^2+z1'^2)/2 + (x2'^2+y2'^2+z2'^2)/2 - g*z1 - g*z2"},
                {"constraints", {"x1^2+y1^2+z1^2-1", "(x2-x1)^2+(y2-y1)^2+(z2-z1)^2-1"}},
                {"symmetries", {{"Jz", {"-y1", "x1", "0", "-y2", "x2", "0"}}}}}},
              {"initial", {{"q", {0.6, 0, -0.8, 1.4, 0, -1.4}}, {"qdot", {0, 1.1, 0, 0.3, 0.9, 0.4}}}}};
}

// A recorded diagnostic column (all samples held).
inline std::vector<double> column(const Simulation& sim, const std::string& name) {
  const auto& cols = sim.history().columns();
  const auto c = static_cast<std::size_t>(std::find(cols.begin(), cols.end(), name) - cols.begin());
  std::vector<double> data;
  std::uint64_t count = 0;
  sim.history().read(0, data, count);
  return std::vector<double>(data.begin() + static_cast<long>(c * count),
                             data.begin() + static_cast<long>((c + 1) * count));
}

// Secular drift check: max |E − E0| over the last 10% of the samples divided by
// the same over the first 10% (after the first sample). Bounded oscillation gives
// about 1; a drift gives about the run length over the window length.
inline double driftRatio(const std::vector<double>& e) {
  const std::size_t n = e.size(), w = std::max<std::size_t>(1, n / 10);
  double first = 0, last = 0;
  for (std::size_t i = 1; i <= w; ++i) first = std::max(first, std::abs(e[i] - e[0]));
  for (std::size_t i = n - w; i < n; ++i) last = std::max(last, std::abs(e[i] - e[0]));
  return last / first;
}

// Least-squares slope of log(err) against log(h): the measured order.
inline double fittedOrder(const std::vector<double>& hs, const std::vector<double>& errs) {
  double sx = 0, sy = 0, sxx = 0, sxy = 0;
  const double n = static_cast<double>(hs.size());
  for (std::size_t i = 0; i < hs.size(); ++i) {
    const double x = std::log(hs[i]), y = std::log(errs[i]);
    sx += x, sy += y, sxx += x * x, sxy += x * y;
  }
  return (n * sxy - sx * sy) / (n * sxx - sx * sx);
}

inline double maxAbsDeviation(const std::vector<double>& x) {
  double m = 0;
  for (double v : x) m = std::max(m, std::abs(v - x[0]));
  return m;
}

inline double maxAbs(const std::vector<double>& x) {
  double m = 0;
  for (double v : x) m = std::max(m, std::abs(v));
  return m;
}

// Observed order from errors at h, h/2, h/4, ...: log2 of successive ratios.
inline std::vector<double> observedOrders(const std::vector<double>& errors) {
  std::vector<double> orders;
  for (std::size_t i = 1; i < errors.size(); ++i) orders.push_back(std::log2(errors[i - 1] / errors[i]));
  return orders;
}

inline double maxDifference(const VecX& a, const VecX& b) { return (a - b).cwiseAbs().maxCoeff(); }

// Central-difference Jacobian (fourth order) of a map R^n -> R^m, with step eps[j]
// along coordinate j.
inline Eigen::MatrixXd finiteDifferenceJacobian(const std::function<VecX(const VecX&)>& f, const VecX& x,
                                                const VecX& steps) {
  const VecX f0 = f(x);
  Eigen::MatrixXd J(f0.size(), x.size());
  for (Eigen::Index j = 0; j < x.size(); ++j) {
    const double eps = steps[j];
    VecX x1 = x, x2 = x, x3 = x, x4 = x;
    x1[j] += eps;
    x2[j] -= eps;
    x3[j] += 2 * eps;
    x4[j] -= 2 * eps;
    J.col(j) = (8 * (f(x1) - f(x2)) - (f(x3) - f(x4))) / (12 * eps);
  }
  return J;
}

inline Eigen::MatrixXd finiteDifferenceJacobian(const std::function<VecX(const VecX&)>& f, const VecX& x, double eps) {
  return finiteDifferenceJacobian(f, x, VecX::Constant(x.size(), eps));
}

// Checks a Newton problem's factorized Jacobian against finite differences of its
// residual: J⁻¹ (∂r/∂x_j)_FD should be the unit vector e_j. Returns the largest
// deviation over all j.
template <class Problem>
double newtonJacobianDefect(Problem& problem, const typename Problem::Vector& x, double eps = 1e-6) {
  using V = typename Problem::Vector;
  V r = x, rp = x, rm = x;
  problem.evaluate(x, r, true);
  double worst = 0;
  for (Eigen::Index j = 0; j < x.size(); ++j) {
    V xp = x, xm = x;
    xp[j] += eps;
    xm[j] -= eps;
    Problem copy = problem;
    copy.evaluate(xp, rp, false);
    copy.evaluate(xm, rm, false);
    V column = (rp - rm) / (2 * eps);
    problem.solve(column);
    column[j] -= 1.0;
    worst = std::max(worst, column.cwiseAbs().maxCoeff());
  }
  return worst;
}

}  // namespace vilab::test

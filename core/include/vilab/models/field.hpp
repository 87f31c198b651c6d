// One-dimensional fields with density ℒ = ½ρ u_t² − ½κ u_x² − V(u) on [0, ℓ]
// (the semilinear wave family: string, Klein–Gordon, sine-Gordon), discretized in
// space by the trapezoid-weighted semi-discrete Lagrangian
//   L_h = Σ_i w_i Δx (½ρ u̇_i² − V(u_i)) − Σ_cells Δx ½κ ((u_{i+1} − u_i)/Δx)²,
// w_i = ½ at a free end, else 1. Its Euler–Lagrange equations are the method-of-lines
// system every time integrator below advances, so they share one semi-discretization.
// κ may vary along the string: one κ_c per cell (κ(x) sampled at the cell's centre), the
// strain Σ_c Δx ½κ_c ((u_{i+1} − u_i)/Δx)². ρ stays one number: the explicit schemes'
// lumped masses ρ w_i Δx and the dispersion formulas below take it so.
#pragma once
#include <algorithm>
#include <cmath>
#include <functional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "vilab/detmath.hpp"

namespace vilab::field {

constexpr int kMaxFieldPoints = 4096;

enum class Ends { Fixed, Free, Periodic };

// A function of u that is 0 until one is given (V, V′, V″ of a density): a density
// without a potential knows it, and the steps skip the calls — the same bits, since
// a − 0/ρ = a for every a.
class ScalarFunction {
 public:
  ScalarFunction() = default;
  template <class F, class = std::enable_if_t<!std::is_same<std::decay_t<F>, ScalarFunction>::value>>
  ScalarFunction(F f) : f_(std::move(f)) {}  // NOLINT: a lambda assigns as it did to std::function
  double operator()(double u) const { return f_ ? f_(u) : 0.0; }
  explicit operator bool() const { return static_cast<bool>(f_); }

 private:
  std::function<double(double)> f_;
};

struct Density {
  double rho = 1;    // coefficient of ½u_t² (constant: the leapfrog needs it)
  double kappa = 1;  // coefficient of ½u_x²
  // κ_c of each cell when κ varies along x (empty: `kappa` in every cell). A constant κ
  // keeps it empty, so its arithmetic, and its bits, are those of the constant density.
  std::vector<double> kappas;
  double kappaOf(int cell) const { return kappas.empty() ? kappa : kappas[static_cast<std::size_t>(cell)]; }
  double largestKappa() const { return kappas.empty() ? kappa : *std::max_element(kappas.begin(), kappas.end()); }
  ScalarFunction potential, potentialSlope;
  ScalarFunction potentialCurvature;  // V'' (implicit schemes)
  // V, V' and V'' together.
  template <class V, class Slope, class Curvature>
  void setPotential(V v, Slope slope, Curvature curvature) {
    potential = std::move(v);
    potentialSlope = std::move(slope);
    potentialCurvature = std::move(curvature);
  }
  bool hasPotential() const { return potential || potentialSlope || potentialCurvature; }
};

struct Grid {
  double length = 1;
  int points = 2;
  Ends ends = Ends::Fixed;
  double spacing() const { return ends == Ends::Periodic ? length / points : length / (points - 1); }
  double x(int i) const { return i * spacing(); }
};

// Empty when valid, else "field: problem" with the field's path.
inline std::string validate(const Density& d, const Grid& g) {
  if (!(std::isfinite(g.length) && g.length > 0)) return "grid.length: must be a finite number > 0";
  const int least = g.ends == Ends::Periodic ? 3 : 2;
  if (g.points < least || g.points > kMaxFieldPoints)
    return "grid.points: must be between " + std::to_string(least) + " and " + std::to_string(kMaxFieldPoints);
  if (!(std::isfinite(d.rho) && d.rho > 0)) return "density.rho: must be a finite number > 0";
  if (!(std::isfinite(d.kappa) && d.kappa > 0)) return "density.kappa: must be a finite number > 0";
  const int cells = g.ends == Ends::Periodic ? g.points : g.points - 1;
  if (!d.kappas.empty() && static_cast<int>(d.kappas.size()) != cells)
    return "density.kappa: must have one value per cell (" + std::to_string(cells) + ")";
  for (std::size_t c = 0; c < d.kappas.size(); ++c)
    if (!(std::isfinite(d.kappas[c]) && d.kappas[c] > 0))
      return "density.kappa[" + std::to_string(c) + "]: must be a finite number > 0";
  return {};
}

struct State {
  std::vector<double> u, v;  // displacement and velocity at the grid points
  double t = 0;
};

// Whether node i moves (a fixed end does not).
inline bool nodeMoves(const Grid& g, int i) { return !(g.ends == Ends::Fixed && (i == 0 || i == g.points - 1)); }

// Node weights of the trapezoid rule (½ at a free end).
inline double weight(const Grid& g, int i) { return g.ends == Ends::Free && (i == 0 || i == g.points - 1) ? 0.5 : 1.0; }

// The grid's second difference of u at node i (a free end's half cell doubles the pull);
// 0 at a fixed end, which does not move.
inline double secondDifference(const Grid& g, const std::vector<double>& u, int i) {
  const int n = g.points;
  const bool first = i == 0, last = i == n - 1;
  if (g.ends == Ends::Periodic) return u[(i + 1) % n] - 2 * u[i] + u[(i + n - 1) % n];
  if (g.ends == Ends::Fixed && (first || last)) return 0;
  if (first) return 2 * (u[1] - u[0]);
  if (last) return 2 * (u[n - 2] - u[n - 1]);
  return u[i + 1] - 2 * u[i] + u[i - 1];
}

// The strain's share of ü with one κ_c per cell: each cell pulls its two nodes by
// ±κ_c (u_j − u_i)/Δx, over the node's mass ρ w_i Δx (a free end's half cell doubles the
// pull); 0 at a fixed end. Linear in u, so it is its own derivative.
inline void strainOfCells(const Density& d, const Grid& g, const std::vector<double>& u, std::vector<double>& a) {
  const int n = g.points, cells = g.ends == Ends::Periodic ? n : n - 1;
  const double h = g.spacing();
  a.assign(n, 0.0);
  for (int c = 0; c < cells; ++c) {
    const int j = (c + 1) % n;
    const double pull = d.kappaOf(c) * (u[j] - u[c]);
    a[c] += pull;
    a[j] -= pull;
  }
  for (int i = 0; i < n; ++i) a[i] = nodeMoves(g, i) ? a[i] / (d.rho * h * h * weight(g, i)) : 0.0;
}

// ü with one κ_c per cell.
inline void accelerationOfCells(const Density& d, const Grid& g, const std::vector<double>& u, std::vector<double>& a) {
  strainOfCells(d, g, u, a);
  for (int i = 0; i < g.points; ++i)
    if (nodeMoves(g, i)) a[i] = a[i] - d.potentialSlope(u[i]) / d.rho;
}

// ü of the semi-discrete Euler–Lagrange equations; fixed ends do not move.
inline void acceleration(const Density& d, const Grid& g, const std::vector<double>& u, std::vector<double>& a) {
  if (!d.kappas.empty()) return accelerationOfCells(d, g, u, a);
  const int n = g.points;
  const double h = g.spacing(), c2 = d.kappa / (d.rho * h * h);
  a.resize(n);
  // The two ends by secondDifference's cases; the interior, where every kind of end has
  // the same difference, without its branches or modulo, and without V′ when V = 0.
  for (int i : {0, n - 1})
    a[i] = nodeMoves(g, i) ? c2 * secondDifference(g, u, i) - d.potentialSlope(u[i]) / d.rho : 0.0;
  const double* x = u.data();
  double* out = a.data();
  if (d.hasPotential()) {
    for (int i = 1; i + 1 < n; ++i) out[i] = c2 * (x[i + 1] - 2 * x[i] + x[i - 1]) - d.potentialSlope(x[i]) / d.rho;
  } else {
    for (int i = 1; i + 1 < n; ++i) out[i] = c2 * (x[i + 1] - 2 * x[i] + x[i - 1]);
  }
}

// The acceleration's derivative along du at u: the semi-discrete variational equation.
inline void accelerationTangent(const Density& d, const Grid& g, const std::vector<double>& u,
                                const std::vector<double>& du, std::vector<double>& da) {
  if (!d.kappas.empty()) {
    strainOfCells(d, g, du, da);
    for (int i = 0; i < g.points; ++i)
      if (nodeMoves(g, i)) da[i] = da[i] - d.potentialCurvature(u[i]) * du[i] / d.rho;
    return;
  }
  const int n = g.points;
  const double h = g.spacing(), c2 = d.kappa / (d.rho * h * h);
  da.assign(n, 0.0);
  for (int i = 0; i < n; ++i) {
    if (!nodeMoves(g, i)) continue;
    da[i] = c2 * secondDifference(g, du, i) - d.potentialCurvature(u[i]) * du[i] / d.rho;
  }
}

// The discrete energy: kinetic and potential at the nodes plus the cells' strain.
inline double energy(const Density& d, const Grid& g, const State& s) {
  const int n = g.points, cells = g.ends == Ends::Periodic ? n : n - 1;
  const double h = g.spacing();
  double e = 0;
  for (int i = 0; i < n; ++i) e += weight(g, i) * h * (0.5 * d.rho * s.v[i] * s.v[i] + d.potential(s.u[i]));
  for (int c = 0; c < cells; ++c) {
    const double ux = (s.u[(c + 1) % n] - s.u[c]) / h;
    e += h * 0.5 * d.kappaOf(c) * ux * ux;
  }
  return e;
}

// Total momentum Σ w_i Δx ρ u̇_i (conserved with periodic ends and V = 0).
inline double momentum(const Density& d, const Grid& g, const State& s) {
  double p = 0;
  for (int i = 0; i < g.points; ++i) p += weight(g, i) * g.spacing() * d.rho * s.v[i];
  return p;
}

// The largest h at which the leapfrog is stable for the linearization with V'' ≤
// curvatureBound: h < 2/ω_max with ω_max² = (κ/(ρΔx²))·λ_max + V''/ρ, λ_max the largest
// eigenvalue of the grid's second difference (−δ²): 4 sin²(πm/(2(m+1))) for the m = N − 2
// moving points of fixed ends, 4 sin²(π⌊N/2⌋/N) for periodic ends, 4 for free ends (their
// alternating mode). Zero when the linearization itself is unstable (V'' so negative that
// ω_max² ≤ 0 has no oscillating top mode: the fastest mode grows at any h). With κ varying
// along x it takes the largest κ_c, a bound (the strain Σ κ_c (Δu)² ≤ max κ_c Σ (Δu)²), so
// the step is stable but may be below the limit.
inline double leapfrogLargestStep(const Density& d, const Grid& g, double curvatureBound = 0) {
  constexpr double pi = 3.14159265358979323846;
  const int n = g.points;
  double lambda = 4;
  if (g.ends == Ends::Fixed) {
    const double s = dm::sin(pi * (n - 2) / (2.0 * (n - 1)));
    lambda = 4 * s * s;
  } else if (g.ends == Ends::Periodic) {
    const double s = dm::sin(pi * (n / 2) / n);
    lambda = 4 * s * s;
  }
  const double h = g.spacing();
  const double top = d.largestKappa() / (d.rho * h * h) * lambda + curvatureBound / d.rho;
  return top > 0 ? 2 / std::sqrt(top) : 0.0;
}

// The sine-Gordon density: V = 1 − cos u (ρ = κ = 1).
inline Density sineGordon() {
  Density d;
  d.setPotential([](double u) { return 1 - dm::cos(u); }, [](double u) { return dm::sin(u); },
                 [](double u) { return dm::cos(u); });
  return d;
}

// Störmer–Verlet's kick, drift, kick on ü = a(u), `accelerate(u, a)` giving a(u): the
// one-component string's (Leapfrog below) and a typed density's (field_lines.hpp). The
// acceleration at a step's end is kept for the next step's first kick.
class KickDriftKick {
 public:
  template <class Accelerate>
  void step(const Accelerate& accelerate, State& s, double dt) {
    if (a_.size() != s.u.size()) accelerate(s.u, a_);
    const std::size_t n = s.u.size();
    const double half = 0.5 * dt;
    double* u = s.u.data();
    double* v = s.v.data();
    const double* a = a_.data();
    for (std::size_t i = 0; i < n; ++i) {
      v[i] += half * a[i];
      u[i] += dt * v[i];
    }
    accelerate(s.u, a_);
    a = a_.data();
    for (std::size_t i = 0; i < n; ++i) v[i] += half * a[i];
    s.t += dt;
  }

 private:
  std::vector<double> a_;
};

// Störmer–Verlet's step of s (KickDriftKick's bits) and of `count` solutions ds[k] =
// (δu, δu̇) of its linearization about s, for any semi-discrete system: accelerate(u, a)
// and its derivative tangent(u, du, da).
template <class Accelerate, class Tangent>
void leapfrogWithTangents(const Accelerate& accelerate, const Tangent& tangent, State& s, State* ds, int count,
                          double dt) {
  const std::size_t n = s.u.size();
  std::vector<double> a, da;
  for (int half = 0; half < 2; ++half) {
    accelerate(s.u, a);
    for (int k = 0; k < count; ++k) {
      tangent(s.u, ds[k].u, da);
      for (std::size_t i = 0; i < n; ++i) ds[k].v[i] += 0.5 * dt * da[i];
    }
    for (std::size_t i = 0; i < n; ++i) s.v[i] += 0.5 * dt * a[i];
    if (half == 1) break;
    for (std::size_t i = 0; i < n; ++i) s.u[i] += dt * s.v[i];
    for (int k = 0; k < count; ++k)
      for (std::size_t i = 0; i < n; ++i) ds[k].u[i] += dt * ds[k].v[i];
  }
  s.t += dt;
}

// ds = (δu, δu̇) carried along classical RK4's stages for its step of dt from `start`
// (RungeKutta4's stages, re-formed: the same base points), for any semi-discrete system
// as leapfrogWithTangents.
template <class Accelerate, class Tangent>
void rungeKutta4Tangent(const Accelerate& accelerate, const Tangent& tangent, const State& start, State& ds,
                        double dt) {
  const std::size_t n = start.u.size();
  std::vector<double> u = start.u, v = start.v, du = ds.u, dv = ds.v, ku[4], kv[4], dku[4], dkv[4];
  const double c[4] = {0, 0.5, 0.5, 1};
  for (int k = 0; k < 4; ++k) {
    if (k > 0)
      for (std::size_t i = 0; i < n; ++i) {
        u[i] = start.u[i] + c[k] * dt * ku[k - 1][i];
        v[i] = start.v[i] + c[k] * dt * kv[k - 1][i];
        du[i] = ds.u[i] + c[k] * dt * dku[k - 1][i];
        dv[i] = ds.v[i] + c[k] * dt * dkv[k - 1][i];
      }
    ku[k] = v;
    dku[k] = dv;
    accelerate(u, kv[k]);
    tangent(u, du, dkv[k]);
  }
  for (std::size_t i = 0; i < n; ++i) {
    ds.u[i] += dt / 6 * (dku[0][i] + 2 * dku[1][i] + 2 * dku[2][i] + dku[3][i]);
    ds.v[i] += dt / 6 * (dkv[0][i] + 2 * dkv[1][i] + 2 * dkv[2][i] + dkv[3][i]);
  }
}

// Störmer–Verlet: the variational integrator of L_h with the trapezoid discrete
// Lagrangian (Marsden & West 2001, §2.5 and §5.2 for the spacetime form). O(N).
class Leapfrog {
 public:
  void step(const Density& d, const Grid& g, State& s, double dt) {
    method_.step([&d, &g](const std::vector<double>& u, std::vector<double>& a) { acceleration(d, g, u, a); }, s, dt);
  }

  // The same step of s (the same bits) and of `count` solutions ds[k] = (δu, δu̇) of its
  // linearization about s: the variations the multisymplectic law is stated for.
  static void stepWithTangents(const Density& d, const Grid& g, State& s, State* ds, int count, double dt) {
    leapfrogWithTangents([&](const std::vector<double>& u, std::vector<double>& a) { acceleration(d, g, u, a); },
                         [&](const std::vector<double>& u, const std::vector<double>& du, std::vector<double>& da) {
                           accelerationTangent(d, g, u, du, da);
                         },
                         s, ds, count, dt);
  }

 private:
  KickDriftKick method_;
};

// Classical RK4 on the same method-of-lines system (the non-symplectic baseline).
class RungeKutta4 {
 public:
  void step(const Density& d, const Grid& g, State& s, double dt) {
    const int n = g.points;
    // storage kept between steps: every stage overwrites it
    ku_.resize(4);
    kv_.resize(4);
    std::vector<double>& u = u_;
    std::vector<double>& v = v_;
    u = s.u;
    v = s.v;
    const double c[4] = {0, 0.5, 0.5, 1};
    for (int k = 0; k < 4; ++k) {
      if (k > 0)
        for (int i = 0; i < n; ++i) {
          u[i] = s.u[i] + c[k] * dt * ku_[k - 1][i];
          v[i] = s.v[i] + c[k] * dt * kv_[k - 1][i];
        }
      ku_[k] = v;
      acceleration(d, g, u, kv_[k]);
    }
    for (int i = 0; i < n; ++i) {
      s.u[i] += dt / 6 * (ku_[0][i] + 2 * ku_[1][i] + 2 * ku_[2][i] + ku_[3][i]);
      s.v[i] += dt / 6 * (kv_[0][i] + 2 * kv_[1][i] + 2 * kv_[2][i] + kv_[3][i]);
    }
    s.t += dt;
  }

  // The same step of s and of `count` solutions ds[k] = (δu, δu̇) of its linearization
  // about s: the stages' derivatives along each, about the one base step.
  static void stepWithTangents(const Density& d, const Grid& g, State& s, State* ds, int count, double dt) {
    const State start = s;
    RungeKutta4().step(d, g, s, dt);
    for (int k = 0; k < count; ++k)
      rungeKutta4Tangent([&](const std::vector<double>& u, std::vector<double>& a) { acceleration(d, g, u, a); },
                         [&](const std::vector<double>& u, const std::vector<double>& du, std::vector<double>& da) {
                           accelerationTangent(d, g, u, du, da);
                         },
                         start, ds[k], dt);
  }

 private:
  std::vector<std::vector<double>> ku_, kv_;
  std::vector<double> u_, v_;
};

}  // namespace vilab::field

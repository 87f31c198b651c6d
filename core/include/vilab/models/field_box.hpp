// The multisymplectic box scheme for ℒ = ½ρ u_t² − ½κ u_x² − V(u) and the local
// multisymplectic conservation law of the space-time variational integrators.
//
// Cells of the space-time mesh are rectangles Δx × Δt with corners (a_i, a_j) on the old
// time row and (b_i, b_j) on the new one (j = i + 1). Two discrete densities:
//  - midpoint (Marsden, Patrick & Shkoller 1998, §4; Marsden & West 2001, §5.2): ℒ at the
//    cell centre, with
//      D = (b_i + b_j − a_i − a_j)/(2Δt),  S = (a_j + b_j − a_i − b_i)/(2Δx),
//      m = (a_i + a_j + b_i + b_j)/4,      L_c = ΔxΔt (½ρD² − ½κS² − V(m)).
//    Its discrete Euler–Lagrange equations are the box scheme: for the linear wave the
//    nine-point stencil ρ A_x δ_t² u = κ A_t δ_x² u (A = the (¼, ½, ¼) average), which is
//    Bridges & Reich's Preissmann box (2001, §4) with v and w eliminated;
//  - trapezoid: ℒ averaged over the corners, L_c = ΔxΔt (¼ρ((b_i−a_i)² + (b_j−a_j)²)/Δt²
//    − ¼κ((a_j−a_i)² + (b_j−b_i)²)/Δx² − ¼ΣV(corner)): its equations are the leapfrog's.
//
// The discrete multisymplectic form formula (Marsden, Patrick & Shkoller 1998, Thm 4.1)
// for two solutions ξ, η of the linearized equations, on the dual cell around a mesh node k
// (the four cells c that share it, H^c = the Hessian of L_c in its corners):
//      Σ_{c ∋ k} [ η_k (H^c ξ)_k − ξ_k (H^c η)_k ] = 0,
// the discrete ∂_t ω + ∂_x κ = 0: the couplings of H^c along a time edge carry
// ω = ρ(ξ_t η − ξ η_t), those along a space edge κ = −κ(ξ_x η − ξ η_x). It holds to rounding
// for a scheme's own rows and not for rows of a scheme that is not variational (RK4).
#pragma once
#include <algorithm>
#include <array>
#include <cmath>
#include <string>
#include <vector>

#include "vilab/models/field.hpp"
#include "vilab/solver/newton.hpp"
#include "vilab/solver/tridiagonal.hpp"

namespace vilab::field {

using Corners = std::array<double, 4>;  // a_i, a_j, b_i, b_j
using CellHessian = std::array<std::array<double, 4>, 4>;

// The midpoint density of one cell: its gradient and Hessian in the corners.
// `cell` is the cell's index (its κ_c).
struct MidpointCell {
  static constexpr double dD[4] = {-0.5, -0.5, 0.5, 0.5};  // × 1/Δt
  static constexpr double dS[4] = {-0.5, 0.5, -0.5, 0.5};  // × 1/Δx
  // Always inlined: a caller uses two of the four entries (the Newton residual) or four of
  // the sixteen (its tridiagonal Jacobian), and only an inlined body drops the others.
  [[gnu::always_inline]] static void gradient(const Density& d, int cell, double dx, double dt, const Corners& y,
                                              Corners& g) {
    const double D = (y[2] + y[3] - y[0] - y[1]) / (2 * dt), S = (y[1] + y[3] - y[0] - y[2]) / (2 * dx);
    const double slope = d.potentialSlope(0.25 * (y[0] + y[1] + y[2] + y[3])), kappa = d.kappaOf(cell);
    for (int k = 0; k < 4; ++k) g[k] = dx * dt * (d.rho * D * dD[k] / dt - kappa * S * dS[k] / dx - 0.25 * slope);
  }
  [[gnu::always_inline]] static void hessian(const Density& d, int cell, double dx, double dt, const Corners& y,
                                             CellHessian& h) {
    const double curvature = d.potentialCurvature(0.25 * (y[0] + y[1] + y[2] + y[3])), kappa = d.kappaOf(cell);
    for (int k = 0; k < 4; ++k)
      for (int l = 0; l < 4; ++l)
        h[k][l] = dx * dt * (d.rho * dD[k] * dD[l] / (dt * dt) - kappa * dS[k] * dS[l] / (dx * dx) - curvature / 16);
  }
};

// The cell whose centre is x: the box scheme passes the hooks the centres (c + ½)Δx.
inline int cellAt(double x, double dx) { return static_cast<int>(std::floor(x / dx)); }

// The hooks a box scheme asks of a density: the cell's gradient and Hessian (above), and
// the lumped Legendre transform at a node, p = w Δx ∂ℒ/∂u_t, both ways.
// Always inlined, as MidpointCell's.
[[gnu::always_inline]] inline void cellGradient(const Density& d, double dx, double dt, double x, double,
                                                const Corners& y, Corners& g) {
  MidpointCell::gradient(d, cellAt(x, dx), dx, dt, y, g);
}
[[gnu::always_inline]] inline void cellHessian(const Density& d, double dx, double dt, double x, double,
                                               const Corners& y, CellHessian& h) {
  MidpointCell::hessian(d, cellAt(x, dx), dx, dt, y, h);
}
inline double nodeMomentum(const Density& d, double mass, double, double v, double, double, double) {
  return d.rho * mass * v;
}
inline bool nodeVelocity(const Density& d, double mass, double, double p, double, double, double, double& v) {
  v = p / (d.rho * mass);
  return true;
}

// The trapezoid density of one cell (the leapfrog's): only its Hessian is needed.
struct TrapezoidCell {
  static void hessian(const Density& d, int cell, double dx, double dt, const Corners& y, CellHessian& h) {
    const double t = d.rho / (2 * dt * dt), s = d.kappaOf(cell) / (2 * dx * dx);
    h = CellHessian{};
    const int timeEdge[2][2] = {{0, 2}, {1, 3}}, spaceEdge[2][2] = {{0, 1}, {2, 3}};
    for (const auto& e : timeEdge) {
      h[e[0]][e[0]] += t, h[e[1]][e[1]] += t, h[e[0]][e[1]] -= t, h[e[1]][e[0]] -= t;
    }
    for (const auto& e : spaceEdge) {
      h[e[0]][e[0]] -= s, h[e[1]][e[1]] -= s, h[e[0]][e[1]] += s, h[e[1]][e[0]] += s;
    }
    for (int k = 0; k < 4; ++k) h[k][k] -= 0.25 * d.potentialCurvature(y[k]);
    for (auto& row : h)
      for (double& v : row) v *= dx * dt;
  }
};

// Cells of a grid: n − 1 between neighbours, and the wrapping one with periodic ends.
inline int cellCount(const Grid& g) { return g.ends == Ends::Periodic ? g.points : g.points - 1; }

// The residual of the multisymplectic form formula on the dual cell of every node of the
// middle row of three rows, relative to the sum of its terms' magnitudes (the terms are of
// size ρΔx/Δt; their sum cancels to rounding when the law holds); 0 at a fixed end.
// m components: each row holds component a's nodes at a·N (field_multi.hpp's layout), and
// the law sums the pairings of every component at a node.
// base: the solution the equations are linearized about; xi, eta: two solutions of the
// linearized equations; hessian(c, slab, y, h): the Hessian of cell c of slab 0 (rows 0–1)
// or 1 (rows 1–2) at corners y[k·m + a] (k = a_i, a_j, b_i, b_j), as
// h[(k·m + a)·4m + l·m + b] = ∂²L_c/∂y_{ka}∂y_{lb}.
template <class CellHessianAt>
void multisymplecticResiduals(const Grid& g, int m, const std::vector<double>* base, const std::vector<double>* xi,
                              const std::vector<double>* eta, CellHessianAt hessian, std::vector<double>& out) {
  const int n = g.points, corners = 4 * m;
  std::vector<double> sum(n, 0.0), scale(n, 0.0), y(corners), p(corners), q(corners), h(corners * corners);
  for (int slab = 0; slab < 2; ++slab) {
    for (int c = 0; c < cellCount(g); ++c) {
      const int i = c, j = (c + 1) % n, node[4] = {i, j, i, j};
      const int row[4] = {slab, slab, slab + 1, slab + 1};
      for (int k = 0; k < 4; ++k)
        for (int a = 0; a < m; ++a) {
          const int at = a * n + node[k];
          y[k * m + a] = base[row[k]][at];
          p[k * m + a] = xi[row[k]][at];
          q[k * m + a] = eta[row[k]][at];
        }
      hessian(c, slab, y.data(), h.data());
      for (int k = 0; k < corners; ++k) {
        if (row[k / m] != 1) continue;  // only the middle row's nodes have their whole dual cell
        for (int l = 0; l < corners; ++l) {
          const double hkl = h[k * corners + l];
          sum[node[k / m]] += hkl * (q[k] * p[l] - p[k] * q[l]);
          scale[node[k / m]] += std::abs(hkl * q[k] * p[l]) + std::abs(hkl * p[k] * q[l]);
        }
      }
    }
  }
  out.assign(n, 0.0);
  for (int i = 0; i < n; ++i)
    if (nodeMoves(g, i) && scale[i] > 0) out[i] = std::abs(sum[i]) / scale[i];
}

// One component: hessian(c, slab, corners, h) fills a CellHessian.
template <class CellHessianAt>
void multisymplecticResiduals(const Grid& g, const std::vector<double>* base, const std::vector<double>* xi,
                              const std::vector<double>* eta, CellHessianAt hessian, std::vector<double>& out) {
  multisymplecticResiduals(
      g, 1, base, xi, eta,
      [&](int c, int slab, const double* y, double* flat) {
        CellHessian h;
        hessian(c, slab, Corners{y[0], y[1], y[2], y[3]}, h);
        for (int k = 0; k < 4; ++k)
          for (int l = 0; l < 4; ++l) flat[k * 4 + l] = h[k][l];
      },
      out);
}

// The largest of those residuals for a built-in density's cell (MidpointCell, TrapezoidCell).
template <class Cell>
double multisymplecticResidual(const Density& d, const Grid& g, double dt, const std::vector<double>* base,
                               const std::vector<double>* xi, const std::vector<double>* eta) {
  std::vector<double> out;
  multisymplecticResiduals(
      g, base, xi, eta,
      [&](int c, int, const Corners& y, CellHessian& h) { Cell::hessian(d, c, g.spacing(), dt, y, h); }, out);
  return *std::max_element(out.begin(), out.end());
}

// The box scheme's dispersion relation for small waves e^{i(kx − ωt)} about u = 0, with
// m² = V''(0): the Fourier symbols of A_x, A_t, δ_t², δ_x² in the nine-point equation
// ρ A_x δ_t² u = κ A_t δ_x² u − m² A_x A_t u give
//   tan(ωΔt/2) = (Δt/2) √( 4κ/(ρΔx²) tan²(kΔx/2) + m²/ρ ),
// real for every Δt (no CFL limit; compare the leapfrog's sin(ωΔt/2) on the right). For a
// constant κ only (a varying one has no single relation).
inline double boxFrequency(const Density& d, const Grid& g, double dt, double k, double curvature) {
  const double h = g.spacing(), t = dm::sin(0.5 * k * h) / dm::cos(0.5 * k * h);
  const double rhs = 0.5 * dt * std::sqrt(4 * d.kappa / (d.rho * h * h) * t * t + curvature / d.rho);
  return 2 * dm::atan2(rhs, 1.0) / dt;
}

// The box scheme as a one-step map on (u, p): the discrete Legendre transforms
// p^n = −∂S/∂u^n (the old row) and p^{n+1} = ∂S/∂u^{n+1} of the slab's action S = Σ_c L_c;
// the new row solves −∂S/∂u^n (u^n, u^{n+1}) = p^n by Newton with a tridiagonal Jacobian
// (cyclic with periodic ends: Sherman–Morrison), O(N) per iteration. State.v holds
// p_i/(ρ w_i Δx), the momentum over the lumped mass (equal to u_t to O(Δx²)).
template <class DensityT>
class BoxSchemeT {
 public:
  using Vector = Eigen::VectorXd;

  StepOutcome step(const DensityT& d, const Grid& g, State& s, double dt) {
    const int n = g.points;
    momentum_.resize(n);
    d_ = &d, g_ = &g, dt_ = dt, a_ = &s.u, t_ = s.t;
    for (int i = 0; i < n; ++i)
      momentum_[i] = nodeMomentum(d, weight(g, i) * g.spacing(), s.u[i], s.v[i], nodeSlope(g, s.u, i), g.x(i), s.t);
    Vector b(n);
    double largest = 0;
    for (int i = 0; i < n; ++i) {
      b[i] = s.u[i] + (nodeMoves(g, i) ? dt * s.v[i] : 0.0);
      largest = std::max({largest, std::abs(s.u[i]), std::abs(b[i] - s.u[i])});
    }
    scale_ = largest > 0 ? largest : 1.0;
    NewtonSettings settings;
    settings.what = "the box scheme's new time row";
    const StepOutcome out = solveNewton(*this, b, settings, workspace_);
    if (!out.ok) return out;  // the state is untouched
    std::vector<double> next(b.data(), b.data() + n);
    for (double u : next)
      if (!std::isfinite(u)) return newton_detail::residualNotFinite(settings.what, out.iterations);
    newMomentum(d, g, dt, s.t, s.u, next, momentum_);
    std::vector<double> velocity(n, 0.0);
    for (int i = 0; i < n; ++i)
      if (nodeMoves(g, i) && !nodeVelocity(d, weight(g, i) * g.spacing(), next[i], momentum_[i], nodeSlope(g, next, i),
                                           g.x(i), s.t + dt, velocity[i]))
        return StepOutcome::refuse(RefusalCode::NonFinite,
                                   "the density's momentum ∂ℒ/∂u_t cannot be inverted for u_t at the new row",
                                   Suggestion::reduceH(), out.iterations);
    s.v = std::move(velocity);
    s.u = std::move(next);
    s.t += dt;
    return out;
  }

  // Newton's problem: r_i = ∂S/∂a_i (a, b) + p_i at the moving nodes, b_i − a_i at fixed ones.
  NewtonEval evaluate(const Vector& b, Vector& r, bool linearize) {
    const Grid& g = *g_;
    const int n = g.points;
    const double dx = g.spacing();
    r.resize(n);
    for (int i = 0; i < n; ++i) r[i] = momentum_[i];
    if (linearize) {
      jacobian_.resize(n);
      cornerLow_ = cornerHigh_ = 0;
    }
    for (int c = 0; c < cellCount(g); ++c) {
      const int i = c, j = (c + 1) % n;
      const Corners y{(*a_)[i], (*a_)[j], b[i], b[j]};
      Corners grad;
      cellGradient(*d_, dx, dt_, cellCentre(g, c), t_ + 0.5 * dt_, y, grad);
      r[i] += grad[0], r[j] += grad[1];
      if (linearize) addCellJacobian(y, i, j);
    }
    for (int i = 0; i < n; ++i) {
      if (!std::isfinite(r[i])) return NewtonEval::NonFinite;
      if (nodeMoves(g, i)) continue;
      r[i] = b[i] - (*a_)[i];
      if (linearize) pinRow(i);
    }
    if (linearize && !factorize()) return NewtonEval::Singular;
    return NewtonEval::Ok;
  }
  double conditionEstimate() const { return jacobian_.pivotRatio; }
  void solve(Vector& x) const {
    jacobian_.solveFactorized(x.data());
    if (g_->ends != Ends::Periodic) return;
    const int n = g_->points;
    const double vy = x[0] + cornerLow_ / gamma_ * x[n - 1];
    x -= (vy / (1 + vz_)) * z_;
  }
  double size(const Vector& dx) const { return dx.cwiseAbs().maxCoeff() / scale_; }

  // The step's linearization from row a to its new row b (Marsden–West §5.2): a variation
  // (δa, δp) of the old row and its momenta goes to (δb, δp'), where
  //   ∂²S/∂a∂b δb = −(∂²S/∂a² δa + δp)   (the Newton matrix; δb = δa at a fixed end),
  //   δp' = ∂²S/∂b∂a δa + ∂²S/∂b² δb      (0 at a fixed end).
  // False where the matrix is singular or not finite.
  bool tangent(const DensityT& d, const Grid& g, double dt, double t, const std::vector<double>& a,
               const std::vector<double>& b, std::vector<double>& du, std::vector<double>& dp) {
    const int n = g.points;
    d_ = &d, g_ = &g, dt_ = dt, a_ = &a, t_ = t;
    momentum_.assign(n, 0.0);
    const Vector row = Eigen::Map<const Vector>(b.data(), n);
    Vector r, x = Vector::Zero(n);
    if (evaluate(row, r, true) != NewtonEval::Ok) return false;
    std::vector<CellHessian> hessians(static_cast<std::size_t>(cellCount(g)));
    for (int c = 0; c < cellCount(g); ++c) {
      const int i = c, j = (c + 1) % n;
      CellHessian& h = hessians[static_cast<std::size_t>(c)];
      cellHessian(d, g.spacing(), dt, cellCentre(g, c), t + 0.5 * dt, Corners{a[i], a[j], b[i], b[j]}, h);
      x[i] -= h[0][0] * du[i] + h[0][1] * du[j];
      x[j] -= h[1][0] * du[i] + h[1][1] * du[j];
    }
    for (int i = 0; i < n; ++i) x[i] = nodeMoves(g, i) ? x[i] - dp[i] : du[i];
    solve(x);
    std::vector<double> next(n, 0.0);
    for (int c = 0; c < cellCount(g); ++c) {
      const int i = c, j = (c + 1) % n;
      const CellHessian& h = hessians[static_cast<std::size_t>(c)];
      for (int k = 2; k < 4; ++k)
        next[k == 2 ? i : j] += h[k][0] * du[i] + h[k][1] * du[j] + h[k][2] * x[i] + h[k][3] * x[j];
    }
    for (int i = 0; i < n; ++i) {
      du[i] = x[i];
      dp[i] = nodeMoves(g, i) ? next[i] : 0.0;
    }
    return x.allFinite();
  }

  // p^{n+1}_i = ∂S/∂b_i (a, b) (zero at fixed ends).
  static void newMomentum(const DensityT& d, const Grid& g, double dt, double t, const std::vector<double>& a,
                          const std::vector<double>& b, std::vector<double>& p) {
    const int n = g.points;
    p.assign(n, 0.0);
    for (int c = 0; c < cellCount(g); ++c) {
      const int i = c, j = (c + 1) % n;
      Corners grad;
      cellGradient(d, g.spacing(), dt, cellCentre(g, c), t + 0.5 * dt, Corners{a[i], a[j], b[i], b[j]}, grad);
      p[i] += grad[2], p[j] += grad[3];
    }
    for (int i = 0; i < n; ++i)
      if (!nodeMoves(g, i)) p[i] = 0;
  }

 private:
  // ∂r_i/∂b_k = ∂²L_c/∂a_i∂b_k: the Hessian's old-row × new-row block.
  void addCellJacobian(const Corners& y, int i, int j) {
    CellHessian h;
    cellHessian(*d_, g_->spacing(), dt_, cellCentre(*g_, i), t_ + 0.5 * dt_, y, h);
    jacobian_.diag[i] += h[0][2];
    jacobian_.diag[j] += h[1][3];
    if (j == i + 1) {
      jacobian_.upper[i] += h[0][3];
      jacobian_.lower[j] += h[1][2];
    } else {                   // the wrapping cell: the cyclic corners
      cornerHigh_ += h[0][3];  // row i = n − 1, column 0
      cornerLow_ += h[1][2];   // row 0, column n − 1
    }
  }
  void pinRow(int i) {
    jacobian_.diag[i] = 1;
    jacobian_.lower[i] = jacobian_.upper[i] = 0;
  }
  // Periodic ends: A = T + u vᵀ with u = (γ, 0, …, 0, β), v = (1, 0, …, 0, α/γ) where
  // α = A[0][n−1], β = A[n−1][0] (Sherman–Morrison); z = T⁻¹u is kept for the solves.
  bool factorize() {
    if (g_->ends != Ends::Periodic) return jacobian_.factorize();
    const int n = g_->points;
    gamma_ = -jacobian_.diag[0];
    jacobian_.diag[0] -= gamma_;
    jacobian_.diag[n - 1] -= cornerHigh_ * cornerLow_ / gamma_;
    if (!jacobian_.factorize()) return false;
    z_ = Vector::Zero(n);
    z_[0] = gamma_, z_[n - 1] = cornerHigh_;
    jacobian_.solveFactorized(z_.data());
    vz_ = z_[0] + cornerLow_ / gamma_ * z_[n - 1];
    return std::abs(1 + vz_) > 0;
  }

  // u_x at a node for the Legendre transform: centred, one-sided at an end.
  static double nodeSlope(const Grid& g, const std::vector<double>& u, int i) {
    const int n = g.points;
    if (g.ends == Ends::Periodic) return (u[(i + 1) % n] - u[(i + n - 1) % n]) / (2 * g.spacing());
    if (i == 0) return (u[1] - u[0]) / g.spacing();
    if (i == n - 1) return (u[n - 1] - u[n - 2]) / g.spacing();
    return (u[i + 1] - u[i - 1]) / (2 * g.spacing());
  }
  static double cellCentre(const Grid& g, int c) { return (c + 0.5) * g.spacing(); }

  const DensityT* d_ = nullptr;
  const Grid* g_ = nullptr;
  const std::vector<double>* a_ = nullptr;
  double dt_ = 0, scale_ = 1, t_ = 0;
  std::vector<double> momentum_;
  Tridiagonal jacobian_;
  double cornerLow_ = 0, cornerHigh_ = 0, gamma_ = 1, vz_ = 0;
  Vector z_;
  NewtonWorkspace<Vector> workspace_;
};

using BoxScheme = BoxSchemeT<Density>;

}  // namespace vilab::field

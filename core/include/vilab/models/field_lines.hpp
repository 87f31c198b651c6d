// Typed fields (of one component or several) by the method of lines: the explicit methods
// (leapfrog, RK4, DOPRI5) on a typed density whose kinetic part is ½ u_tᵀ M u_t with M constant,
//   ℒ = ½ u_tᵀ M u_t − U(u, u_x, x),
// discretized in space as the one-component string of field.hpp: the cell-trapezoid
// semi-discrete Lagrangian
//   L_h = Σ_c Δx ½ [ℒ(u_i, u̇_i, S_c, x_i) + ℒ(u_j, u̇_j, S_c, x_j)],  S_c = (u_j − u_i)/Δx,
// (j = i + 1 the cell's right node; for ℒ = ½ρu_t² − ½κu_x² − V(u) it is field.hpp's L_h),
// whose energy is FieldModel::energy's. Its Euler–Lagrange equations
//   w_i Δx M ü_i = ∂L_h/∂u_i
// are what the methods advance; the leapfrog is the trapezoid discrete Lagrangian's
// variational integrator (Marsden & West 2001, §2.5), so a linear symmetry of ℒ keeps its
// discrete Noether charge p·Gu exactly (Marsden–West §3.3).
#pragma once
#include <Eigen/Dense>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "vilab/models/field.hpp"
#include "vilab/models/field_data.hpp"
#include "vilab/models/field_multi.hpp"
#include "vilab/types.hpp"

namespace vilab::field {

// Fixed pseudo-random numbers in [−½, ½) (splitmix64), the same on every platform: the
// points a typed density's properties are checked at (a declared symmetry, a constant mass).
struct TestPoints {
  std::uint64_t seed;
  double next() {
    seed += 0x9e3779b97f4a7c15ull;
    std::uint64_t z = seed;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    z ^= z >> 31;
    return static_cast<double>(z >> 11) * 0x1p-53 - 0.5;
  }
};

// A typed ℒ as the method of lines reads it: m components, evaluate(w, x) at w = (u, u_t,
// u_x) per component giving ℒ, its gradient, then its Hessian's upper triangle — the
// layout of MultiDensity, which for one component is DataDensity's.
class LinesDensity {
 public:
  explicit LinesDensity(std::shared_ptr<const MultiDensity> d) : multi_(std::move(d)) {}
  explicit LinesDensity(std::shared_ptr<const DataDensity> d) : typed_(std::move(d)) {}

  int components() const { return multi_ ? multi_->components() : 1; }
  const double* evaluate(const double* w, double x) const {
    if (multi_) return multi_->evaluate(w, x);
    typed_->evaluate(w[0], w[1], w[2], x, 0.0, out_);
    return out_;
  }
  int gradientAt(int k) const { return 1 + k; }
  int hessianAt(int i, int j) const {
    // DataDensity's upper triangle: (uu, u ut, u ux, ut ut, ut ux, ux ux) from 4.
    static constexpr int kOne[3][3] = {{4, 5, 6}, {5, 7, 8}, {6, 8, 9}};
    return multi_ ? multi_->hessianAt(i, j) : kOne[i][j];
  }

 private:
  std::shared_ptr<const MultiDensity> multi_;
  std::shared_ptr<const DataDensity> typed_;
  mutable double out_[10];
};

class MultiLines {
 public:
  // Throws InputError naming `integrator` (the method's id in the message) when ℒ's
  // kinetic part is not ½ u_tᵀ M u_t with M constant and positive definite.
  MultiLines(LinesDensity d, const Grid& g, const std::string& method);

  int components() const { return m_; }
  int size() const { return m_ * grid_.points; }
  const Grid& grid() const { return grid_; }
  // w_i Δx of entry k (component-major: node k mod N).
  double length(int k) const { return weight(grid_, k % grid_.points) * grid_.spacing(); }
  bool moves(int k) const { return nodeMoves(grid_, k % grid_.points); }
  // ü (component-major) of the semi-discrete equations; 0 at a fixed end.
  void acceleration(const std::vector<double>& u, std::vector<double>& a) const;
  // Its derivative along du: δü = M⁻¹ (∂²L_h/∂u²) δu / (w_i Δx), from ℒ's second derivatives.
  void accelerationTangent(const std::vector<double>& u, const std::vector<double>& du, std::vector<double>& da) const;

  // The trapezoid discrete density of the space-time cell c (nodes i = c, j = c + 1, rows
  // a old and b new, Δt = dt), ℒ at each corner with its node's time edge and its row's
  // space edge:
  //   L_c = ΔxΔt/4 Σ_{corners} ℒ(u, (b_node − a_node)/Δt, (row_j − row_i)/Δx, x_node),
  // whose sum over cells is Δt/2 [L_h(a, (b − a)/Δt) + L_h(b, (b − a)/Δt)], the trapezoid
  // discrete Lagrangian: its discrete Euler–Lagrange equations are the leapfrog's step
  // (Marsden–West §2.5, §5.2). For ½ρu_t² − ½κu_x² − V(u) it is field_box.hpp's
  // TrapezoidCell. Corners y[k·m + a] (k = a_i, a_j, b_i, b_j); its gradient g[k·m + a] and
  // Hessian h[(k·m + a)·4m + l·m + b] (field_box.hpp's layout).
  void cellGradient(int c, double dt, const double* y, double* g) const;
  void cellHessian(int c, double dt, const double* y, double* h) const;

 private:
  // Each cell end's ℒ outputs: visit(node, ends, out) at (u_node, 0, S_c), x_node.
  template <class Visit>
  void eachCellEnd(const std::vector<double>& u, Visit visit) const;
  // ü from the forces ∂L_h/∂u: M⁻¹ f_i / (w_i Δx), 0 at a fixed end.
  void accelerationOf(std::vector<double>& a) const;
  // ℒ's outputs at corner k of cell c with corners y.
  const double* atCorner(int c, int k, double dt, const double* y) const;

  LinesDensity density_;
  Grid grid_;
  int m_;
  Eigen::MatrixXd inverseMass_;
  mutable std::vector<double> force_;
};

// Störmer–Verlet on MultiLines (field.hpp's kick, drift, kick), the cached acceleration
// dropped by a new start.
class MultiLeapfrog {
 public:
  void step(const MultiLines& lines, State& s, double dt) {
    method_.step([&lines](const std::vector<double>& u, std::vector<double>& a) { lines.acceleration(u, a); }, s, dt);
  }
  // The same step of s (the same bits) and of `count` solutions ds[k] = (δu, δu̇) of its
  // linearization about s (field.hpp's leapfrogWithTangents).
  static void stepWithTangents(const MultiLines& lines, State& s, State* ds, int count, double dt);

 private:
  KickDriftKick method_;
};

// The method-of-lines system as the first-order ODE y = [u; w_i Δx u̇] the project's
// RK4 and DOPRI5 (integrators/runge_kutta.hpp) step (field_ode.hpp's FieldOde with M
// left in the velocity).
struct MultiOde {
  static constexpr bool kProjects = false;
  std::shared_ptr<const MultiLines> lines;
  std::vector<double> u, a;  // scratch

  int positions() const { return lines->size(); }
  int size() const { return 2 * lines->size(); }
  double mass(int k) const { return lines->length(k); }
  bool rhs(const VecX& y, VecX& dy);
  const char* undefined() const { return "the field's equations of motion are not finite"; }
  StepOutcome project(VecX&) { return {}; }
};

// ds = (δu, δu̇) carried along classical RK4's stages on MultiLines' ODE (field.hpp's
// rungeKutta4Tangent) for the step of h from `start`: the stages' base points re-formed
// in (u, u̇), the tangent linear in them.
void rungeKutta4Tangent(const MultiLines& lines, const State& start, State& ds, double dt);

}  // namespace vilab::field

namespace vilab {
struct FieldModel;
// A typed model's density (one component or several) for MultiLines.
field::LinesDensity linesDensity(const FieldModel& m);
}  // namespace vilab

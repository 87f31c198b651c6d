// Field densities of several components u^a(x, t), a = 1…m, typed as text:
// ℒ(u, u_t, u_x, v, v_t, v_x, …, x, t) through the one parser, Graph and Program. The box
// scheme of field_box.hpp with m numbers per corner (the midpoint discrete density of
// Marsden, Patrick & Shkoller 1998; Marsden–West §5.2): per cell
//   L_c = ΔxΔt ℒ(m^a, D^a, S^a, x_c, t_c),  ∂L_c/∂y_{ka} = ΔxΔt Σ_r ℒ_{ar} J_rk,
//   ∂²L_c/∂y_{ka}∂y_{lb} = ΔxΔt Σ_{r,s} J_rk ℒ''_{ar,bs} J_sl,
// with J field_data.hpp's rows (m, D, S in the four corners), the same for each component.
// Newton's matrix on a new row is block tridiagonal (m × m blocks per node), O(N m³); with
// periodic ends its last block row and column border the rest (a Schur complement).
//
// Declared symmetries: linear flows u ↦ e^{sG} u of the components (G an m × m generator).
// When ℒ is invariant, ℒ_{u}·Gu + ℒ_{u_t}·Gu_t + ℒ_{u_x}·Gu_x = 0, so is every L_c (m, D, S
// are linear in the corners), and so is the slab's action S(a, b): the discrete Noether
// theorem (Marsden–West §3.3; Marsden, Patrick & Shkoller 1998, §4) keeps
//   Q = Σ_nodes p_i · G u_i
// exactly along the box scheme, with p_i = −∂S/∂a_i the nodes' momenta (a fixed end at
// u = 0 adds nothing).
#pragma once
#include <Eigen/Dense>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "vilab/models/field.hpp"
#include "vilab/outcome.hpp"

namespace vilab::expr {
class Program;
}

namespace vilab::field {

constexpr int kMaxFieldComponents = 4;
constexpr int kMaxFieldSymmetries = 8;  // Diagnostics::momentum holds 8

struct FieldSymmetry {
  std::string name;
  Eigen::MatrixXd generator;  // m × m: ξ(u) = G u
};

class MultiDensity {
 public:
  // names: the components (u, v, …); ℒ's symbols are each name, name_t and name_x, then x.
  // Throws expr::ExpressionError naming `field` for bad text.
  MultiDensity(const std::string& text, std::vector<std::string> names, const std::string& field,
               std::vector<std::pair<std::string, double>> constants);

  int components() const { return m_; }
  const std::vector<std::string>& names() const { return names_; }
  std::vector<FieldSymmetry> symmetries;

  // w = (u, u_t, u_x) per component, 3m numbers; returns the program's outputs: ℒ, its
  // gradient in the 3m variables, then its Hessian's upper triangle.
  const double* evaluate(const double* w, double x) const;
  // Where the gradient and Hessian entries sit in evaluate's outputs.
  int gradientAt(int k) const { return 1 + k; }
  int hessianAt(int i, int j) const {
    if (i > j) std::swap(i, j);
    const int K = 3 * m_;
    return 1 + K + i * K - i * (i - 1) / 2 + (j - i);
  }
  int outputs() const { return 1 + 3 * m_ + 3 * m_ * (3 * m_ + 1) / 2; }

  // The rate of change of ℒ along a generator at w, and the sum of its terms' sizes.
  void variation(const Eigen::MatrixXd& G, const double* w, double x, double& rate, double& scale) const;

 private:
  std::vector<std::string> names_;
  int m_;
  std::shared_ptr<expr::Program> program_;
  mutable std::vector<double> vars_, out_, registers_;
};

// g[k·m + a] = ∂L_c/∂y_{ka} of the cell whose corners are y[k·m + a] (k = a_i, a_j, b_i,
// b_j); with h, also h[(k·m + a)·4m + l·m + b] = ∂²L_c/∂y_{ka}∂y_{lb}.
void multiCell(const MultiDensity& d, double dx, double dt, double x, const double* y, double* g, double* h);

// The lumped Legendre transform at a node: p^a = mass ∂ℒ/∂u_t^a(u, w, u_x), and its inverse
// by Newton from w = 0 on the m × m block ℒ_{u_t u_t} (exact in one step for ℒ quadratic in
// u_t); false where that block is singular or the iteration does not converge.
void multiMomentum(const MultiDensity& d, double mass, const double* u, const double* w, const double* ux, double x,
                   double* p);
bool multiVelocity(const MultiDensity& d, double mass, const double* u, const double* p, const double* ux, double x,
                   double* w);

// The box scheme on m components as a one-step map on (u, p), field_box.hpp's BoxSchemeT
// with m × m blocks. Its State holds u and v component-major (component a's nodes at a·N).
class MultiBox {
 public:
  virtual ~MultiBox() = default;
  virtual StepOutcome step(const MultiDensity& d, const Grid& g, State& s, double dt) = 0;
  // The step's linearization from row a to its new row b (field_box.hpp's
  // BoxSchemeT::tangent with m × m blocks): (δu, δp) of the old row to the new row's, all
  // component-major; false where the Newton matrix is singular or the result not finite.
  // t (the old row's time) as the one-component scheme's: ℒ here does not depend on it.
  virtual bool tangent(const MultiDensity& d, const Grid& g, double dt, double t, const std::vector<double>& a,
                       const std::vector<double>& b, std::vector<double>& du, std::vector<double>& dp) = 0;
};

// The scheme for m components (1 to kMaxFieldComponents).
std::unique_ptr<MultiBox> makeMultiBox(int m);

}  // namespace vilab::field

// Field densities typed as text: ℒ(u, u_t, u_x, x, t) through the one parser, Graph and
// Program of systems defined by data. One program gives ℒ, its gradient and Hessian in
// (u, u_t, u_x); the box scheme evaluates it at the cell centres (the midpoint discrete
// density of Marsden, Patrick & Shkoller 1998):
//   L_c = ΔxΔt ℒ(m, D, S, x_c, t_c),  ∂L_c/∂y_k = ΔxΔt Σ_a ℒ_a J_ak,  ∂²L_c = ΔxΔt Jᵀ ℒ'' J,
// with J the rows ∂m/∂y = ¼(1, 1, 1, 1), ∂D/∂y = (−1, −1, 1, 1)/(2Δt), ∂S/∂y = (−1, 1, −1, 1)/(2Δx).
#pragma once
#include <cmath>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "vilab/expr/graph.hpp"
#include "vilab/expr/parse.hpp"
#include "vilab/models/field_box.hpp"

namespace vilab::field {

class DataDensity {
 public:
  // Throws expr::ExpressionError (naming `field` and the column) for bad text.
  // constants: named numbers the text may use; time: whether ℒ may depend on t.
  explicit DataDensity(const std::string& text, const std::string& field = "density.lagrangian",
                       std::vector<std::pair<std::string, double>> constants = {}, bool time = true) {
    expr::Scope scope;
    scope.coordinates = {"u", "u_t", "u_x", "x"};
    scope.constants = std::move(constants);
    scope.velocities = false;
    scope.time = time;
    scope.timeUse = "the field's energy is read at any time, so ℒ may not depend on t";
    expr::Graph graph;
    const int node = expr::parseExpression(text, field, scope, graph).node;
    program_ = std::make_shared<expr::Program>(graph, graph.valueGradientHessian(node, 3));
  }

  // ℒ, (ℒ_u, ℒ_ut, ℒ_ux), then the Hessian's upper triangle (uu, u ut, u ux, ut ut, ut ux, ux ux).
  void evaluate(double u, double ut, double ux, double x, double t, double out[10]) const {
    const double vars[9] = {u, ut, ux, x, 0, 0, 0, 0, t};  // t is variable 2n of the scope
    program_->run(vars, out, registers_);
  }

 private:
  std::shared_ptr<expr::Program> program_;
  mutable std::vector<double> registers_;
};

namespace data_detail {
inline void cellRows(double dx, double dt, double J[3][4]) {
  const double m[4] = {0.25, 0.25, 0.25, 0.25}, D[4] = {-0.5, -0.5, 0.5, 0.5}, S[4] = {-0.5, 0.5, -0.5, 0.5};
  for (int k = 0; k < 4; ++k) J[0][k] = m[k], J[1][k] = D[k] / dt, J[2][k] = S[k] / dx;
}
inline void atCentre(const DataDensity& d, double dx, double dt, double x, double t, const Corners& y, double out[10]) {
  d.evaluate(0.25 * (y[0] + y[1] + y[2] + y[3]), (y[2] + y[3] - y[0] - y[1]) / (2 * dt),
             (y[1] + y[3] - y[0] - y[2]) / (2 * dx), x, t, out);
}
}  // namespace data_detail

inline void cellGradient(const DataDensity& d, double dx, double dt, double x, double t, const Corners& y, Corners& g) {
  double out[10], J[3][4];
  data_detail::atCentre(d, dx, dt, x, t, y, out);
  data_detail::cellRows(dx, dt, J);
  for (int k = 0; k < 4; ++k) g[k] = dx * dt * (out[1] * J[0][k] + out[2] * J[1][k] + out[3] * J[2][k]);
}

inline void cellHessian(const DataDensity& d, double dx, double dt, double x, double t, const Corners& y,
                        CellHessian& h) {
  double out[10], J[3][4];
  data_detail::atCentre(d, dx, dt, x, t, y, out);
  data_detail::cellRows(dx, dt, J);
  const double H[3][3] = {{out[4], out[5], out[6]}, {out[5], out[7], out[8]}, {out[6], out[8], out[9]}};
  for (int k = 0; k < 4; ++k)
    for (int l = 0; l < 4; ++l) {
      double sum = 0;
      for (int a = 0; a < 3; ++a)
        for (int b = 0; b < 3; ++b) sum += J[a][k] * H[a][b] * J[b][l];
      h[k][l] = dx * dt * sum;
    }
}

// p = mass · ∂ℒ/∂u_t at the node.
inline double nodeMomentum(const DataDensity& d, double mass, double u, double v, double ux, double x, double t) {
  double out[10];
  d.evaluate(u, v, ux, x, t, out);
  return mass * out[2];
}

// Solves mass · ∂ℒ/∂u_t(u, v, u_x) = p for v by Newton from v = 0 (exact in one step for
// ℒ quadratic in u_t); false where ∂²ℒ/∂u_t² ≤ 0 or it does not converge.
inline bool nodeVelocity(const DataDensity& d, double mass, double u, double p, double ux, double x, double t,
                         double& v) {
  double out[10], w = 0;
  for (int k = 0; k < 50; ++k) {
    d.evaluate(u, w, ux, x, t, out);
    if (!(out[7] > 0) || !std::isfinite(out[2])) return false;
    const double dw = (p / mass - out[2]) / out[7];
    w += dw;
    if (std::abs(dw) <= 4e-16 * std::abs(w) || dw == 0) {
      v = w;
      return std::isfinite(v);
    }
  }
  return false;
}

}  // namespace vilab::field

// The AVI's elements on a typed density (field_avi.hpp): ℒ of one or several components
// whose kinetic part is ½ u_tᵀ M u_t with M constant, ℒ = ½ u_tᵀ M u_t − U(u, u_x, x).
// Cell c (nodes i = c, j = c + 1) carries the energy
//   E_c(u_i, u_j) = Δx ½ [U(u_i, S_c, x_i) + U(u_j, S_c, x_j)],  S_c = (u_j − u_i)/Δx,
// the negative of the non-kinetic part of the cell-trapezoid semi-discrete Lagrangian of
// field_lines.hpp (MultiLines), so that Σ_c E_c is its potential and, with one common step,
// the AVI is that method of lines' leapfrog. The impulses come from ℒ's compiled gradient:
//   −∂E_c/∂u_i = ½Δx ℒ_u(i) − ½(ℒ_{u_x}(i) + ℒ_{u_x}(j)),  −∂E_c/∂u_j = ½Δx ℒ_u(j) + ½(…),
// per component (ℒ_u = −U_u, ℒ_{u_x} = −U_{u_x}); the nodes' masses are w_i Δx M.
#pragma once
#include <Eigen/Dense>
#include <memory>
#include <vector>

#include "vilab/models/field.hpp"
#include "vilab/models/field_lines.hpp"
#include "vilab/models/field_multi.hpp"

namespace vilab::field {

class TypedCells {
 public:
  // Throws InputError naming `integrator` when the kinetic part is not ½ u_tᵀ M u_t with M
  // constant and positive definite (MultiLines' check).
  TypedCells(LinesDensity d, const Grid& g);

  int components() const { return m_; }
  const Eigen::MatrixXd& mass() const { return mass_; }  // M
  const Eigen::MatrixXd& inverseMass() const { return inverseMass_; }
  // g[e·m + b] = −∂E_c/∂u^b at cell c's node e (0: i, 1: j), u component-major.
  void force(int c, const std::vector<double>& u, double* g) const;

 private:
  LinesDensity density_;
  Grid grid_;
  int m_;
  Eigen::MatrixXd mass_, inverseMass_;
};

}  // namespace vilab::field

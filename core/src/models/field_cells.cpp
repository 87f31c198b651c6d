// A field's local stiffness per cell (models/field_cells.hpp).
#include "vilab/models/field_cells.hpp"

#include <Eigen/Eigenvalues>
#include <algorithm>
#include <limits>

namespace vilab::field {

namespace {

// The m × m blocks of ℒ's Hessian at rest: M = ℒ_{u_t u_t}, K_x = −ℒ_{u_x u_x}, K_u = −ℒ_{uu}.
struct Blocks {
  Eigen::MatrixXd mass, stretch, curvature;
};
Blocks blocksAtRest(const MultiDensity& d, const double* h) {
  const int m = d.components();
  Blocks b{Eigen::MatrixXd(m, m), Eigen::MatrixXd(m, m), Eigen::MatrixXd(m, m)};
  for (int a = 0; a < m; ++a)
    for (int c = 0; c < m; ++c) {
      b.curvature(a, c) = -h[d.hessianAt(3 * a, 3 * c)];
      b.mass(a, c) = h[d.hessianAt(3 * a + 1, 3 * c + 1)];
      b.stretch(a, c) = -h[d.hessianAt(3 * a + 2, 3 * c + 2)];
    }
  return b;
}

bool diagonal(const Eigen::MatrixXd& a) {
  for (Eigen::Index i = 0; i < a.rows(); ++i)
    for (Eigen::Index j = 0; j < a.cols(); ++j)
      if (i != j && a(i, j) != 0) return false;
  return true;
}

// The symmetric K with its negative eigenvalues set to 0 (a negative curvature does not
// shorten a step's limit; the one-component limit takes max(0, V'') the same way).
Eigen::MatrixXd positivePart(const Eigen::MatrixXd& k) {
  if (diagonal(k)) {
    const Eigen::VectorXd kept = k.diagonal().cwiseMax(0.0);
    return kept.asDiagonal();
  }
  Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> e(k);
  return e.eigenvectors() * e.eigenvalues().cwiseMax(0.0).asDiagonal() * e.eigenvectors().transpose();
}

// The largest λ of K v = λ M v (M positive definite): the largest squared frequency per unit
// stiffness. With both diagonal, the largest K_aa/M_aa, each component on its own (the bits
// of one division); coupled components through the generalized eigenproblem.
double largestRatio(const Eigen::MatrixXd& k, const Eigen::MatrixXd& mass) {
  if (diagonal(k) && diagonal(mass)) {
    double out = -std::numeric_limits<double>::infinity();
    for (Eigen::Index a = 0; a < k.rows(); ++a) out = std::max(out, k(a, a) / mass(a, a));
    return out;
  }
  Eigen::GeneralizedSelfAdjointEigenSolver<Eigen::MatrixXd> e(k, mass, Eigen::EigenvaluesOnly);
  if (e.info() != Eigen::Success) return std::numeric_limits<double>::quiet_NaN();
  return e.eigenvalues().maxCoeff();
}

}  // namespace

CellStiffness cellStiffness(const FieldModel& m) {
  const int cells = cellCount(m.grid);
  const double dx = m.grid.spacing();
  CellStiffness out;
  out.speed2.resize(static_cast<std::size_t>(cells));
  out.curvature.resize(static_cast<std::size_t>(cells));
  out.inertia.resize(static_cast<std::size_t>(cells));
  for (int c = 0; c < cells; ++c) {
    const std::size_t k = static_cast<std::size_t>(c);
    const double x = (c + 0.5) * dx;
    if (m.multi) {
      const MultiDensity& d = *m.multi;
      double w[3 * kMaxFieldComponents] = {};
      const Blocks b = blocksAtRest(d, d.evaluate(w, x));
      out.speed2[k] = largestRatio(b.stretch, b.mass);
      out.curvature[k] = largestRatio(positivePart(b.curvature), b.mass);
      out.inertia[k] = 1;
    } else if (m.typed) {
      double h[10];
      m.typed->evaluate(0, 0, 0, x, 0, h);
      out.speed2[k] = -h[9] / h[7], out.curvature[k] = -h[4], out.inertia[k] = h[7];
    } else {
      out.speed2[k] = m.density.kappaOf(c) / m.density.rho;
      out.curvature[k] = m.density.potentialCurvature(0.0);
      out.inertia[k] = m.density.rho;
    }
  }
  return out;
}

}  // namespace vilab::field

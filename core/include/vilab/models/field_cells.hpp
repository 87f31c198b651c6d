// A field's local stiffness, cell by cell, from its density linearized about rest
// (u = u_t = u_x = 0) at the cell's centre x_c:
//   c_c² = −ℒ_{u_x u_x} / ℒ_{u_t u_t}   (the squared wave speed: κ_c/ρ for the built-in family),
//   V''_c = −ℒ_{uu}                     (the mass term's curvature: ω² = V''/ρ, its frequency),
// and ρ_c = ℒ_{u_t u_t}. Several components, with the m × m blocks M = ℒ_{u_t u_t},
// K_x = −ℒ_{u_x u_x}, K_u = −ℒ_{uu} (coupled or not): c_c² the largest λ of K_x v = λ M v
// (the fastest wave), V''_c the largest of K_u⁺ v = λ M v (K_u's negative eigenvalues set
// to 0) and ρ_c = 1, so that the AVI's ω² = k c²/Δx² + V''/ρ bounds the largest λ of
// (k K_x/Δx² + K_u⁺) v = λ M v (the largest eigenvalue of a sum is at most the sum of the
// largest): each cell's limit is safe when the components are coupled. The AVI's per-cell
// limits (field_avi.hpp) and the page's view of a stiff stretch read these.
#pragma once
#include <vector>

#include "vilab/models/field_model.hpp"

namespace vilab::field {

struct CellStiffness {
  std::vector<double> speed2, curvature, inertia;  // c_c², V''_c, ρ_c: one per cell
};

CellStiffness cellStiffness(const FieldModel& m);

}  // namespace vilab::field

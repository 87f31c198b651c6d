// A field's local stiffness, cell by cell, from its density linearized about rest
// (u = u_t = u_x = 0) at the cell's centre x_c:
//   c_c² = −ℒ_{u_x u_x} / ℒ_{u_t u_t}   (the squared wave speed: κ_c/ρ for the built-in family),
//   V''_c = −ℒ_{uu}                     (the mass term's curvature: ω² = V''/ρ, its frequency),
// and ρ_c = ℒ_{u_t u_t}. Several components: the largest of each component's own ratio and
// curvature (the diagonal of the blocks). The AVI's per-cell limits (field_avi.hpp) and the
// page's view of a stiff stretch read these.
#pragma once
#include <vector>

#include "vilab/models/field_model.hpp"

namespace vilab::field {

struct CellStiffness {
  std::vector<double> speed2, curvature, inertia;  // c_c², V''_c, ρ_c: one per cell
};

CellStiffness cellStiffness(const FieldModel& m);

}  // namespace vilab::field

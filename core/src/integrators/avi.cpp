// Integrator `avi`: the asynchronous variational integrator of Lew, Marsden, Ortiz & West
// (2003) on a field's grid (models/field_avi.hpp): each cell an element with its own
// step, here two: the cells from `from` (a fraction of the length) on take `fine` steps
// per h, the others one; or, with `cfl` > 0, each cell whose own CFL limit (times cfl) is
// below h takes `fine` (LMOW §5: each element's step from its own stability limit). With
// fine = 1 it is the leapfrog. This file is its registry entry.
#include "common.hpp"
#include "vilab/integrators/field_steppers.hpp"

namespace vilab {

VILAB_COLD static IntegratorEntry make_aviIntegrator() {
  IntegratorEntry e;
  e.id = "avi";
  e.family = IntegratorFamily::Variational;
  e.order = 2;
  e.symplectic = true;
  e.symmetric = false;  // not claimed: with two steps its events are not reversed by −h
  e.conserves = claims({ClaimKind::Symplectic, ClaimKind::Momentum, ClaimKind::EnergyBounded});
  e.options = {ParamSpec::whole("fine", 1, 1, 16), ParamSpec::number("from", "", 0.5, 0, 1, false),
               ParamSpec::number("cfl", "", 0, 0, 0.99, false)};
  return e;
}

const IntegratorEntry& aviEntry() {
  static const IntegratorEntry e = withProse(make_aviIntegrator());
  return e;
}

std::unique_ptr<Integrator> aviOnField(const Model& m, const Options& o, double h) {
  return std::make_unique<FieldAvi>(std::get<FieldModel>(m), h, static_cast<int>(o.get("fine")), o.get("from"),
                                    o.get("cfl"));
}

}  // namespace vilab

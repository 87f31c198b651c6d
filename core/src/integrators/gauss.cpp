// Integrators `gauss2`, `gauss4`, `gauss6`, `gauss8`: the variational Gauss–Legendre
// Runge–Kutta methods with s = 1…4 stages, of order 2s (vilab/integrators/gauss.hpp).
// One entry per order, as the compositions: each claims its own order, and the property
// tests and the measured step limits take each as a pair of its own.
#include "vilab/integrators/gauss.hpp"

#include "common.hpp"

namespace vilab {

namespace {
VILAB_COLD IntegratorEntry gaussEntry(int stages) {
  IntegratorEntry e;
  e.id = "gauss" + std::to_string(2 * stages);
  e.family = IntegratorFamily::Variational;
  e.order = 2 * stages;
  e.symplectic = true;
  e.symmetric = true;
  e.conserves = claims({ClaimKind::Symplectic, ClaimKind::Momentum, ClaimKind::Constraints, ClaimKind::Constraints,
                        ClaimKind::EnergyBounded});
  return e;
}

template <int S>
std::unique_ptr<Integrator> gaussOnChain(const Model& m, double h) {
  return std::make_unique<CanonicalIntegrator<GaussChain<S>>>(GaussChain<S>(std::get<ChainModel>(m), h));
}
std::unique_ptr<Integrator> gaussOnLagrangian(const Model& m, int stages, double h) {
  return std::make_unique<CanonicalIntegrator<GaussLagrangian>>(
      GaussLagrangian(std::get<LagrangianModel>(m).problem, h, GaussTableau::legendre(stages)));
}
}  // namespace

const IntegratorEntry& gauss2Entry() {
  static const IntegratorEntry e = withProse(gaussEntry(1));
  return e;
}
const IntegratorEntry& gauss4Entry() {
  static const IntegratorEntry e = withProse(gaussEntry(2));
  return e;
}
const IntegratorEntry& gauss6Entry() {
  static const IntegratorEntry e = withProse(gaussEntry(3));
  return e;
}
const IntegratorEntry& gauss8Entry() {
  static const IntegratorEntry e = withProse(gaussEntry(4));
  return e;
}
std::unique_ptr<Integrator> gauss2OnChain(const Model& m, const Options&, double h) { return gaussOnChain<1>(m, h); }
std::unique_ptr<Integrator> gauss4OnChain(const Model& m, const Options&, double h) { return gaussOnChain<2>(m, h); }
std::unique_ptr<Integrator> gauss6OnChain(const Model& m, const Options&, double h) { return gaussOnChain<3>(m, h); }
std::unique_ptr<Integrator> gauss8OnChain(const Model& m, const Options&, double h) { return gaussOnChain<4>(m, h); }
std::unique_ptr<Integrator> gauss2OnLagrangian(const Model& m, const Options&, double h) {
  return gaussOnLagrangian(m, 1, h);
}
std::unique_ptr<Integrator> gauss4OnLagrangian(const Model& m, const Options&, double h) {
  return gaussOnLagrangian(m, 2, h);
}
std::unique_ptr<Integrator> gauss6OnLagrangian(const Model& m, const Options&, double h) {
  return gaussOnLagrangian(m, 3, h);
}
std::unique_ptr<Integrator> gauss8OnLagrangian(const Model& m, const Options&, double h) {
  return gaussOnLagrangian(m, 4, h);
}

}  // namespace vilab

#include "common.hpp"

namespace vilab {

namespace {
template <int Bobs>
std::unique_ptr<Stepper> makePenalty(const ChainModel& m, const SystemInstance& sys, double h, double mu) {
  using System = ChainPenalty<Bobs>;
  constexpr int N = System::N;
  System system{ChainCartesian<Bobs>{m}, mu};
  const Vec<double, N> q0 = sys.q0;
  Vec<double, N> p0 = sys.v0;
  for (int i = 0; i < Bobs; ++i) p0.template segment<3>(3 * i) *= m.masses[i];
  return std::make_unique<DenseVariationalStepper<System, ChainPenaltyTraits<Bobs>>>(system, DiscreteRule::midpoint(),
                                                                                     h, q0, p0);
}
}  // namespace

VILAB_COLD IntegratorEntry penaltyIntegrator() {
  IntegratorEntry e;
  e.id = "penalty";
  e.title = "Midpoint with penalty springs";
  e.family = "variational";
  e.order = 2;
  e.conserves = {"symplectic form", "momentum map", "energy incl. springs (bounded, no drift)"};
  e.systems = {"pendulum", "spherical-pendulum", "double-spherical-pendulum"};
  e.summary = "Each rigid link replaced by a stiff spring of stiffness μ; unconstrained midpoint DEL.";
  e.docs =
      "Instead of imposing g(q) = 0, a penalty potential (μ/2)Σ g_i² is added to the Lagrangian (seed 002), so the "
      "links stretch slightly. The midpoint rule on this unconstrained system is still variational: symplectic, "
      "J_z exact, energy (including the springs' energy) bounded. The constraint is violated by O(1/μ): stiffer "
      "springs keep the links closer to their lengths but make the system stiff, so h must shrink like 1/√μ.";
  e.equations =
      "L_\\mu(q,\\dot q) = \\tfrac12\\dot q^{\\mathsf T}M\\dot q - V(q) - \\tfrac{\\mu}{2}\\sum_i g_i(q)^2,\\quad "
      "g_i = \\frac{|x_i-x_{i-1}|^2-l_i^2}{2l_i}\\\\"
      "D_2L_d(q_{k-1},q_k) + D_1L_d(q_k,q_{k+1}) = 0";
  e.citation = "Seed 002 (penalty potential); Wendlandt & Marsden eq. 4.1";
  e.options = {ParamSpec::number("mu", "stiffness μ", "N/m", "penalty stiffness; the link error falls like 1/μ", 1e4, 0,
                            1e12, true)};
  e.make = [](const SystemInstance& sys, const Scenario& s) -> std::unique_ptr<Stepper> {
    const auto* m = std::get_if<ChainModel>(&sys.model);
    if (!m || m->bobs() > 2) throw InputError("integrator", "penalty applies to one or two links");
    const double mu = s.options["mu"].get<double>();
    if (m->bobs() == 1) return makePenalty<1>(*m, sys, s.h, mu);
    return makePenalty<2>(*m, sys, s.h, mu);
  };
  return e;
}

}  // namespace vilab

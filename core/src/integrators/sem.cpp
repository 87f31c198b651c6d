// Integrator `sem`: the symplectic–energy–momentum method with variable time steps
// (Kane, Marsden & Ortiz 1999). The method is in vilab/integrators/sem.hpp; this file
// is the registry entry.
#include "vilab/integrators/sem.hpp"

#include "common.hpp"

namespace vilab {

VILAB_COLD static IntegratorEntry make_semIntegrator() {
  IntegratorEntry e;
  e.id = "sem";
  e.title = "Symplectic–energy–momentum (variable step)";
  e.family = IntegratorFamily::EnergyMomentum;
  e.order = 2;
  // Symplectic on each energy level (and in the extended phase space), not for the
  // canonical form of the map the Simulation runs, whose level is set at load (docs).
  e.symplectic = false;
  // Reversible on a fixed level (tested); a reload sets a new level (docs).
  e.symmetric = false;
  e.variableStep = true;
  e.conserves = {{ClaimKind::Energy, "energy (discrete, exactly, to rounding)"},
                 {ClaimKind::Momentum, "momentum map"},
                 {ClaimKind::Constraints, "constraints"},
                 {ClaimKind::Symplectic, "symplectic form (in space and time)"}};
  e.summary = "Variational in space and time: the step size is solved for at every step so that the discrete "
              "energy of the midpoint discrete Lagrangian is conserved exactly.";
  e.docs =
      "Time becomes a variable of the discrete action: with L_d(q_k, q_{k+1}, h) = h L(q̄, v̄) (midpoint, "
      "q̄ = (q_k+q_{k+1})/2, v̄ = (q_{k+1}−q_k)/h), stationarity with respect to the positions gives the midpoint "
      "discrete Euler–Lagrange equations, and stationarity with respect to the times t_k gives conservation of the "
      "discrete energy E_d = −∂L_d/∂h = v̄·∂L/∂q̇ − L at (q̄, v̄), i.e. ½ v̄ᵀMv̄ + V(q̄) (Kane, Marsden & Ortiz "
      "1999). Each step therefore solves for q_{k+1}, the multipliers and the step size h_k: an outer secant "
      "iteration on h_k (bracketed when needed) around the fixed-h midpoint step, to rounding. The level E is set "
      "when a state is loaded, as E_d of the midpoint step of the nominal h (so the first step is the fixed-step "
      "midpoint step; the loaded state's H would not do, since E_d < H at every h > 0 for the oscillator). Steps "
      "are accepted only in (0, 4h]; where the energy equation has no root there the step is refused. The "
      "momentum map is conserved because L_d keeps the symmetry (discrete Noether), and the constraints hold at "
      "every step. The map is symplectic in the extended phase space (q, t; p, −E) and, at a fixed level E, "
      "preserves dq∧dp (generating function L_d + E h); it is time-reversible at a fixed level too. But the map "
      "the simulation runs sets the level from the loaded state, so across loads it is neither canonically "
      "symplectic (the defect is dτ∧dE, τ the elapsed time) nor reversible by reversing the momenta and "
      "reloading: those two flags are off. The Hamiltonian H(q_k, p_k) is not exactly conserved; it stays "
      "within O(h²) of the level. Solvability is the catch (KMO §5): for small h, H − E_d ≈ c(z) h², so the step "
      "the level asks for varies like |c|^{−1/2} along the motion and fails to exist where c(z) gets small. On "
      "the oscillator c is constant on the orbit (h_k = h); on the elastic pendulum h_k stays in [0.75h, 1.08h]; "
      "with uniform gravity in Cartesian coordinates c ≈ m|a|²/8 (a the acceleration), and along the pendulums' "
      "default motions no step in (0, 4h] exists after about 0.2 s, whatever h: it is therefore not offered on "
      "the chains (typed as data in its link angles, the double spherical pendulum loses its root after 236 steps "
      "at h = 0.01 too).";
  e.equations =
      "L_d(q_k,q_{k+1},h_k) = h_k\\,L\\!\\left(\\tfrac{q_k+q_{k+1}}{2},\\tfrac{q_{k+1}-q_k}{h_k}\\right)\\\\"
      "p_k + D_1L_d(q_k,q_{k+1},h_k) + Dg(q_k)^{\\mathsf T}\\lambda_k = 0,\\quad g(q_{k+1}) = 0\\\\"
      "E_d(q_k,q_{k+1},h_k) = -\\frac{\\partial L_d}{\\partial h_k} = \\bar v\\cdot\\frac{\\partial L}{\\partial \\dot q}"
      "(\\bar q,\\bar v) - L(\\bar q,\\bar v) = E,\\quad 0 < h_k \\le 4h\\\\"
      "p_{k+1} = D_2L_d(q_k,q_{k+1},h_k),\\quad t_{k+1} = t_k + h_k";
  e.citation = "Kane, Marsden & Ortiz 1999 (J. Math. Phys. 40); Marsden & West §4.9";
  return e;
}

const IntegratorEntry& semEntry() {
  static const IntegratorEntry e = make_semIntegrator();
  return e;
}
std::unique_ptr<Integrator> semOnOscillator(const Model& m, const Options&, double h) {
  return std::make_unique<SymplecticEnergyMomentum<OscillatorMidpointStep>>(
      OscillatorMidpointStep{std::get<OscillatorModel>(m)}, h);
}
std::unique_ptr<Integrator> semOnLagrangian(const Model& m, const Options&, double h) {
  // Energy is conserved only when L does not depend on t (M–W §4.2).
  if (std::get<LagrangianModel>(m).problem->timeDependent)
    throw InputError(InputErrorCode::NotApplicable, "integrator", "sem conserves the energy, which a time-dependent L does not conserve: L must not "
                                   "use t");
  return std::make_unique<SymplecticEnergyMomentum<LagrangianMidpointStep>>(
      LagrangianMidpointStep(std::get<LagrangianModel>(m).problem), h);
}

}  // namespace vilab

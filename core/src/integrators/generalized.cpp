// Integrators `generalized` (W–M §4.2: the restricted discrete Lagrangian with a
// chart centred on every step) and `angles-midpoint` (the midpoint rule in one
// global chart of spherical angles, kept as the lesson about coordinate
// singularities). The methods are in vilab/integrators/generalized.hpp.
#include "vilab/integrators/generalized.hpp"

#include "common.hpp"

namespace vilab {

VILAB_COLD static IntegratorEntry makeGeneralized() {
  IntegratorEntry e;
  e.id = "generalized";
  e.title = "Generalized coordinates (restricted L_d)";
  e.family = IntegratorFamily::Variational;
  e.order = 2;
  e.symplectic = true;
  e.symmetric = true;
  e.maxBodies = 2;
  e.conserves = {{ClaimKind::Symplectic, "symplectic form"},
                 {ClaimKind::Momentum, "momentum map"},
                 {ClaimKind::Constraints, "constraints (by construction)"},
                 {ClaimKind::EnergyBounded, "energy (bounded, no drift)"}};
  e.summary = "Wendlandt–Marsden §4.2: the Cartesian midpoint L_d restricted to the configuration manifold through "
              "a chart, solved in two angles per link, with no multipliers and no coordinate singularity.";
  e.docs =
      "The constraint is eliminated by writing the configuration in a chart ψ of the constraint manifold: the discrete "
      "Lagrangian is the Cartesian one evaluated at ψ(u_k), ψ(u_{k+1}), and its discrete Euler–Lagrange equations are "
      "solved for the chart coordinates u_{k+1}, two angles per link (one for the planar pendulum). Because the "
      "discrete Lagrangian is the restriction of the Cartesian one, the equations say exactly what the multiplier "
      "formulation says (p_k + D1 L_d is normal to the manifold), so this is the same discrete map as `midpoint`, "
      "whatever the chart (W–M prove the equivalence). That freedom is used: every step takes a chart centred on the "
      "current configuration, with every link 90° from the chart's poles, so the coordinate singularities of "
      "spherical angles are never approached. Being variational, the map is symplectic, keeps J_z exactly (discrete "
      "Noether) and keeps the energy bounded; the links keep their lengths by construction.";
  e.equations =
      "L_d^{c}(u_k,u_{k+1}) = L_d(\\psi(u_k),\\psi(u_{k+1})),\\quad "
      "L_d(q_0,q_1) = h\\,L\\!\\left(\\tfrac{q_0+q_1}{2},\\tfrac{q_1-q_0}{h}\\right)\\\\"
      "D\\psi(u_k)^{\\mathsf T}\\left[p_k + D_1L_d(\\psi(u_k),\\psi(u_{k+1}))\\right] = 0,\\quad "
      "p_{k+1} = D_2L_d(\\psi(u_k),\\psi(u_{k+1}))\\\\"
      "\\ell_i(\\alpha,\\beta) = l_i(\\cos\\alpha\\cos\\beta\\,d_i + \\sin\\alpha\\cos\\beta\\,a_i + \\sin\\beta\\,b_i)";
  e.citation = "Wendlandt & Marsden §4.2 (generalized coordinates) and §4.3 (equivalence with multipliers)";
  return e;
}

VILAB_COLD static IntegratorEntry makeAnglesMidpoint() {
  IntegratorEntry e;
  e.id = "angles-midpoint";
  e.title = "Midpoint in spherical angles (one global chart)";
  e.family = IntegratorFamily::Variational;
  e.order = 2;
  e.symplectic = true;
  e.symmetric = true;
  e.maxBodies = 2;
  e.conserves = {{ClaimKind::Symplectic, "symplectic form"},
                 {ClaimKind::Momentum, "momentum map"},
                 {ClaimKind::Constraints, "constraints (by construction)"},
                 {ClaimKind::EnergyBounded, "energy (bounded, no drift, away from the poles)"}};
  e.summary = "The midpoint rule applied to the Lagrangian written in spherical angles: a different discrete map, "
              "and one that breaks down near the chart's poles.";
  e.docs =
      "Writing L in the angles (θ, φ) of each link and applying the midpoint rule to those coordinates, L_d = h L(ū, "
      "(u_{k+1} − u_k)/h), gives a variational integrator of the angles: symplectic, and J_z = Σ p_φ is conserved "
      "exactly because rotations about z shift every φ. But it discretizes the chart, not the configuration: its "
      "trajectory differs from `midpoint` and `generalized` at O(h²), and it inherits the chart's singularities. At "
      "θ = 0 or π (a link straight down or up) the φ-inertia m l² sin²θ vanishes, φ̇ blows up for motion passing "
      "near the pole, and the Newton matrix loses rank: steps there are refused. Compare with `generalized`, which "
      "restricts the Cartesian L_d to the manifold and changes chart every step, and never meets a pole.";
  e.equations =
      "q = (\\theta_1,\\varphi_1,\\dots),\\quad x_i = x_{i-1} + l_i(\\sin\\theta_i\\cos\\varphi_i,"
      "\\sin\\theta_i\\sin\\varphi_i,-\\cos\\theta_i)\\\\"
      "L_d(u_k,u_{k+1}) = h\\,L\\!\\left(\\tfrac{u_k+u_{k+1}}{2},\\tfrac{u_{k+1}-u_k}{h}\\right),\\quad "
      "D_2L_d(u_{k-1},u_k) + D_1L_d(u_k,u_{k+1}) = 0";
  e.citation = "Marsden & West §1.1 (the midpoint rule); Wendlandt & Marsden §4.2 (coordinates of the double spherical pendulum)";
  return e;
}

const IntegratorEntry& generalizedEntry() {
  static const IntegratorEntry e = makeGeneralized();
  return e;
}
const IntegratorEntry& anglesMidpointEntry() {
  static const IntegratorEntry e = makeAnglesMidpoint();
  return e;
}

std::unique_ptr<Integrator> generalizedOnChain(const Model& model, const Options&, double h) {
  return std::make_unique<CanonicalIntegrator<RestrictedChartStepper>>(
      RestrictedChartStepper(std::get<ChainModel>(model), h));
}

std::unique_ptr<Integrator> anglesMidpointOnChain(const Model& model, const Options&, double h) {
  const ChainModel& m = std::get<ChainModel>(model);
  if (m.planar) return std::make_unique<AnglesIntegrator<1, true>>(m, h);
  if (m.bobs() == 1) return std::make_unique<AnglesIntegrator<1, false>>(m, h);
  return std::make_unique<AnglesIntegrator<2, false>>(m, h);
}

}  // namespace vilab

#include "common.hpp"
#include "vilab/detmath.hpp"

namespace vilab {

namespace {

// Spherical angles of each link and their rates from Cartesian data (inverse of
// ChainAngles::cartesian). At a pole (sin θ ≈ 0) φ is undefined; take the azimuth
// of the link's velocity so that φ̇ = 0 there.
void cartesianToAngles(const ChainModel& m, const VecX& x, const VecX& v, VecX& u, VecX& du) {
  const int per = m.planar ? 1 : 2;
  u.resize(per * m.bobs());
  du.resize(per * m.bobs());
  Vec3 xPrev = Vec3::Zero(), vPrev = Vec3::Zero();
  for (int i = 0; i < m.bobs(); ++i) {
    const Vec3 d = (x.segment<3>(3 * i) - xPrev) / m.lengths[i];
    const Vec3 w = (v.segment<3>(3 * i) - vPrev) / m.lengths[i];
    xPrev = x.segment<3>(3 * i);
    vPrev = v.segment<3>(3 * i);
    if (m.planar) {
      u[i] = dm::atan2(d[0], -d[2]);
      du[i] = w[0] * -d[2] + w[2] * d[0];  // θ̇ = (d × w)·e_y with |d| = 1
      continue;
    }
    const double rho = dm::hypot(d[0], d[1]);
    const double th = dm::atan2(rho, -d[2]);
    double ph = dm::atan2(d[1], d[0]);
    if (rho < 1e-12) ph = dm::atan2(w[1], w[0]);
    double sph, cph, sth, cth;
    dm::sincos(ph, sph, cph);
    dm::sincos(th, sth, cth);
    const Vec3 eTheta(cth * cph, cth * sph, sth), ePhi(-sph, cph, 0);
    u.segment<2>(2 * i) << th, ph;
    du.segment<2>(2 * i) << w.dot(eTheta), rho < 1e-12 ? 0.0 : w.dot(ePhi) / sth;
  }
}

template <int Links, bool Planar>
std::unique_ptr<Stepper> makeAngles(const ChainModel& m, const SystemInstance& sys, double h) {
  using System = ChainAngles<Links, Planar>;
  constexpr int N = System::N;
  System system{m};
  VecX u, du;
  if (sys.hasAngles) {
    u = sys.angles;
    du = sys.rates;
  } else {
    cartesianToAngles(m, sys.q0, sys.v0, u, du);
  }
  const Vec<double, N> u0 = u, du0 = du;
  const Vec<double, N> p0 = Mechanics<System>::momentum(system, u0, du0);
  return std::make_unique<DenseVariationalStepper<System, ChainAnglesTraits<Links, Planar>>>(
      system, DiscreteRule::midpoint(), h, u0, p0);
}

}  // namespace

VILAB_COLD IntegratorEntry generalizedIntegrator() {
  IntegratorEntry e;
  e.id = "generalized";
  e.title = "Midpoint in generalized coordinates";
  e.family = "variational";
  e.order = 2;
  e.conserves = {"symplectic form", "momentum map", "constraints (by construction)", "energy (bounded, no drift)"};
  e.systems = {"pendulum", "spherical-pendulum", "double-spherical-pendulum"};
  e.summary = "Midpoint DEL in two spherical angles per link (one for the planar pendulum): no multipliers.";
  e.docs =
      "The constraint is eliminated by parametrizing each link by its spherical angles (θ from the downward "
      "vertical, φ the azimuth). The midpoint DEL in these coordinates is unconstrained; rotation about z shifts the "
      "azimuths, a linear action, so J_z = Σ p_φ is conserved exactly by discrete Noether. The price: the chart is "
      "singular at the poles θ = 0, π. Near the straight-down configuration the φ-inertia m l² sin²θ vanishes, φ̇ "
      "blows up, and the Newton matrix becomes singular, so steps may be refused or energy errors spike there.";
  e.equations =
      "q = (\\theta_1,\\varphi_1,\\dots),\\quad x_i = x_{i-1} + l_i(\\sin\\theta_i\\cos\\varphi_i,\\sin\\theta_i\\sin\\varphi_i,"
      "-\\cos\\theta_i)\\\\"
      "D_2L_d(q_{k-1},q_k) + D_1L_d(q_k,q_{k+1}) = 0";
  e.citation = "Wendlandt & Marsden §4.2 (generalized coordinates); seed 002 (DSP in spherical coordinates)";
  e.make = [](const SystemInstance& sys, const Scenario& s) -> std::unique_ptr<Stepper> {
    const auto* m = std::get_if<ChainModel>(&sys.model);
    if (!m || m->bobs() > 2) throw InputError("integrator", "generalized coordinates apply to one or two links");
    if (m->planar) return makeAngles<1, true>(*m, sys, s.h);
    if (m->bobs() == 1) return makeAngles<1, false>(*m, sys, s.h);
    return makeAngles<2, false>(*m, sys, s.h);
  };
  return e;
}

}  // namespace vilab

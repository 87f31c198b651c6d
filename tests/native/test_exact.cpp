// Tests of the exact reference solutions (vilab::exact): elliptic functions, oscillator,
// pendulum and free rigid body, against identities, known values (mpmath, 30 digits)
// and a high-accuracy Gragg-Bulirsch-Stoer integration written here.
#include <Eigen/Dense>
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <functional>
#include <vector>

#include "vilab/exact/elliptic.hpp"
#include "vilab/exact/free_rigid_body.hpp"
#include "vilab/exact/oscillator.hpp"
#include "vilab/exact/pendulum.hpp"

namespace {

using Eigen::Matrix3d;
using Eigen::Vector3d;
using Eigen::Vector4d;
namespace ex = vilab::exact;
constexpr double kPi = 3.14159265358979323846;

// Reference integrator: Gragg-Bulirsch-Stoer (modified midpoint rule extrapolated in h²,
// Aitken-Neville, step counts 2, 4, ..., 2L, order 2L) on fixed macro steps, in long
// double (x86-64: 64-bit mantissa) so that its rounding error stays far below 1e-14.
// Autonomous y' = f(y).
using LD = long double;
using VecL = Eigen::Matrix<LD, Eigen::Dynamic, 1>;
using Vec3L = Eigen::Matrix<LD, 3, 1>;
using Mat3L = Eigen::Matrix<LD, 3, 3>;

VecL gbs(const std::function<VecL(const VecL&)>& f, VecL y, double t_end, int macro_steps, int levels = 8) {
  const LD H = static_cast<LD>(t_end) / macro_steps;
  std::vector<VecL> prev, cur;
  for (int step = 0; step < macro_steps; ++step) {
    prev.clear();
    for (int j = 0; j < levels; ++j) {
      const int n = 2 * (j + 1);
      const LD h = H / n;
      VecL z0 = y;
      VecL z1 = y + h * f(y);
      for (int i = 1; i < n; ++i) {
        VecL z2 = z0 + 2.0L * h * f(z1);
        z0 = z1;
        z1 = z2;
      }
      cur.assign(j + 1, VecL());
      cur[0] = 0.5L * (z1 + z0 + h * f(z1));
      for (int k = 1; k <= j; ++k) {  // T_{j,k}
        const LD r = static_cast<LD>(j + 1) / static_cast<LD>(j - k + 1);
        cur[k] = cur[k - 1] + (cur[k - 1] - prev[k - 1]) / (r * r - 1.0L);
      }
      prev = cur;
    }
    y = cur.back();
  }
  return y;
}

Mat3L hat(const Vec3L& w) {
  Mat3L W;
  W << 0, -w[2], w[1], w[2], 0, -w[0], -w[1], w[0], 0;
  return W;
}

// State (Π, R column-major): Π' = Π × Ω, R' = R Ω^, Ω = Π / I.
VecL rigid_body_rhs(const Vec3L& I, const VecL& y) {
  const Vec3L Pi = y.head<3>();
  const Vec3L W = Pi.cwiseQuotient(I);
  Eigen::Map<const Mat3L> R(y.data() + 3);
  VecL dy(12);
  dy.head<3>() = Pi.cross(W);
  const Mat3L dR = R * hat(W);
  Eigen::Map<Mat3L>(dy.data() + 3) = dR;
  return dy;
}

VecL rigid_body_state(const Vector3d& Pi, const Matrix3d& R) {
  VecL y(12);
  y.head<3>() = Pi.cast<LD>();
  Eigen::Map<Mat3L>(y.data() + 3) = R.cast<LD>();
  return y;
}

Matrix3d quat_matrix(Vector4d q) {
  q /= q.norm();
  return Eigen::Quaterniond(q[0], q[1], q[2], q[3]).toRotationMatrix();
}

struct FrbCase {
  const char* name;
  Vector3d I;
  Vector3d Pi0;
  ex::FrbBranch branch;
  double tol;  // for exact vs numerical at t = 10
};

void check_free_rigid_body(const FrbCase& c) {
  INFO(c.name);
  const Vector4d q0(0.3, -0.5, 0.7, 0.4);
  const Vector3d w0 = c.Pi0.cwiseQuotient(c.I);
  const ex::FreeRigidBodyExact body(c.I, q0, w0);
  CHECK(body.branch() == c.branch);

  // Initial data reproduced.
  const Matrix3d R0 = quat_matrix(q0);
  {
    const double e0 = (body.Pi(0.0) - c.Pi0).norm() / c.Pi0.norm();
    const double eR0 = (body.orientation(0.0) - R0).norm();
    const double eq0 = (body.quaternion(0.0) - q0 / q0.norm()).norm();
    INFO("t = 0: Pi " << e0 << " R " << eR0 << " q " << eq0);
    CHECK(e0 <= 2e-15);
    CHECK(eR0 <= 4e-15);
    CHECK(eq0 <= 2e-15);
  }

  // Π'(0) = Π × Ω (sign of the elliptic rate), 5-point finite difference.
  {
    const double h = 1e-3;
    const Vector3d d = (8.0 * (body.Pi(h) - body.Pi(-h)) - (body.Pi(2 * h) - body.Pi(-2 * h))) / (12.0 * h);
    CHECK((d - c.Pi0.cross(w0)).norm() <= 1e-9);
  }

  // Against Euler + reconstruction integrated by GBS (order 16, H = 0.05).
  const Vec3L IL = c.I.cast<LD>();
  const auto rhs = [&](const VecL& y) { return rigid_body_rhs(IL, y); };
  for (double t : {10.0, -3.7}) {
    const VecL y = gbs(rhs, rigid_body_state(c.Pi0, R0), t, 200);
    const Vector3d Pi_num = y.head<3>().cast<double>();
    const Matrix3d R_num = Eigen::Map<const Mat3L>(y.data() + 3).cast<double>();
    const double ePi = (body.Pi(t) - Pi_num).norm() / c.Pi0.norm();
    const double eR = (body.orientation(t) - R_num).norm();
    INFO("t = " << t << "  |dPi|/|Pi| = " << ePi << "  |dR| = " << eR);
    CHECK(ePi <= c.tol);
    CHECK(eR <= c.tol);
    CHECK((body.omega(t) - Pi_num.cwiseQuotient(c.I)).norm() <= c.tol * w0.norm() * 10.0);
  }

  // Invariants along the exact solution.
  const double G0 = c.Pi0.squaredNorm();
  const double H0 = 0.5 * c.Pi0.dot(w0);
  const Vector3d m0 = R0 * c.Pi0;
  double eG = 0, eH = 0, em = 0, eorth = 0;
  for (int i = -50; i <= 150; ++i) {
    const double t = 0.173 * i;
    const Vector3d Pi = body.Pi(t);
    const Matrix3d R = body.orientation(t);
    eG = std::max(eG, std::abs(Pi.squaredNorm() - G0) / G0);
    eH = std::max(eH, std::abs(0.5 * Pi.dot(body.omega(t)) - H0) / H0);
    em = std::max(em, (R * Pi - m0).norm() / std::sqrt(G0));
    eorth = std::max(eorth, (R.transpose() * R - Matrix3d::Identity()).norm());
  }
  INFO("G " << eG << " H " << eH << " m " << em << " orth " << eorth);
  CHECK(eG <= 1e-14);
  CHECK(eH <= 1e-14);
  CHECK(em <= 1e-13);
  CHECK(eorth <= 1e-14);

  // Period of Π.
  const double T = body.period();
  if (std::isfinite(T)) {
    CHECK((body.Pi(T) - c.Pi0).norm() / c.Pi0.norm() <= 1e-13);
    CHECK((body.Pi(3.0 * T + 0.4) - body.Pi(0.4)).norm() / c.Pi0.norm() <= 1e-13);
  }
}

}  // namespace

TEST_CASE("exact: Carlson symmetric integrals (Carlson 1995 test values)", "[exact][elliptic]") {
  CHECK(ex::carlson_rf(1, 2, 0) == Approx(1.3110287771461).epsilon(1e-13));
  CHECK(ex::carlson_rf(2, 3, 4) == Approx(0.58408284167715).epsilon(1e-13));
  CHECK(std::abs(ex::carlson_rc(0, 0.25) - kPi) <= 1e-15);
  CHECK(std::abs(ex::carlson_rc(2.25, 2) - std::log(2.0)) <= 1e-15);
  CHECK(ex::carlson_rj(0, 1, 2, 3) == Approx(0.77688623778582).epsilon(1e-13));
  CHECK(ex::carlson_rj(2, 3, 4, 5) == Approx(0.14297579667157).epsilon(1e-13));
}

TEST_CASE("exact: complete and incomplete elliptic integrals", "[exact][elliptic]") {
  CHECK(std::abs(ex::ellip_k(0.5) - 1.8540746773013719184) <= 1e-15);
  CHECK(std::abs(ex::ellip_k(0.9) - 2.5780921133481732927) <= 1e-15);
  CHECK(std::abs(ex::ellip_k(0.99) - 3.6956373629898742386) <= 2e-15);
  CHECK(std::abs(ex::ellip_k(1.0 - std::ldexp(1.0, -40)) - 15.249237972322036709) <= 1e-14);
  CHECK(ex::ellip_k(0.0) == kPi / 2);
  CHECK(std::isinf(ex::ellip_k(1.0)));
  CHECK(std::abs(ex::ellip_f(0.9, 0.4) - 0.94699792240401119716) <= 1e-15);
  CHECK(std::abs(ex::ellip_f(2.5, 0.8) - 3.8351756768915441093) <= 2e-15);
  CHECK(std::abs(ex::ellip_f(-7.1, 0.3) - -7.6981877898735863618) <= 4e-15);
  CHECK(std::abs(ex::ellip_pi(-3.0, 0.9, 0.4) - 0.61923609802750434932) <= 1e-15);
  CHECK(std::abs(ex::ellip_pi(0.5, 2.5, 0.8) - 6.1034931935340877993) <= 4e-15);
  CHECK(std::abs(ex::ellip_pi(-0.25, -7.1, 0.3) - -6.9054247199738070634) <= 4e-15);
  CHECK(std::abs(ex::ellip_pi(-40.0, 1.2, 0.999) - 0.25715681879543810251) <= 1e-15);
  CHECK(std::abs(ex::ellip_pi_complete(-3.0, 0.4) - 0.85221143296119767727) <= 1e-15);
  CHECK_THROWS_AS(ex::jacobi(1.0, 1.5), std::domain_error);
  CHECK_THROWS_AS(ex::ellip_k(-0.1), std::domain_error);
  CHECK_THROWS_AS(ex::ellip_pi(1.5, 0.3, 0.5), std::domain_error);
}

TEST_CASE("exact: Jacobi elliptic functions", "[exact][elliptic]") {
  struct Ref {
    double u, m, sn, cn, dn;
  };
  const Ref refs[] = {
      {0.7, 0.3, 0.63230477631086451725, 0.7747197363269297698, 0.93811363968143021572},
      {3.3, 0.95, 0.99597806153500151602, -0.089597438250101400982, 0.24005481851846203042},
      {-12.5, 0.5, 0.94117353933665522164, -0.33792361393148231148, 0.74638876225882229789},
      {1.0, 1.0 - std::ldexp(1.0, -40), 0.76159415595584256347, 0.64805427366379411541, 0.64805427366420112627},
  };
  for (const Ref& r : refs) {
    const ex::SnCnDn v = ex::jacobi(r.u, r.m);
    INFO("u = " << r.u << " m = " << r.m);
    CHECK(std::abs(v.sn - r.sn) <= 1e-15);
    CHECK(std::abs(v.cn - r.cn) <= 1e-15);
    CHECK(std::abs(v.dn - r.dn) <= 1e-15);
  }
  // m = 0 and m = 1 limits.
  const ex::SnCnDn v0 = ex::jacobi(0.8, 0.0);
  CHECK(v0.sn == Approx(std::sin(0.8)).epsilon(1e-15));
  CHECK(v0.cn == Approx(std::cos(0.8)).epsilon(1e-15));
  CHECK(v0.dn == 1.0);
  const ex::SnCnDn v1 = ex::jacobi(0.8, 1.0);
  CHECK(v1.sn == Approx(std::tanh(0.8)).epsilon(1e-15));
  CHECK(v1.cn == Approx(1.0 / std::cosh(0.8)).epsilon(1e-15));
  CHECK(v1.dn == v1.cn);

  double e_id1 = 0, e_id2 = 0, e_der = 0, e_inv = 0, e_K = 0;
  for (double m : {0.0, 0.1, 0.5, 0.9, 0.999, 1.0 - 1e-12, 1.0}) {
    const double h = 1e-3;
    for (double u = -20.0; u <= 20.0; u += 0.0731) {
      const ex::SnCnDn v = ex::jacobi(u, m);
      e_id1 = std::max(e_id1, std::abs(v.sn * v.sn + v.cn * v.cn - 1.0));
      e_id2 = std::max(e_id2, std::abs(v.dn * v.dn + m * v.sn * v.sn - 1.0));
      const ex::SnCnDn p1 = ex::jacobi(u + h, m), m1 = ex::jacobi(u - h, m);
      const ex::SnCnDn p2 = ex::jacobi(u + 2 * h, m), m2 = ex::jacobi(u - 2 * h, m);
      const double dsn = (8 * (p1.sn - m1.sn) - (p2.sn - m2.sn)) / (12 * h);
      const double dcn = (8 * (p1.cn - m1.cn) - (p2.cn - m2.cn)) / (12 * h);
      const double ddn = (8 * (p1.dn - m1.dn) - (p2.dn - m2.dn)) / (12 * h);
      e_der = std::max(e_der, std::abs(dsn - v.cn * v.dn));
      e_der = std::max(e_der, std::abs(dcn + v.sn * v.dn));
      e_der = std::max(e_der, std::abs(ddn + m * v.sn * v.cn));
      if (m < 1.0 || std::abs(u) < 15.0) {
        // F(am u) = u (am and F are inverse); F amplifies an error in am by 1/dn.
        e_inv = std::max(e_inv, std::abs(ex::ellip_f(ex::jacobi_am(u, m), m) - u) * v.dn / std::max(1.0, std::abs(u)));
      }
    }
    if (m < 1.0) {
      const double K = ex::ellip_k(m);
      const ex::SnCnDn vk = ex::jacobi(K, m);
      e_K = std::max({e_K, std::abs(vk.sn - 1.0), std::abs(vk.cn), std::abs(vk.dn - std::sqrt(1.0 - m))});
      e_K = std::max(e_K, std::abs(ex::jacobi_am(K, m) - kPi / 2));
      if (m <= 0.999) e_K = std::max(e_K, std::abs(ex::ellip_f(kPi / 2, m) - K) / K);
    }
  }
  INFO("sn²+cn²-1: " << e_id1 << "  dn²+m sn²-1: " << e_id2 << "  derivatives: " << e_der << "  F(am)-u: " << e_inv
                     << "  at K: " << e_K);
  CHECK(e_id1 <= 4e-15);
  CHECK(e_id2 <= 4e-15);
  CHECK(e_der <= 1e-10);
  CHECK(e_inv <= 8e-15);
  CHECK(e_K <= 1e-15);
}

TEST_CASE("exact: harmonic oscillator", "[exact]") {
  const ex::Oscillator osc(2.0, 5.0, 0.3, -1.1);
  const double w = std::sqrt(2.5);
  for (double t : {0.0, 0.7, 10.0, -3.0}) {
    CHECK(osc.position(t) == Approx(0.3 * std::cos(w * t) - 1.1 / w * std::sin(w * t)).margin(1e-15));
    CHECK(osc.velocity(t) == Approx(-0.3 * w * std::sin(w * t) - 1.1 * std::cos(w * t)).margin(1e-15));
    const double x = osc.position(t), v = osc.velocity(t);
    CHECK(0.5 * 2.0 * v * v + 0.5 * 5.0 * x * x == Approx(osc.energy()).epsilon(1e-14));
  }
  const ex::Oscillator free_particle(1.0, 0.0, 1.0, 2.0);
  CHECK(free_particle.position(3.0) == 7.0);
}

TEST_CASE("exact: pendulum reference value (equations.md)", "[exact][pendulum]") {
  // m = l = g = 1, θ0 = 0, rate 2k with k = 0.5: θ(10) = 0.114252255017604.
  const ex::Pendulum p(1.0, 1.0, 0.0, 1.0);
  CHECK(p.regime() == ex::PendulumRegime::libration);
  CHECK(p.modulus() == 0.5);
  CHECK(std::abs(p.theta(10.0) - 0.114252255017604) <= 1e-14);
  CHECK(std::abs(p.theta(10.0) - 2.0 * std::asin(0.5 * ex::jacobi(10.0, 0.25).sn)) <= 1e-15);
}

TEST_CASE("exact: pendulum against high-accuracy integration", "[exact][pendulum]") {
  struct PCase {
    double g, l, th0, om0;
    ex::PendulumRegime regime;
  };
  const PCase cases[] = {
      {9.81, 2.0, 1.0, -0.7, ex::PendulumRegime::libration},
      {9.81, 2.0, 1.0, 3.0, ex::PendulumRegime::libration},
      {1.0, 1.0, 2.0 * kPi + 0.3, 1.9, ex::PendulumRegime::libration},
      {1.0, 1.0, 3.0, 0.0, ex::PendulumRegime::libration},  // near the top
      {9.81, 2.0, 1.0, 9.0, ex::PendulumRegime::rotation},
      {4.0, 1.0, -2.0, -4.5, ex::PendulumRegime::rotation},
      {1.0, 1.0, 0.0, 0.0, ex::PendulumRegime::libration},  // at rest
  };
  for (const PCase& c : cases) {
    const ex::Pendulum p(c.g, c.l, c.th0, c.om0);
    INFO("theta0 " << c.th0 << " omega0 " << c.om0);
    CHECK(p.regime() == c.regime);
    CHECK(std::abs(p.theta(0.0) - c.th0) <= 1e-15 * std::max(1.0, std::abs(c.th0)));
    CHECK(std::abs(p.omega(0.0) - c.om0) <= 1e-14 * std::max(1.0, std::abs(c.om0)));
    const double w2 = c.g / c.l;
    const auto rhs = [w2](const VecL& y) {
      VecL d(2);
      d << y[1], -static_cast<LD>(w2) * std::sin(y[0]);
      return d;
    };
    VecL y0(2);
    y0 << c.th0, c.om0;
    for (double t : {10.0, -4.0}) {
      const Eigen::Vector2d y = gbs(rhs, y0, t, 400).cast<double>();
      INFO("t = " << t << " dtheta " << p.theta(t) - y[0] << " domega " << p.omega(t) - y[1]);
      CHECK(std::abs(p.theta(t) - y[0]) <= 1e-12);
      CHECK(std::abs(p.omega(t) - y[1]) <= 1e-12 * std::sqrt(w2));
    }
    double eE = 0;
    for (double t = -5; t <= 20; t += 0.37) {
      eE = std::max(eE, std::abs(0.5 * p.omega(t) * p.omega(t) - w2 * std::cos(p.theta(t)) - p.energy()));
    }
    CHECK(eE <= 1e-13 * w2);
    if (c.regime == ex::PendulumRegime::libration && c.om0 != 0.0) {
      const double T = p.period();
      CHECK(std::abs(p.theta(T) - c.th0) <= 1e-13);
    }
  }
  // Rotation: one revolution per period.
  const ex::Pendulum r(9.81, 2.0, 1.0, 9.0);
  CHECK(std::abs(r.theta(r.period()) - (1.0 + 2.0 * kPi)) <= 1e-13);
  // Separatrix (1 - k² == 0): θ → π.
  const ex::Pendulum s(1.0, 1.0, 0.0, 2.0);
  CHECK(s.regime() == ex::PendulumRegime::separatrix);
  CHECK(std::abs(s.theta(1.3) - 4.0 * std::atan(std::tanh(0.65))) <= 1e-15);
  CHECK(std::abs(s.omega(1.3) - 2.0 / std::cosh(1.3)) <= 1e-15);
  CHECK(std::abs(s.theta(40.0) - kPi) <= 1e-14);
  CHECK_THROWS_AS(ex::Pendulum(-1.0, 1.0, 0.0, 0.0), std::domain_error);
}

TEST_CASE("exact: free rigid body, elliptic branches", "[exact][frb]") {
  const double c11 = std::cos(1.1), s11 = std::sin(1.1);
  const FrbCase cases[] = {
      {"equations.md case, circles the smallest axis", Vector3d(2, 1, 2.0 / 3), Vector3d(c11, 0, s11),
       ex::FrbBranch::min_axis, 1e-12},
      {"circles the largest axis", Vector3d(2, 1, 2.0 / 3), Vector3d(0.9, 0.3, -0.2), ex::FrbBranch::max_axis, 1e-12},
      {"permuted inertia (cyclic)", Vector3d(1, 2.0 / 3, 2), Vector3d(0, s11, c11), ex::FrbBranch::min_axis, 1e-12},
      {"permuted inertia (odd), largest axis", Vector3d(2.0 / 3, 2, 1), Vector3d(-0.2, 0.9, 0.3),
       ex::FrbBranch::max_axis, 1e-12},
      {"general, smallest axis", Vector3d(1.3, 3.1, 2.2), Vector3d(1.7, -0.4, 0.8), ex::FrbBranch::min_axis, 1e-12},
      {"close to the separatrix", Vector3d(1, 2, 4), Vector3d(1, 0.5, std::sqrt(2.0) * (1 + 1e-9)),
       ex::FrbBranch::max_axis, 1e-10},
      {"nearly symmetric", Vector3d(1, 1 + 1e-9, 2), Vector3d(0.6, 0.5, 0.4), ex::FrbBranch::max_axis, 1e-12},
  };
  for (const FrbCase& c : cases) check_free_rigid_body(c);

  // The permuted case is the same motion as the equations.md case.
  const Vector4d q0(1, 0, 0, 0);
  const ex::FreeRigidBodyExact A(Vector3d(2, 1, 2.0 / 3), q0, Vector3d(c11 / 2, 0, s11 * 1.5));
  const ex::FreeRigidBodyExact B(Vector3d(1, 2.0 / 3, 2), q0, Vector3d(0, s11 * 1.5, c11 / 2));
  const Vector3d pa = A.Pi(10.0), pb = B.Pi(10.0);
  CHECK(std::abs(pa[0] - pb[2]) + std::abs(pa[1] - pb[0]) + std::abs(pa[2] - pb[1]) <= 1e-14);
  CHECK(std::abs(A.period() - B.period()) <= 1e-13);
  // equations.md: to 2e-15 against DOP853 at t = 10 (checked here against GBS in the loop above).
}

TEST_CASE("exact: free rigid body, degenerate cases", "[exact][frb]") {
  const FrbCase cases[] = {
      {"symmetric (oblate)", Vector3d(1, 1, 2), Vector3d(0.6, -0.5, 0.4), ex::FrbBranch::symmetric, 1e-12},
      {"symmetric (prolate, axis 2)", Vector3d(3, 2, 3), Vector3d(0.6, -0.5, 0.4), ex::FrbBranch::symmetric, 1e-12},
      {"spherical", Vector3d(1.5, 1.5, 1.5), Vector3d(0.6, -0.5, 0.4), ex::FrbBranch::spherical, 1e-12},
      {"steady, middle axis", Vector3d(2, 1, 2.0 / 3), Vector3d(0, 0.7, 0), ex::FrbBranch::steady, 1e-12},
      {"steady, largest axis", Vector3d(2, 1, 2.0 / 3), Vector3d(-0.7, 0, 0), ex::FrbBranch::steady, 1e-12},
      {"separatrix", Vector3d(1, 2, 4), Vector3d(1, 0.5, std::sqrt(2.0)), ex::FrbBranch::separatrix, 1e-12},
      {"separatrix, other signs", Vector3d(4, 2, 1), Vector3d(-std::sqrt(2.0), -0.5, 1), ex::FrbBranch::separatrix,
       1e-12},
  };
  for (const FrbCase& c : cases) check_free_rigid_body(c);

  // At rest.
  const ex::FreeRigidBodyExact rest(Vector3d(1, 2, 3), Vector4d(0.5, 0.5, 0.5, 0.5), Vector3d::Zero());
  CHECK(rest.Pi(5.0).norm() == 0.0);
  CHECK((rest.orientation(5.0) - quat_matrix(Vector4d(0.5, 0.5, 0.5, 0.5))).norm() <= 1e-15);
  CHECK_THROWS_AS(ex::FreeRigidBodyExact(Vector3d(1, 0, 3), Vector4d(1, 0, 0, 0), Vector3d::Ones()), std::domain_error);
}

// Exact free rigid body: body angular momentum Π(t) by Jacobi elliptic functions and
// the orientation R(t) in closed form (elliptic integral of the third kind).
//
// ---------------------------------------------------------------------------------
// Conventions
//   Inertia I = (I1, I2, I3) > 0 in any order (principal body axes e1, e2, e3).
//   Orientation R: body -> space, quaternion q = (w, x, y, z) with R v = q v q*.
//   Body angular velocity Ω, body angular momentum Π_i = I_i Ω_i.
//   Euler:            Π' = Π × Ω                      (equations.md)
//   Reconstruction:   R' = R Ω^   (Ω^ v = Ω × v);   spatial momentum m = R Π constant.
//   Invariants:       G = |Π|² = μ²,  2H = Σ Π_i²/I_i   (H = kinetic energy).
//
// Generic body (three distinct inertias), following equations.md "Exact free rigid body":
//   c = axis Π circles: largest inertia if G > 2H I_mid (branch max_axis), smallest if
//   G < 2H I_mid (branch min_axis); a = the other extreme axis, b = the middle one.
//   With cancellation-free forms (D_c = 2H I_c - G, D_a = G - 2H I_a, D_b = 2H I_b - G):
//     D_c = Π_a²(I_c-I_a)/I_a + Π_b²(I_c-I_b)/I_b,   D_a = Π_b²(I_b-I_a)/I_b + Π_c²(I_c-I_a)/I_c,
//     D_b = Π_a²(I_b-I_a)/I_a - Π_c²(I_c-I_b)/I_c   (the only genuine cancellation),
//     A_a² = I_a D_c/(I_c-I_a) = Π_a² + Π_b² I_a(I_c-I_b)/(I_b(I_c-I_a)),
//     A_b² = I_b D_c/(I_c-I_b) = Π_a² I_b(I_c-I_a)/(I_a(I_c-I_b)) + Π_b²,
//     A_c² = I_c D_a/(I_c-I_a) = Π_b² I_c(I_b-I_a)/(I_b(I_c-I_a)) + Π_c²,
//     k²   = (I_b-I_a) D_c / ((I_c-I_b) D_a),   1 - k² = -(I_c-I_a) D_b / ((I_c-I_b) D_a),
//     λ²   = (I_c-I_b) D_a / (I_a I_b I_c),
//   Π_a = A_a cn(u), Π_b = A_b sn(u), Π_c = s A_c dn(u), u = u0 + σλt  (parameter k²),
//     s  = sign Π_c(0),
//     u0 = F(atan2(Π_b(0)/A_b, Π_a(0)/A_a) | k²),
//     σ  = ε_abc · s · sign(I_c - I_a)  (ε_abc = +1 if (a,b,c) is a cyclic permutation of
//          (1,2,3)). This is the sign that matches Π'(0) = Π × Ω: from the b-component,
//          Π_b' = ε_abc Π_a Π_c (1/I_a - 1/I_c) = A_b cn dn u', and A_a A_c |1/I_a - 1/I_c| / A_b
//          = λ, so u' = ε_abc s sign(I_c - I_a) λ. (Checked against Π × Ω in the tests.)
//   Period of Π: 4K(k²)/λ.
//
// Orientation (closed form, after Landau-Lifshitz §37, with a minimal-rotation frame).
//   Body adapted frame B = [s_a e_a, τ e_b, s e_c] (columns, right-handed), τ = s_a s ε_abc
//   (s_a = 1 except on the separatrix, below). In it the unit momentum is
//     ξ = Bᵀ Π/μ = (A_a cn u, τ A_b sn u, A_c dn u)/μ,
//   with ξ_z = A_c dn(u)/μ > 0 always. Write, with S(ξ) the minimal rotation taking ξ to e3
//   (never singular since ξ_z > 0) and C a constant rotation with C e3 = m/μ:
//     R(t) = C · Rz(ψ(t)) · S(ξ(t)) · Bᵀ.
//   In Euler angles R_adapted = Rz(φ) Ry(-θ) Rz(-β), cos θ = ξ_z, β = azimuth of ξ, one has
//   Rz(φ)Ry(-θ)Rz(-β) = Rz(φ - β) S(ξ), so ψ = φ - β, and Ω·Π/μ = 2H/μ = φ' - β' cos θ gives
//   Landau's precession rate, which simplifies (using the amplitudes above) to
//     φ' = μ (Π_a²/I_a + Π_b²/I_b)/(Π_a² + Π_b²) = μ [1/I_c + (1/I_a - 1/I_c)/(1 - n sn²u)],
//     n  = -I_c (I_b - I_a) / (I_a (I_c - I_b))  < 0   (depends on the inertias only),
//   hence, with P(u) = ∫_0^u dv/(1 - n sn² v) = Π(n; am u | k²) (third kind, Carlson R_J),
//     φ(t) - φ(0) = μ t/I_c + μ (1/I_a - 1/I_c) (P(u(t)) - P(u0)) / (σλ),
//     β(u) = τ B(u),  B(u) = jπ + atan2(A_b sn r, A_a cn r) for u = 2jK + r, |r| <= K
//            (continuous azimuth: tan β = τ (A_b/A_a) tan am u),
//     ψ(t) = [φ(t) - φ(0)] - τ [B(u(t)) - B(u0)],   ψ(0) = 0,  C = R0 B S(ξ0)ᵀ.
//   Equivalently ψ' = 2H/μ - (ξ_x ξ_y' - ξ_y ξ_x')/(1 + ξ_z). Everything is evaluated from
//   one sn/cn/dn evaluation per time, so R(t) R(t)ᵀ = 1 and R Π = m hold to rounding.
//   Computed in quaternions: q(t) = q_C ⊗ q_z(ψ) ⊗ q_S(ξ) ⊗ q_B*, q_C = q0 ⊗ q_B ⊗ q_S(ξ0)*,
//   so quaternion(0) = q0 to rounding (sign included) and q(t) is continuous in t.
//
// Degenerate cases (branch()):
//   spherical   I1 = I2 = I3 (exact equality): Π constant, R(t) = exp(t m^/I) R0.
//   symmetric   two equal inertias I_⊥ (exact equality), symmetry axis c (the third):
//               ν = Π_c (1/I_c - 1/I_⊥); Π(t) = Rot(e_c, -νt) Π0,
//               R(t) = exp(t m^/I_⊥) R0 exp(t ν e_c^). Period of Π: 2π/|ν| (+inf if ν = 0).
//   steady      three distinct inertias and Π0 along a principal axis (the other two
//               components exactly zero; includes the unstable middle axis and Π0 = 0):
//               Π constant, R(t) = R0 exp(t Ω^).
//   separatrix  |D_b| <= 16 eps (|Π_a²(I_b-I_a)/I_a| + |Π_c²(I_c-I_b)/I_c|), i.e.
//               2H I_mid == G to rounding: the limiting formulas k² = 1 (sn = tanh,
//               cn = dn = sech), c = largest axis, Π_a = s_a A_a sech u with s_a = sign Π_a(0),
//               u0 = artanh(Π_b(0)/A_b) via F(·|1), σ multiplied by s_a; Π tends to the
//               middle axis as t → ±∞. Period +inf.
//   Nearly equal inertias use the generic formulas (valid, with accuracy degrading as the
//   difference shrinks towards rounding level); states close to the separatrix are
//   ill-conditioned by nature (the period diverges logarithmically).
//
// All elementary functions via vilab::dm, and sums/dot/cross/matrix-vector products are
// written out as scalar code in a fixed order (no Eigen reductions), so the bits do not
// depend on Eigen's vectorization: identical native (with or without -march=native) and
// wasm, given -ffp-contract=off.
#pragma once

#include <Eigen/Dense>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <utility>

#include "vilab/detmath.hpp"
#include "vilab/exact/elliptic.hpp"

namespace vilab::exact {

enum class FrbBranch { max_axis, min_axis, separatrix, symmetric, spherical, steady };

namespace frb_detail {

using Quat = Eigen::Vector4d;  // (w, x, y, z)

inline Quat qmul(const Quat& p, const Quat& q) {
  return Quat(
      p[0] * q[0] - p[1] * q[1] - p[2] * q[2] - p[3] * q[3], p[0] * q[1] + p[1] * q[0] + p[2] * q[3] - p[3] * q[2],
      p[0] * q[2] - p[1] * q[3] + p[2] * q[0] + p[3] * q[1], p[0] * q[3] + p[1] * q[2] - p[2] * q[1] + p[3] * q[0]);
}
inline Quat qconj(const Quat& q) { return Quat(q[0], -q[1], -q[2], -q[3]); }
// Explicit scalar sums (fixed evaluation order, independent of Eigen's vectorization).
inline double norm2(const Quat& q) { return ((q[0] * q[0] + q[1] * q[1]) + q[2] * q[2]) + q[3] * q[3]; }
inline double norm2(const Eigen::Vector3d& v) { return (v[0] * v[0] + v[1] * v[1]) + v[2] * v[2]; }
inline double dot(const Eigen::Vector3d& a, const Eigen::Vector3d& b) {
  return (a[0] * b[0] + a[1] * b[1]) + a[2] * b[2];
}
inline Eigen::Vector3d cross(const Eigen::Vector3d& a, const Eigen::Vector3d& b) {
  return Eigen::Vector3d(a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]);
}
inline Eigen::Vector3d matvec(const Eigen::Matrix3d& R, const Eigen::Vector3d& v) {
  return Eigen::Vector3d((R(0, 0) * v[0] + R(0, 1) * v[1]) + R(0, 2) * v[2],
                         (R(1, 0) * v[0] + R(1, 1) * v[1]) + R(1, 2) * v[2],
                         (R(2, 0) * v[0] + R(2, 1) * v[1]) + R(2, 2) * v[2]);
}
inline Quat qnormalized(const Quat& q) { return q / std::sqrt(norm2(q)); }

inline Eigen::Matrix3d qmatrix(const Quat& q) {
  const double w = q[0], x = q[1], y = q[2], z = q[3];
  Eigen::Matrix3d R;
  R << 1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y),  //
      2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x),   //
      2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y);
  return R;
}

// Rotation matrix -> unit quaternion (Shepperd's method; w >= 0 not enforced).
inline Quat qfrom_matrix(const Eigen::Matrix3d& R) {
  const double tr = R(0, 0) + R(1, 1) + R(2, 2);
  Quat q;
  if (tr >= R(0, 0) && tr >= R(1, 1) && tr >= R(2, 2)) {
    const double s = 2.0 * std::sqrt(1.0 + tr);
    q << 0.25 * s, (R(2, 1) - R(1, 2)) / s, (R(0, 2) - R(2, 0)) / s, (R(1, 0) - R(0, 1)) / s;
  } else if (R(0, 0) >= R(1, 1) && R(0, 0) >= R(2, 2)) {
    const double s = 2.0 * std::sqrt(1.0 + R(0, 0) - R(1, 1) - R(2, 2));
    q << (R(2, 1) - R(1, 2)) / s, 0.25 * s, (R(0, 1) + R(1, 0)) / s, (R(0, 2) + R(2, 0)) / s;
  } else if (R(1, 1) >= R(2, 2)) {
    const double s = 2.0 * std::sqrt(1.0 + R(1, 1) - R(0, 0) - R(2, 2));
    q << (R(0, 2) - R(2, 0)) / s, (R(0, 1) + R(1, 0)) / s, 0.25 * s, (R(1, 2) + R(2, 1)) / s;
  } else {
    const double s = 2.0 * std::sqrt(1.0 + R(2, 2) - R(0, 0) - R(1, 1));
    q << (R(1, 0) - R(0, 1)) / s, (R(0, 2) + R(2, 0)) / s, (R(1, 2) + R(2, 1)) / s, 0.25 * s;
  }
  return qnormalized(q);
}

// exp of the rotation vector v as a quaternion: (cos |v|/2, sin(|v|/2) v/|v|).
inline Quat qexp(const Eigen::Vector3d& v) {
  const double a = std::sqrt(norm2(v));
  if (a == 0.0) return Quat(1, 0, 0, 0);
  double s, c;
  dm::sincos(0.5 * a, s, c);
  const Eigen::Vector3d u = (s / a) * v;
  return Quat(c, u[0], u[1], u[2]);
}

// Minimal rotation taking the unit vector xi to e3 (requires xi_z > -1).
inline Quat qalign_to_e3(const Eigen::Vector3d& xi_in) {
  const Eigen::Vector3d xi = xi_in / std::sqrt(norm2(xi_in));
  // normalize(1 + xi·e3, xi × e3)
  return qnormalized(Quat(1.0 + xi[2], xi[1], -xi[0], 0.0));
}

// Rodrigues rotation of v about the unit axis e by the angle alpha.
inline Eigen::Vector3d rotate(const Eigen::Vector3d& v, const Eigen::Vector3d& e, double alpha) {
  double s, c;
  dm::sincos(alpha, s, c);
  return c * v + s * cross(e, v) + ((1.0 - c) * dot(e, v)) * e;
}

inline double sgn(double x) { return x < 0.0 ? -1.0 : 1.0; }

}  // namespace frb_detail

class FreeRigidBodyExact {
 public:
  using Vec3 = Eigen::Vector3d;
  using Quat = Eigen::Vector4d;  // (w, x, y, z), body -> space

  // Data of the elliptic solution (branches max_axis, min_axis, separatrix), 0-based axes.
  struct EllipticData {
    int a, b, c;            // axis indices in the user's ordering
    double Aa, Ab, Ac;      // amplitudes
    double m, mc;           // k² and 1 - k²
    double lambda;          // λ > 0
    double rate;            // du/dt = σλ (signed)
    double u0;              // u(0)
    double sign_a, sign_c;  // s_a, s
  };

  FreeRigidBodyExact(const Vec3& inertia, const Quat& q0_wxyz, const Vec3& omega0) : I_(inertia) {
    for (int i = 0; i < 3; ++i) {
      if (!(inertia[i] > 0.0) || !(inertia[i] < std::numeric_limits<double>::infinity())) {
        throw std::domain_error("FreeRigidBodyExact: inertia values must be positive and finite");
      }
    }
    const double qn2 = frb_detail::norm2(q0_wxyz);
    if (!(qn2 > 0.0) || !(qn2 < std::numeric_limits<double>::infinity())) {
      throw std::domain_error("FreeRigidBodyExact: initial quaternion must be nonzero and finite");
    }
    q0_ = frb_detail::qnormalized(q0_wxyz);
    R0_ = frb_detail::qmatrix(q0_);
    Pi0_ = inertia.cwiseProduct(omega0);
    G_ = frb_detail::norm2(Pi0_);
    mu_ = std::sqrt(G_);
    H_ = 0.5 * (Pi0_[0] * omega0[0] + Pi0_[1] * omega0[1] + Pi0_[2] * omega0[2]);
    m_ = frb_detail::matvec(R0_, Pi0_);

    // Sort the axes by inertia: lo <= mid <= hi.
    int lo = 0, mid = 1, hi = 2;
    if (I_[lo] > I_[mid]) std::swap(lo, mid);
    if (I_[mid] > I_[hi]) std::swap(mid, hi);
    if (I_[lo] > I_[mid]) std::swap(lo, mid);

    if (I_[lo] == I_[hi]) {
      branch_ = FrbBranch::spherical;
      setup_symmetric(hi, I_[lo]);
      return;
    }
    if (I_[lo] == I_[mid]) {  // symmetry axis: the distinct one
      branch_ = FrbBranch::symmetric;
      setup_symmetric(hi, I_[lo]);
      return;
    }
    if (I_[mid] == I_[hi]) {
      branch_ = FrbBranch::symmetric;
      setup_symmetric(lo, I_[hi]);
      return;
    }
    int nonzero = 0;
    for (int i = 0; i < 3; ++i) nonzero += (Pi0_[i] != 0.0) ? 1 : 0;
    if (nonzero <= 1) {
      branch_ = FrbBranch::steady;
      period_ = std::numeric_limits<double>::infinity();
      Omega_steady_ = Pi0_.cwiseQuotient(I_);
      return;
    }

    // Generic: decide the branch from D_b = 2H I_mid - G.
    const double t1 = Pi0_[lo] * Pi0_[lo] * (I_[mid] - I_[lo]) / I_[lo];
    const double t2 = Pi0_[hi] * Pi0_[hi] * (I_[hi] - I_[mid]) / I_[hi];
    const double Db = t1 - t2;
    const double eps = std::numeric_limits<double>::epsilon();
    bool separatrix = std::abs(Db) <= 16.0 * eps * (t1 + t2);
    int a, c;
    if (separatrix || Db < 0.0) {
      c = hi;
      a = lo;
      branch_ = separatrix ? FrbBranch::separatrix : FrbBranch::max_axis;
    } else {
      c = lo;
      a = hi;
      branch_ = FrbBranch::min_axis;
    }
    setup_elliptic(a, mid, c, separatrix);
  }

  FrbBranch branch() const { return branch_; }
  const Vec3& inertia() const { return I_; }
  // Energy H = ½ Σ Π_i²/I_i, |Π| = μ, spatial momentum m = R Π (all constant).
  double energy() const { return H_; }
  double momentum_norm() const { return mu_; }
  const Vec3& spatial_momentum() const { return m_; }
  // Period of Π(t): 4K/λ (generic), 2π/|ν| (symmetric); +inf when Π is constant
  // (spherical, steady, symmetric with ν = 0) or on the separatrix.
  double period() const { return period_; }
  const EllipticData& elliptic_data() const { return ed_; }

  // Body angular momentum Π(t).
  Vec3 Pi(double t) const {
    switch (branch_) {
      case FrbBranch::spherical:
      case FrbBranch::steady: return Pi0_;
      case FrbBranch::symmetric: return frb_detail::rotate(Pi0_, e_sym_, -nu_ * t);
      default: {
        const Eval e = eval(t);
        return e.Pi;
      }
    }
  }

  // Body angular velocity Ω(t) = I^{-1} Π(t).
  Vec3 omega(double t) const { return Pi(t).cwiseQuotient(I_); }

  // Orientation quaternion (w, x, y, z), body -> space; quaternion(0) = q0 (normalized).
  Quat quaternion(double t) const {
    using namespace frb_detail;
    switch (branch_) {
      case FrbBranch::steady: return qmul(q0_, qexp(t * Omega_steady_));
      case FrbBranch::spherical:
      case FrbBranch::symmetric: return qmul(qmul(qexp((t / Iperp_) * m_), q0_), qexp((t * nu_) * e_sym_));
      default: {
        const Eval e = eval(t);
        double s, c;
        dm::sincos(0.5 * e.psi, s, c);
        const Quat qz(c, 0.0, 0.0, s);
        return qmul(qmul(qmul(qC_, qz), qalign_to_e3(e.xi)), qconj(qB_));
      }
    }
  }

  // Rotation matrix R(t) (body -> space), R' = R Ω^.
  Eigen::Matrix3d orientation(double t) const { return frb_detail::qmatrix(quaternion(t)); }

 private:
  struct Eval {
    Vec3 Pi;
    Vec3 xi;     // unit momentum in the body adapted frame (unnormalized to rounding)
    double psi;  // precession angle about m
  };

  void setup_symmetric(int c, double Iperp) {
    Iperp_ = Iperp;
    e_sym_ = Vec3::Zero();
    e_sym_[c] = 1.0;
    nu_ = Pi0_[c] * (1.0 / I_[c] - 1.0 / Iperp);
    period_ = nu_ == 0.0 ? std::numeric_limits<double>::infinity() : 2.0 * dm::pi / std::abs(nu_);
  }

  void setup_elliptic(int a, int b, int c, bool separatrix) {
    using frb_detail::sgn;
    const double Ia = I_[a], Ib = I_[b], Ic = I_[c];
    const double Pa = Pi0_[a], Pb = Pi0_[b], Pc = Pi0_[c];
    const double dca = Ic - Ia, dcb = Ic - Ib, dba = Ib - Ia;
    const double Pa2 = Pa * Pa, Pb2 = Pb * Pb, Pc2 = Pc * Pc;
    const double Dc = Pa2 * dca / Ia + Pb2 * dcb / Ib;
    const double Da = Pb2 * dba / Ib + Pc2 * dca / Ic;
    const double Db = Pa2 * dba / Ia - Pc2 * dcb / Ic;
    ed_.a = a;
    ed_.b = b;
    ed_.c = c;
    ed_.Aa = std::sqrt(Pa2 + Pb2 * (Ia * dcb) / (Ib * dca));
    ed_.Ab = std::sqrt(Pa2 * (Ib * dca) / (Ia * dcb) + Pb2);
    ed_.Ac = std::sqrt(Pb2 * (Ic * dba) / (Ib * dca) + Pc2);
    if (separatrix) {
      ed_.m = 1.0;
      ed_.mc = 0.0;
    } else {
      ed_.m = dba * Dc / (dcb * Da);
      ed_.mc = -dca * Db / (dcb * Da);
      if (ed_.m > 1.0) ed_.m = 1.0;  // rounding guards (m + mc = 1 to a few ulps)
      if (ed_.mc > 1.0) ed_.mc = 1.0;
      if (ed_.m < 0.0) ed_.m = 0.0;
    }
    ed_.lambda = std::sqrt(dcb * Da / (Ia * Ib * Ic));
    const int eps_abc = ((b - a + 3) % 3 == 1) ? 1 : -1;
    ed_.sign_c = sgn(Pc);
    ed_.sign_a = separatrix ? sgn(Pa) : 1.0;
    ed_.rate = eps_abc * ed_.sign_c * sgn(dca) * ed_.sign_a * ed_.lambda;
    const double phi0 = dm::atan2(Pb / ed_.Ab, ed_.sign_a * Pa / ed_.Aa);
    ed_.u0 = ellip_f(phi0, ed_.m, ed_.mc);
    tau_ = ed_.sign_a * ed_.sign_c * eps_abc;

    K_ = ellip_k(ed_.m, ed_.mc);
    period_ = separatrix ? std::numeric_limits<double>::infinity() : 4.0 * K_ / ed_.rate;
    if (period_ < 0.0) period_ = -period_;
    n_ = -Ic * dba / (Ia * dcb);
    Pcomplete_ = separatrix ? 0.0 : ellip_pi_complete(n_, ed_.m, ed_.mc);
    phi_rate_c_ = mu_ / Ic;
    phi_rate_p_ = mu_ * (dca / (Ia * Ic)) / ed_.rate;

    // Body adapted frame B = [s_a e_a, τ e_b, s e_c] and its quaternion.
    Eigen::Matrix3d B = Eigen::Matrix3d::Zero();
    B(a, 0) = ed_.sign_a;
    B(b, 1) = tau_;
    B(c, 2) = ed_.sign_c;
    qB_ = frb_detail::qfrom_matrix(B);

    // Values at t = 0 (ψ(0) = 0 by the choice of C).
    double P0, B0;
    Vec3 xi0;
    Vec3 Pidummy;
    eval_u(ed_.u0, Pidummy, xi0, P0, B0);
    P_u0_ = P0;
    B_u0_ = B0;
    qC_ = frb_detail::qmul(frb_detail::qmul(q0_, qB_), frb_detail::qconj(frb_detail::qalign_to_e3(xi0)));
  }

  // Π, ξ, P(u) and B(u) at the elliptic argument u.
  void eval_u(double u, Vec3& Pi, Vec3& xi, double& P, double& Bu) const {
    const detail::HalfPeriodReduction red = detail::reduce_half_period(u, K_);
    const SnCnDn v = detail::jacobi_reduced(red.r, ed_.m, ed_.mc);  // cn >= 0
    const double par = detail::is_odd(red.j) ? -1.0 : 1.0;
    const double sn = par * v.sn, cn = par * v.cn, dn = v.dn;
    Pi[ed_.a] = ed_.sign_a * ed_.Aa * cn;
    Pi[ed_.b] = ed_.Ab * sn;
    Pi[ed_.c] = ed_.sign_c * ed_.Ac * dn;
    xi = Vec3(ed_.Aa * cn, tau_ * ed_.Ab * sn, ed_.Ac * dn) / mu_;
    P = detail::pi3_from_sc(n_, v.sn, v.cn, v.dn * v.dn);
    if (red.j != 0.0) P += 2.0 * red.j * Pcomplete_;
    Bu = red.j * dm::pi + dm::atan2(ed_.Ab * v.sn, ed_.Aa * v.cn);
  }

  Eval eval(double t) const {
    Eval e;
    double P, Bu;
    eval_u(ed_.u0 + ed_.rate * t, e.Pi, e.xi, P, Bu);
    e.psi = phi_rate_c_ * t + phi_rate_p_ * (P - P_u0_) - tau_ * (Bu - B_u0_);
    return e;
  }

  Vec3 I_;
  Quat q0_;
  Eigen::Matrix3d R0_;
  Vec3 Pi0_, m_;
  double G_ = 0, mu_ = 0, H_ = 0;
  FrbBranch branch_ = FrbBranch::spherical;
  double period_ = std::numeric_limits<double>::infinity();
  // symmetric / spherical
  double Iperp_ = 1, nu_ = 0;
  Vec3 e_sym_ = Vec3::Zero();
  // steady
  Vec3 Omega_steady_ = Vec3::Zero();
  // elliptic
  EllipticData ed_{0, 1, 2, 0, 0, 0, 0, 1, 0, 0, 0, 1, 1};
  double tau_ = 1, K_ = 0, n_ = 0, Pcomplete_ = 0, phi_rate_c_ = 0, phi_rate_p_ = 0;
  double P_u0_ = 0, B_u0_ = 0;
  Quat qB_ = Quat(1, 0, 0, 0), qC_ = Quat(1, 0, 0, 0);
};

}  // namespace vilab::exact

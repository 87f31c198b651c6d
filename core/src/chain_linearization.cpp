#include "vilab/chain_linearization.hpp"

#include <cmath>

namespace vilab {

namespace {

// Dg(q): row i has d_i/l_i on bob i and −d_i/l_i on bob i − 1 (g_i = (|d_i|² − l_i²)/(2 l_i)).
Eigen::MatrixXd constraintJacobian(const ChainModel& m, const VecX& q) {
  const int B = m.bobs();
  Eigen::MatrixXd G = Eigen::MatrixXd::Zero(B, 3 * B);
  for (int i = 0; i < B; ++i) {
    const Vec3 a = chainLink(q.data(), i) / m.lengths[i];
    G.block<1, 3>(i, 3 * i) = a.transpose();
    if (i > 0) G.block<1, 3>(i, 3 * i - 3) = -a.transpose();
  }
  return G;
}

// Σ_i w_i ∇²g_i: ∇²g_i = (1/l_i) [I, −I; −I, I] on bobs i − 1, i (only I on bob 0).
Eigen::MatrixXd weightedHessian(const ChainModel& m, const Eigen::VectorXd& w) {
  const int B = m.bobs();
  Eigen::MatrixXd H = Eigen::MatrixXd::Zero(3 * B, 3 * B);
  const Eigen::Matrix3d I = Eigen::Matrix3d::Identity();
  for (int i = 0; i < B; ++i) {
    const double c = w[i] / m.lengths[i];
    H.block<3, 3>(3 * i, 3 * i) += c * I;
    if (i > 0) {
      H.block<3, 3>(3 * i - 3, 3 * i - 3) += c * I;
      H.block<3, 3>(3 * i, 3 * i - 3) -= c * I;
      H.block<3, 3>(3 * i - 3, 3 * i) -= c * I;
    }
  }
  return H;
}

// K: row i = (∇²g_i M⁻¹ p)ᵀ, the derivative of Dg(q) M⁻¹ p in q.
Eigen::MatrixXd hiddenDerivative(const ChainModel& m, const VecX& p) {
  const int B = m.bobs();
  Eigen::MatrixXd K = Eigen::MatrixXd::Zero(B, 3 * B);
  for (int i = 0; i < B; ++i) {
    Eigen::VectorXd e = Eigen::VectorXd::Zero(B);
    e[i] = 1;
    Eigen::VectorXd v(3 * B);
    for (int j = 0; j < B; ++j) v.segment<3>(3 * j) = p.segment<3>(3 * j) / m.masses[j];
    K.row(i) = (weightedHessian(m, e) * v).transpose();
  }
  return K;
}

Eigen::VectorXd inverseMassDiagonal(const ChainModel& m) {
  Eigen::VectorXd w(3 * m.bobs());
  for (int j = 0; j < m.bobs(); ++j) w.segment<3>(3 * j).setConstant(1.0 / m.masses[j]);
  return w;
}

}  // namespace

Eigen::MatrixXd chainTangentBasis(const ChainModel& m, const State& s) {
  // Position vectors t: link i turned about an axis u ⊥ d_i, the bobs below it carried
  // along (δx_j = u × d_i for j ≥ i); two axes per link, one (y) for the planar pendulum.
  // Each is lifted to T(T*N) as e = (t, −Dgᵀ S⁻¹ K t) (the hidden constraint to first
  // order), and the momentum vectors are f = (0, M t). Then ω(e, e') = 0 (Dg t = 0),
  // ω(f, f') = 0 and ω(e_k, f_j) = (tᵀ M t)_kj =: Γ, so [E, F Γ⁻¹] is symplectic. Every
  // vector is a smooth function of the state (no SVD, no pivoting), so nearby states
  // get nearby bases.
  const int B = m.bobs(), N = 3 * B, perLink = m.planar ? 1 : 2, n = perLink * B;
  Eigen::MatrixXd T = Eigen::MatrixXd::Zero(N, n);
  for (int i = 0; i < B; ++i) {
    const Vec3 d = chainLink(s.q.data(), i);
    const Vec3 unit = d.normalized();
    const Vec3 reference = std::abs(unit.x()) > 0.9 ? Vec3::UnitY() : Vec3::UnitX();
    const Vec3 u1 = m.planar ? Vec3::UnitY() : Vec3(reference.cross(unit).normalized());
    const Vec3 u2 = unit.cross(u1);
    for (int k = 0; k < perLink; ++k) {
      const Vec3 turn = (k == 0 ? u1 : u2).cross(d);
      for (int j = i; j < B; ++j) T.block<3, 1>(3 * j, perLink * i + k) = turn;
    }
  }
  const Eigen::VectorXd invM = inverseMassDiagonal(m);
  const Eigen::MatrixXd G = constraintJacobian(m, s.q);
  const Eigen::MatrixXd S = G * invM.asDiagonal() * G.transpose();
  const Eigen::MatrixXd MT = invM.cwiseInverse().asDiagonal() * T;
  const Eigen::MatrixXd gamma = T.transpose() * MT;
  Eigen::MatrixXd basis = Eigen::MatrixXd::Zero(2 * N, 2 * n);
  basis.topLeftCorner(N, n) = T;
  basis.bottomLeftCorner(N, n) = -G.transpose() * S.ldlt().solve(hiddenDerivative(m, s.p) * T);
  basis.bottomRightCorner(N, n) = MT * gamma.inverse();
  return basis;
}

Eigen::MatrixXd chainTangentCoordinates(const Eigen::MatrixXd& basis, const Eigen::MatrixXd& v) {
  return basis.colPivHouseholderQr().solve(v);
}

bool chainStepJacobian(const ChainModel& m, double h, const State& a, const State& b, Eigen::MatrixXd& jacobian,
                       std::string& why) {
  if (m.forced()) {
    why = "a damped chain's step is not differentiated";
    return false;
  }
  const int B = m.bobs(), N = 3 * B;
  const Eigen::VectorXd invM = inverseMassDiagonal(m);
  Eigen::VectorXd gradV = Eigen::VectorXd::Zero(N);
  for (int j = 0; j < B; ++j) gradV[3 * j + 2] = m.masses[j] * m.g;
  const Eigen::MatrixXd G0 = constraintJacobian(m, a.q), G1 = constraintJacobian(m, b.q);
  // λ and μ of the step from its ends (least squares: the rows of Dg are independent).
  const Eigen::VectorXd Mdelta = ((b.q - a.q).array() / invM.array()).matrix() / h;
  const Eigen::VectorXd lambda = G0.transpose().colPivHouseholderQr().solve(Mdelta + 0.5 * h * gradV - a.p);
  const Eigen::VectorXd pTilde = a.p + G0.transpose() * lambda - h * gradV;
  const Eigen::VectorXd mu = G1.transpose().colPivHouseholderQr().solve(pTilde - b.p);
  const Eigen::MatrixXd Hl = weightedHessian(m, lambda), Hm = weightedHessian(m, mu);
  const Eigen::MatrixXd Moverh = (invM.cwiseInverse() / h).asDiagonal();
  // [dq'; dλ] for the columns (dq, dp)
  Eigen::MatrixXd A = Eigen::MatrixXd::Zero(N + B, N + B);
  A.topLeftCorner(N, N) = Moverh;
  A.topRightCorner(N, B) = -G0.transpose();
  A.bottomLeftCorner(B, N) = G1;
  Eigen::MatrixXd rhs = Eigen::MatrixXd::Zero(N + B, 2 * N);
  rhs.topLeftCorner(N, N) = Moverh + Hl;
  rhs.topRightCorner(N, N) = Eigen::MatrixXd::Identity(N, N);
  const Eigen::MatrixXd x = A.fullPivLu().solve(rhs);
  const Eigen::MatrixXd dq1 = x.topRows(N), dl = x.bottomRows(B);
  Eigen::MatrixXd dpTilde = G0.transpose() * dl;
  dpTilde.leftCols(N) += Hl;
  dpTilde.rightCols(N) += Eigen::MatrixXd::Identity(N, N);
  const Eigen::MatrixXd GMinv = G1 * invM.asDiagonal();
  const Eigen::MatrixXd S = GMinv * G1.transpose();
  const Eigen::MatrixXd dmu = S.ldlt().solve(hiddenDerivative(m, b.p) * dq1 + GMinv * (dpTilde - Hm * dq1));
  jacobian.resize(2 * N, 2 * N);
  jacobian.topRows(N) = dq1;
  jacobian.bottomRows(N) = dpTilde - Hm * dq1 - G1.transpose() * dmu;
  if (!jacobian.allFinite()) {
    why = "the link constraints are degenerate here";
    return false;
  }
  return true;
}

}  // namespace vilab

// Integrator `energy-momentum` on a mechanism: the method and its properties are in
// vilab/integrators/mechanism_energy_momentum.hpp; this file builds the constraint rows in
// director coordinates, the residual with its analytic Jacobian, and the registry's
// factory (the entry is core/src/integrators/energy_momentum.cpp).
#include "vilab/integrators/mechanism_energy_momentum.hpp"

#include <algorithm>
#include <limits>
#include <string>

#include "vilab/models/model.hpp"
#include "vilab/types.hpp"

namespace vilab {

namespace {

using Row = MechanismEnergyMomentum::Row;

int centre(int body) { return 4 * body; }
int director(int body, int i) { return 4 * body + 1 + i; }

// v · (x + Σ c_i d_i) of one side of a joint as linear terms; the world's side is constant.
void addPoint(Row& row, int body, const Vec3& point, const Vec3& along, double sign) {
  if (body < 0) {
    row.constant += sign * along.dot(point);
    return;
  }
  row.linear.push_back({centre(body), sign * along});
  for (int i = 0; i < 3; ++i)
    if (point[i] != 0) row.linear.push_back({director(body, i), (sign * point[i]) * along});
}

// (Σ a_i dp_i)·(Σ b_j dc_j) (the world's dp_i = e_i: linear in the child's directors).
void addProduct(Row& row, int parent, const Vec3& a, int child, const Vec3& b, double scale) {
  for (int j = 0; j < 3; ++j) {
    if (b[j] == 0) continue;
    if (parent < 0) {
      row.linear.push_back({director(child, j), (scale * b[j]) * a});
      continue;
    }
    for (int i = 0; i < 3; ++i)
      if (a[i] != 0) row.bilinear.push_back({director(parent, i), director(child, j), scale * a[i] * b[j]});
  }
}

// The rows of the header, in the model's joint order after the bodies' internal ones
// (none for a massless director).
std::vector<Row> constraintRows(const MechanismModel& model, const std::vector<int>& massless) {
  std::vector<Row> rows;
  for (int b = 0; b < model.bodyCount(); ++b)
    for (int i = 0; i < 3; ++i)
      for (int j = i; j < 3; ++j) {
        if (i == massless[b] || j == massless[b]) continue;
        Row row;  // ½(d_i·d_i − 1) or d_i·d_j
        row.bilinear.push_back({director(b, i), director(b, j), i == j ? 0.5 : 1.0});
        row.constant = i == j ? -0.5 : 0.0;
        rows.push_back(row);
      }
  for (const MechanismJoint& j : model.joints) {
    for (int k = 0; k < 3; ++k) {
      Row row;
      const Vec3 e = Vec3::Unit(k);
      addPoint(row, j.parent, j.parentPoint, e, 1.0);
      addPoint(row, j.child, j.childPoint, e, -1.0);
      rows.push_back(row);
    }
    if (j.kind == JointKind::Hinge) {
      Vec3 b, d;
      MechanismModel::perpendiculars(j.childAxis, b, d);
      for (const Vec3& w : {b, d}) {
        Row row;
        addProduct(row, j.parent, j.parentAxis, j.child, w, 1.0);
        rows.push_back(row);
      }
    } else if (j.kind == JointKind::Fixed) {
      // ½(f_a·dc_b − f_b·dc_a), f_a = Σ_k Q₀,ka dp_k: the model's vee of the skew part.
      const int pairs[3][2] = {{2, 1}, {0, 2}, {1, 0}};
      for (const auto& pair : pairs) {
        Row row;
        const int a = pair[0], b = pair[1];
        addProduct(row, j.parent, j.relative.col(a), j.child, Vec3::Unit(b), 0.5);
        addProduct(row, j.parent, j.relative.col(b), j.child, Vec3::Unit(a), -0.5);
        rows.push_back(row);
      }
    }
  }
  return rows;
}

}  // namespace

MechanismEnergyMomentum::MechanismEnergyMomentum(const MechanismModel& model, double h) : model_(model), h_(h) {
  refuseUnlessConserving(model);
  const int B = model.bodyCount();
  n_ = 12 * B;
  Minv_ = Eigen::MatrixXd::Zero(n_, n_);
  gravity_ = Eigen::VectorXd::Zero(n_);
  massless_.assign(B, -1);
  for (int b = 0; b < B; ++b) {
    const MechanismBody& body = model.bodies[b];
    // Euler's tensor E = ½ tr(J) I − J: positive definite iff the principal moments
    // satisfy the strict triangle inequality (Betsch & Steinmann 2001, §2). A flat body
    // (J₁ = J₂ + J₃ on principal axes) has E₁ = 0: its director d₁ carries no kinetic
    // energy and is d₂ × d₃, so the step leaves it out (no rows, no velocity).
    Mat3 E = 0.5 * body.inertia.trace() * Mat3::Identity() - body.inertia;
    const bool principal = (body.inertia - Mat3(body.inertia.diagonal().asDiagonal())).cwiseAbs().maxCoeff() == 0;
    int flat = 0;
    for (int i = 1; i < 3; ++i)
      if (E(i, i) < E(flat, flat)) flat = i;
    if (principal && E(flat, flat) <= 1e-9 * body.inertia.trace()) {
      massless_[b] = flat;
      E(flat, flat) = 1;  // factorized as 1, its entry of E⁻¹ set to 0 below
    }
    const Eigen::LLT<Mat3> llt(E);
    if (llt.info() != Eigen::Success)
      throw InputError(InputErrorCode::NotApplicable, "integrator",
                       "energy-momentum needs Euler's tensor ½ tr(J) I − J positive definite, and body " +
                           std::to_string(b) +
                           "'s principal moments meet the triangle inequality with equality (a flat body): use "
                           "lie-group");
    Einv_.push_back(llt.solve(Mat3::Identity()));
    if (massless_[b] >= 0) Einv_[b](massless_[b], massless_[b]) = 0;
    Minv_.block<3, 3>(3 * centre(b), 3 * centre(b)) = Mat3::Identity() / body.mass;
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j)
        Minv_.block<3, 3>(3 * director(b, i), 3 * director(b, j)) = Einv_[b](i, j) * Mat3::Identity();
    gravity_.segment<3>(3 * centre(b)) = model.gravity;
  }
  rows_ = constraintRows(model, massless_);
  c_ = static_cast<int>(rows_.size());
  internalRows_ = 0;
  for (int b = 0; b < B; ++b) internalRows_ += massless_[b] >= 0 ? 3 : 6;
  for (int k = internalRows_; k < c_; ++k) {
    auto massless = [&](int block) { return block % 4 != 0 && massless_[block / 4] == block % 4 - 1; };
    bool uses = false;
    for (const Bilinear& t : rows_[k].bilinear) uses = uses || massless(t.a) || massless(t.b);
    for (const Linear& t : rows_[k].linear) uses = uses || massless(t.a);
    if (uses)
      throw InputError(InputErrorCode::NotApplicable, "integrator",
                       "energy-momentum gives a flat body's normal director no inertia (Euler's tensor is singular "
                       "there), and a joint's point or axis leans on that director: use lie-group");
  }
  lengthScale_ = model.lengthScale();
}

// ω from ḋ_i = R(ω × e_i): Σ e_i × (Rᵀḋ_i) = Σ (I − e_i e_iᵀ) ω over the directors that
// move (2ω with all three).
Vec3 MechanismEnergyMomentum::angularVelocity(int b, const Mat3& R, const Eigen::VectorXd& v) const {
  Vec3 sum = Vec3::Zero(), weight = Vec3::Zero();
  for (int i = 0; i < 3; ++i) {
    if (i == massless_[b]) continue;
    sum += Vec3::Unit(i).cross(R.transpose() * v.segment<3>(3 * director(b, i)));
    weight += Vec3::Ones() - Vec3::Unit(i);
  }
  return sum.cwiseQuotient(weight);
}

void MechanismEnergyMomentum::directors(const VecX& q, const VecX& p, Eigen::VectorXd& y, Eigen::VectorXd& v) const {
  const int B = model_.bodyCount();
  y.resize(n_);
  v.resize(n_);
  for (int b = 0; b < B; ++b) {
    const MechanismBody& body = model_.bodies[b];
    const Mat3 R = quat::matrix(Vec4(q.segment<4>(7 * b + 3)));
    const Vec3 omega = body.inertia.ldlt().solve(Vec3(p.segment<3>(6 * b + 3)));
    const Mat3 Rdot = R * hat(omega);  // ḋ_i = R(ω × e_i)
    y.segment<3>(3 * centre(b)) = q.segment<3>(7 * b);
    v.segment<3>(3 * centre(b)) = p.segment<3>(6 * b) / body.mass;
    for (int i = 0; i < 3; ++i) {
      y.segment<3>(3 * director(b, i)) = R.col(i);
      v.segment<3>(3 * director(b, i)) = i == massless_[b] ? Vec3::Zero() : Vec3(Rdot.col(i));
    }
  }
}

double MechanismEnergyMomentum::value(const Row& row, const Eigen::VectorXd& y) const {
  double g = row.constant;
  for (const Bilinear& t : row.bilinear) g += t.coef * y.segment<3>(3 * t.a).dot(y.segment<3>(3 * t.b));
  for (const Linear& t : row.linear) g += t.w.dot(y.segment<3>(3 * t.a));
  return g;
}

void MechanismEnergyMomentum::gradients(const Eigen::VectorXd& y, Eigen::MatrixXd& G) const {
  G.setZero(c_, n_);
  for (int k = 0; k < c_; ++k) {
    for (const Bilinear& t : rows_[k].bilinear) {
      G.block<1, 3>(k, 3 * t.a) += t.coef * y.segment<3>(3 * t.b).transpose();
      G.block<1, 3>(k, 3 * t.b) += t.coef * y.segment<3>(3 * t.a).transpose();
    }
    for (const Linear& t : rows_[k].linear) G.block<1, 3>(k, 3 * t.a) += t.w.transpose();
  }
}

// Hess(g_k) is y-independent: the bilinear terms alone, so Hess(g_k) v is ∇g_k at v
// without the linear terms.
void MechanismEnergyMomentum::hessianRows(const Eigen::VectorXd& v, Eigen::MatrixXd& P) const {
  P.setZero(c_, n_);
  for (int k = 0; k < c_; ++k)
    for (const Bilinear& t : rows_[k].bilinear) {
      P.block<1, 3>(k, 3 * t.a) += t.coef * v.segment<3>(3 * t.b).transpose();
      P.block<1, 3>(k, 3 * t.b) += t.coef * v.segment<3>(3 * t.a).transpose();
    }
}

void MechanismEnergyMomentum::hessianSum(const Eigen::VectorXd& weights, Eigen::MatrixXd& S) const {
  S.setZero(n_, n_);
  for (int k = 0; k < c_; ++k)
    for (const Bilinear& t : rows_[k].bilinear) {
      const double w = weights[k] * t.coef;
      S.block<3, 3>(3 * t.a, 3 * t.b).diagonal().array() += w;
      S.block<3, 3>(3 * t.b, 3 * t.a).diagonal().array() += w;
    }
}

// v ↦ v − M⁻¹Gᵀ(G M⁻¹ Gᵀ)⁻¹ G v: the velocities tangent to every constraint, changed
// within the span of M⁻¹Gᵀ only. False when G M⁻¹ Gᵀ is singular.
bool MechanismEnergyMomentum::projectVelocities(const Eigen::VectorXd& y, Eigen::VectorXd& v) const {
  Eigen::MatrixXd G;
  gradients(y, G);
  const Eigen::MatrixXd MinvGt = Minv_ * G.transpose();
  const Eigen::LDLT<Eigen::MatrixXd> ldlt(G * MinvGt);
  if (ldlt.info() != Eigen::Success || !(ldlt.vectorD().minCoeff() > 0)) return false;
  v -= MinvGt * ldlt.solve(G * v);
  return v.allFinite();
}

void MechanismEnergyMomentum::prepare(State& s) {
  kept_ = false;
  Eigen::VectorXd y, v;
  directors(s.q, s.p, y, v);
  if (!projectVelocities(y, v)) return;  // kept as given: the step then refuses
  for (int b = 0; b < model_.bodyCount(); ++b) {
    const MechanismBody& body = model_.bodies[b];
    const Mat3 R = quat::matrix(Vec4(s.q.segment<4>(7 * b + 3)));
    const Vec3 omega = angularVelocity(b, R, v);
    s.p.segment<3>(6 * b) = body.mass * v.segment<3>(3 * centre(b));
    s.p.segment<3>(6 * b + 3) = body.inertia * omega;
  }
}

StepOutcome MechanismEnergyMomentum::step(VecX& q, VecX& p) {
  const int B = model_.bodyCount();
  // The directors are rebuilt from the canonical state only when it is not the one the last
  // step produced (REBOUND's synchronize): the quaternion rounds them, and rounding the
  // same steady motion the same way step after step adds up, one-signed, in the energy.
  if (!(kept_ && q == keptQ_ && p == keptP_)) directors(q, p, y0_, v0_);
  // Scales of the unknowns: a speed U (the centres', the directors' at the mechanism's
  // length, or the free fall's over that length) and the acceleration A it implies.
  const double L = lengthScale_, g = dm::sqrt(model_.gravity.squaredNorm());
  double U = dm::sqrt(g * L), massScale = 0, eulerScale = 0;
  for (int b = 0; b < B; ++b) {
    U = std::max(U, v0_.segment<3>(3 * centre(b)).cwiseAbs().maxCoeff());
    U = std::max(U, L * v0_.segment<9>(3 * director(b, 0)).cwiseAbs().maxCoeff());
    massScale = std::max(massScale, model_.bodies[b].mass);
    eulerScale = std::max(eulerScale, model_.bodies[b].inertia.trace());
  }
  U = std::max(U, 1e-6 * L / h_);
  const double A = g + U * U / L;
  qScale_ = h_ * U;
  vScale_ = h_ * A;
  lambdaScale_ = std::max(massScale * A, eulerScale * A / L);
  muScale_ = h_ * lambdaScale_;
  // Start: free flight at the present velocities, no multipliers.
  Eigen::VectorXd z = Eigen::VectorXd::Zero(2 * n_ + 2 * c_);
  z.head(n_) = h_ * v0_ + (0.5 * h_ * h_) * gravity_;
  z.segment(n_, n_) = h_ * gravity_;
  NewtonSettings settings;
  settings.what = "the mechanism's energy–momentum equations";
  settings.globalize = true;
  const StepOutcome out = solveNewton(*this, z, settings, workspace_);
  if (!out.ok) return out;
  y1_ = y0_ + z.head(n_);
  v1_ = v0_ + z.segment(n_, n_);
  // Bring the node back to the canonical state: R = D, ω = ½ Σ e_i × (Dᵀ ḋ_i).
  VecX q1 = q, p1 = p;
  directorError_ = hiddenError_ = 0;
  for (int k = 0; k < c_; ++k) {
    const double gk = value(rows_[k], y1_);
    if (k < internalRows_) directorError_ = std::max(directorError_, std::abs(gk));
  }
  gradients(y1_, G1_);
  hiddenError_ = (G1_ * v1_).cwiseAbs().maxCoeff();
  for (int b = 0; b < B; ++b) {
    const MechanismBody& body = model_.bodies[b];
    Mat3 D;
    for (int i = 0; i < 3; ++i) D.col(i) = y1_.segment<3>(3 * director(b, i));
    if (const int i = massless_[b]; i >= 0) D.col(i) = D.col((i + 1) % 3).cross(D.col((i + 2) % 3));
    const Vec3 omega = angularVelocity(b, D, v1_);
    Vec4 quaternion = quat::fromMatrix(D);
    if (quaternion.dot(Vec4(q.segment<4>(7 * b + 3))) < 0) quaternion = -quaternion;
    q1.segment<3>(7 * b) = y1_.segment<3>(3 * centre(b));
    q1.segment<4>(7 * b + 3) = quaternion;
    p1.segment<3>(6 * b) = body.mass * v1_.segment<3>(3 * centre(b));
    p1.segment<3>(6 * b + 3) = body.inertia * omega;
  }
  if (!q1.allFinite() || !p1.allFinite())
    return StepOutcome::refuse(RefusalCode::NonFinite, "the new state is not finite", Suggestion::reduceH(),
                               out.iterations);
  q = std::move(q1);
  p = std::move(p1);
  y0_ = y1_;
  v0_ = v1_;
  keptQ_ = q;
  keptP_ = p;
  kept_ = true;
  return out;
}

NewtonEval MechanismEnergyMomentum::evaluate(const Vector& z, Vector& r, bool linearize) {
  const int n = n_, c = c_;
  const double h = h_;
  const auto dq = z.head(n), dv = z.segment(n, n), lambda = z.segment(2 * n, c), mu = z.tail(c);
  ym_ = y0_ + 0.5 * dq;
  vm_ = v0_ + 0.5 * dv;
  y1_ = y0_ + dq;
  v1_ = v0_ + dv;
  gradients(ym_, Gm_);
  hessianRows(vm_, Pm_);
  gradients(y1_, G1_);
  r.resize(2 * n + 2 * c);
  r.head(n) = dq - h * vm_ - h * (Minv_ * (Gm_.transpose() * mu));
  r.segment(n, n) = dv - h * gravity_ + h * (Minv_ * (Gm_.transpose() * lambda + Pm_.transpose() * mu));
  for (int k = 0; k < c; ++k) r[2 * n + k] = value(rows_[k], y1_);
  r.tail(c) = G1_ * v1_;
  if (!r.allFinite()) return NewtonEval::NonFinite;
  if (!linearize) return NewtonEval::Ok;
  const Eigen::MatrixXd MinvGt = Minv_ * Gm_.transpose();
  jacobian_.setZero(2 * n + 2 * c, 2 * n + 2 * c);
  hessianSum(mu, S_);
  const Eigen::MatrixXd MinvSmu = Minv_ * S_;
  hessianSum(lambda, S_);
  jacobian_.block(0, 0, n, n) = Eigen::MatrixXd::Identity(n, n) - (0.5 * h) * MinvSmu;
  jacobian_.block(0, n, n, n).diagonal().setConstant(-0.5 * h);
  jacobian_.block(0, 2 * n + c, n, c) = -h * MinvGt;
  jacobian_.block(n, 0, n, n) = (0.5 * h) * (Minv_ * S_);
  jacobian_.block(n, n, n, n) = Eigen::MatrixXd::Identity(n, n) + (0.5 * h) * MinvSmu;
  jacobian_.block(n, 2 * n, n, c) = h * MinvGt;
  jacobian_.block(n, 2 * n + c, n, c) = h * (Minv_ * Pm_.transpose());
  hessianRows(v1_, P1_);
  jacobian_.block(2 * n, 0, c, n) = G1_;
  jacobian_.block(2 * n + c, 0, c, n) = P1_;
  jacobian_.block(2 * n + c, n, c, n) = G1_;
  if (!jacobian_.allFinite()) return NewtonEval::NonFinite;
  return lu_.factorize(jacobian_) ? NewtonEval::Ok : NewtonEval::Singular;
}

double MechanismEnergyMomentum::size(const Vector& dz) const {
  const int n = n_, c = c_;
  double out = std::max(dz.head(n).cwiseAbs().maxCoeff() / qScale_, dz.segment(n, n).cwiseAbs().maxCoeff() / vScale_);
  if (c > 0) {
    out = std::max(out, dz.segment(2 * n, c).cwiseAbs().maxCoeff() / lambdaScale_);
    out = std::max(out, dz.tail(c).cwiseAbs().maxCoeff() / muScale_);
  }
  return out;
}

std::unique_ptr<Integrator> energyMomentumOnMechanism(const Model& model, const Options&, double h) {
  return std::make_unique<CanonicalIntegrator<MechanismEnergyMomentum>>(
      MechanismEnergyMomentum(std::get<MechanismModel>(model), h));
}

}  // namespace vilab

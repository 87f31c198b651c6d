// MechanismModel's functions (models/mechanism.hpp), compiled once: the header is included
// by nearly every translation unit, and these bodies' dynamic-size Eigen code cost each one
// seconds of template instantiation.
#include "vilab/models/mechanism.hpp"

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "vilab/models/mechanism_loads.hpp"

namespace vilab {

std::vector<Vec3> MechanismModel::positions() const {
  std::vector<Vec3> x;
  for (const MechanismBody& b : bodies) x.push_back(b.x);
  return x;
}

std::vector<Mat3> MechanismModel::orientations() const {
  std::vector<Mat3> R;
  for (const MechanismBody& b : bodies) R.push_back(b.R);
  return R;
}

void MechanismModel::perpendiculars(const Vec3& a, Vec3& b, Vec3& d) {
  const Vec3 seed = std::abs(a[0]) < 0.6 ? Vec3::UnitX() : Vec3::UnitY();
  b = a.cross(seed);
  b /= dm::sqrt(b.squaredNorm());
  d = a.cross(b);
}

void MechanismModel::constraints(const std::vector<Vec3>& x, const std::vector<Mat3>& R,
                                 Eigen::Ref<Eigen::VectorXd> g) const {
  int row = 0;
  for (const MechanismJoint& j : joints) {
    const Mat3& Rc = R[j.child];
    const Mat3 Rp = j.parent < 0 ? Mat3::Identity() : R[j.parent];
    const Vec3 xp = j.parent < 0 ? Vec3::Zero() : x[j.parent];
    if (j.kind == JointKind::Rod) {
      // (|d|² − L²)/(2L): the chains' form of a link (integrators/chain_multiplier.hpp).
      const Vec3 d = x[j.child] - xp - Rp * j.parentPoint;
      g[row++] = (d.squaredNorm() - j.length * j.length) / (2 * j.length);
      continue;
    }
    g.segment<3>(row) = xp + Rp * j.parentPoint - x[j.child] - Rc * j.childPoint;
    row += 3;
    if (j.kind == JointKind::Hinge) {
      Vec3 b, d;
      perpendiculars(j.childAxis, b, d);
      const Vec3 u = Rp * j.parentAxis;
      g[row++] = u.dot(Rc * b);
      g[row++] = u.dot(Rc * d);
    } else if (j.kind == JointKind::Fixed) {
      // vee of the skew part of relativeᵀ R_pᵀ R_c: zero where the relative rotation holds.
      const Mat3 E = j.relative.transpose() * Rp.transpose() * Rc;
      g[row++] = 0.5 * (E(2, 1) - E(1, 2));
      g[row++] = 0.5 * (E(0, 2) - E(2, 0));
      g[row++] = 0.5 * (E(1, 0) - E(0, 1));
    }
  }
}

Eigen::VectorXd MechanismModel::constraints() const {
  Eigen::VectorXd g(constraintCount());
  constraints(positions(), orientations(), g);
  return g;
}

void MechanismModel::constraintJacobian(const std::vector<Vec3>& x, const std::vector<Mat3>& R,
                                        Eigen::Ref<Eigen::MatrixXd> G) const {
  G.setZero();
  int row = 0;
  for (const MechanismJoint& j : joints) {
    const Mat3& Rc = R[j.child];
    const int cc = 6 * j.child, pc = 6 * j.parent;
    const Mat3 Rp = j.parent < 0 ? Mat3::Identity() : R[j.parent];
    if (j.kind == JointKind::Rod) {
      // ∂g/∂d = dᵀ/L; d moves with δx_c, −δx_p and R_p ĉ_p η_p (a point-mass child has no η).
      const Vec3 n = (x[j.child] - (j.parent < 0 ? Vec3::Zero() : x[j.parent]) - Rp * j.parentPoint) / j.length;
      G.block<1, 3>(row, cc) = n.transpose();
      if (j.parent >= 0) {
        G.block<1, 3>(row, pc) = -n.transpose();
        G.block<1, 3>(row, pc + 3) = n.transpose() * Rp * hat(j.parentPoint);
      }
      ++row;
      continue;
    }
    G.block<3, 3>(row, cc) = -Mat3::Identity();
    G.block<3, 3>(row, cc + 3) = Rc * hat(j.childPoint);
    if (j.parent >= 0) {
      G.block<3, 3>(row, pc) = Mat3::Identity();
      G.block<3, 3>(row, pc + 3) = -Rp * hat(j.parentPoint);
    }
    row += 3;
    if (j.kind == JointKind::Hinge) {
      Vec3 b, d;
      perpendiculars(j.childAxis, b, d);
      const Vec3 u = Rp * j.parentAxis;
      for (const Vec3& w : {b, d}) {
        // δ(u·R_c w) = η_p·(a_p × R_pᵀ R_c w) + η_c·(w × R_cᵀ u)
        G.block<1, 3>(row, cc + 3) = w.cross(Rc.transpose() * u).transpose();
        if (j.parent >= 0) G.block<1, 3>(row, pc + 3) = j.parentAxis.cross(Rp.transpose() * (Rc * w)).transpose();
        ++row;
      }
    } else if (j.kind == JointKind::Fixed) {
      // At closure the relative rotation varies by η_c − R_cᵀ R_p η_p (child frame).
      G.block<3, 3>(row, cc + 3) = Mat3::Identity();
      if (j.parent >= 0) G.block<3, 3>(row, pc + 3) = -Rc.transpose() * Rp;
      row += 3;
    }
  }
}

Eigen::MatrixXd MechanismModel::constraintJacobian() const {
  Eigen::MatrixXd G(constraintCount(), 6 * static_cast<int>(bodies.size()));
  constraintJacobian(positions(), orientations(), G);
  return G;
}

MechanismState MechanismModel::initialState() const {
  MechanismState s;
  for (const MechanismBody& b : bodies) {
    s.x.push_back(b.x);
    s.R.push_back(b.R);
    s.p.push_back(b.mass * b.velocity);
    s.Pi.push_back(b.inertia * b.angularVelocity);
  }
  return s;
}

double MechanismModel::energy(const MechanismState& s) const {
  double e = 0;
  for (std::size_t i = 0; i < bodies.size(); ++i) {
    const MechanismBody& b = bodies[i];
    e += 0.5 * s.p[i].squaredNorm() / b.mass + 0.5 * s.Pi[i].dot(b.inverseInertia() * s.Pi[i]) -
         b.mass * gravity.dot(s.x[i]);
  }
  if (loads && loads->hasPotential) e += loads->potential.evaluate(s.x, s.R, s.t, nullptr, nullptr);
  return e;
}

bool MechanismModel::appliedLoads(const std::vector<Vec3>& x, const std::vector<Mat3>& R, double t,
                                  std::vector<Vec3>& force, std::vector<Vec3>& torque) const {
  if (!loads) {
    force.clear();
    torque.clear();
    return false;
  }
  const std::size_t n = bodies.size();
  force.assign(n, Vec3::Zero());
  torque.assign(n, Vec3::Zero());
  if (loads->hasPotential) {
    std::vector<Vec3> dx(n, Vec3::Zero());
    std::vector<Mat3> dR(n, Mat3::Zero());
    loads->potential.evaluate(x, R, t, &dx, &dR);
    for (std::size_t i = 0; i < n; ++i) {
      force[i] = -dx[i];
      // τ = vee(A − Aᵀ), A = DᵀR (models/mechanism_loads.hpp)
      const Mat3 A = dR[i].transpose() * R[i];
      torque[i] = Vec3(A(2, 1) - A(1, 2), A(0, 2) - A(2, 0), A(1, 0) - A(0, 1));
    }
  }
  for (const MechanismLoadSet::Torque& tq : loads->torques) {
    const std::size_t i = static_cast<std::size_t>(tq.body);
    Vec3 applied;
    for (int k = 0; k < 3; ++k) applied[k] = tq.component[k].evaluate(x, R, t, nullptr, nullptr);
    torque[i] += tq.spaceFrame ? Vec3(R[i].transpose() * applied) : applied;
  }
  // A point mass has no orientation: V's dependence on its R (held at I) turns nothing.
  for (std::size_t i = 0; i < n; ++i)
    if (bodies[i].point) torque[i].setZero();
  return true;
}

double MechanismModel::potentialEnergy(const std::vector<Vec3>& x, const std::vector<Mat3>& R, double t) const {
  double e = 0;
  for (std::size_t i = 0; i < bodies.size(); ++i) e -= bodies[i].mass * gravity.dot(x[i]);
  if (loads && loads->hasPotential) e += loads->potential.evaluate(x, R, t, nullptr, nullptr);
  return e;
}

bool MechanismModel::usesTime() const { return loads && loads->usesTime(); }

bool MechanismModel::forced() const {
  const auto nonzero = [](double c) { return c != 0; };
  return damped() || (loads && (!loads->torques.empty() ||
                                std::any_of(loads->linearDamping.begin(), loads->linearDamping.end(), nonzero)));
}

Vec3 MechanismModel::angularMomentum(const MechanismState& s) const {
  Vec3 L = Vec3::Zero();
  for (std::size_t i = 0; i < bodies.size(); ++i) L += s.x[i].cross(s.p[i]) + s.R[i] * s.Pi[i];
  return L;
}

Vec3 MechanismModel::linearMomentum(const MechanismState& s) const {
  Vec3 P = Vec3::Zero();
  for (const Vec3& p : s.p) P += p;
  return P;
}

double MechanismModel::constraintError(const MechanismState& s) const {
  Eigen::VectorXd g(constraintCount());
  constraints(s.x, s.R, g);
  return g.size() ? g.cwiseAbs().maxCoeff() : 0.0;
}

double MechanismModel::velocityConstraintError(const MechanismState& s) const {
  if (constraintCount() == 0) return 0;
  Eigen::MatrixXd G(constraintCount(), 6 * static_cast<int>(bodies.size()));
  constraintJacobian(s.x, s.R, G);
  Eigen::VectorXd v(6 * bodies.size());
  for (std::size_t i = 0; i < bodies.size(); ++i) {
    v.segment<3>(6 * i) = s.p[i] / bodies[i].mass;
    v.segment<3>(6 * i + 3) = bodies[i].inverseInertia() * s.Pi[i];
  }
  return (G * v).cwiseAbs().maxCoeff();
}

MechanismState MechanismModel::toMechanism(const State& s) const {
  MechanismState m;
  for (int i = 0; i < bodyCount(); ++i) {
    m.x.push_back(s.q.segment<3>(7 * i));
    m.R.push_back(quat::matrix(Vec4(s.q.segment<4>(7 * i + 3))));
    m.p.push_back(s.p.segment<3>(6 * i));
    m.Pi.push_back(s.p.segment<3>(6 * i + 3));
  }
  return m;
}

void MechanismModel::store(const MechanismState& m, State& s) const {
  const bool continuous = s.q.size() == 7 * bodyCount();
  if (!continuous) s.q.resize(7 * bodyCount());
  s.p.resize(6 * bodyCount());
  for (int i = 0; i < bodyCount(); ++i) {
    Vec4 q = quat::fromMatrix(m.R[i]);
    if (continuous && q.dot(Vec4(s.q.segment<4>(7 * i + 3))) < 0) q = -q;
    s.q.segment<3>(7 * i) = m.x[i];
    s.q.segment<4>(7 * i + 3) = q;
    s.p.segment<3>(6 * i) = m.p[i];
    s.p.segment<3>(6 * i + 3) = m.Pi[i];
  }
}

State MechanismModel::initialCanonical() const {
  State s;
  store(initialState(), s);
  return s;
}

double MechanismModel::energy(const State& s) const { return energy(toMechanism(s)); }

double MechanismModel::energy(const State& s, double t) const {
  MechanismState m = toMechanism(s);
  m.t = t;
  return energy(m);
}

Diagnostics MechanismModel::diagnostics(const State& s, double t) const {
  Diagnostics d;
  diagnosticsInto(s, t, d);
  return d;
}

void MechanismModel::diagnosticsInto(const State& s, double t, Diagnostics& d) const {
  MechanismState m = toMechanism(s);
  m.t = t;
  d.energy = energy(m);
  const Vec3 L = angularMomentum(m);
  d.momentumSize = 3;
  for (int i = 0; i < 3; ++i) d.momentum[i] = L[i];
  double unit = 0;
  for (int i = 0; i < bodyCount(); ++i) unit = std::max(unit, quaternionNormError(Vec4(s.q.segment<4>(7 * i + 3))));
  d.constraint = std::max(constraintError(m), unit);
}

double MechanismModel::meanKineticEnergy(const State& a, const State& b, double h) const {
  double T = 0;
  for (int i = 0; i < bodyCount(); ++i) {
    const Vec3 v = (b.q.segment<3>(7 * i) - a.q.segment<3>(7 * i)) / h;
    T += 0.5 * bodies[i].mass * v.squaredNorm();
    Vec4 r = quat::mul(quat::conj(Vec4(a.q.segment<4>(7 * i + 3))), Vec4(b.q.segment<4>(7 * i + 3)));
    if (r[0] < 0) r = -r;
    const Vec3 axis = r.tail<3>();
    const double sine = dm::sqrt(axis.squaredNorm());
    if (!(sine > 0)) continue;
    const Vec3 omega = (2.0 * dm::atan2(sine, r[0]) / (sine * h)) * axis;
    T += 0.5 * omega.dot(bodies[i].inertia * omega);
  }
  return T;
}

std::string MechanismModel::implausibleStep(const State& a, const State& b, double, double, double h) const {
  const double Ta = kinetic(toMechanism(a)), Tb = kinetic(toMechanism(b));
  const double moved = meanKineticEnergy(a, b, h), allowed = 4.0 * std::max(Ta, Tb) + 1e-9 * energyScale();
  if (moved <= allowed) return "";
  return "the step moved the bodies farther than their kinetic energy allows (mean kinetic energy " +
         formatNumber(moved) + " J against " + formatNumber(std::max(Ta, Tb)) +
         " J at its ends): the implicit equations converged to a spurious solution, or h is too large to resolve "
         "the motion";
}

double MechanismModel::kinetic(const MechanismState& s) const {
  double T = 0;
  for (std::size_t i = 0; i < bodies.size(); ++i)
    T += 0.5 * s.p[i].squaredNorm() / bodies[i].mass + 0.5 * s.Pi[i].dot(bodies[i].inverseInertia() * s.Pi[i]);
  return T;
}

double MechanismModel::energyScale() const {
  const double g = dm::sqrt(gravity.squaredNorm()), L = lengthScale();
  double e = 0;
  for (const MechanismBody& b : bodies) e += b.inertia.diagonal().maxCoeff() + b.mass * g * L;
  return e;
}

namespace {

// A point mass's canonical orientation is the identity and its Π is 0 (models/mechanism.hpp).
void requirePointMassState(const State& s, int i, const std::string& qField, const std::string& pField) {
  const Vec4 q = s.q.segment<4>(7 * i + 3);
  if (!(std::abs(std::abs(q[0]) - 1) <= limits::kManifoldTolerance))
    throw InputError(InputErrorCode::OffManifold, qField + "[" + std::to_string(7 * i + 3) + "]",
                     "must be the identity [1, 0, 0, 0]: body " + std::to_string(i) +
                         " is a point mass (inertia 0), which has no orientation");
  if (!(Vec3(s.p.segment<3>(6 * i + 3)).cwiseAbs().maxCoeff() == 0))
    throw InputError(InputErrorCode::Invalid, pField + "[" + std::to_string(6 * i + 3) + "]",
                     "must be 0: body " + std::to_string(i) + " is a point mass (inertia 0), which has no Π");
}

}  // namespace

void MechanismModel::project(State& s, const StateRules& rules, const std::string& qField,
                             const std::string& pField) const {
  if (s.q.size() != 7 * bodyCount())
    throw InputError(InputErrorCode::Length, qField, "must hold 7 numbers per body (x and a quaternion)");
  if (s.p.size() != 6 * bodyCount())
    throw InputError(InputErrorCode::Length, pField, "must hold 6 numbers per body (p and Π)");
  for (int i = 0; i < bodyCount(); ++i) {
    Vec4 q = s.q.segment<4>(7 * i + 3);
    const double err = quaternionNormError(q);
    if (!(err <= limits::kManifoldTolerance))
      throw InputError(InputErrorCode::OffManifold, qField + "[" + std::to_string(7 * i + 3) + "]",
                       "must start a unit quaternion [w, x, y, z]: | |q| − 1 | = " + formatNumber(err) + " > 1e-9");
    s.q.segment<4>(7 * i + 3) = q / dm::sqrt(q.squaredNorm());
    if (bodies[static_cast<std::size_t>(i)].point) requirePointMassState(s, i, qField, pField);
  }
  if (!rules.positionsOnManifold) return;
  const MechanismState m = toMechanism(s);
  const double gap = constraintError(m);
  if (!(gap <= limits::kManifoldTolerance * lengthScale()))
    throw InputError(InputErrorCode::OffManifold, qField,
                     "does not keep the joints closed: the gap is " + formatNumber(gap));
  if (!rules.tangentMomentum) return;
  const double rate = velocityConstraintError(m);
  double speed = 1;
  for (int i = 0; i < bodyCount(); ++i)
    speed = std::max({speed, (m.p[i] / bodies[i].mass).cwiseAbs().maxCoeff(),
                      (bodies[i].inverseInertia() * m.Pi[i]).cwiseAbs().maxCoeff() * lengthScale()});
  if (!(rate <= limits::kManifoldTolerance * speed))
    throw InputError(InputErrorCode::OffManifold, pField,
                     "pulls the joints apart: the joints' rate is " + formatNumber(rate));
}

double MechanismModel::lengthScale() const {
  double s = 1;
  for (const MechanismJoint& j : joints)
    s = std::max({s, j.parentPoint.cwiseAbs().maxCoeff(), j.childPoint.cwiseAbs().maxCoeff()});
  for (const MechanismBody& b : bodies) s = std::max(s, b.x.cwiseAbs().maxCoeff());
  return s;
}

void MechanismModel::validate() {
  validateCounts();
  for (std::size_t i = 0; i < bodies.size(); ++i) validateBody(bodies[i], "bodies[" + std::to_string(i) + "]");
  for (std::size_t k = 0; k < joints.size(); ++k) validateJoint(joints[k], "joints[" + std::to_string(k) + "]");
  validateConnected();
  validateClosure();
  validateIndependent();
  validateVelocities();
  validateLoads();
}

void MechanismModel::validateLoads() const {
  for (std::size_t i = 0; i < bodies.size(); ++i)
    if (!(std::isfinite(bodies[i].damping) && bodies[i].damping >= 0))
      throw InputError(InputErrorCode::Range, "bodies[" + std::to_string(i) + "].damping",
                       "must be finite and not negative: " + formatNumber(bodies[i].damping));
  if (!loads) return;
  for (std::size_t i = 0; i < loads->linearDamping.size(); ++i)
    if (!(std::isfinite(loads->linearDamping[i]) && loads->linearDamping[i] >= 0))
      throw InputError(InputErrorCode::Range, "bodies[" + std::to_string(i) + "].linearDamping",
                       "must be finite and not negative: " + formatNumber(loads->linearDamping[i]));
  const std::vector<Vec3> x = positions();
  const std::vector<Mat3> R = orientations();
  if (loads->hasPotential) {
    std::vector<Vec3> dx(bodies.size(), Vec3::Zero());
    std::vector<Mat3> dR(bodies.size(), Mat3::Zero());
    const double V = loads->potential.evaluate(x, R, 0, &dx, &dR);
    bool finite = std::isfinite(V);
    for (std::size_t i = 0; i < bodies.size(); ++i) finite = finite && dx[i].allFinite() && dR[i].allFinite();
    if (!finite)
      throw InputError(
          InputErrorCode::Range, "potential",
          "is not finite (or its gradient is not) at the initial configuration, t = 0: V = " + formatNumber(V));
  }
  for (const MechanismLoadSet::Torque& tq : loads->torques)
    for (int k = 0; k < 3; ++k) {
      const double v = tq.component[k].evaluate(x, R, 0, nullptr, nullptr);
      if (!std::isfinite(v))
        throw InputError(InputErrorCode::Range,
                         "bodies[" + std::to_string(tq.body) + "].torque[" + std::to_string(k) + "]",
                         "is not finite at the initial configuration, t = 0: " + formatNumber(v));
    }
}

void MechanismModel::validateCounts() const {
  if (bodies.empty()) throw InputError(InputErrorCode::Length, "bodies", "needs at least one body");
  if (static_cast<int>(bodies.size()) > limits::kMaxMechanismBodies)
    throw InputError(
        InputErrorCode::TooLarge, "bodies",
        "has " + std::to_string(bodies.size()) + " bodies; at most " + std::to_string(limits::kMaxMechanismBodies));
  if (static_cast<int>(joints.size()) > limits::kMaxMechanismJoints)
    throw InputError(
        InputErrorCode::TooLarge, "joints",
        "has " + std::to_string(joints.size()) + " joints; at most " + std::to_string(limits::kMaxMechanismJoints));
  if (!gravity.allFinite()) throw InputError(InputErrorCode::Range, "gravity", "must be finite");
}

void MechanismModel::validateBody(const MechanismBody& b, const std::string& at) {
  if (!(std::isfinite(b.mass) && b.mass > 0))
    throw InputError(InputErrorCode::Range, at + ".mass", "must be a finite positive number: " + formatNumber(b.mass));
  if (b.point)
    validatePointMass(b, at);
  else
    validateInertia(b.inertia, at + ".inertia");
  if (!b.x.allFinite()) throw InputError(InputErrorCode::Range, at + ".position", "must be finite");
  if (!b.velocity.allFinite()) throw InputError(InputErrorCode::Range, at + ".velocity", "must be finite");
  if (!b.angularVelocity.allFinite())
    throw InputError(InputErrorCode::Range, at + ".angularVelocity", "must be finite");
  const double orthogonality = (b.R.transpose() * b.R - Mat3::Identity()).cwiseAbs().maxCoeff();
  if (!(orthogonality <= limits::kManifoldTolerance) || !(b.R.determinant() > 0))
    throw InputError(InputErrorCode::OffManifold, at + ".orientation",
                     "must be a rotation: |RᵀR − I| = " + formatNumber(orthogonality) +
                         ", det R = " + formatNumber(b.R.determinant()));
}

void MechanismModel::validateInertia(const Mat3& J, const std::string& field) {
  if (!J.allFinite()) throw InputError(InputErrorCode::Range, field, "must be finite");
  const double scale = J.cwiseAbs().maxCoeff();
  if (!((J - J.transpose()).cwiseAbs().maxCoeff() <= 1e-12 * scale))
    throw InputError(InputErrorCode::Invalid, field, "must be symmetric");
  const Eigen::SelfAdjointEigenSolver<Mat3> eig(J, Eigen::EigenvaluesOnly);
  const Vec3 moments = eig.eigenvalues();  // ascending
  if (!(moments[0] > 1e-12 * scale))
    throw InputError(InputErrorCode::Invalid, field,
                     "must be positive definite (a point mass takes the number 0): smallest principal moment " +
                         formatNumber(moments[0]));
  // A mass distribution has I₁ + I₂ ≥ I₃ for its principal moments (the second moment
  // ½ tr(J) I − J is positive semi-definite).
  if (moments[0] + moments[1] < moments[2] * (1 - 1e-12))
    throw InputError(InputErrorCode::Invalid, field,
                     "violates the triangle inequality of principal moments: " + formatNumber(moments[0]) + " + " +
                         formatNumber(moments[1]) + " < " + formatNumber(moments[2]));
}

void MechanismModel::validatePointMass(const MechanismBody& b, const std::string& at) {
  if (!(b.R == Mat3::Identity()))
    throw InputError(InputErrorCode::Invalid, at + ".orientation",
                     "a point mass (inertia 0) has no orientation: leave it out or give [1, 0, 0, 0]");
  if (!(b.angularVelocity.cwiseAbs().maxCoeff() == 0))
    throw InputError(InputErrorCode::Invalid, at + ".omega", "a point mass (inertia 0) cannot turn: omega must be 0");
  if (b.damping != 0)
    throw InputError(InputErrorCode::Invalid, at + ".damping",
                     "a point mass (inertia 0) cannot turn: an angular damping acts on nothing");
}

void MechanismModel::validateJoint(MechanismJoint& j, const std::string& at) const {
  const int n = static_cast<int>(bodies.size());
  if (!(j.child >= 0 && j.child < n))
    throw InputError(InputErrorCode::Range, at + ".child", "is not a body index: " + std::to_string(j.child));
  if (!(j.parent >= MechanismJoint::kWorld && j.parent < n))
    throw InputError(InputErrorCode::Range, at + ".parent",
                     "is not a body index or the world: " + std::to_string(j.parent));
  if (j.parent == j.child) throw InputError(InputErrorCode::Conflict, at + ".parent", "joins a body to itself");
  if (!j.parentPoint.allFinite()) throw InputError(InputErrorCode::Range, at + ".parentPoint", "must be finite");
  if (!j.childPoint.allFinite()) throw InputError(InputErrorCode::Range, at + ".childPoint", "must be finite");
  if (j.kind == JointKind::Hinge) {
    for (Vec3* a : {&j.parentAxis, &j.childAxis}) {
      const std::string field = at + (a == &j.parentAxis ? ".parentAxis" : ".childAxis");
      const double len = dm::sqrt(a->squaredNorm());
      if (!(std::isfinite(len) && len > 0))
        throw InputError(InputErrorCode::Invalid, field, "must be a nonzero finite vector");
      *a /= len;
    }
  }
  if (j.kind == JointKind::Fixed)
    j.relative = (j.parent < 0 ? Mat3::Identity() : bodies[j.parent].R).transpose() * bodies[j.child].R;
  validatePointMassJoint(j, at);
}

void MechanismModel::validatePointMassJoint(MechanismJoint& j, const std::string& at) const {
  const bool childPoint = bodies[j.child].point, parentPoint = j.parent >= 0 && bodies[j.parent].point;
  if (!childPoint && !parentPoint) return;
  if (j.kind != JointKind::Ball && j.kind != JointKind::Rod)
    throw InputError(InputErrorCode::NotApplicable, at + ".type",
                     "a point mass (inertia 0) cannot turn, so only a ball joint holds it (a pin, or a rod with an "
                     "offset childPoint)");
  // A point mass's joint point is its centre: an offset on a parent point mass would hold
  // the child at a fixed direction from it, which a body that cannot turn does not do.
  if (parentPoint && j.parentPoint.cwiseAbs().maxCoeff() != 0)
    throw InputError(InputErrorCode::Invalid, at + ".parentPoint",
                     "must be [0, 0, 0] on a point mass (its joint point is its centre; a rod's length is the "
                     "child's offset, childPoint)");
  if (!childPoint) return;
  const double L = dm::sqrt(j.childPoint.squaredNorm());
  if (L == 0) return;  // the pin: the ball's three rows
  if (!(L > 1e-9 * lengthScale()))
    throw InputError(InputErrorCode::Invalid, at + ".childPoint",
                     "a rod's length |childPoint| must be more than 1e-9 of the mechanism's size: " + formatNumber(L));
  j.kind = JointKind::Rod;
  j.length = L;
}

void MechanismModel::validateConnected() const {
  const int n = static_cast<int>(bodies.size());
  std::vector<int> component(n + 1);  // node n is the world
  for (int i = 0; i <= n; ++i) component[i] = i;
  auto root = [&](int i) {
    while (component[i] != i) i = component[i];
    return i;
  };
  for (const MechanismJoint& j : joints) component[root(j.parent < 0 ? n : j.parent)] = root(j.child);
  // A joint to the world joins the world to a body's piece, so the bodies' being one
  // piece is all there is to check.
  const int first = root(0);
  for (int i = 1; i < n; ++i)
    if (root(i) != first)
      throw InputError(InputErrorCode::Invalid, "bodies[" + std::to_string(i) + "]",
                       "is not connected to bodies[0] by joints (a mechanism is one connected piece)");
}

void MechanismModel::validateClosure() const {
  const Eigen::VectorXd g = constraints();
  const double tol = limits::kManifoldTolerance * lengthScale();
  int row = 0;
  for (std::size_t k = 0; k < joints.size(); ++k) {
    const int rows = constraintRows(joints[k].kind);
    const double gap = g.segment(row, rows).cwiseAbs().maxCoeff();
    if (!(gap <= tol))
      throw InputError(InputErrorCode::OffManifold, "joints[" + std::to_string(k) + "]",
                       "does not close at t = 0: the gap is " + formatNumber(gap));
    row += rows;
  }
}

void MechanismModel::validateVelocities() const {
  if (constraintCount() == 0) return;
  Eigen::MatrixXd G(constraintCount(), 6 * static_cast<int>(bodies.size()));
  constraintJacobian(positions(), orientations(), G);
  Eigen::VectorXd v(6 * bodies.size());
  double speed = 0;
  const double L = lengthScale();
  for (std::size_t i = 0; i < bodies.size(); ++i) {
    v.segment<3>(6 * i) = bodies[i].velocity;
    v.segment<3>(6 * i + 3) = bodies[i].angularVelocity;
    speed = std::max(
        {speed, bodies[i].velocity.cwiseAbs().maxCoeff(), bodies[i].angularVelocity.cwiseAbs().maxCoeff() * L});
  }
  const Eigen::VectorXd rate = G * v;
  int row = 0;
  for (std::size_t k = 0; k < joints.size(); ++k) {
    const int rows = constraintRows(joints[k].kind);
    const double gap = rate.segment(row, rows).cwiseAbs().maxCoeff();
    if (!(gap <= limits::kManifoldTolerance * std::max(speed, 1.0)))
      throw InputError(InputErrorCode::OffManifold, "joints[" + std::to_string(k) + "]",
                       "is pulled apart by the initial velocities: the joint's rate is " + formatNumber(gap));
    row += rows;
  }
}

void MechanismModel::validateIndependent() const {
  const Eigen::MatrixXd G = constraintJacobian();
  int row = 0;
  for (std::size_t k = 0; k < joints.size(); ++k) {
    row += constraintRows(joints[k].kind);
    Eigen::ColPivHouseholderQR<Eigen::MatrixXd> qr(G.topRows(row));
    qr.setThreshold(1e-10);
    if (qr.rank() < row)
      throw InputError(InputErrorCode::Invalid, "joints[" + std::to_string(k) + "]",
                       "over-constrains the mechanism: its constraints repeat others (" +
                           std::to_string(row - qr.rank()) + " dependent)");
  }
}
}  // namespace vilab

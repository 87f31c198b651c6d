// A mechanism defined by data: rigid bodies joined by ball, hinge and fixed joints
// under uniform gravity. Each body has a mass, an inertia about its centre of mass in
// its body frame, an orientation R ∈ SO(3) (body → space) and the position x of its
// centre of mass. Joints are holonomic constraints between two bodies or a body and
// the world (the world is body −1), imposed with multipliers (Marsden & West, Part 3):
//   ball   x_p + R_p c_p − x_c − R_c c_c = 0                            (3 rows)
//   hinge  the ball rows and (R_p a_p)·(R_c b_c) = (R_p a_p)·(R_c d_c) = 0,
//          b_c, d_c ⊥ a_c: the child's axis stays along the parent's       (5 rows)
//   fixed  the ball rows and R_pᵀ R_c = its value at t = 0                (6 rows)
//   rod    (|d|² − L²)/(2L) = 0,  d = x_c − x_p − R_p c_p,  L = |c_c|          (1 row)
// (for the world, R_p = I and x_p = 0). A point mass (inertia 0) has a position only: its
// R stays I and Π = 0, its rotation columns of the Jacobian are zero, and a ball joint
// whose point on the point-mass child is offset by L > 0 is the rod above (the point mass
// cannot turn, so only the distance is meaningful; validate() makes the ball a rod). Variations are x ↦ x + δx and R ↦
// R exp(η̂), so the constraint Jacobian has, per body, three translational and three rotational columns: δ(R c) = −R ĉ
// η.
//
// Beyond gravity, a mechanism may carry loads typed as text (models/mechanism_loads.hpp):
// a potential V(x, R, t), per body an applied torque τ(x, R, t), and per body a linear
// damping torque −c ω (body frame). appliedLoads() evaluates the configuration's loads:
// every integrator takes its forces from it.
//
// Everything here is a constant parameter except the configuration (x, R) per body;
// validate() refuses, naming the field, what cannot be simulated.
#pragma once

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "vilab/detmath.hpp"
#include "vilab/limits.hpp"
#include "vilab/models/rigid_body.hpp"
#include "vilab/types.hpp"

namespace vilab {

struct MechanismLoadSet;  // models/mechanism_loads.hpp

enum class JointKind { Ball, Hinge, Fixed, Rod };

inline int constraintRows(JointKind kind) {
  return kind == JointKind::Ball ? 3 : kind == JointKind::Hinge ? 5 : kind == JointKind::Rod ? 1 : 6;
}

struct MechanismBody {
  double mass = 1;
  Mat3 inertia = Mat3::Identity();      // about the centre of mass, body frame; symmetric positive definite
  Mat3 R = Mat3::Identity();            // orientation, body → space
  Vec3 x = Vec3::Zero();                // centre of mass, space frame
  Vec3 velocity = Vec3::Zero();         // of the centre of mass, space frame
  Vec3 angularVelocity = Vec3::Zero();  // ω, body frame
  double damping = 0;                   // N·m·s: the torque −c ω (body frame), c ≥ 0
  bool point = false;                   // a point mass: inertia 0, R = I and Π = 0 for ever

  // J⁻¹, or zero for a point mass (its Π is 0: no rotational velocity, no rotational energy).
  Mat3 inverseInertia() const { return point ? Mat3::Zero() : Mat3(inertia.inverse()); }
};

// The mutable state of a mechanism, one entry per body: the configuration (x, R) and the
// momenta p = m ẋ (space frame) and Π = J ω (body frame).
struct MechanismState {
  std::vector<Vec3> x;
  std::vector<Mat3> R;
  std::vector<Vec3> p;
  std::vector<Vec3> Pi;
  double t = 0;
};

struct MechanismJoint {
  static constexpr int kWorld = -1;
  JointKind kind = JointKind::Ball;
  int parent = kWorld;  // a body index, or kWorld
  int child = 0;
  Vec3 parentPoint = Vec3::Zero();   // in the parent's body frame (the world's frame for kWorld)
  Vec3 childPoint = Vec3::Zero();    // in the child's body frame
  Vec3 parentAxis = Vec3::UnitZ();   // hinge: the axis in the parent's frame
  Vec3 childAxis = Vec3::UnitZ();    // hinge: the same axis in the child's frame
  Mat3 relative = Mat3::Identity();  // fixed: R_pᵀ R_c, set from t = 0 by validate()
  double length = 0;                 // rod: L = |childPoint|, set by validate()
};

struct MechanismModel {
  std::vector<MechanismBody> bodies;
  std::vector<MechanismJoint> joints;
  Vec3 gravity = Vec3(0, 0, -9.81);               // m/s², space frame
  std::shared_ptr<const MechanismLoadSet> loads;  // V and applied torques; null: none

  // The configuration's loads beyond uniform gravity at (x, R, t), per body: the force
  // −∂V/∂x (space frame) and the torque from V plus the applied one (body frame), the
  // generalized forces of the variations x ↦ x + δx, R ↦ R exp(η̂). False (both left
  // zero-sized) when there are none, so that a gravity-only mechanism's arithmetic is
  // unchanged. Damping is velocity-dependent: dampingTorque.
  bool appliedLoads(const std::vector<Vec3>& x, const std::vector<Mat3>& R, double t, std::vector<Vec3>& force,
                    std::vector<Vec3>& torque) const;
  bool hasAppliedLoads() const { return loads != nullptr; }

  // The potential −Σ m g·x + V(x, R, t).
  double potentialEnergy(const std::vector<Vec3>& x, const std::vector<Mat3>& R, double t) const;

  // Body i's damping torque −c ω (body frame).
  Vec3 dampingTorque(int i, const Vec3& omega) const { return -bodies[static_cast<std::size_t>(i)].damping * omega; }
  bool damped() const {
    return std::any_of(bodies.begin(), bodies.end(), [](const MechanismBody& b) { return b.damping != 0; });
  }
  // Whether V or an applied torque depends on t.
  bool usesTime() const;

  int constraintCount() const {
    int m = 0;
    for (const MechanismJoint& j : joints) m += constraintRows(j.kind);
    return m;
  }

  // The configuration held by the bodies (the initial one).
  std::vector<Vec3> positions() const;
  std::vector<Mat3> orientations() const;

  // Two unit vectors b, d with a, b, d orthogonal (a unit).
  static void perpendiculars(const Vec3& a, Vec3& b, Vec3& d);

  // The constraint values g(x, R), joint after joint in the order of the header, at the
  // configuration (x, R) (one entry per body).
  void constraints(const std::vector<Vec3>& x, const std::vector<Mat3>& R, Eigen::Ref<Eigen::VectorXd> g) const;
  Eigen::VectorXd constraints() const;

  // The constraint Jacobian with respect to (δx_i, η_i) per body, 6 columns per body, at
  // (x, R) (x enters a rod's row only); G is constraintCount() × 6·bodies.
  void constraintJacobian(const std::vector<Vec3>& x, const std::vector<Mat3>& R, Eigen::Ref<Eigen::MatrixXd> G) const;
  Eigen::MatrixXd constraintJacobian() const;

  // The state the bodies hold at t = 0 (momenta from their velocities).
  MechanismState initialState() const;

  // Energy Σ ½|p|²/m + ½ΠᵀJ⁻¹Π − m g·x + V(x, R, t) at s.t.
  double energy(const MechanismState& s) const;

  // Angular momentum about the origin, space frame: Σ x × p + RΠ.
  Vec3 angularMomentum(const MechanismState& s) const;

  // Linear momentum Σ p.
  Vec3 linearMomentum(const MechanismState& s) const;

  // The largest constraint violation |g(x, R)|∞.
  double constraintError(const MechanismState& s) const;

  // The largest velocity-constraint violation |G v|∞, v = (p/m, J⁻¹Π) per body.
  double velocityConstraintError(const MechanismState& s) const;

  // ---- the canonical state (State): per body q = (x, quaternion of R), p = (p, Π) ----
  int bodyCount() const { return static_cast<int>(bodies.size()); }

  MechanismState toMechanism(const State& s) const;

  // The canonical state of m; each quaternion takes the sign that continues the one
  // `s` held (q and −q are the same rotation), so that plotted components do not jump.
  void store(const MechanismState& m, State& s) const;

  State initialCanonical() const;

  // Damping or an applied torque: forces outside the Lagrangian.
  bool forced() const;

  double energy(const State& s) const;
  double energy(const State& s, double t) const;

  // Energy, the angular momentum about the origin (momentum.x/y/z: its component along
  // g is conserved when the world holds the mechanism only on the vertical through the
  // origin), and the constraint: the largest joint gap or | |q| − 1 |.
  Diagnostics diagnostics(const State& s) const { return diagnostics(s, 0); }
  Diagnostics diagnostics(const State& s, double t) const;
  // The same into d, writing only the fields a mechanism sets (the step checks reuse one).
  void diagnosticsInto(const State& s, double t, Diagnostics& d) const;

  // What the renderer draws: per body x and the orientation quaternion.
  void visual(const State& s, std::vector<double>& out) const { out.assign(s.q.data(), s.q.data() + s.q.size()); }

  // Kinetic energy of the step's mean velocities (each body's centre's displacement over
  // h, its rotation q_a* ⊗ q_b taken the short way as ω̄ = θ n / h): for the physical
  // solution at most the energy up to O(h²); a spurious root moves much farther.
  double meanKineticEnergy(const State& a, const State& b, double h) const;

  // Whether a step Newton accepted is plausible ("" when it is; else why not). The
  // potential −m g·x has no floor, so the step is judged by its kinetic energy: the mean
  // velocities' ½ v̄ᵀM v̄ is, for the physical motion, the kinetic energy at its ends up to
  // O(h²); four times the larger of the two means a spurious root of the implicit
  // equations (a Cayley root turns a body by nearly π per step) or an h too large to
  // resolve the motion.
  std::string implausibleStep(const State& a, const State& b, double, double, double h) const;

  // Σ ½|p|²/m + ½ΠᵀJ⁻¹Π.
  double kinetic(const MechanismState& s) const;

  // A typical energy: each body turning at 1 rad/s about its largest axis, plus its
  // weight lifted by the mechanism's length. Sets absolute slack only.
  double energyScale() const;

  // Each quaternion must be unit within kManifoldTolerance (then normalized exactly), the
  // joints closed within kManifoldTolerance and, for tangent momenta, the velocities
  // keeping them closed.
  void project(State& s, const StateRules& rules, const std::string& qField, const std::string& pField) const;

  // A length that sets the closure tolerance: the largest joint offset, at least 1 m.
  double lengthScale() const;

  // Refuses, naming the field, what cannot be simulated; sets each fixed joint's
  // relative rotation from t = 0. Bodies' fields are "bodies[i].…", joints' "joints[j].…".
  void validate();

 private:
  void validateCounts() const;

  static void validateBody(const MechanismBody& b, const std::string& at);
  static void validateInertia(const Mat3& J, const std::string& field);
  // A point mass: no orientation, angular velocity or angular damping.
  static void validatePointMass(const MechanismBody& b, const std::string& at);

  void validateJoint(MechanismJoint& j, const std::string& at) const;

  // A joint on a point mass: a ball only; on a point-mass child with an offset point
  // (|childPoint| = L > 0) it becomes the rod of length L.
  void validatePointMassJoint(MechanismJoint& j, const std::string& at) const;

  // The bodies and, where a joint uses it, the world form one connected mechanism.
  void validateConnected() const;

  void validateClosure() const;

  // The initial velocities keep every joint closed (G v = 0), relative to the largest
  // point speed |ẋ| + |ω| L.
  void validateVelocities() const;

  // The constraints must be independent (full row rank of the Jacobian): the first joint
  // whose rows add no rank over the ones before it over-constrains the mechanism.
  void validateIndependent() const;

  // The loads are finite at t = 0 ("potential", "bodies[i].torque") and each damping
  // finite and not negative.
  void validateLoads() const;
};

}  // namespace vilab

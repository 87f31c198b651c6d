// Registry entries of the rigid-body systems (free body `rigid-body`, `heavy-top`)
// and their RK4 / explicit-Euler baselines.
//
// Scenario data: params.inertia = principal moments (I1, I2, I3) in the body frame
// (for the heavy top, about the fixed point); initial = {orientation: [w,x,y,z]
// (unit within 1e-9, body -> space), omega: [ω1,ω2,ω3] (body angular velocity)}.
// SystemInstance: q0 = the normalized orientation quaternion, v0 = ω.
#include "../integrators/common.hpp"
#include "vilab/detmath.hpp"
#include "vilab/systems/rigid_body.hpp"

namespace vilab {

// ---- baselines: Euler's equations + quaternion kinematics ------------------------------
// y = [q (4); Π (3)]:
//   q̇ = ½ q ⊗ (0, ω),   Π̇ = Π × ω + M(q),   ω = I⁻¹Π,   M = m g (R(q)ᵀe₃) × ρ,
// with the homogeneous R(q) of systems/rigid_body.hpp. Nothing renormalizes q, so |q|
// drifts (and with it R(q) stops being a rotation): that drift is the lesson.
namespace {

struct RigidBodyOde {
  RigidBodyModel model;
  bool operator()(const VecX& y, VecX& dy) const {
    const Vec4 q = y.head<4>();
    const Vec3 Pi = y.tail<3>();
    const Vec3 omega = Pi.cwiseQuotient(model.inertia);
    dy.resize(7);
    dy.head<4>() = 0.5 * quat::mul(q, quat::pure(omega));
    dy.tail<3>() = Pi.cross(omega) + gravityMoment(model, quat::verticalInBody(q));
    return dy.allFinite();
  }
};

// Stepper state: q = quaternion [w,x,y,z] (4), p = Π (3). Diagnostics use R(q) as it is
// (homogeneous, not normalized), constraint = | |q| − 1 |.
class RigidBodyOdeStepper final : public Stepper {
 public:
  RigidBodyOdeStepper(const RigidBodyModel& m, RungeKuttaMethod method, double h, const Vec4& q0, const Vec3& omega0)
      : rk_(RigidBodyOde{m}, method, h) {
    y_.resize(7);
    y_ << q0, m.inertia.cwiseProduct(omega0);
    sync();
  }
  StepOutcome step() override {
    const StepOutcome o = rk_.step(y_);
    if (o.ok) sync();
    return o;
  }
  const VecX& q() const override { return q_; }
  const VecX& p() const override { return p_; }
  void setState(const VecX& q, const VecX& p) override {
    requireSize(q, 4, "q");
    requireSize(p, 3, "p");
    Vec4 qn = q;
    const double err = quaternionNormError(qn);
    if (!(err <= kManifoldTolerance))
      throw InputError("q", "not a unit quaternion: | |q| − 1 | = " + formatNumber(err) + " > 1e-9");
    qn /= dm::sqrt(qn.squaredNorm());
    y_ << qn, p;
    sync();
  }
  Diagnostics diagnostics() const override {
    const Vec4 qv = q_;
    Diagnostics d = rigidBodyDiagnostics(rk_.ode().model, quat::matrix(qv), Vec3(p_));
    d.constraint = quaternionNormError(qv);
    return d;
  }
  void visualState(std::vector<double>& out) const override {
    const Vec4 qv = q_ / dm::sqrt(q_.squaredNorm());  // the renderer needs a rotation
    out.assign(qv.data(), qv.data() + 4);
  }

 private:
  void sync() {
    q_ = y_.head<4>();
    p_ = y_.tail<3>();
  }
  RungeKutta<RigidBodyOde> rk_;
  VecX y_, q_, p_;
};

}  // namespace

std::unique_ptr<Stepper> makeRigidBodyRungeKutta(const RigidBodyModel& m, const SystemInstance& sys, const Scenario& s,
                                                 RungeKuttaMethod method) {
  return std::make_unique<RigidBodyOdeStepper>(m, method, s.h, Vec4(sys.q0), Vec3(sys.v0));
}

// ---- the system entries ----------------------------------------------------------------
namespace {

ParamSpec inertiaSpec(Vec3 value, const char* about) {
  return ParamSpec::vector3("inertia", "principal moments of inertia", "kg·m²", about, value, 0, 1e6, true);
}

Vec3 readVec3(const Json& v) { return Vec3(v[0].get<double>(), v[1].get<double>(), v[2].get<double>()); }

// Principal moments of a real body satisfy I_i ≤ I_j + I_k (equality: a flat body).
Vec3 readInertia(const Json& params) {
  const Vec3 I = readVec3(params["inertia"]);
  for (int i = 0; i < 3; ++i) {
    const int j = (i + 1) % 3, k = (i + 2) % 3;
    if (I[i] > I[j] + I[k])
      throw InputError("params.inertia",
                       "violates the triangle inequality: I" + std::to_string(i + 1) + " = " + formatNumber(I[i]) +
                           " > I" + std::to_string(j + 1) + " + I" + std::to_string(k + 1) + " = " +
                           formatNumber(I[j] + I[k]) + " (principal moments of a real body satisfy I_i ≤ I_j + I_k)");
  }
  return I;
}

// initial = {orientation, omega}; missing keys take the defaults. The orientation must
// be unit within 1e-9 and is then normalized; `initial` keeps the numbers as given (so
// that a scenario and its normalized JSON instantiate to the same bits).
SystemInstance instantiateBody(const RigidBodyModel& m, Json& initial, const Json& defaults) {
  if (initial.empty()) initial = defaults;
  rejectUnknownKeys(initial, "initial", {"orientation", "omega"});
  if (!initial.contains("orientation")) initial["orientation"] = defaults["orientation"];
  if (!initial.contains("omega")) initial["omega"] = defaults["omega"];
  const auto qv = readNumbers(initial["orientation"], "initial.orientation", 4, 4);
  const auto wv = readNumbers(initial["omega"], "initial.omega", 3, 3);
  Vec4 q(qv[0], qv[1], qv[2], qv[3]);
  const Vec3 omega(wv[0], wv[1], wv[2]);
  const double err = quaternionNormError(q);
  if (!(err <= kManifoldTolerance))
    throw InputError("initial.orientation", "must be a unit quaternion [w, x, y, z]: | |q| − 1 | = " +
                                                formatNumber(err) + " > 1e-9");
  q /= dm::sqrt(q.squaredNorm());
  for (int i = 0; i < 3; ++i)
    if (std::abs(omega[i]) > 1e4)
      throw InputError("initial.omega[" + std::to_string(i) + "]", "must be at most 1e4 rad/s in magnitude");
  initial["orientation"] = qv;
  initial["omega"] = wv;
  SystemInstance inst;
  inst.model = m;
  inst.q0 = q;
  inst.v0 = omega;
  return inst;
}

std::vector<FieldDoc> bodyInitialFields() {
  return {{"orientation", "orientation", "",
           "unit quaternion [w, x, y, z] (body → space, |q| = 1 within 1e-9; normalized exactly)"},
          {"omega", "angular velocity", "rad/s", "body angular velocity [ω1, ω2, ω3] (Π = Iω)"}};
}

// One advance() call must stay well under 50 ms in wasm for the slowest integrator,
// `quaternion` through the generic AD engine: measured 15–23 µs/step natively and in
// wasm (node 20, emscripten 3.1.6, -O3), against 0.4 µs (native) / 1.5 µs (wasm) for
// `lie-group`. 1000 steps ≈ 25 ms, leaving 2× headroom for slower machines.
constexpr long kBodyAdvanceBudget = 1000;

}  // namespace

VILAB_COLD SystemEntry rigidBodyEntry() {
  SystemEntry e;
  e.id = "rigid-body";
  e.title = "Free rigid body";
  e.description =
      "A rigid body tumbling freely (no torque): Euler's equations Π̇ = Π × ω. Energy, |Π| and the spatial angular "
      "momentum RΠ are conserved; rotation about the intermediate axis is unstable (Dzhanibekov effect). Exact "
      "solution by Jacobi elliptic functions, period 4K(k)/λ.";
  e.params = {inertiaSpec(Vec3(1, 2, 3), "principal moments (I1, I2, I3) in the body frame; I_i ≤ I_j + I_k")};
  e.initialFields = bodyInitialFields();
  e.defaultIntegrator = "lie-group";
  e.defaultH = 0.01;
  e.maxH = 1;
  e.maxAdvance = [](const Json&) { return kBodyAdvanceBudget; };
  const Json defaults = {{"orientation", {1.0, 0.0, 0.0, 0.0}}, {"omega", {0.02, 2.0, 0.02}}};
  e.defaultInitial = [defaults](const Json&) { return defaults; };
  e.instantiate = [defaults](const Json& params, Json& initial) {
    RigidBodyModel m;
    m.inertia = readInertia(params);
    return instantiateBody(m, initial, defaults);
  };
  return e;
}

VILAB_COLD SystemEntry heavyTopEntry() {
  SystemEntry e;
  e.id = "heavy-top";
  e.title = "Heavy top";
  e.description =
      "A rigid body on a fixed point (the origin) under gravity along −z: Π̇ = Π × ω + m g (Rᵀe₃) × ρ, with ρ the "
      "centre of mass in the body frame. Potential V = m g (e₃·Rρ + |ρ|) ≥ 0. The energy and the vertical spatial "
      "angular momentum e₃·RΠ are conserved; for a symmetric top (I1 = I2, ρ on the symmetry axis) also Π₃.";
  e.params = {inertiaSpec(Vec3(1.25, 1.25, 0.5), "principal moments about the fixed point, body frame; I_i ≤ I_j + I_k"),
              ParamSpec::number("mass", "mass", "kg", "total mass m", 1.0, 0, 1e6, true),
              ParamSpec::vector3("com", "centre of mass", "m", "centre of mass ρ in the body frame (the fixed point is the origin)",
                      Vec3(0, 0, 0.5), -1e3, 1e3, false),
              ParamSpec::number("g", "gravity", "m/s²", "gravitational acceleration, along −z", 9.81, 0, 1000, false)};
  e.initialFields = bodyInitialFields();
  e.defaultIntegrator = "lie-group";
  e.defaultH = 0.01;
  e.maxH = 1;
  e.maxAdvance = [](const Json&) { return kBodyAdvanceBudget; };
  // Tilted by 0.5 rad about x, spinning at 15 rad/s about its axis, released with no
  // precession: the axis nutates in cusps while it precesses.
  const Json defaults = {{"orientation", {0.9689124217106447, 0.24740395925452294, 0.0, 0.0}},
                         {"omega", {0.0, 0.0, 15.0}}};
  e.defaultInitial = [defaults](const Json&) { return defaults; };
  e.instantiate = [defaults](const Json& params, Json& initial) {
    RigidBodyModel m;
    m.inertia = readInertia(params);
    m.heavy = true;
    m.mass = params["mass"].get<double>();
    m.com = readVec3(params["com"]);
    m.g = params["g"].get<double>();
    return instantiateBody(m, initial, defaults);
  };
  return e;
}

}  // namespace vilab

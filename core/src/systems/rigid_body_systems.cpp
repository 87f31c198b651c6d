// Registry entries of the rigid-body systems (free body `rigid-body`, `heavy-top`).
//
// Scenario data: params.inertia = principal moments (I1, I2, I3) in the body frame
// (for the heavy top, about the fixed point); initial = {orientation: [w,x,y,z]
// (unit within 1e-9, body -> space), omega: [ω1,ω2,ω3] (body angular velocity)}.
// Canonical state: q = the normalized orientation quaternion, p = Π = I ω.
// Forcing (both systems): params.torque = a constant external torque τ in the space
// frame, params.damping = c in the damping torque −c ω (body frame); both default 0.
#include "vilab/detmath.hpp"
#include "vilab/limits.hpp"
#include "vilab/registry.hpp"

namespace vilab {

// ---- the system entries ----------------------------------------------------------------
namespace {

// The forcing parameters shared by both systems.
std::vector<ParamSpec> forcingSpecs() {
  return {ParamSpec::vector3("torque", "N·m", Vec3::Zero(), -1e6, 1e6, false),
          ParamSpec::number("damping", "N·m·s", 0.0, 0, 1e6, false)};
}

void readForcing(const ParamValues& params, RigidBodyModel& m) {
  m.torque = params.vector3("torque");
  m.damping = params.number("damping");
}

ParamSpec inertiaSpec(Vec3 value) {
  return ParamSpec::vector3("inertia", "kg·m²", value, 0, 1e6, true).as(Quantity::PrincipalMoments);
}

// Principal moments of a real body satisfy I_i ≤ I_j + I_k (equality: a flat body).
Vec3 readInertia(const ParamValues& params) {
  const Vec3 I = params.vector3("inertia");
  for (int i = 0; i < 3; ++i) {
    const int j = (i + 1) % 3, k = (i + 2) % 3;
    if (I[i] > I[j] + I[k])
      throw InputError(InputErrorCode::Invalid, "params.inertia",
                       "violates the triangle inequality: I" + std::to_string(i + 1) + " = " + formatNumber(I[i]) +
                           " > I" + std::to_string(j + 1) + " + I" + std::to_string(k + 1) + " = " +
                           formatNumber(I[j] + I[k]) + " (principal moments of a real body satisfy I_i ≤ I_j + I_k)");
  }
  return I;
}

// initial = {orientation, omega}; missing keys take the defaults. The orientation must
// be unit within 1e-9 and is then normalized; `initial` keeps the numbers as given (so
// that a scenario and its normalized JSON instantiate to the same bits).
State bodyInitialState(const RigidBodyModel& m, Json& initial, const Json& defaults) {
  if (initial.empty()) initial = defaults;
  rejectUnknownKeys(initial, "initial", {"orientation", "omega"});
  if (!initial.contains("orientation")) initial["orientation"] = defaults["orientation"];
  if (!initial.contains("omega")) initial["omega"] = defaults["omega"];
  const auto qv = readNumbers(initial["orientation"], "initial.orientation", 4, 4);
  const auto wv = readNumbers(initial["omega"], "initial.omega", 3, 3);
  Vec4 q(qv[0], qv[1], qv[2], qv[3]);
  const Vec3 omega(wv[0], wv[1], wv[2]);
  const double err = quaternionNormError(q);
  if (!(err <= limits::kManifoldTolerance))
    throw InputError(InputErrorCode::OffManifold, "initial.orientation",
                     "must be a unit quaternion [w, x, y, z]: | |q| − 1 | = " + formatNumber(err) + " > 1e-9");
  q /= dm::sqrt(q.squaredNorm());
  for (int i = 0; i < 3; ++i)
    if (std::abs(omega[i]) > limits::kMaxRate)
      throw InputError(InputErrorCode::Range, "initial.omega[" + std::to_string(i) + "]",
                       "must be at most 1e4 rad/s in magnitude");
  initial["orientation"] = qv;
  initial["omega"] = wv;
  State s;
  s.q = q;
  s.p = m.inertia.cwiseProduct(omega);
  return s;
}

std::vector<FieldDoc> bodyInitialFields() { return {{"orientation", ""}, {"omega", "rad/s"}}; }

}  // namespace

VILAB_COLD SystemEntry rigidBodyEntry() {
  SystemEntry e;
  e.id = "rigid-body";
  e.params = {inertiaSpec(Vec3(1, 2, 3))};
  for (ParamSpec& p : forcingSpecs()) e.params.push_back(std::move(p));
  e.initialFields = bodyInitialFields();
  e.model = ModelKind::RigidBody;
  e.view = ViewKind::Rigid;
  // exact/free_rigid_body.hpp: the torque-free, undamped body.
  e.exact = ExactCapability{
      ExactSolution::RigidBody,
      {{"params.damping", ExactCondition::Test::Equals, 0}, {"params.torque", ExactCondition::Test::Equals, 0}}};
  e.defaultIntegrator = "lie-group";
  e.defaultH = 0.01;
  const Json defaults = {{"orientation", {1.0, 0.0, 0.0, 0.0}}, {"omega", {0.02, 2.0, 0.02}}};
  e.defaultInitial = [defaults](const ParamValues&) { return defaults; };
  e.build = [](const ParamValues& params) {
    RigidBodyModel m;
    m.inertia = readInertia(params);
    readForcing(params, m);
    return Model(m);
  };
  e.initialState = [defaults](const Model& model, Json& initial) {
    return bodyInitialState(std::get<RigidBodyModel>(model), initial, defaults);
  };
  return e;
}

VILAB_COLD SystemEntry heavyTopEntry() {
  SystemEntry e;
  e.id = "heavy-top";
  e.params = {inertiaSpec(Vec3(1.25, 1.25, 0.5)), ParamSpec::number("mass", "kg", 1.0, 0, 1e6, true).as(Quantity::Mass),
              ParamSpec::vector3("com", "m", Vec3(0, 0, 0.5), -1e3, 1e3, false).as(Quantity::CenterOfMass),
              ParamSpec::number("g", "m/s²", 9.81, 0, 1000, false).as(Quantity::Gravity)};
  for (ParamSpec& p : forcingSpecs()) e.params.push_back(std::move(p));
  e.initialFields = bodyInitialFields();
  e.model = ModelKind::RigidBody;
  e.view = ViewKind::Top;
  e.defaultIntegrator = "lie-group";
  e.defaultH = 0.01;
  // Tilted by 0.5 rad about x, spinning at 15 rad/s about its axis, released with no
  // precession: the axis nutates in cusps while it precesses.
  const Json defaults = {{"orientation", {0.9689124217106447, 0.24740395925452294, 0.0, 0.0}},
                         {"omega", {0.0, 0.0, 15.0}}};
  e.defaultInitial = [defaults](const ParamValues&) { return defaults; };
  e.build = [](const ParamValues& params) {
    RigidBodyModel m;
    m.inertia = readInertia(params);
    m.heavy = true;
    m.mass = params.number("mass");
    m.com = params.vector3("com");
    m.g = params.number("g");
    readForcing(params, m);
    return Model(m);
  };
  e.initialState = [defaults](const Model& model, Json& initial) {
    return bodyInitialState(std::get<RigidBodyModel>(model), initial, defaults);
  };
  return e;
}

}  // namespace vilab

// Registry entry of `mechanism`: rigid bodies joined by ball, hinge and fixed joints,
// given as data (models/mechanism.hpp).
//
// Scenario data: params = {gravity: [gx, gy, gz], potential: "V", bodies: [...],
// joints: [...]}, each body
//   {name, mass, inertia: [I1, I2, I3] (principal, body frame), a symmetric 3×3 about the
//    centre of mass, or 0 (a point mass), position, orientation: [w, x, y, z], velocity,
//    omega (body frame), shape: {type: box | capsule | cylinder | sphere | tee, size: [...]},
//    torque: ["τx", "τy", "τz"], torqueFrame: body | space, damping: c ≥ 0 (−c ω),
//    linearDamping: c ≥ 0 (−c ẋ)},
// V and τ expressions in the bodies' x<i>, y<i>, z<i>, R<i>_jk and t
// (models/mechanism_loads.hpp).
// each joint
//   {type: ball | hinge | fixed, parent: "world" | a body's name or index, child,
//    parentPoint, childPoint (each in its body's frame), parentAxis, childAxis (hinge)}.
// The bodies' poses and velocities are the initial state (initial = {}).
// Canonical state: per body q = (x, quaternion of R), p = (m ẋ, Π = J ω).
#include "vilab/detmath.hpp"
#include "vilab/integrators/mechanism_energy_momentum.hpp"
#include "vilab/json.hpp"
#include "vilab/limits.hpp"
#include "vilab/models/mechanism_loads.hpp"
#include "vilab/registry.hpp"

namespace vilab {

namespace {

// The compound double pendulum: two rods (1 kg, 1 m) on ball joints, the upper tilted by
// 2 atan(0.28/0.96) about x (an exact unit quaternion), the lower hanging straight and
// swinging out of the plane at 2 rad/s.
const char* const kDefaultDefinition = R"json({
  "gravity": [0, 0, -9.81],
  "bodies": [
    { "name": "upper", "mass": 1, "inertia": [0.0833, 0.0833, 0.00125], "position": [0, 0.2688, -0.4216],
      "orientation": [0.96, 0.28, 0, 0], "shape": { "type": "capsule", "size": [0.05, 1] } },
    { "name": "lower", "mass": 1, "inertia": [0.0833, 0.0833, 0.00125], "position": [0, 0.5376, -1.3432],
      "orientation": [1, 0, 0, 0], "omega": [0, 2, 0], "velocity": [-1, 0, 0],
      "shape": { "type": "capsule", "size": [0.05, 1] } }
  ],
  "joints": [
    { "type": "ball", "parent": "world", "child": "upper", "childPoint": [0, 0, 0.5] },
    { "type": "ball", "parent": "upper", "child": "lower", "parentPoint": [0, 0, -0.5], "childPoint": [0, 0, 0.5] }
  ]
})json";

// The JSON Schema of params (draft-07), the structure parseMechanism reads.
const char* const kParamsSchema =
    R"json({"type": "object", "additionalProperties": false, "required": ["bodies"], "properties": {"gravity": {"type": "array", "items": {"type": "number"}, "minItems": 3, "maxItems": 3}, "potential": {"type": "string"}, "bodies": {"type": "array", "minItems": 1, "maxItems": 32, "items": {"type": "object", "additionalProperties": false, "required": ["mass", "inertia"], "properties": {"name": {"type": "string"}, "mass": {"type": "number", "exclusiveMinimum": 0, "maximum": 1000000000.0}, "inertia": {"anyOf": [{"const": 0}, {"type": "array", "items": {"type": "number"}, "minItems": 3, "maxItems": 3}, {"type": "array", "items": {"type": "array", "items": {"type": "number"}, "minItems": 3, "maxItems": 3}, "minItems": 3, "maxItems": 3}]}, "position": {"type": "array", "items": {"type": "number"}, "minItems": 3, "maxItems": 3}, "orientation": {"type": "array", "items": {"type": "number"}, "minItems": 4, "maxItems": 4}, "velocity": {"type": "array", "items": {"type": "number"}, "minItems": 3, "maxItems": 3}, "omega": {"type": "array", "items": {"type": "number"}, "minItems": 3, "maxItems": 3}, "shape": {"type": "object", "additionalProperties": false, "required": ["type"], "properties": {"type": {"enum": ["box", "capsule", "cylinder", "sphere", "tee"]}, "size": {"type": "array", "items": {"type": "number", "exclusiveMinimum": 0, "maximum": 1000}, "minItems": 1, "maxItems": 3}}}, "torque": {"type": "array", "items": {"type": "string"}, "minItems": 3, "maxItems": 3}, "torqueFrame": {"enum": ["body", "space"]}, "damping": {"type": "number", "minimum": 0}, "linearDamping": {"type": "number", "minimum": 0}}}}, "joints": {"type": "array", "maxItems": 64, "items": {"type": "object", "additionalProperties": false, "required": ["type", "child"], "properties": {"type": {"enum": ["ball", "hinge", "fixed"]}, "parent": {"anyOf": [{"type": "string"}, {"type": "integer", "minimum": 0}]}, "child": {"anyOf": [{"type": "string"}, {"type": "integer", "minimum": 0}]}, "parentPoint": {"type": "array", "items": {"type": "number"}, "minItems": 3, "maxItems": 3}, "childPoint": {"type": "array", "items": {"type": "number"}, "minItems": 3, "maxItems": 3}, "parentAxis": {"type": "array", "items": {"type": "number"}, "minItems": 3, "maxItems": 3}, "childAxis": {"type": "array", "items": {"type": "number"}, "minItems": 3, "maxItems": 3}}}}}})json";

Json parseBuiltIn(const std::string& text, const char* field) {
  return parseJsonText(text, field, limits::kMaxScenarioDepth);
}

Vec3 readVector(const Json& obj, const char* key, const std::string& at, const Vec3& fallback) {
  if (!obj.contains(key)) return fallback;
  const std::vector<double> v = readNumbers(obj[key], joinField(at, key), 3, 3);
  return Vec3(v[0], v[1], v[2]);
}

// Principal moments [I1, I2, I3] or a 3×3 symmetric tensor.
Mat3 readInertia(const Json& v, const std::string& field) {
  if (v.is_array() && !v.empty() && v[0].is_array()) {
    const auto rows = readRows(v, field, 3, 3);
    Mat3 J;
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) J(i, j) = rows[static_cast<std::size_t>(i)][static_cast<std::size_t>(j)];
    return J;
  }
  const std::vector<double> d = readNumbers(v, field, 3, 3);
  return Vec3(d[0], d[1], d[2]).asDiagonal();
}

// A body's index from its name or index; "world" (parents only) is −1.
int readBodyRef(const Json& v, const std::string& field, const std::vector<std::string>& names, bool worldAllowed) {
  if (v.is_string()) {
    const std::string name = v.get<std::string>();
    if (worldAllowed && name == "world") return MechanismJoint::kWorld;
    for (std::size_t i = 0; i < names.size(); ++i)
      if (names[i] == name) return static_cast<int>(i);
    throw InputError(InputErrorCode::Invalid, field, "names no body: \"" + cutForMessage(name) + "\"");
  }
  const double x = readNumber(v, field);
  if (!(x == std::floor(x) && x >= 0 && x < static_cast<double>(names.size())))
    throw InputError(InputErrorCode::Range, field, "is not a body's index or name: " + formatNumber(x));
  return static_cast<int>(x);
}

MechanismBody readBody(const Json& b, const std::string& at, std::string& name, std::size_t index) {
  requireObject(b, at);
  rejectUnknownKeys(b, at,
                    {"name", "mass", "inertia", "position", "orientation", "velocity", "omega", "shape", "torque",
                     "torqueFrame", "damping", "linearDamping"});
  MechanismBody body;
  name =
      b.contains("name") ? (b["name"].is_string() ? b["name"].get<std::string>() : "") : "body" + std::to_string(index);
  if (b.contains("name") && !b["name"].is_string())
    throw InputError(InputErrorCode::Type, joinField(at, "name"), "must be a string, got " + describeJson(b["name"]));
  if (name == "world") throw InputError(InputErrorCode::Invalid, joinField(at, "name"), "\"world\" names the world");
  if (!b.contains("mass")) throw InputError(InputErrorCode::Missing, joinField(at, "mass"), "is required");
  body.mass = readNumber(b["mass"], joinField(at, "mass"));
  if (!b.contains("inertia")) throw InputError(InputErrorCode::Missing, joinField(at, "inertia"), "is required");
  // The number 0 makes a point mass (models/mechanism.hpp): a position only.
  body.point = b["inertia"].is_number() && b["inertia"].get<double>() == 0;
  body.inertia = body.point ? Mat3::Zero() : readInertia(b["inertia"], joinField(at, "inertia"));
  if (body.point && b.contains("torque"))
    throw InputError(InputErrorCode::Invalid, joinField(at, "torque"),
                     "a point mass (inertia 0) cannot turn: a torque acts on nothing");
  body.x = readVector(b, "position", at, Vec3::Zero());
  if (b.contains("orientation")) {
    const std::vector<double> q = readNumbers(b["orientation"], joinField(at, "orientation"), 4, 4);
    const Vec4 quaternion(q[0], q[1], q[2], q[3]);
    const double err = quaternionNormError(quaternion);
    if (!(err <= 1e-3))
      throw InputError(InputErrorCode::OffManifold, joinField(at, "orientation"),
                       "must be a unit quaternion [w, x, y, z]: | |q| − 1 | = " + formatNumber(err));
    body.R = quat::matrix(Vec4(quaternion / dm::sqrt(quaternion.squaredNorm())));
  }
  body.velocity = readVector(b, "velocity", at, Vec3::Zero());
  body.angularVelocity = readVector(b, "omega", at, Vec3::Zero());
  if (b.contains("damping")) body.damping = readNumber(b["damping"], joinField(at, "damping"));
  // The magnitudes every system's initial data keeps to.
  if (!(body.x.cwiseAbs().maxCoeff() <= limits::kMaxCoordinate))
    throw InputError(InputErrorCode::Range, joinField(at, "position"), "must be at most 1e6 m in magnitude");
  if (!(body.velocity.cwiseAbs().maxCoeff() <= limits::kMaxSpeed))
    throw InputError(InputErrorCode::Range, joinField(at, "velocity"), "must be at most 1e4 m/s in magnitude");
  if (!(body.angularVelocity.cwiseAbs().maxCoeff() <= limits::kMaxRate))
    throw InputError(InputErrorCode::Range, joinField(at, "omega"), "must be at most 1e4 rad/s in magnitude");
  if (!(body.mass <= 1e9)) throw InputError(InputErrorCode::Range, joinField(at, "mass"), "must be at most 1e9 kg");
  if (b.contains("shape")) {
    const Json& s = b["shape"];
    const std::string field = joinField(at, "shape");
    requireObject(s, field);
    rejectUnknownKeys(s, field, {"type", "size"});
    // The sizes each shape takes (m): a box's sides; a capsule's or cylinder's radius and
    // length (along z); a sphere's radius; a tee's crossbar (along y) and shaft (along z)
    // lengths, and optionally its thickness.
    struct ShapeSizes {
      const char* type;
      int least, most;
    };
    static const ShapeSizes kShapes[] = {
        {"box", 3, 3}, {"capsule", 2, 2}, {"cylinder", 2, 2}, {"sphere", 1, 1}, {"tee", 2, 3}};
    const char* const kShapeNames = "box, capsule, cylinder, sphere or tee";
    if (!s.contains("type") || !s["type"].is_string())
      throw InputError(InputErrorCode::Missing, joinField(field, "type"), std::string("must be ") + kShapeNames);
    const std::string type = s["type"].get<std::string>();
    const ShapeSizes* shape = nullptr;
    for (const ShapeSizes& k : kShapes)
      if (type == k.type) shape = &k;
    if (!shape)
      throw InputError(InputErrorCode::Invalid, joinField(field, "type"),
                       std::string("must be ") + kShapeNames + ", got \"" + cutForMessage(type) + "\"");
    if (s.contains("size")) {
      for (double x : readNumbers(s["size"], joinField(field, "size"), shape->least, shape->most))
        if (!(x > 0 && x <= 1e3))
          throw InputError(InputErrorCode::Range, joinField(field, "size"),
                           "must be in (0, 1000] m: " + formatNumber(x));
    }
  }
  return body;
}

MechanismJoint readJoint(const Json& j, const std::string& at, const std::vector<std::string>& names,
                         const std::vector<MechanismBody>& bodies) {
  requireObject(j, at);
  rejectUnknownKeys(j, at, {"type", "parent", "child", "parentPoint", "childPoint", "parentAxis", "childAxis"});
  MechanismJoint joint;
  const std::string type = j.contains("type") && j["type"].is_string() ? j["type"].get<std::string>() : "";
  if (type == "ball")
    joint.kind = JointKind::Ball;
  else if (type == "hinge")
    joint.kind = JointKind::Hinge;
  else if (type == "fixed")
    joint.kind = JointKind::Fixed;
  else
    throw InputError(InputErrorCode::Invalid, joinField(at, "type"),
                     "must be ball, hinge or fixed, got " + (j.contains("type") ? describeJson(j["type"]) : "nothing"));
  if (!j.contains("child")) throw InputError(InputErrorCode::Missing, joinField(at, "child"), "is required");
  joint.parent =
      j.contains("parent") ? readBodyRef(j["parent"], joinField(at, "parent"), names, true) : MechanismJoint::kWorld;
  joint.child = readBodyRef(j["child"], joinField(at, "child"), names, false);
  joint.parentPoint = readVector(j, "parentPoint", at, Vec3::Zero());
  joint.childPoint = readVector(j, "childPoint", at, Vec3::Zero());
  if (joint.kind == JointKind::Hinge) {
    joint.parentAxis = readVector(j, "parentAxis", at, Vec3::UnitZ());
    // The child's axis defaults to the parent's, seen from the child at t = 0.
    const Mat3 Rp = joint.parent < 0 ? Mat3::Identity() : bodies[static_cast<std::size_t>(joint.parent)].R;
    const Mat3& Rc = bodies[static_cast<std::size_t>(joint.child)].R;
    joint.childAxis = readVector(j, "childAxis", at, Rc.transpose() * Rp * joint.parentAxis);
  } else {
    for (const char* key : {"parentAxis", "childAxis"})
      if (j.contains(key))
        throw InputError(InputErrorCode::Invalid, joinField(at, key),
                         "belongs to a hinge only (this is a " + type + ")");
  }
  return joint;
}

// The potential and the bodies' applied torques, or null when there are none.
std::shared_ptr<const MechanismLoadSet> readLoads(const Json& params, int bodyCount) {
  auto loads = std::make_shared<MechanismLoadSet>();
  if (params.contains("potential")) {
    if (!params["potential"].is_string())
      throw InputError(InputErrorCode::Type, "params.potential",
                       "must be an expression (a string), got " + describeJson(params["potential"]));
    loads->potential = MechanismExpression(params["potential"].get<std::string>(), "params.potential", bodyCount, true);
    loads->hasPotential = true;
  }
  const Json& bodies = params["bodies"];
  for (int i = 0; i < bodyCount; ++i) {
    const Json& b = bodies[static_cast<std::size_t>(i)];
    const std::string at = "params.bodies[" + std::to_string(i) + "]";
    if (b.contains("linearDamping")) {
      loads->linearDamping.resize(static_cast<std::size_t>(bodyCount), 0.0);
      loads->linearDamping[static_cast<std::size_t>(i)] =
          readNumber(b["linearDamping"], joinField(at, "linearDamping"));
    }
    if (b.contains("torqueFrame") && !b.contains("torque"))
      throw InputError(InputErrorCode::Invalid, joinField(at, "torqueFrame"), "belongs to a torque (none given)");
    if (!b.contains("torque")) continue;
    const Json& tq = b["torque"];
    const std::string field = joinField(at, "torque");
    if (!tq.is_array() || tq.size() != 3)
      throw InputError(InputErrorCode::Length, field, "must be three expressions [τx, τy, τz]");
    MechanismLoadSet::Torque torque;
    torque.body = i;
    for (std::size_t k = 0; k < 3; ++k) {
      const std::string component = field + "[" + std::to_string(k) + "]";
      if (!tq[k].is_string())
        throw InputError(InputErrorCode::Type, component,
                         "must be an expression (a string), got " + describeJson(tq[k]));
      torque.component[k] = MechanismExpression(tq[k].get<std::string>(), component, bodyCount, false);
    }
    if (b.contains("torqueFrame")) {
      const Json& frame = b["torqueFrame"];
      const std::string which = frame.is_string() ? frame.get<std::string>() : "";
      if (which != "body" && which != "space")
        throw InputError(InputErrorCode::Invalid, joinField(at, "torqueFrame"),
                         "must be body or space, got " + describeJson(frame));
      torque.spaceFrame = which == "space";
    }
    loads->torques.push_back(std::move(torque));
  }
  if (!loads->hasPotential && loads->torques.empty() && loads->linearDamping.empty()) return nullptr;
  return loads;
}

// The model from `params`, validated; each field named from "params.".
MechanismModel parseMechanism(const Json& params) {
#ifdef VILAB_LEAN
  (void)params;
  throw NotInLeanBuild("params", "a mechanism given as data");
#endif
  requireObject(params, "params");
  rejectUnknownKeys(params, "params", {"gravity", "potential", "bodies", "joints"});
  MechanismModel m;
  m.gravity = readVector(params, "gravity", "params", Vec3(0, 0, -9.81));
  if (!params.contains("bodies") || !params["bodies"].is_array())
    throw InputError(InputErrorCode::Missing, "params.bodies", "must be an array of bodies");
  const Json& bodies = params["bodies"];
  if (bodies.empty()) throw InputError(InputErrorCode::Length, "params.bodies", "needs at least one body");
  if (bodies.size() > static_cast<std::size_t>(limits::kMaxMechanismBodies))
    throw InputError(
        InputErrorCode::TooLarge, "params.bodies",
        "has " + std::to_string(bodies.size()) + " bodies; at most " + std::to_string(limits::kMaxMechanismBodies));
  std::vector<std::string> names;
  for (std::size_t i = 0; i < bodies.size(); ++i) {
    std::string name;
    m.bodies.push_back(readBody(bodies[i], "params.bodies[" + std::to_string(i) + "]", name, i));
    for (const std::string& other : names)
      if (other == name)
        throw InputError(InputErrorCode::Conflict, "params.bodies[" + std::to_string(i) + "].name",
                         "repeats \"" + cutForMessage(name) + "\"");
    names.push_back(name);
  }
  const Json joints = params.contains("joints") ? params["joints"] : Json::array();
  if (!joints.is_array()) throw InputError(InputErrorCode::Type, "params.joints", "must be an array of joints");
  if (joints.size() > static_cast<std::size_t>(limits::kMaxMechanismJoints))
    throw InputError(
        InputErrorCode::TooLarge, "params.joints",
        "has " + std::to_string(joints.size()) + " joints; at most " + std::to_string(limits::kMaxMechanismJoints));
  for (std::size_t k = 0; k < joints.size(); ++k)
    m.joints.push_back(readJoint(joints[k], "params.joints[" + std::to_string(k) + "]", names, m.bodies));
  m.loads = readLoads(params, static_cast<int>(m.bodies.size()));
  try {
    m.validate();
  } catch (const InputError& e) {
    const std::string problem = e.message().substr(std::min(e.message().size(), e.field().size() + 2));
    throw InputError(e.code(), "params." + e.field(), problem);
  }
  return m;
}

}  // namespace

VILAB_COLD Json mechanismParamsSchema() { return parseBuiltIn(kParamsSchema, "paramsSchema"); }

VILAB_COLD SystemEntry mechanismEntry() {
  SystemEntry e;
  e.id = "mechanism";
  e.model = ModelKind::Mechanism;
  e.view = ViewKind::Mechanism;
  e.defaultIntegrator = "lie-group";
  e.defaultH = 0.005;
#ifndef VILAB_LEAN  // the lean build refuses mechanisms before it checks an integrator
  e.checkIntegrator = [](const Model& model, const IntegratorEntry& integrator) {
    if (integrator.family == IntegratorFamily::EnergyMomentum) refuseUnlessConserving(std::get<MechanismModel>(model));
  };
#endif
  e.maxBodies = limits::kMaxMechanismBodies;
  e.defaultParams = parseBuiltIn(kDefaultDefinition, "params");
  e.parseParams = [](const Json& params, Json& normalized) {
    normalized = params;
    return Model(parseMechanism(params));
  };
  e.build = [](const ParamValues&) { return Model(parseMechanism(parseBuiltIn(kDefaultDefinition, "params"))); };
  e.defaultInitial = [](const ParamValues&) { return Json::object(); };
  e.initialState = [](const Model& model, Json& initial) {
    if (initial.is_null()) initial = Json::object();
    requireObject(initial, "initial");
    rejectUnknownKeys(initial, "initial", {});
    return std::get<MechanismModel>(model).initialCanonical();
  };
  return e;
}

}  // namespace vilab

// The system "lagrangian": a Lagrangian, constraints, forcing, conserved quantities,
// symmetries and bodies given as data (models/lagrangian.hpp), validated and compiled
// here once per scenario. Every expression goes through the one parser (expr/parse.hpp).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

#include "vilab/expr/parse.hpp"
#include "vilab/json.hpp"
#include "vilab/limits.hpp"
#include "vilab/models/lagrangian.hpp"
#include "vilab/registry.hpp"

namespace vilab {

namespace {

namespace L = lagrangian_limits;

const char* const kDefaultDefinition = R"json({
  "coordinates": ["r", "th"],
  "constants": { "m": 1, "k": 40, "l0": 1, "g": 9.81 },
  "lagrangian": "m/2*(r'^2 + r^2*th'^2) - k/2*(r - l0)^2 + m*g*r*cos(th)",
  "constraints": [],
  "conserved": {},
  "symmetries": {},
  "bodies": [ { "position": ["r*sin(th)", "0", "-r*cos(th)"], "anchor": [0, 0, 0], "link": "spring" } ]
})json";

const char* const kDefaultInitial = R"({ "q": [1.2, 0.8], "qdot": [0, 0] })";

// Through the one JSON reader the scenarios use: one instantiation of the parser.
Json parseBuiltIn(const std::string& text, const char* field) {
  return parseJsonText(text, field, limits::kMaxScenarioDepth);
}

std::string readString(const Json& v, const std::string& field) {
  if (!v.is_string()) throw InputError(InputErrorCode::Type, field, "must be a string, got " + describeJson(v));
  return v.get<std::string>();
}

void checkCount(const Json& v, const std::string& field, std::size_t max, const char* what) {
  if (v.size() > max)
    throw InputError(InputErrorCode::TooLarge, field,
                     "at most " + std::to_string(max) + " " + what + ", got " + std::to_string(v.size()));
}

// Everything the expressions of one definition are compiled into.
struct Compiler {
  expr::Graph graph;
  expr::Scope scope;
  int n = 0;
  int q(int i) { return graph.variable(i); }
  int v(int i) { return graph.variable(n + i); }
  int t() { return 2 * n; }  // the variable index of t
};

// An expression given as text or a number (echoed as text).
std::string readExpression(const Json& e, const std::string& field) {
  return e.is_number() ? formatNumber(e.get<double>()) : readString(e, field);
}

// Expressions of the visual state: their graph nodes, and each one's field (without
// "params.") and text, so a value that cannot be drawn names where it was written.
struct VisualExprs {
  std::vector<int> nodes;
  std::vector<std::string> fields, texts;
  void add(const std::string& text, const std::string& field, const expr::Scope& scope, expr::Graph& graph) {
    nodes.push_back(expr::parseExpression(text, field, scope, graph).node);
    fields.push_back(field.rfind("params.", 0) == 0 ? field.substr(7) : field);
    texts.push_back(text);
  }
};

// Three expressions [x, y, z] parsed into `nodes`; `texts` echoes them.
void readPoint(const Json& pj, const std::string& field, const expr::Scope& scope, expr::Graph& graph,
               VisualExprs& nodes, Json& texts) {
  if (!pj.is_array() || pj.size() != 3)
    throw InputError(InputErrorCode::Length, field, "must be three expressions [x, y, z], got " + describeJson(pj));
  texts = Json::array();
  for (int k = 0; k < 3; ++k) {
    const std::string f = field + "[" + std::to_string(k) + "]";
    const std::string text = readExpression(pj[static_cast<std::size_t>(k)], f);
    nodes.add(text, f, scope, graph);
    texts.push_back(text);
  }
}

// A body: a sphere at `position`, joined to its anchor (a point or an earlier entry) by its link.
void readBody(const Json& body, const std::string& field, std::size_t b, const expr::Scope& scope, expr::Graph& graph,
              VisualExprs& positions, Json& out, LagrangianBody& lb) {
  rejectUnknownKeys(body, field, {"kind", "position", "anchor", "link", "radius"});
  if (!body.contains("position"))
    throw InputError(InputErrorCode::Missing, field + ".position", "is required: three expressions in q");
  readPoint(body["position"], field + ".position", scope, graph, positions, out["position"]);
  if (body.contains("anchor") && !body["anchor"].is_null()) {
    const Json& a = body["anchor"];
    if (a.is_number_integer() || a.is_number_unsigned()) {
      const long k = a.get<long>();
      if (k < 0 || k >= static_cast<long>(b))
        throw InputError(InputErrorCode::Range, field + ".anchor",
                         "a body index must name an earlier body (0 … " + std::to_string(static_cast<long>(b) - 1) +
                             "), got " + std::to_string(k));
      lb.anchor = LagrangianBody::Anchor::Body;
      lb.body = static_cast<int>(k);
      out["anchor"] = k;
    } else {
      const auto xyz = readNumbers(a, field + ".anchor", 3, 3);
      for (double x : xyz)
        if (!(std::abs(x) <= 1e6))
          throw InputError(InputErrorCode::Range, field + ".anchor", "must be at most 1e6 in magnitude");
      lb.anchor = LagrangianBody::Anchor::Point;
      lb.point = Vec3(xyz[0], xyz[1], xyz[2]);
      out["anchor"] = xyz;
    }
    lb.link = "rod";
  } else {
    out["anchor"] = nullptr;
  }
  if (body.contains("link")) {
    const std::string link = readString(body["link"], field + ".link");
    if (link != "rod" && link != "spring" && link != "none")
      throw InputError(InputErrorCode::UnknownId, field + ".link",
                       "must be \"rod\", \"spring\" or \"none\", got " + describeJson(body["link"]));
    if (link != "none" && lb.anchor == LagrangianBody::Anchor::None)
      throw InputError(InputErrorCode::Missing, field + ".link",
                       "a " + link + " needs an anchor (a point [x, y, z] or an earlier body's index)");
    lb.link = link;
  }
  out["link"] = lb.link;
  if (body.contains("radius")) {
    lb.radius = readNumberInRange(body["radius"], field + ".radius", 0, 1e3, false);
    out["radius"] = lb.radius;
  }
}

bool isFurniture(const std::string& kind) {
  for (const char* k : {"hoop", "pulley", "wire", "curve", "floor", "wall"})
    if (kind == k) return true;
  return false;
}

// A direction of three numbers, not zero (echoed as given; the page normalizes it).
Json readDirection(const Json& body, const std::string& key, const std::string& field, std::vector<double> fallback) {
  if (body.contains(key)) fallback = readNumbers(body[key], field + "." + key, 3, 3);
  double norm = 0;
  for (double x : fallback) norm += x * x;
  if (!(norm > 1e-24) || !(norm <= 1e12))
    throw InputError(InputErrorCode::Range, field + "." + key, "must be a non-zero direction of at most 1e6");
  return fallback;
}

// A wire's corners: [x, y, z] each, in q and t.
void readWire(const Json& body, const std::string& field, const expr::Scope& scope, expr::Graph& graph,
              VisualExprs& tail, Json& out, LagrangianBody& lb) {
  if (!body.contains("points"))
    throw InputError(InputErrorCode::Missing, field + ".points", "is required: a list of points [x, y, z]");
  const Json& pts = body["points"];
  if (!pts.is_array() || pts.size() < 2)
    throw InputError(InputErrorCode::Length, field + ".points",
                     "must be a list of at least 2 points [x, y, z], got " + describeJson(pts));
  checkCount(pts, field + ".points", static_cast<std::size_t>(L::kMaxFurniturePoints), "points");
  out["points"] = Json::array();
  for (std::size_t i = 0; i < pts.size(); ++i) {
    Json texts;
    readPoint(pts[i], field + ".points[" + std::to_string(i) + "]", scope, graph, tail, texts);
    out["points"].push_back(texts);
  }
  lb.points = static_cast<int>(pts.size());
}

// A parametric curve [x(s), y(s), z(s)] for s in `range`, sampled at `samples` points:
// each sample is the curve's expressions with the parameter a constant.
void readCurve(const Json& body, const std::string& field, const expr::Scope& scope, expr::Graph& graph,
               VisualExprs& tail, Json& out, LagrangianBody& lb) {
  if (!body.contains("curve"))
    throw InputError(InputErrorCode::Missing, field + ".curve", "is required: three expressions [x, y, z] in s");
  if (!body.contains("range"))
    throw InputError(InputErrorCode::Missing, field + ".range", "is required: [first, last] value of s");
  const std::string name = body.contains("parameter") ? readString(body["parameter"], field + ".parameter") : "s";
  if (!expr::validIdentifier(name) || expr::reservedName(name))
    throw InputError(InputErrorCode::Invalid, field + ".parameter", "must be a name that is not reserved");
  for (const auto& c : scope.coordinates)
    if (c == name) throw InputError(InputErrorCode::Conflict, field + ".parameter", "is also a coordinate");
  for (const auto& c : scope.constants)
    if (c.first == name) throw InputError(InputErrorCode::Conflict, field + ".parameter", "is also a constant");
  const auto range = readNumbers(body["range"], field + ".range", 2, 2);
  if (!(range[0] < range[1]) || !(std::abs(range[0]) <= 1e6) || !(std::abs(range[1]) <= 1e6))
    throw InputError(InputErrorCode::Range, field + ".range", "must be [first, last] with first < last, at most 1e6");
  int samples = 48;
  if (body.contains("samples")) {
    const Json& sj = body["samples"];
    if (!sj.is_number_integer() || sj.get<long>() < 2 || sj.get<long>() > L::kMaxFurniturePoints)
      throw InputError(
          InputErrorCode::Range, field + ".samples",
          "must be a whole number in [2, " + std::to_string(L::kMaxFurniturePoints) + "], got " + describeJson(sj));
    samples = sj.get<int>();
  }
  expr::Scope cs = scope;
  cs.constants.emplace_back(name, range[0]);
  for (int i = 0; i < samples; ++i) {
    cs.constants.back().second = range[0] + (range[1] - range[0]) * i / (samples - 1);
    readPoint(body["curve"], field + ".curve", cs, graph, tail, out["curve"]);
  }
  out["parameter"] = name;
  out["range"] = range;
  out["samples"] = samples;
  lb.points = samples;
}

// Furniture: a hoop, pulley, wire, curve, floor or wall drawn in the scene, placed at
// `position` and turned by `angle` about `axis` (both may move with q and t). In the
// visual state, after every entry's position: its angle, a hoop's or pulley's radius,
// and 3 numbers per point of a wire or curve (in its own frame, before the turn).
void readFurniture(const Json& body, const std::string& field, const expr::Scope& scope, expr::Graph& graph,
                   VisualExprs& positions, VisualExprs& tail, Json& out, LagrangianBody& lb) {
  const std::string& kind = lb.kind;
  const bool round = kind == "hoop" || kind == "pulley";
  const bool plane = kind == "floor" || kind == "wall";
  if (round) rejectUnknownKeys(body, field, {"kind", "position", "angle", "axis", "radius", "normal"});
  if (plane) rejectUnknownKeys(body, field, {"kind", "position", "angle", "axis", "size", "normal"});
  if (kind == "wire") rejectUnknownKeys(body, field, {"kind", "position", "angle", "axis", "points", "closed"});
  if (kind == "curve")
    rejectUnknownKeys(body, field,
                      {"kind", "position", "angle", "axis", "curve", "range", "samples", "parameter", "closed"});
  out["kind"] = kind;
  readPoint(body.contains("position") ? body["position"] : Json::array({"0", "0", "0"}), field + ".position", scope,
            graph, positions, out["position"]);
  const std::string angle = body.contains("angle") ? readExpression(body["angle"], field + ".angle") : "0";
  tail.add(angle, field + ".angle", scope, graph);
  out["angle"] = angle;
  out["axis"] = readDirection(body, "axis", field, {0, 0, 1});
  if (round) {
    // the radius may follow the constants (or q and t): it is evaluated with the angle
    if (!body.contains("radius"))
      throw InputError(InputErrorCode::Missing, field + ".radius", "is required (a number or an expression)");
    if (body["radius"].is_number()) readNumberInRange(body["radius"], field + ".radius", 0, 1e3, true);
    const std::string radius = readExpression(body["radius"], field + ".radius");
    tail.add(radius, field + ".radius", scope, graph);
    out["radius"] = radius;
    out["normal"] = readDirection(body, "normal", field, {0, 1, 0});
  }
  if (plane) {
    out["normal"] = readDirection(body, "normal", field,
                                  kind == "floor" ? std::vector<double>{0, 0, 1} : std::vector<double>{1, 0, 0});
    if (body.contains("size")) out["size"] = readNumberInRange(body["size"], field + ".size", 0, 1e4, true);
  }
  if (kind == "wire") readWire(body, field, scope, graph, tail, out, lb);
  if (kind == "curve") readCurve(body, field, scope, graph, tail, out, lb);
  if (kind == "wire" || kind == "curve") {
    const bool closed = body.contains("closed") && body["closed"].is_boolean() ? body["closed"].get<bool>() : false;
    if (body.contains("closed") && !body["closed"].is_boolean())
      throw InputError(InputErrorCode::Type, field + ".closed",
                       "must be true or false, got " + describeJson(body["closed"]));
    out["closed"] = closed;
  }
}

// full = false (the editor's inspection): every field is validated, parsed and
// printed, and the mass matrix classified, but no program is built.
std::shared_ptr<LagrangianProblem> compile(const Json& params, Json& normalized, bool full = true) {
#ifdef VILAB_LEAN
  (void)params, (void)normalized, (void)full;
  throw NotInLeanBuild("params", "a Lagrangian given as data");
#endif
  requireObject(params, "params");
  rejectUnknownKeys(params, "params",
                    {"coordinates", "constants", "lagrangian", "constraints", "damping", "forces", "conserved",
                     "symmetries", "bodies"});
  auto problem = std::make_shared<LagrangianProblem>();
  LagrangianProblem& P = *problem;
  Compiler cc;
  expr::Scope& scope = cc.scope;

  // coordinates
  if (!params.contains("coordinates"))
    throw InputError(InputErrorCode::Missing, "params.coordinates", "is required (a list of names)");
  const Json& cj = params["coordinates"];
  if (!cj.is_array() || cj.empty())
    throw InputError(InputErrorCode::Type, "params.coordinates",
                     "must be a non-empty list of names, got " + describeJson(cj));
  checkCount(cj, "params.coordinates", L::kMaxCoordinates, "coordinates");
  for (std::size_t i = 0; i < cj.size(); ++i) {
    const std::string field = "params.coordinates[" + std::to_string(i) + "]";
    const std::string name = readString(cj[i], field);
    if (!expr::validIdentifier(name))
      throw InputError(
          InputErrorCode::Syntax, field,
          "must be a name (a letter or _, then letters, digits or _; at most 32), got " + describeJson(cj[i]));
    if (expr::reservedName(name))
      throw InputError(InputErrorCode::Invalid, field, "\"" + name + "\" is reserved (a function, pi or t)");
    for (const auto& other : P.coordinates)
      if (other == name) throw InputError(InputErrorCode::Conflict, field, "\"" + name + "\" is given twice");
    P.coordinates.push_back(name);
  }
  P.n = cc.n = static_cast<int>(P.coordinates.size());
  const int n = P.n;
  scope.coordinates = P.coordinates;

  // constants
  Json constantsOut = Json::object();
  if (params.contains("constants")) {
    const Json& k = params["constants"];
    requireObject(k, "params.constants");
    checkCount(k, "params.constants", L::kMaxConstants, "constants");
    for (auto it = k.begin(); it != k.end(); ++it) {
      const std::string field = joinField("params.constants", cutForMessage(it.key()));
      if (!expr::validIdentifier(it.key()))
        throw InputError(InputErrorCode::Syntax, field, "must be a name (letters, digits, _)");
      if (expr::reservedName(it.key()))
        throw InputError(InputErrorCode::Invalid, field, "\"" + it.key() + "\" is reserved (a function, pi or t)");
      for (const auto& c : P.coordinates) {
        if (c == it.key()) throw InputError(InputErrorCode::Conflict, field, "is also a coordinate");
        if (c + "dot" == it.key())
          throw InputError(InputErrorCode::Conflict, field, "is the velocity of coordinate " + c);
      }
      const double value = readNumber(it.value(), field);
      if (!(std::abs(value) <= 1e12))
        throw InputError(InputErrorCode::Range, field, "must be at most 1e12 in magnitude, got " + formatNumber(value));
      scope.constants.emplace_back(it.key(), value);
      constantsOut[it.key()] = value;
    }
  }

  // L(q, q̇, t): a time-dependent Lagrangian (M–W Part 4) when it uses t.
  if (!params.contains("lagrangian"))
    throw InputError(InputErrorCode::Missing, "params.lagrangian", "is required (an expression in q and q')");
  const std::string Ltext = readString(params["lagrangian"], "params.lagrangian");
  scope.velocities = true;
  scope.time = true;
  const expr::Parsed Lp = expr::parseExpression(Ltext, "params.lagrangian", scope, cc.graph);
  P.latex.push_back(Lp.latex);
  const int Lnode = Lp.node;
  P.timeDependent = cc.graph.dependsOn(Lnode, cc.t());

  // g(q) = 0
  std::vector<int> g;
  Json constraintsOut = Json::array();
  if (params.contains("constraints")) {
    const Json& gj = params["constraints"];
    if (!gj.is_array())
      throw InputError(InputErrorCode::Type, "params.constraints",
                       "must be a list of expressions, got " + describeJson(gj));
    checkCount(gj, "params.constraints", L::kMaxConstraints, "constraints");
    if (static_cast<int>(gj.size()) >= n)
      throw InputError(
          InputErrorCode::Length, "params.constraints",
          "must be fewer than the coordinates (" + std::to_string(n) + "), got " + std::to_string(gj.size()));
    expr::Scope gs = scope;
    gs.velocities = false;
    gs.time = false;
    gs.timeUse = "constraints are holonomic and scleronomic: g(q) = 0";
    for (std::size_t i = 0; i < gj.size(); ++i) {
      const std::string field = "params.constraints[" + std::to_string(i) + "]";
      const std::string text = readString(gj[i], field);
      const expr::Parsed gp = expr::parseExpression(text, field, gs, cc.graph);
      g.push_back(gp.node);
      P.latex.push_back(gp.latex);
      constraintsOut.push_back(text);
    }
  }
  P.c = static_cast<int>(g.size());
  const int c = P.c;

  // Forcing (Lagrange–d'Alembert, M–W §3.2): F = Q(q, q̇, t) − c q̇.
  Json dampingOut, forcesOut;
  if (params.contains("damping")) {
    P.damping = readNumberInRange(params["damping"], "params.damping", 0, 1e6, false);
    dampingOut = P.damping;
  }
  std::vector<int> Q(static_cast<std::size_t>(n), cc.graph.constant(0));
  if (params.contains("forces")) {
    const Json& fj = params["forces"];
    if (!fj.is_array() || static_cast<int>(fj.size()) != n)
      throw InputError(InputErrorCode::Length, "params.forces",
                       "must list one expression per coordinate (" + std::to_string(n) +
                           "), the generalized forces Q_i(q, q', t), got " + describeJson(fj));
    P.hasForces = true;
    forcesOut = Json::array();
    for (int i = 0; i < n; ++i) {
      const std::string field = "params.forces[" + std::to_string(i) + "]";
      const Json& e = fj[static_cast<std::size_t>(i)];
      const std::string text = e.is_number() ? formatNumber(e.get<double>()) : readString(e, field);
      const expr::Parsed fp = expr::parseExpression(text, field, scope, cc.graph);
      Q[static_cast<std::size_t>(i)] = fp.node;
      P.forceLatex.push_back(fp.latex);
      forcesOut.push_back(text);
    }
  }
  std::vector<int> F(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) {
    F[i] = Q[i];
    if (P.damping != 0) F[i] = cc.graph.sub(Q[i], cc.graph.mul(cc.graph.constant(P.damping), cc.v(i)));
    P.forcesUseTime = P.forcesUseTime || cc.graph.dependsOn(F[i], cc.t());
  }

  // The derivatives: gradient, Hessian (upper triangles mirrored), energy terms.
  std::vector<int> Lq(n), Lv(n);
  for (int i = 0; i < n; ++i) {
    Lq[i] = cc.graph.derivative(Lnode, i);
    Lv[i] = cc.graph.derivative(Lnode, n + i);
  }
  if (full && P.forced()) {
    // F, ∂F/∂q and ∂F/∂q̇: the Newton matrix of the forced DEL and the baselines' force.
    std::vector<int> out = F;
    for (int d = 0; d < 2; ++d)
      for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j) {
          const int k = cc.graph.derivative(F[i], d * n + j);
          out.push_back(k);
          P.constantForceJacobian = P.constantForceJacobian && cc.graph.isConstant(k);
        }
    P.forces = expr::Program(cc.graph, F);
    P.forceJacobian = expr::Program(cc.graph, out);
  }
  std::vector<int> Lqq(n * n), Lqv(n * n), Lvv(n * n);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      Lvv[i * n + j] = j >= i ? cc.graph.derivative(Lv[i], n + j) : Lvv[j * n + i];
      if (!full) continue;
      Lqq[i * n + j] = j >= i ? cc.graph.derivative(Lq[i], j) : Lqq[j * n + i];
      Lqv[i * n + j] = cc.graph.derivative(Lq[i], n + j);
      P.gyroscopic = P.gyroscopic || !cc.graph.isConstant(Lqv[i * n + j], 0.0);
    }
  bool quadratic = true, constantMass = true;
  for (int k : Lvv) {
    for (int i = 0; i < n; ++i) quadratic = quadratic && !cc.graph.dependsOn(k, n + i);
    constantMass = constantMass && cc.graph.isConstant(k);
  }
  P.quadratic = quadratic;
  P.constantMass = constantMass;
  P.constantRestMomentum = constantMass;
  for (int k : Lv) {
    for (int i = 0; i < n; ++i) P.constantRestMomentum = P.constantRestMomentum && !cc.graph.dependsOn(k, i);
    P.constantRestMomentum = P.constantRestMomentum && !cc.graph.dependsOn(k, cc.t());
  }
  if (full) {
    P.constantLq = std::all_of(Lq.begin(), Lq.end(), [&](int k) { return cc.graph.isConstant(k); });
    if (P.constantLq)
      for (int k : Lq) P.Lq.push_back(cc.graph[k].value);
    std::vector<int> out = Lq;
    out.insert(out.end(), Lv.begin(), Lv.end());
    P.gradient = expr::Program(cc.graph, out);
    out = Lqq;
    out.insert(out.end(), Lqv.begin(), Lqv.end());
    out.insert(out.end(), Lvv.begin(), Lvv.end());
    P.hessian = expr::Program(cc.graph, out);
    P.constantHessian = P.hessian.constantOutputs();
    out = {Lnode};
    out.insert(out.end(), Lv.begin(), Lv.end());
    out.insert(out.end(), Lvv.begin(), Lvv.end());
    P.energyTerms = expr::Program(cc.graph, out);
    P.lagrangian = expr::Program(cc.graph, {Lnode});
  }
  // Constraints and their Jacobian; the dynamics of the baselines:
  //   f_i = ∂L/∂q_i − Σ_j ∂²L/∂q̇_i∂q_j q̇_j − ∂²L/∂q̇_i∂t,   w_i = Σ_jk ∂²g_i/∂q_j∂q_k q̇_j q̇_k.
  if (full) {
    std::vector<int> out = g;
    for (int i = 0; i < c; ++i)
      for (int j = 0; j < n; ++j) out.push_back(cc.graph.derivative(g[i], j));
    P.constraints = expr::Program(cc.graph, out);
    std::vector<int> dyn;
    for (int i = 0; i < n; ++i) {
      std::vector<int> terms{Lq[i]};
      for (int j = 0; j < n; ++j) terms.push_back(cc.graph.neg(cc.graph.mul(Lqv[j * n + i], cc.v(j))));
      if (P.timeDependent) terms.push_back(cc.graph.neg(cc.graph.derivative(Lv[i], cc.t())));
      dyn.push_back(cc.graph.sum(terms));
    }
    for (int i = 0; i < c; ++i) {
      std::vector<int> rate;
      for (int j = 0; j < n; ++j) rate.push_back(cc.graph.mul(out[static_cast<std::size_t>(c + i * n + j)], cc.v(j)));
      const int gdot = cc.graph.sum(rate);
      std::vector<int> terms;
      for (int k = 0; k < n; ++k) terms.push_back(cc.graph.mul(cc.graph.derivative(gdot, k), cc.v(k)));
      dyn.push_back(cc.graph.sum(terms));
    }
    P.dynamics = expr::Program(cc.graph, dyn);
  }

  // conserved quantities (q, q̇, t) and symmetry generators ξ(q)
  std::vector<int> quantities;
  Json conservedOut = Json::object();
  if (params.contains("conserved")) {
    const Json& qj = params["conserved"];
    requireObject(qj, "params.conserved");
    checkCount(qj, "params.conserved", L::kMaxConserved, "conserved quantities");
    expr::Scope qs = scope;
    qs.time = true;
    for (auto it = qj.begin(); it != qj.end(); ++it) {
      const std::string field = joinField("params.conserved", cutForMessage(it.key()));
      if (!expr::validIdentifier(it.key()))
        throw InputError(InputErrorCode::Syntax, field, "must be a name (letters, digits, _)");
      const std::string text = readString(it.value(), field);
      quantities.push_back(expr::parseExpression(text, field, qs, cc.graph).node);
      P.conservedNames.push_back(it.key());
      conservedOut[it.key()] = text;
    }
  }
  std::vector<std::vector<int>> generators;
  Json symmetriesOut = Json::object();
  if (params.contains("symmetries")) {
    const Json& sj = params["symmetries"];
    requireObject(sj, "params.symmetries");
    checkCount(sj, "params.symmetries", L::kMaxSymmetries, "symmetries");
    expr::Scope ss = scope;
    ss.velocities = false;
    ss.time = false;
    ss.timeUse = "a symmetry generator is a vector field ξ(q) on the configurations";
    for (auto it = sj.begin(); it != sj.end(); ++it) {
      const std::string field = joinField("params.symmetries", cutForMessage(it.key()));
      if (!expr::validIdentifier(it.key()))
        throw InputError(InputErrorCode::Syntax, field, "must be a name (letters, digits, _)");
      for (const auto& other : P.conservedNames)
        if (other == it.key())
          throw InputError(InputErrorCode::Conflict, field, "is also the name of a conserved quantity");
      const Json& xi = it.value();
      if (!xi.is_array() || static_cast<int>(xi.size()) != n)
        throw InputError(
            InputErrorCode::Length, field,
            "must list one expression per coordinate (" + std::to_string(n) + "), got " + describeJson(xi));
      std::vector<int> components;
      Json texts = Json::array();
      for (int i = 0; i < n; ++i) {
        const std::string f = field + "[" + std::to_string(i) + "]";
        std::string text = xi[static_cast<std::size_t>(i)].is_number()
                               ? formatNumber(xi[static_cast<std::size_t>(i)].get<double>())
                               : readString(xi[static_cast<std::size_t>(i)], f);
        components.push_back(expr::parseExpression(text, f, ss, cc.graph).node);
        texts.push_back(text);
      }
      generators.push_back(components);
      P.symmetryNames.push_back(it.key());
      symmetriesOut[it.key()] = texts;
    }
  }
  if (full) {
    std::vector<int> out = quantities;
    for (const auto& xi : generators) out.insert(out.end(), xi.begin(), xi.end());
    P.quantities = expr::Program(cc.graph, out);
    // J = p·ξ(q) with p in the velocities' slots, and its derivatives (the discrete
    // gradients that keep it: integrators/lagrangian_energy_momentum.hpp).
    std::vector<int> maps;
    for (const auto& xi : generators) {
      std::vector<int> terms;
      for (int i = 0; i < n; ++i) terms.push_back(cc.graph.mul(cc.v(i), xi[static_cast<std::size_t>(i)]));
      const int J = cc.graph.sum(terms);
      for (int i = 0; i < n; ++i) maps.push_back(cc.graph.derivative(J, n + i));
      for (int j = 0; j < n; ++j) {
        const int dJ = cc.graph.derivative(J, j);
        maps.push_back(dJ);
        for (int k = 0; k < n; ++k) P.affineSymmetries = P.affineSymmetries && !cc.graph.dependsOn(dJ, k);
      }
    }
    P.momentumMaps = expr::Program(cc.graph, maps);
  }

  // bodies: what to draw; each entry is a body (a sphere on its link) or furniture
  Json bodiesOut = Json::array();
  VisualExprs positions, furniture;
  if (params.contains("bodies")) {
    const Json& bj = params["bodies"];
    if (!bj.is_array())
      throw InputError(InputErrorCode::Type, "params.bodies", "must be a list of bodies, got " + describeJson(bj));
    checkCount(bj, "params.bodies", L::kMaxBodies, "bodies");
    expr::Scope bs = scope;
    bs.velocities = false;
    bs.time = true;
    bs.timeUse = "a body's position depends on q and t only";
    for (std::size_t b = 0; b < bj.size(); ++b) {
      const std::string field = "params.bodies[" + std::to_string(b) + "]";
      requireObject(bj[b], field);
      const std::string kind = bj[b].contains("kind") ? readString(bj[b]["kind"], field + ".kind") : "body";
      Json out = Json::object();
      LagrangianBody lb;
      lb.kind = kind;
      if (kind == "body")
        readBody(bj[b], field, b, bs, cc.graph, positions, out, lb);
      else if (isFurniture(kind))
        readFurniture(bj[b], field, bs, cc.graph, positions, furniture, out, lb);
      else
        throw InputError(InputErrorCode::UnknownId, field + ".kind",
                         "must be \"body\", \"hoop\", \"pulley\", \"wire\", \"curve\", \"floor\" or \"wall\", got " +
                             describeJson(bj[b]["kind"]));
      P.bodies.push_back(lb);
      bodiesOut.push_back(out);
    }
  }
  P.visualSize = static_cast<int>(positions.nodes.size() + furniture.nodes.size());
  positions.nodes.insert(positions.nodes.end(), furniture.nodes.begin(), furniture.nodes.end());
  P.visualFields = positions.fields;
  P.visualFields.insert(P.visualFields.end(), furniture.fields.begin(), furniture.fields.end());
  P.visualTexts = positions.texts;
  P.visualTexts.insert(P.visualTexts.end(), furniture.texts.begin(), furniture.texts.end());
  if (full) P.positions = expr::Program(cc.graph, positions.nodes);

  // The symmetry check needs δL along ξ: Σ_i L_q_i ξ_i + L_q̇_i Σ_j ∂ξ_i/∂q_j q̇_j, and
  // Dg ξ; programs kept only for the initial check.
  normalized = Json::object();
  normalized["coordinates"] = P.coordinates;
  normalized["constants"] = constantsOut;
  normalized["lagrangian"] = Ltext;
  normalized["constraints"] = constraintsOut;
  if (!dampingOut.is_null()) normalized["damping"] = dampingOut;
  if (!forcesOut.is_null()) normalized["forces"] = forcesOut;
  normalized["conserved"] = conservedOut;
  normalized["symmetries"] = symmetriesOut;
  normalized["bodies"] = bodiesOut;
  P.definitionJson = normalized.dump(-1, ' ', false, Json::error_handler_t::replace);

  if (!full) return problem;
  // Symmetry programs: [δL, Dg ξ (c)] per symmetry.
  std::vector<int> checks;
  for (const auto& xi : generators) {
    std::vector<int> terms;
    for (int i = 0; i < n; ++i) {
      terms.push_back(cc.graph.mul(Lq[i], xi[i]));
      std::vector<int> lift;
      for (int j = 0; j < n; ++j) lift.push_back(cc.graph.mul(cc.graph.derivative(xi[i], j), cc.v(j)));
      terms.push_back(cc.graph.mul(Lv[i], cc.graph.sum(lift)));
    }
    checks.push_back(cc.graph.sum(terms));
    for (int k = 0; k < c; ++k) {
      std::vector<int> dg;
      for (int j = 0; j < n; ++j) dg.push_back(cc.graph.mul(cc.graph.derivative(g[k], j), xi[j]));
      checks.push_back(cc.graph.sum(dg));
    }
  }
  problem->symmetryCheck = expr::Program(cc.graph, checks);
  // The bounds of an unrecorded step's row (variables: q, then q̇, then t at 2n).
  P.constraintBound = expr::magnitudeBound(P.constraints, 0, c, n, 2 * n);
  P.generatorBound = expr::magnitudeBound(P.quantities, 0, P.quantities.outputs(), n, 2 * n);
  P.positionBound = expr::magnitudeBound(P.positions, 0, P.positions.outputs(), n, 2 * n);
  P.rowBounded = P.conservedNames.empty() && P.quadratic && P.constraintBound.bounded && P.generatorBound.bounded &&
                 P.positionBound.bounded;
  return problem;
}

// `initial`: { q: [n numbers], qdot: [n numbers] }, checked against the definition.
State initialState(const Model& model, Json& initial) {
  const LagrangianModel& m = std::get<LagrangianModel>(model);
  const LagrangianProblem& P = *m.problem;
  const int n = P.n;
  if (initial.empty())
    throw InputError(InputErrorCode::Missing, "initial",
                     "is required for a system defined by data: { q: [...], qdot: [...] }");
  rejectUnknownKeys(initial, "initial", {"q", "qdot"});
  if (!initial.contains("q"))
    throw InputError(InputErrorCode::Missing, "initial.q", "is required (one number per coordinate)");
  const auto qv = readNumbers(initial["q"], "initial.q", n, n);
  std::vector<double> vv(static_cast<std::size_t>(n), 0.0);
  if (initial.contains("qdot")) vv = readNumbers(initial["qdot"], "initial.qdot", n, n);
  for (int i = 0; i < n; ++i) {
    if (!(std::abs(qv[i]) <= limits::kMaxCoordinate))
      throw InputError(InputErrorCode::Range, "initial.q[" + std::to_string(i) + "]",
                       "must be at most 1e6 in magnitude");
    if (!(std::abs(vv[i]) <= limits::kMaxCoordinate))
      throw InputError(InputErrorCode::Range, "initial.qdot[" + std::to_string(i) + "]",
                       "must be at most 1e6 in magnitude");
  }
  initial = Json{{"q", qv}, {"qdot", vv}};
  LagrangianEval& e = *m.eval;
  State s;
  s.q = Eigen::Map<const VecX>(qv.data(), n);
  VecX v = Eigen::Map<const VecX>(vv.data(), n);

  // Finite L and a regular mass matrix ∂²L/∂q̇² at the initial state.
  SmallVec Lv;
  SmallMat M;
  const double Lvalue = e.energyTerms(s.q.data(), v.data(), Lv, M);
  if (!std::isfinite(Lvalue) || !Lv.allFinite() || !M.allFinite())
    throw InputError(
        InputErrorCode::Invalid, "params.lagrangian",
        "L or its derivatives are not finite at the initial state (initial.q = " + describeJson(initial["q"]) + ")");
  {
    SmallLU lu;
    const double ratio = lu.compute(M) ? lu.pivotRatio() : std::numeric_limits<double>::infinity();
    if (!(ratio <= limits::kSingularPivotRatio)) {
      std::string which;
      for (int i = 0; i < n; ++i)
        if (M.row(i).cwiseAbs().maxCoeff() == 0)
          which += (which.empty() ? "" : ", ") + P.coordinates[static_cast<std::size_t>(i)];
      throw InputError(InputErrorCode::Invalid, "params.lagrangian",
                       "the mass matrix ∂²L/∂q'² is singular at the initial state" +
                           (which.empty() ? std::string(" (pivot ratio ") + scientific(ratio) + ")"
                                          : " (L has no kinetic term in " + which + "')") +
                           ": every coordinate needs a velocity-squared term");
    }
  }
  // Constraints: on the manifold within the tolerance, velocities tangent; projected.
  if (P.c > 0) {
    SmallVec g;
    SmallMat G;
    e.constraints(s.q.data(), g, &G);
    for (int i = 0; i < P.c; ++i)
      if (!std::isfinite(g[i]))
        throw InputError(InputErrorCode::Invalid, "params.constraints[" + std::to_string(i) + "]",
                         "is not finite at the initial state");
  }
  s.p = VecX(Lv);
  StateRules rules;
  rules.tangentMomentum = false;
  m.project(s, rules, "initial.q", "initial.qdot");  // positions
  if (P.c > 0) {
    // Velocities: tangent within the tolerance, then projected (Euclidean, as a tiny correction).
    SmallVec g;
    SmallMat G;
    e.constraints(s.q.data(), g, &G);
    const SmallVec rate = G.lazyProduct(SmallVec(v));
    for (int i = 0; i < P.c; ++i)
      if (!(std::abs(rate[i]) <= limits::kManifoldTolerance * (1.0 + v.cwiseAbs().maxCoeff())))
        throw InputError(InputErrorCode::OffManifold, "initial.qdot",
                         "not tangent to the constraints: d/dt g" + std::to_string(i + 1) + " = " +
                             formatNumber(rate[i]) + " (params.constraints[" + std::to_string(i) +
                             "], tolerance 1e-9)");
    SmallLU glu;
    if (!glu.compute(SmallMat(G.lazyProduct(G.transpose()))))
      throw InputError(InputErrorCode::Invalid, "params.constraints",
                       "the constraints are not independent at the initial state");
    v -= VecX(G.transpose().lazyProduct(glu.solve(rate)));
  }
  e.energyTerms(s.q.data(), v.data(), Lv, M);
  s.p = VecX(Lv);
  if (P.c > 0 && !e.projectMomentum(s.q.data(), s.p.data()))
    throw InputError(InputErrorCode::Invalid, "params.constraints",
                     "the constraints are not independent at the initial state");
  if (!s.p.allFinite()) throw InputError(InputErrorCode::Invalid, "initial.qdot", "gives non-finite momenta");

  // Declared symmetries must leave L and the constraints invariant: δL = 0, Dg ξ = 0.
  const int nsym = static_cast<int>(P.symmetryNames.size());
  if (nsym > 0) {
    std::vector<double> vars(static_cast<std::size_t>(2 * n + 1), 0.0), out(static_cast<std::size_t>(nsym * (1 + P.c))),
        regs;
    // At the initial state and at a second state (velocities turned and scaled), so that
    // a coincidental zero does not pass.
    for (int trial = 0; trial < 2; ++trial) {
      for (int i = 0; i < n; ++i) {
        vars[static_cast<std::size_t>(i)] = s.q[i];
        vars[static_cast<std::size_t>(n + i)] = trial == 0 ? v[i] : v[i] + 0.37 * (i + 1) - 0.21 * (n - i);
      }
      P.symmetryCheck.run(vars.data(), out.data(), regs);
      for (int k = 0; k < nsym; ++k) {
        const std::string field = joinField("params.symmetries", P.symmetryNames[static_cast<std::size_t>(k)]);
        const double dL = out[static_cast<std::size_t>(k * (1 + P.c))];
        const double size = 1.0 + std::abs(Lvalue) + Lv.cwiseAbs().maxCoeff();
        if (!(std::abs(dL) <= 1e-9 * size))
          throw InputError(InputErrorCode::Invalid, field,
                           "is not a symmetry of L: L changes along it at rate " + formatNumber(dL) +
                               " at the initial state (it must vanish for every q, q')");
        for (int j = 0; j < P.c; ++j)
          if (!(std::abs(out[static_cast<std::size_t>(k * (1 + P.c) + 1 + j)]) <=
                1e-9 * (1.0 + s.q.cwiseAbs().maxCoeff())))
            throw InputError(InputErrorCode::Invalid, field,
                             "does not keep constraint " + std::to_string(j) + " (Dg·ξ ≠ 0 at the initial state)");
      }
    }
  }
  return s;
}

// The definition's fields, functions and limits; the words (each field's title and
// description, the notes) come from the system's prose.
VILAB_COLD Json definitionDocs() {
  Json fields = Json::array();
  for (const char* name : {"coordinates", "constants", "lagrangian", "constraints", "damping", "forces", "conserved",
                           "symmetries", "bodies"})
    fields.push_back({{"name", name}});
  Json j;
  j["fields"] = fields;
  j["functions"] = {"sqrt", "sin", "cos", "tan", "exp", "log", "atan2", "abs"};
  j["limits"] = {{"maxExpressionBytes", expr::kMaxExpressionBytes},
                 {"maxDepth", expr::kMaxNesting},
                 {"maxCoordinates", L::kMaxCoordinates},
                 {"maxConstraints", L::kMaxConstraints},
                 {"maxConstants", L::kMaxConstants},
                 {"maxConserved", L::kMaxConserved},
                 {"maxSymmetries", L::kMaxSymmetries},
                 {"maxBodies", L::kMaxBodies},
                 {"maxFurniturePoints", L::kMaxFurniturePoints}};
  return j;
}

}  // namespace

std::shared_ptr<const LagrangianProblem> compileLagrangian(const Json& params, Json& normalized) {
  return compile(params, normalized);
}

std::shared_ptr<const LagrangianProblem> inspectLagrangian(const Json& params, Json& normalized) {
  return compile(params, normalized, false);
}

std::shared_ptr<const LagrangianProblem> penalizedLagrangian(const LagrangianProblem& problem, double mu) {
  Json params = parseBuiltIn(problem.definitionJson, "params");
  std::string L = "(" + params["lagrangian"].get<std::string>() + ")";
  char coefficient[40];
  std::snprintf(coefficient, sizeof coefficient, "%.17g", mu / 2);
  for (const auto& g : params["constraints"])
    L += " - " + std::string(coefficient) + "*(" + g.get<std::string>() + ")^2";
  params["lagrangian"] = L;
  params["constraints"] = Json::array();
  Json normalized;
  return compile(params, normalized);
}

VILAB_COLD SystemEntry lagrangianEntry() {
  SystemEntry e;
  e.id = "lagrangian";
  e.model = ModelKind::Lagrangian;
  e.view = ViewKind::Bodies;
  e.defaultIntegrator = "midpoint";
  e.defaultH = 0.005;
  e.initialFields = {{"q", ""}, {"qdot", ""}};
  e.defaultParams = parseBuiltIn(kDefaultDefinition, "params");
  e.definition = definitionDocs();
  e.parseParams = [](const Json& params, Json& normalized) {
    Model m = LagrangianModel(compile(params, normalized));
    return m;
  };
  e.build = [](const ParamValues&) {
    Json normalized;
    return Model(LagrangianModel(compile(parseBuiltIn(kDefaultDefinition, "params"), normalized)));
  };
  e.defaultInitial = [](const ParamValues&) { return parseBuiltIn(kDefaultInitial, "initial"); };
  e.initialState = [](const Model& model, Json& initial) {
    State s = initialState(model, initial);
    const LagrangianModel& m = std::get<LagrangianModel>(model);
    SmallVec v;
    double T = 0;
    if (m.eval->velocity(s.q.data(), s.p.data(), v)) T = std::abs(m.eval->kinetic(s.q.data(), v.data()));
    const double E = m.energy(s);
    m.scale = std::abs(E) + T > 0 ? std::abs(E) + T : 1.0;
    return s;
  };
  return e;
}

}  // namespace vilab

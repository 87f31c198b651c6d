// Registry entry of `field`: a one-dimensional field u(x, t) on a grid, given as data
// (models/field_model.hpp).
//
// Scenario data: params = {
//   density: {family: wave | klein-gordon | sine-gordon | phi4, rho, kappa (a number, or an
//             expression in x sampled at the cell centres: a stiffness that varies along
//             the string), mass (Klein–Gordon: V = ½m²u²), lambda (φ⁴: V = ¼λ(u² − 1)²)}
//             or {lagrangian: ℒ(u, u_t, u_x, x)},
//   grid: {length, points (≤ 4096), ends: fixed | free | periodic},
//   constants: {name: number} (for the texts)},
// initial = {u, ut}: expressions in x (or numbers) sampled at the nodes; a fixed end keeps
// its u and does not move. Canonical state: q = u, p = w_i Δx ∂ℒ/∂u_t per node.
#include <algorithm>
#include <cmath>

#include "vilab/expr/parse.hpp"
#include "vilab/json.hpp"
#include "vilab/limits.hpp"
#include "vilab/registry.hpp"

namespace vilab {

namespace {

// The plucked string: fixed ends, plucked at p = 0.3 of its length by a finger of
// rounded tip: min(x/p, (1 − x)/(1 − p)) with its corner rounded over r (a hyperbola),
// less the line through its values e0, e1 at the ends, times a (RK4 damps the
// triangle's sharp corner in its first steps, this one over the run).
const char* const kDefaultDefinition = R"json({
  "density": { "family": "wave", "rho": 1, "kappa": 1 },
  "grid": { "length": 1, "points": 128, "ends": "fixed" },
  "constants": { "a": 0.05, "p": 0.3, "r": 0.3, "e0": -0.015580082715798138, "e1": -0.006736386329764921 }
})json";
const char* const kDefaultInitial = R"json({
  "u": "a*((x/p + (1 - x)/(1 - p) - sqrt((x/p - (1 - x)/(1 - p))^2 + r^2))/2 - e0*(1 - x) - e1*x)",
  "ut": "0"
})json";

// The JSON Schema of params (draft-07), the structure parseField reads.
const char* const kParamsSchema =
    R"json({"type": "object", "additionalProperties": false, "required": ["density", "grid"], "properties": {"density": {"type": "object", "additionalProperties": false, "properties": {"family": {"enum": ["wave", "klein-gordon", "sine-gordon", "phi4"]}, "lagrangian": {"type": "string"}, "rho": {"type": "number", "exclusiveMinimum": 0}, "kappa": {"anyOf": [{"type": "number", "exclusiveMinimum": 0}, {"type": "string"}]}, "mass": {"type": "number", "minimum": 0}, "lambda": {"type": "number", "exclusiveMinimum": 0}}}, "grid": {"type": "object", "additionalProperties": false, "required": ["points"], "properties": {"length": {"type": "number", "exclusiveMinimum": 0}, "points": {"type": "integer", "minimum": 2, "maximum": 4096}, "ends": {"enum": ["fixed", "free", "periodic"]}}}, "constants": {"type": "object", "additionalProperties": {"type": "number"}}}})json";

Json parseBuiltIn(const std::string& text, const char* field) {
  return parseJsonText(text, field, limits::kMaxScenarioDepth);
}

std::string readString(const Json& v, const std::string& field) {
  if (!v.is_string()) throw InputError(InputErrorCode::Type, field, "must be a string, got " + describeJson(v));
  return v.get<std::string>();
}

// A number of the density in (0, 1e6] (or [0, 1e6] for a mass).
double readCoefficient(const Json& obj, const char* key, const std::string& at, double fallback, bool zeroAllowed) {
  if (!obj.contains(key)) return fallback;
  const std::string field = joinField(at, key);
  const double x = readNumber(obj[key], field);
  if (!((zeroAllowed ? x >= 0 : x > 0) && x <= 1e6))
    throw InputError(InputErrorCode::Range, field,
                     std::string("must be in ") + (zeroAllowed ? "[0" : "(0") + ", 1e6], got " + formatNumber(x));
  return x;
}

// An expression in x (text or a number) evaluated at the points xs; timeUse: why it may
// not depend on t.
std::vector<double> evaluateAt(const FieldModel& m, const Json& e, const std::string& field,
                               const std::vector<double>& xs, const char* timeUse) {
  const std::string text = e.is_number() ? formatNumber(e.get<double>()) : readString(e, field);
  expr::Scope scope;
  scope.coordinates = {"x"};
  scope.constants = m.constants;
  scope.velocities = false;
  scope.timeUse = timeUse;
  expr::Graph graph;
  const int node = expr::parseExpression(text, field, scope, graph).node;
  const expr::Program program(graph, {node});
  std::vector<double> registers, out(xs.size());
  for (std::size_t i = 0; i < xs.size(); ++i) {
    const double vars[3] = {xs[i], 0, 0};
    program.run(vars, &out[i], registers);
  }
  return out;
}

// κ: a number, or an expression in x sampled at the cell centres, each κ_c in (0, 1e6].
// An expression with the same value in every cell is that number (the constant density,
// its bits included).
void readKappa(const Json& d, const std::string& at, FieldModel& m) {
  field::Density& k = m.density;
  if (!d.contains("kappa") || !d["kappa"].is_string()) {
    k.kappa = readCoefficient(d, "kappa", at, 1, false);
    return;
  }
  const std::string field = at + ".kappa";
  std::vector<double> centres(static_cast<std::size_t>(field::cellCount(m.grid)));
  for (std::size_t c = 0; c < centres.size(); ++c) centres[c] = (static_cast<double>(c) + 0.5) * m.grid.spacing();
  std::vector<double> kappas = evaluateAt(m, d["kappa"], field, centres, "the stiffness κ(x) is fixed in time");
  for (std::size_t c = 0; c < kappas.size(); ++c)
    if (!(kappas[c] > 0 && kappas[c] <= 1e6))
      throw InputError(InputErrorCode::Range, field,
                       "must be in (0, 1e6] at every cell centre, got " + formatNumber(kappas[c]) +
                           " at x = " + formatNumber(centres[c]));
  k.kappa = kappas[0];
  if (std::any_of(kappas.begin(), kappas.end(), [&](double v) { return v != k.kappa; })) k.kappas = std::move(kappas);
}

void readDensity(const Json& d, FieldModel& m) {
  const std::string at = "params.density";
  requireObject(d, at);
  rejectUnknownKeys(d, at, {"family", "lagrangian", "rho", "kappa", "mass", "lambda"});
  if (d.contains("lagrangian")) {
    if (d.contains("family"))
      throw InputError(InputErrorCode::Conflict, at + ".family",
                       "a density is a family or a typed lagrangian, not both");
    for (const char* key : {"rho", "kappa", "mass", "lambda"})
      if (d.contains(key))
        throw InputError(InputErrorCode::Invalid, joinField(at, key),
                         "belongs to a built-in family (a typed lagrangian holds its own coefficients)");
#ifdef VILAB_LEAN
    throw NotInLeanBuild(at + ".lagrangian", "a density typed as text");
#else
    m.family = "lagrangian";
    m.typed = std::make_shared<const field::DataDensity>(readString(d["lagrangian"], at + ".lagrangian"),
                                                         at + ".lagrangian", m.constants, false);
    return;
#endif
  }
  m.family = d.contains("family") ? readString(d["family"], at + ".family") : "wave";
  field::Density& k = m.density;
  k.rho = readCoefficient(d, "rho", at, 1, false);
  readKappa(d, at, m);
  const auto only = [&](const char* key, const char* family) {
    if (d.contains(key) && m.family != family)
      throw InputError(InputErrorCode::Invalid, joinField(at, key),
                       std::string("belongs to the ") + family + " family, not " + m.family);
  };
  only("mass", "klein-gordon");
  only("lambda", "phi4");
  if (m.family == "wave") return;
  if (m.family == "klein-gordon") {
    const double mass = readCoefficient(d, "mass", at, 1, true), m2 = mass * mass;
    k.potential = [m2](double u) { return 0.5 * m2 * u * u; };
    k.potentialSlope = [m2](double u) { return m2 * u; };
    k.potentialCurvature = [m2](double) { return m2; };
  } else if (m.family == "sine-gordon") {
    k.potential = [](double u) { return 1 - dm::cos(u); };
    k.potentialSlope = [](double u) { return dm::sin(u); };
    k.potentialCurvature = [](double u) { return dm::cos(u); };
  } else if (m.family == "phi4") {
    const double l = readCoefficient(d, "lambda", at, 1, false);
    k.potential = [l](double u) { return 0.25 * l * (u * u - 1) * (u * u - 1); };
    k.potentialSlope = [l](double u) { return l * u * (u * u - 1); };
    k.potentialCurvature = [l](double u) { return l * (3 * u * u - 1); };
  } else {
    throw InputError(InputErrorCode::Invalid, at + ".family",
                     "must be wave, klein-gordon, sine-gordon or phi4, got \"" + cutForMessage(m.family) + "\"");
  }
}

void readGrid(const Json& g, FieldModel& m) {
  const std::string at = "params.grid";
  requireObject(g, at);
  rejectUnknownKeys(g, at, {"length", "points", "ends"});
  field::Grid& grid = m.grid;
  grid.length = g.contains("length") ? readNumber(g["length"], at + ".length") : 1.0;
  if (!(grid.length > 0 && grid.length <= limits::kMaxCoordinate))
    throw InputError(InputErrorCode::Range, at + ".length", "must be in (0, 1e6], got " + formatNumber(grid.length));
  const std::string ends = g.contains("ends") ? readString(g["ends"], at + ".ends") : "fixed";
  if (ends == "fixed")
    grid.ends = field::Ends::Fixed;
  else if (ends == "free")
    grid.ends = field::Ends::Free;
  else if (ends == "periodic")
    grid.ends = field::Ends::Periodic;
  else
    throw InputError(InputErrorCode::Invalid, at + ".ends",
                     "must be fixed, free or periodic, got \"" + cutForMessage(ends) + "\"");
  if (!g.contains("points")) throw InputError(InputErrorCode::Missing, at + ".points", "is required");
  const double points = readNumber(g["points"], at + ".points");
  const int least = grid.ends == field::Ends::Periodic ? 3 : 2;
  if (!(points == std::floor(points) && points >= least && points <= field::kMaxFieldPoints))
    throw InputError(InputErrorCode::Range, at + ".points",
                     "must be a whole number in [" + std::to_string(least) + ", " +
                         std::to_string(field::kMaxFieldPoints) + "], got " + formatNumber(points));
  grid.points = static_cast<int>(points);
}

void readConstants(const Json& c, FieldModel& m) {
  const std::string at = "params.constants";
  requireObject(c, at);
  if (c.size() > 32) throw InputError(InputErrorCode::TooLarge, at, "at most 32 constants");
  for (auto it = c.begin(); it != c.end(); ++it) {
    const std::string field = joinField(at, cutForMessage(it.key()));
    const std::string& name = it.key();
    bool word = !name.empty() && !std::isdigit(static_cast<unsigned char>(name[0]));
    for (char ch : name) word = word && (std::isalnum(static_cast<unsigned char>(ch)) || ch == '_');
    if (!word || expr::reservedName(name) || name == "u" || name == "u_t" || name == "u_x" || name == "x")
      throw InputError(InputErrorCode::Invalid, field,
                       "is not a name a constant may take (letters, digits and _, not u, u_t, u_x, x or a function)");
    m.constants.emplace_back(name, readNumber(it.value(), field));
  }
}

// The model from `params`, validated; each field named from "params.".
FieldModel parseField(const Json& params) {
#ifdef VILAB_LEAN
  (void)params;
  throw NotInLeanBuild("params", "a field");
#endif
  requireObject(params, "params");
  rejectUnknownKeys(params, "params", {"density", "grid", "constants"});
  FieldModel m;
  if (params.contains("constants")) readConstants(params["constants"], m);
  if (!params.contains("grid")) throw InputError(InputErrorCode::Missing, "params.grid", "is required");
  readGrid(params["grid"], m);
  readDensity(params.contains("density") ? params["density"] : Json::object(), m);
  return m;
}

// The samples of an expression in x (text or a number) at the nodes.
std::vector<double> sample(const FieldModel& m, const Json& e, const std::string& field) {
  std::vector<double> xs(static_cast<std::size_t>(m.points()));
  for (int i = 0; i < m.points(); ++i) xs[static_cast<std::size_t>(i)] = m.grid.x(i);
  const std::vector<double> out = evaluateAt(m, e, field, xs, "initial data is at t = 0");
  for (int i = 0; i < m.points(); ++i) {
    const double v = out[static_cast<std::size_t>(i)];
    if (!(std::abs(v) <= limits::kMaxCoordinate))
      throw InputError(InputErrorCode::Range, field,
                       "must be finite and at most 1e6 in magnitude at every node, got " + formatNumber(v) +
                           " at x = " + formatNumber(m.grid.x(i)));
  }
  return out;
}

}  // namespace

VILAB_COLD Json fieldParamsSchema() { return parseBuiltIn(kParamsSchema, "paramsSchema"); }

VILAB_COLD SystemEntry fieldEntry() {
  SystemEntry e;
  e.id = "field";
  e.model = ModelKind::Field;
  e.view = ViewKind::Field;
  e.defaultIntegrator = "trapezoid";
  e.defaultH = 0.004;
  e.initialFields = {FieldDoc("u", ""), FieldDoc("ut", "1/s")};
  e.defaultParams = parseBuiltIn(kDefaultDefinition, "params");
  e.parseParams = [](const Json& params, Json& normalized) {
    normalized = params;
    return Model(parseField(params));
  };
  e.build = [](const ParamValues&) { return Model(parseField(parseBuiltIn(kDefaultDefinition, "params"))); };
  e.defaultInitial = [](const ParamValues&) { return parseBuiltIn(kDefaultInitial, "initial"); };
  e.checkIntegrator = [](const Model& model, const IntegratorEntry& integrator) {
    const FieldModel& m = std::get<FieldModel>(model);
    if (m.isTyped() && integrator.id != "midpoint")
      throw InputError(InputErrorCode::NotApplicable, "integrator",
                       "\"" + integrator.id +
                           "\" steps the built-in densities only; a density typed as text runs the box scheme "
                           "(midpoint)");
  };
  e.initialState = [](const Model& model, Json& initial) {
#ifdef VILAB_LEAN
    // Never reached (the lean parser refuses a field first): keeps the expression
    // programs out of the lean module.
    (void)model, (void)initial;
    throw NotInLeanBuild("system", "a field");
#endif
    if (initial.is_null()) initial = Json::object();
    requireObject(initial, "initial");
    rejectUnknownKeys(initial, "initial", {"u", "ut"});
    if (!initial.contains("u")) initial["u"] = "0";
    if (!initial.contains("ut")) initial["ut"] = "0";
    const FieldModel& m = std::get<FieldModel>(model);
    const std::vector<double> u = sample(m, initial["u"], "initial.u"), v = sample(m, initial["ut"], "initial.ut");
    State s;
    s.q = Eigen::Map<const VecX>(u.data(), m.points());
    s.p.resize(m.points());
    for (int i = 0; i < m.points(); ++i) {
      s.p[i] = m.momentum(s.q, v[static_cast<std::size_t>(i)], i);
      if (!std::isfinite(s.p[i]))
        throw InputError(InputErrorCode::Range, "initial.ut",
                         "gives no finite momentum ∂ℒ/∂u_t at x = " + formatNumber(m.grid.x(i)));
    }
    return s;
  };
  return e;
}

}  // namespace vilab

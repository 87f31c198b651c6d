// Registry entry of `field`: a one-dimensional field u(x, t) on a grid, given as data
// (models/field_model.hpp).
//
// Scenario data: params = {
//   density: {family: wave | klein-gordon | sine-gordon | phi4, rho, kappa (a number, or an
//             expression in x sampled at the cell centres: a stiffness that varies along
//             the string), mass (Klein–Gordon: V = ½m²u²), lambda (φ⁴: V = ¼λ(u² − 1)²)}
//             or {lagrangian: ℒ(u, u_t, u_x, x), fields: the components' names (["u"]: one;
//             up to 4, ℒ then in each name, name_t, name_x), symmetries: {name: G (rows of an
//             m × m generator of the linear flow u ↦ e^{sG}u, which must leave ℒ invariant)}},
//   grid: {length, points (≤ 4096), ends: fixed | free | periodic},
//   constants: {name: number} (for the texts)},
// initial = {u, ut}: expressions in x (or numbers) sampled at the nodes; a fixed end keeps
// its u and does not move. Canonical state: q = u, p = w_i Δx ∂ℒ/∂u_t per node. Several
// components: initial = {name, name + "t"} for each (every displacement required), q and p
// component-major.
#include <algorithm>
#include <cmath>
#include <cstdint>

#include "vilab/expr/parse.hpp"
#include "vilab/json.hpp"
#include "vilab/limits.hpp"
#include "vilab/models/field_avi_typed.hpp"
#include "vilab/models/field_lines.hpp"
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
    R"json({"type": "object", "additionalProperties": false, "required": ["density", "grid"], "properties": {"density": {"type": "object", "additionalProperties": false, "properties": {"family": {"enum": ["wave", "klein-gordon", "sine-gordon", "phi4"]}, "lagrangian": {"type": "string"}, "rho": {"type": "number", "exclusiveMinimum": 0}, "kappa": {"anyOf": [{"type": "number", "exclusiveMinimum": 0}, {"type": "string"}]}, "mass": {"type": "number", "minimum": 0}, "lambda": {"type": "number", "exclusiveMinimum": 0}, "fields": {"type": "array", "minItems": 1, "maxItems": 4, "items": {"type": "string"}}, "symmetries": {"type": "object", "maxProperties": 8, "additionalProperties": {"type": "array", "items": {"type": "array", "items": {"type": "number"}}}}}}, "grid": {"type": "object", "additionalProperties": false, "required": ["points"], "properties": {"length": {"type": "number", "exclusiveMinimum": 0}, "points": {"type": "integer", "minimum": 2, "maximum": 4096}, "ends": {"enum": ["fixed", "free", "periodic"]}}}, "constants": {"type": "object", "additionalProperties": {"type": "number"}}}})json";

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

#ifndef VILAB_LEAN
// A component's name: a letter then letters or digits (so name_t and name_x read
// unambiguously), not x, t, a function's or a constant's name.
bool componentName(const std::string& name, const FieldModel& m) {
  if (name.empty() || name.size() > 8 || !std::isalpha(static_cast<unsigned char>(name[0]))) return false;
  for (char ch : name)
    if (!std::isalnum(static_cast<unsigned char>(ch))) return false;
  if (name == "x" || name == "t" || expr::reservedName(name)) return false;
  return std::none_of(m.constants.begin(), m.constants.end(), [&](const auto& c) { return c.first == name; });
}

// density.fields: the components' names, ["u"] when absent.
std::vector<std::string> readComponents(const Json& d, const std::string& at, const FieldModel& m) {
  if (!d.contains("fields")) return {"u"};
  const std::string field = at + ".fields";
  const Json& f = d["fields"];
  if (!f.is_array()) throw InputError(InputErrorCode::Type, field, "must be an array of names, got " + describeJson(f));
  if (f.empty() || f.size() > static_cast<std::size_t>(field::kMaxFieldComponents))
    throw InputError(InputErrorCode::Range, field,
                     "must name 1 to " + std::to_string(field::kMaxFieldComponents) + " components, got " +
                         std::to_string(f.size()));
  std::vector<std::string> names;
  for (std::size_t k = 0; k < f.size(); ++k) {
    const std::string at_k = field + "[" + std::to_string(k) + "]";
    const std::string name = readString(f[k], at_k);
    if (!componentName(name, m))
      throw InputError(InputErrorCode::Invalid, at_k,
                       "is not a name a component may take (a letter then letters or digits, up to 8; not x, t, a "
                       "function or a constant), got \"" +
                           cutForMessage(name) + "\"");
    for (const std::string& other : names)
      if (other == name || other + "t" == name || name + "t" == other)
        throw InputError(InputErrorCode::Conflict, at_k,
                         "\"" + name + "\" clashes with \"" + other + "\" (the same name, or one's rate key name + t)");
    names.push_back(name);
  }
  return names;
}

// density.symmetries: {name: G}, each G m rows of m numbers; ℒ must be invariant along
// G (δℒ = ℒ_u·Gu + ℒ_{u_t}·Gu_t + ℒ_{u_x}·Gu_x = 0), checked at fixed pseudo-random points.
void readSymmetries(const Json& sj, const std::string& at, const FieldModel& m, field::MultiDensity& d) {
  requireObject(sj, at);
  if (sj.size() > static_cast<std::size_t>(field::kMaxFieldSymmetries))
    throw InputError(InputErrorCode::TooLarge, at,
                     "at most " + std::to_string(field::kMaxFieldSymmetries) + " symmetries");
  const int n = d.components();
  for (auto it = sj.begin(); it != sj.end(); ++it) {
    const std::string field = joinField(at, cutForMessage(it.key()));
    const std::string& name = it.key();
    bool word = !name.empty() && std::isalpha(static_cast<unsigned char>(name[0])) && name.size() <= 24;
    for (char ch : name) word = word && (std::isalnum(static_cast<unsigned char>(ch)) || ch == '_');
    if (!word)
      throw InputError(InputErrorCode::Invalid, field,
                       "is not a name a symmetry may take (a letter, then letters, digits or _)");
    const Json& rows = it.value();
    const std::string shape =
        "must be " + std::to_string(n) + " rows of " + std::to_string(n) + " numbers (the generator G)";
    if (!rows.is_array() || rows.size() != static_cast<std::size_t>(n))
      throw InputError(InputErrorCode::Length, field, shape);
    Eigen::MatrixXd G(n, n);
    for (int a = 0; a < n; ++a) {
      const Json& row = rows[static_cast<std::size_t>(a)];
      if (!row.is_array() || row.size() != static_cast<std::size_t>(n))
        throw InputError(InputErrorCode::Length, field, shape);
      for (int b = 0; b < n; ++b) {
        G(a, b) = readNumber(row[static_cast<std::size_t>(b)],
                             field + "[" + std::to_string(a) + "][" + std::to_string(b) + "]");
        if (!(std::abs(G(a, b)) <= 1e6))
          throw InputError(InputErrorCode::Range, field, "entries must be at most 1e6 in magnitude");
      }
    }
    if (G.cwiseAbs().maxCoeff() == 0)
      throw InputError(InputErrorCode::Invalid, field, "is the zero generator (no flow)");
    field::TestPoints points{0x9e3779b97f4a7c15ull};
    const auto uniform = [&points] { return points.next(); };
    int tested = 0;
    for (int k = 0; k < 16; ++k) {
      double w[3 * field::kMaxFieldComponents];
      for (int j = 0; j < 3 * n; ++j) w[j] = uniform();
      const double x = (uniform() + 0.5) * m.grid.length;
      double rate = 0, scale = 0;
      d.variation(G, w, x, rate, scale);
      if (!std::isfinite(rate) || !std::isfinite(scale)) continue;
      ++tested;
      if (std::abs(rate) > 1e-9 * scale + 1e-12)
        throw InputError(
            InputErrorCode::Invalid, field,
            "is not a symmetry of ℒ: ℒ changes along it at rate " + formatNumber(rate) + " at a test point");
    }
    if (tested == 0)
      throw InputError(InputErrorCode::Invalid, field, "cannot be checked: ℒ is not finite at any of the test points");
    d.symmetries.push_back({name, G});
  }
}
#endif

void readDensity(const Json& d, FieldModel& m) {
  const std::string at = "params.density";
  requireObject(d, at);
  rejectUnknownKeys(d, at, {"family", "lagrangian", "rho", "kappa", "mass", "lambda", "fields", "symmetries"});
  for (const char* key : {"fields", "symmetries"})
    if (d.contains(key) && !d.contains("lagrangian"))
      throw InputError(InputErrorCode::Invalid, joinField(at, key), "belongs to a typed lagrangian");
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
    const std::vector<std::string> names = readComponents(d, at, m);
    if (names != std::vector<std::string>{"u"} || d.contains("symmetries")) {
      auto multi = std::make_shared<field::MultiDensity>(readString(d["lagrangian"], at + ".lagrangian"), names,
                                                         at + ".lagrangian", m.constants);
      if (d.contains("symmetries")) readSymmetries(d["symmetries"], at + ".symmetries", m, *multi);
      m.multi = std::move(multi);
      return;
    }
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
    k.setPotential([m2](double u) { return 0.5 * m2 * u * u; }, [m2](double u) { return m2 * u; },
                   [m2](double) { return m2; });
  } else if (m.family == "sine-gordon") {
    k.setPotential([](double u) { return 1 - dm::cos(u); }, [](double u) { return dm::sin(u); },
                   [](double u) { return dm::cos(u); });
  } else if (m.family == "phi4") {
    const double l = readCoefficient(d, "lambda", at, 1, false);
    k.setPotential([l](double u) { return 0.25 * l * (u * u - 1) * (u * u - 1); },
                   [l](double u) { return l * u * (u * u - 1); }, [l](double u) { return l * (3 * u * u - 1); });
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

#ifndef VILAB_LEAN
// Several components: initial.{name} (required) and initial.{name}t (0 when absent) for each.
State initialMulti(const FieldModel& m, Json& initial) {
  std::vector<std::string> keys;
  for (const std::string& name : m.multi->names()) keys.push_back(name), keys.push_back(name + "t");
  for (auto it = initial.begin(); it != initial.end(); ++it)
    if (std::find(keys.begin(), keys.end(), it.key()) == keys.end()) {
      std::string list;
      for (const std::string& k : keys) list += (list.empty() ? "" : ", ") + k;
      throw InputError(InputErrorCode::UnknownKey, joinField("initial", cutForMessage(it.key())),
                       "unknown field (known: " + list + ")");
    }
  const int n = m.points();
  std::vector<double> u, w;
  for (const std::string& name : m.multi->names()) {
    if (!initial.contains(name))
      throw InputError(InputErrorCode::Missing, "initial." + name,
                       "is required: the displacement of component " + name);
    if (!initial.contains(name + "t")) initial[name + "t"] = "0";
    const std::vector<double> a = sample(m, initial[name], "initial." + name);
    const std::vector<double> b = sample(m, initial[name + "t"], "initial." + name + "t");
    u.insert(u.end(), a.begin(), a.end());
    w.insert(w.end(), b.begin(), b.end());
  }
  State s;
  s.q = Eigen::Map<const VecX>(u.data(), m.size());
  if (!m.momentaMulti(s.q, w, s.p))
    for (int k = 0; k < m.size(); ++k)
      if (!std::isfinite(s.p[k]))
        throw InputError(InputErrorCode::Range, "initial." + m.multi->names()[static_cast<std::size_t>(k / n)] + "t",
                         "gives no finite momentum ∂ℒ/∂u_t at x = " + formatNumber(m.grid.x(k % n)));
  return s;
}
#endif

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
#ifndef VILAB_LEAN
    const FieldModel& m = std::get<FieldModel>(model);
    if (!m.isTyped()) return;
    const std::string& id = integrator.id;
    if (id == "avi") {
      field::TypedCells(linesDensity(m), m.grid);  // refuses a kinetic part other than ½ u_tᵀ M u_t, M constant
      return;
    }
    if (id == "trapezoid" || id == "rk4" || id == "dopri5") {
      field::MultiLines(linesDensity(m), m.grid, id);  // refuses a kinetic part they cannot step
      return;
    }
    if (id != "midpoint")
      throw InputError(InputErrorCode::NotApplicable, "integrator",
                       "\"" + id + "\" does not step a typed density" +
                           (m.multi ? " of " + std::to_string(m.components()) + " components" : std::string()) +
                           ": it runs the box scheme (midpoint), the leapfrog (trapezoid), the AVI, RK4 or DOPRI5");
#else
    (void)model, (void)integrator;
#endif
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
    const FieldModel& m = std::get<FieldModel>(model);
#ifndef VILAB_LEAN
    if (m.multi) return initialMulti(m, initial);
#endif
    rejectUnknownKeys(initial, "initial", {"u", "ut"});
    if (!initial.contains("u")) initial["u"] = "0";
    if (!initial.contains("ut")) initial["ut"] = "0";
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

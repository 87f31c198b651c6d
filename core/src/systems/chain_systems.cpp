// Registry entries of the pendulum-like systems: pendulum, spherical pendulum,
// double spherical pendulum and chain (one model, systems/chain.hpp).
#include "vilab/detmath.hpp"
#include "vilab/limits.hpp"
#include "vilab/registry.hpp"

namespace vilab {

namespace {

// Link i's direction and its rate from spherical angles (θ from the downward
// vertical, φ azimuth about z); see ChainAngles.
void anglesToCartesian(const ChainModel& m, const VecX& angles, const VecX& rates, VecX& x, VecX& v) {
  const int per = m.planar ? 1 : 2;
  x.resize(3 * m.bobs());
  v.resize(3 * m.bobs());
  Vec3 xPrev = Vec3::Zero(), vPrev = Vec3::Zero();
  for (int i = 0; i < m.bobs(); ++i) {
    const double th = angles[per * i], dth = rates[per * i];
    const double ph = m.planar ? 0.0 : angles[2 * i + 1], dph = m.planar ? 0.0 : rates[2 * i + 1];
    double sth, cth, sph, cph;
    dm::sincos(th, sth, cth);
    dm::sincos(ph, sph, cph);
    const Vec3 e(sth * cph, sth * sph, -cth);
    const Vec3 de(cth * cph * dth - sth * sph * dph, cth * sph * dth + sth * cph * dph, sth * dth);
    xPrev += m.lengths[i] * e;
    vPrev += m.lengths[i] * de;
    x.segment<3>(3 * i) = xPrev;
    v.segment<3>(3 * i) = vPrev;
  }
}

int linkCount(const ParamValues& params) { return static_cast<int>(params.get("masses").size()); }

Json rowsOf(const std::vector<std::vector<double>>& rows) {
  Json j = Json::array();
  for (const auto& r : rows) j.push_back(r);
  return j;
}

// Default initial data of a chain of another length than its system's default: every
// link tilted 0.6 rad (long chains released from near horizontal whip their free end
// faster than h = 0.01 resolves).
Json defaultsForLinks(int n, bool planar) {
  Json j = Json::object();
  std::vector<std::vector<double>> a(n, {0.6, 0.0}), r(n, {0.0, 0.0});
  if (planar) {
    j["angles"] = std::vector<double>(n, 0.6);
    j["rates"] = std::vector<double>(n, 0.0);
  } else {
    r[0][1] = 0.5;
    j["angles"] = rowsOf(a);
    j["rates"] = rowsOf(r);
  }
  return j;
}

Model buildChain(const ParamValues& params, bool planar) {
  ChainModel m;
  m.masses = params.get("masses");
  m.lengths = params.get("lengths");
  m.g = params.number("g");
  m.planar = planar;
  m.damping = params.number("damping");
  if (m.lengths.size() != m.masses.size())
    throw InputError(InputErrorCode::Length, "params.lengths",
                     "expected " + std::to_string(m.masses.size()) + " entries (one per link, like masses), got " +
                         std::to_string(m.lengths.size()));
  return m;
}

// Canonical state from `initial` (angles and rates, or positions and velocities),
// validated, projected onto the manifold; `initial` is normalized in place.
State chainInitialState(const ChainModel& m, Json& initial, const Json& defaults) {
  const bool planar = m.planar;
  const int n = m.bobs();
  if (initial.empty()) initial = defaults;
  VecX x, v;
  const bool hasAngles = initial.contains("angles") || initial.contains("rates");
  const bool hasCartesian = initial.contains("positions") || initial.contains("velocities");
  if (hasAngles && hasCartesian)
    throw InputError(InputErrorCode::Conflict, "initial",
                     "give either angles and rates, or positions and velocities, not both");
  if (hasAngles) {
    rejectUnknownKeys(initial, "initial", {"angles", "rates"});
    if (!initial.contains("angles"))
      throw InputError(InputErrorCode::Missing, "initial.angles", "is required with initial.rates");
    const int per = planar ? 1 : 2;
    VecX angles(per * n), rates = VecX::Zero(per * n);
    if (planar) {
      const auto a = readNumbers(initial["angles"], "initial.angles", n, n);
      for (int i = 0; i < n; ++i) angles[i] = a[i];
      if (initial.contains("rates")) {
        const auto r = readNumbers(initial["rates"], "initial.rates", n, n);
        for (int i = 0; i < n; ++i) rates[i] = r[i];
      }
      initial["rates"] = std::vector<double>(rates.data(), rates.data() + n);
    } else {
      const auto a = readRows(initial["angles"], "initial.angles", n, 2);
      for (int i = 0; i < n; ++i) angles.segment<2>(2 * i) << a[i][0], a[i][1];
      std::vector<std::vector<double>> r(n, std::vector<double>(2, 0.0));
      if (initial.contains("rates")) r = readRows(initial["rates"], "initial.rates", n, 2);
      for (int i = 0; i < n; ++i) rates.segment<2>(2 * i) << r[i][0], r[i][1];
      initial["rates"] = rowsOf(r);
    }
    for (Eigen::Index i = 0; i < rates.size(); ++i)
      if (std::abs(rates[i]) > limits::kMaxRate)
        throw InputError(InputErrorCode::Range, "initial.rates", "must be at most 1e4 rad/s in magnitude");
    for (Eigen::Index i = 0; i < angles.size(); ++i)
      if (std::abs(angles[i]) > limits::kMaxAngle)
        throw InputError(InputErrorCode::Range, "initial.angles", "must be at most 1e4 rad in magnitude");
    anglesToCartesian(m, angles, rates, x, v);
  } else {
    rejectUnknownKeys(initial, "initial", {"positions", "velocities"});
    if (!initial.contains("positions"))
      throw InputError(InputErrorCode::Missing, "initial.positions", "is required with initial.velocities");
    const auto xs = readRows(initial["positions"], "initial.positions", n, 3);
    std::vector<std::vector<double>> vs(n, std::vector<double>(3, 0.0));
    if (initial.contains("velocities")) vs = readRows(initial["velocities"], "initial.velocities", n, 3);
    x.resize(3 * n);
    v.resize(3 * n);
    for (int i = 0; i < n; ++i)
      for (int c = 0; c < 3; ++c) {
        x[3 * i + c] = xs[i][c];
        v[3 * i + c] = vs[i][c];
        if (std::abs(vs[i][c]) > limits::kMaxSpeed)
          throw InputError(InputErrorCode::Range, "initial.velocities[" + std::to_string(i) + "]",
                           "must be at most 1e4 m/s in magnitude");
      }
    initial["velocities"] = rowsOf(vs);
  }
  m.projectPositionsVelocities(x, v, hasAngles ? "initial.angles" : "initial.positions",
                               hasAngles ? "initial.rates" : "initial.velocities");
  State s;
  s.q = x;
  s.p = v;
  for (int i = 0; i < n; ++i) s.p.segment<3>(3 * i) *= m.masses[i];
  return s;
}

VILAB_COLD SystemEntry chainFamilyEntry(const std::string& id, int links, int minLinks, int maxLinks, bool planar,
                                        Json defaults, double defaultH) {
  SystemEntry e;
  e.id = id;
  const double massDefault = links > 2 ? 0.1 : 1.0;
  const double lengthDefault = links > 2 ? 0.25 : 1.0;
  e.params = {ParamSpec::perBody("masses", "kg", massDefault, links, minLinks, maxLinks, 0, 1e6, true),
              ParamSpec::perBody("lengths", "m", lengthDefault, links, minLinks, maxLinks, 0, 1e3, true),
              ParamSpec::number("g", "m/s²", 9.81, 0, 1000, false).as(Quantity::Gravity),
              ParamSpec::number("damping", "N·s/m", 0.0, 0, 1e6, false)};
  e.initialFields = {{"angles", "rad"}, {"rates", "rad/s"}, {"positions", "m"}, {"velocities", "m/s"}};
  e.model = ModelKind::Chain;
  e.view = ViewKind::Linkage;
  e.minBodies = minLinks;
  e.maxBodies = maxLinks;
  e.defaultIntegrator = "midpoint";
  e.defaultH = defaultH;
  e.build = [planar](const ParamValues& params) { return buildChain(params, planar); };
  e.defaultInitial = [defaults, planar](const ParamValues& params) {
    const int n = linkCount(params);
    if (static_cast<int>(defaults["angles"].size()) == n) return defaults;
    return defaultsForLinks(n, planar);
  };
  e.initialState = [defaults](const Model& model, Json& initial) {
    const ChainModel& m = std::get<ChainModel>(model);
    const int n = m.bobs();
    const bool same = static_cast<int>(defaults["angles"].size()) == n;
    return chainInitialState(m, initial, same ? defaults : defaultsForLinks(n, m.planar));
  };
  return e;
}

}  // namespace

VILAB_COLD SystemEntry pendulumEntry() {
  SystemEntry e = chainFamilyEntry("pendulum", 1, 1, 1, true, Json{{"angles", {1.0}}, {"rates", {0.0}}}, 0.01);
  // Jacobi's solution (exact/pendulum.hpp) is that of the undamped pendulum with gravity.
  e.exact = ExactCapability{
      ExactSolution::Pendulum,
      {{"params.damping", ExactCondition::Test::Equals, 0}, {"params.g", ExactCondition::Test::Above, 0}}};
  return e;
}
VILAB_COLD SystemEntry sphericalPendulumEntry() {
  return chainFamilyEntry("spherical-pendulum", 1, 1, 1, false, Json{{"angles", {{1.0, 0.0}}}, {"rates", {{0.0, 3.0}}}},
                          0.01);
}
VILAB_COLD SystemEntry doubleSphericalPendulumEntry() {
  return chainFamilyEntry("double-spherical-pendulum", 2, 2, 2, false,
                          Json{{"angles", {{1.6, 0.0}, {2.2, 0.8}}}, {"rates", {{0.0, 1.2}, {0.0, -0.6}}}}, 0.01);
}
VILAB_COLD SystemEntry chainEntry() {
  std::vector<std::vector<double>> a(8, {1.3, 0.0}), r(8, {0.0, 0.0});
  r[0][1] = 0.5;
  return chainFamilyEntry("chain", 8, 1, limits::kMaxLinks, false, Json{{"angles", rowsOf(a)}, {"rates", rowsOf(r)}},
                          // The free end of a chain released from near horizontal whips fast;
                          // h = 0.01 resolves it for a few minutes, h = 0.005 for much longer.
                          0.005);
}

VILAB_COLD SystemEntry oscillatorEntry() {
  SystemEntry e;
  e.id = "oscillator";
  e.params = {ParamSpec::number("mass", "kg", 1.0, 0, 1e6, true),
              ParamSpec::number("stiffness", "N/m", 1.0, 0, 1e6, true),
              ParamSpec::number("damping", "N·s/m", 0.0, 0, 1e6, false)};
  e.initialFields = {{"position", "m"}, {"velocity", "m/s"}};
  e.model = ModelKind::Oscillator;
  e.view = ViewKind::Oscillator;
  // exact/oscillator.hpp: the undamped oscillator (it has no other forcing).
  e.exact = ExactCapability{ExactSolution::Oscillator, {{"params.damping", ExactCondition::Test::Equals, 0}}};
  e.defaultIntegrator = "midpoint";
  e.defaultH = 0.1;
  e.build = [](const ParamValues& params) {
    OscillatorModel m;
    m.mass = params.number("mass");
    m.stiffness = params.number("stiffness");
    m.damping = params.number("damping");
    return Model(m);
  };
  e.defaultInitial = [](const ParamValues&) { return Json{{"position", 1.0}, {"velocity", 0.0}}; };
  e.initialState = [](const Model& model, Json& initial) {
    const OscillatorModel& m = std::get<OscillatorModel>(model);
    if (initial.empty()) initial = Json{{"position", 1.0}, {"velocity", 0.0}};
    rejectUnknownKeys(initial, "initial", {"position", "velocity"});
    const double x = initial.contains("position") ? readNumber(initial["position"], "initial.position") : 0.0;
    const double v = initial.contains("velocity") ? readNumber(initial["velocity"], "initial.velocity") : 0.0;
    if (std::abs(x) > limits::kMaxCoordinate)
      throw InputError(InputErrorCode::Range, "initial.position", "must be at most 1e6 m in magnitude");
    if (std::abs(v) > limits::kMaxCoordinate)
      throw InputError(InputErrorCode::Range, "initial.velocity", "must be at most 1e6 m/s in magnitude");
    initial = Json{{"position", x}, {"velocity", v}};
    State s;
    s.q = VecX::Constant(1, x);
    s.p = VecX::Constant(1, m.mass * v);
    return s;
  };
  return e;
}

}  // namespace vilab

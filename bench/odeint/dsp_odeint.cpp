// The double spherical pendulum as a user of Boost.Odeint would set it up to do its
// best: Cartesian bob positions and velocities, the constraints |x1| = l1 and
// |x2 − x1| = l2 reduced to index 1 (the multipliers solved from the differentiated
// constraints, a 2×2 system, at every right-hand side evaluation), and after every
// accepted step the standard projection back onto the manifold (Hairer–Lubich–Wanner
// §IV.4): positions onto g(q) = 0 along M⁻¹Dg(q)ᵀ, then velocities onto the tangent
// space in the mass metric. No chart, so no pole; the same masses, lengths, gravity and
// start as vilab's default double spherical pendulum.
//
//   vilab_bench_odeint rk4 <h> <T>        runge_kutta4, fixed step h
//   vilab_bench_odeint dopri5 <tol> <T>   runge_kutta_dopri5, controlled (abs = rel = tol)
//
// prints {"steps", "evaluations", "cpuMs", "energy", "momentum", "constraint"}: thread
// CPU time of the whole run, the largest relative energy and J_z errors sampled every
// 100 steps (and at the end), the largest constraint residual before projection.
#include <array>
#include <boost/numeric/odeint.hpp>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>

namespace ode = boost::numeric::odeint;
using State = std::array<double, 12>;  // x1, x2, v1, v2

namespace {
constexpr double kG = 9.81, kM1 = 1, kM2 = 1, kL1 = 1, kL2 = 1;
long evaluations = 0;

double threadCpuNs() {
  timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return 1e9 * static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec);
}
double dot(const double* a, const double* b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }

// ẍ = −g e_z + M⁻¹Dg(x)ᵀλ with Dg M⁻¹ Dgᵀ λ = −(d/dt Dg) ẋ − Dg(−g e_z).
void rhs(const State& s, State& ds, double /*t*/) {
  ++evaluations;
  double d1[3], d2[3], u1[3], u2[3];
  for (int c = 0; c < 3; ++c) {
    d1[c] = s[c];
    d2[c] = s[3 + c] - s[c];
    u1[c] = s[6 + c];
    u2[c] = s[9 + c] - s[6 + c];
  }
  const double a11 = dot(d1, d1) / kM1, a12 = -dot(d1, d2) / kM1, a22 = dot(d2, d2) * (1 / kM1 + 1 / kM2);
  const double b1 = -dot(u1, u1) + kG * d1[2], b2 = -dot(u2, u2);
  const double det = a11 * a22 - a12 * a12;
  const double l1 = (b1 * a22 - a12 * b2) / det, l2 = (a11 * b2 - a12 * b1) / det;
  for (int c = 0; c < 3; ++c) {
    ds[c] = s[6 + c];
    ds[3 + c] = s[9 + c];
    ds[6 + c] = (l1 * d1[c] - l2 * d2[c]) / kM1;
    ds[9 + c] = l2 * d2[c] / kM2;
  }
  ds[8] -= kG;
  ds[11] -= kG;
}

// Potential from the lowest configuration, as vilab measures it, so that relative errors
// share the denominator.
double energy(const State& s) {
  return 0.5 * kM1 * dot(&s[6], &s[6]) + 0.5 * kM2 * dot(&s[9], &s[9]) +
         kG * (kM1 * (s[2] + kL1) + kM2 * (s[5] + kL1 + kL2));
}
double jz(const State& s) { return kM1 * (s[0] * s[7] - s[1] * s[6]) + kM2 * (s[3] * s[10] - s[4] * s[9]); }
double residual(const State& s) {
  const double d2[3] = {s[3] - s[0], s[4] - s[1], s[5] - s[2]};
  return std::max(std::abs(std::sqrt(dot(&s[0], &s[0])) - kL1), std::abs(std::sqrt(dot(d2, d2)) - kL2));
}

// Solves the 2×2 system Dg(q) M⁻¹ Dg(q)ᵀ z = b (rows at the links d1, d2).
void gramSolve(const double* d1, const double* d2, double b1, double b2, double& z1, double& z2) {
  const double a11 = dot(d1, d1) / kM1, a12 = -dot(d1, d2) / kM1, a22 = dot(d2, d2) * (1 / kM1 + 1 / kM2);
  const double det = a11 * a22 - a12 * a12;
  z1 = (b1 * a22 - a12 * b2) / det;
  z2 = (a11 * b2 - a12 * b1) / det;
}

// Positions onto g = 0 along M⁻¹Dg(q)ᵀ (simplified Newton, Dg at the unprojected q),
// then velocities onto Dg v = 0 in the mass metric.
void project(State& s) {
  double d1[3], d2[3];
  for (int c = 0; c < 3; ++c) d1[c] = s[c], d2[c] = s[3 + c] - s[c];
  for (int it = 0; it < 4; ++it) {
    double e1[3], e2[3];
    for (int c = 0; c < 3; ++c) e1[c] = s[c], e2[c] = s[3 + c] - s[c];
    const double g1 = 0.5 * (dot(e1, e1) - kL1 * kL1), g2 = 0.5 * (dot(e2, e2) - kL2 * kL2);
    if (std::max(std::abs(g1), std::abs(g2)) < 1e-15) break;
    double n1, n2;
    gramSolve(d1, d2, g1, g2, n1, n2);
    for (int c = 0; c < 3; ++c) {
      s[c] -= (n1 * d1[c] - n2 * d2[c]) / kM1;
      s[3 + c] -= n2 * d2[c] / kM2;
    }
  }
  for (int c = 0; c < 3; ++c) d1[c] = s[c], d2[c] = s[3 + c] - s[c];
  const double u2[3] = {s[9] - s[6], s[10] - s[7], s[11] - s[8]};
  double m1, m2;
  gramSolve(d1, d2, dot(d1, &s[6]), dot(d2, u2), m1, m2);
  for (int c = 0; c < 3; ++c) {
    s[6 + c] -= (m1 * d1[c] - m2 * d2[c]) / kM1;
    s[9 + c] -= m2 * d2[c] / kM2;
  }
}

// vilab's default start: spherical angles (θ from the downward vertical, φ azimuth)
// [[1.6, 0], [2.2, 0.8]] and rates [[0, 1.2], [0, −0.6]].
State initialState() {
  const double th[2] = {1.6, 2.2}, ph[2] = {0, 0.8}, dth[2] = {0, 0}, dph[2] = {1.2, -0.6}, len[2] = {kL1, kL2};
  State s{};
  double x[3] = {0, 0, 0}, v[3] = {0, 0, 0};
  for (int i = 0; i < 2; ++i) {
    const double st = std::sin(th[i]), ct = std::cos(th[i]), sp = std::sin(ph[i]), cp = std::cos(ph[i]);
    const double e[3] = {st * cp, st * sp, -ct};
    const double de[3] = {ct * cp * dth[i] - st * sp * dph[i], ct * sp * dth[i] + st * cp * dph[i], st * dth[i]};
    for (int c = 0; c < 3; ++c) {
      x[c] += len[i] * e[c];
      v[c] += len[i] * de[c];
      s[3 * i + c] = x[c];
      s[6 + 3 * i + c] = v[c];
    }
  }
  project(s);
  return s;
}

struct Errors {
  double e0, j0, energy = 0, momentum = 0, constraint = 0;
  explicit Errors(const State& s) : e0(::energy(s)), j0(jz(s)) {}
  void sample(const State& s) {
    energy = std::max(energy, std::abs(::energy(s) - e0) / std::abs(e0));
    momentum = std::max(momentum, std::abs(jz(s) - j0) / std::abs(j0));
  }
};
}  // namespace

int main(int argc, char** argv) {
  if (argc < 4 || (std::strcmp(argv[1], "rk4") != 0 && std::strcmp(argv[1], "dopri5") != 0)) {
    std::fprintf(stderr, "usage: vilab_bench_odeint rk4 <h> <T> | dopri5 <tol> <T>\n");
    return 2;
  }
  const double param = std::atof(argv[2]), T = std::atof(argv[3]);
  State s = initialState();
  Errors err(s);
  long steps = 0;
  const double t0 = threadCpuNs();
  if (std::strcmp(argv[1], "rk4") == 0) {
    ode::runge_kutta4<State> stepper;
    const long n = std::lround(T / param);
    double t = 0;
    for (steps = 1; steps <= n; ++steps) {
      stepper.do_step(rhs, s, t, param);
      t += param;
      err.constraint = std::max(err.constraint, steps % 100 == 0 ? residual(s) : 0.0);
      project(s);
      if (steps % 100 == 0) err.sample(s);
    }
    --steps;
  } else {
    auto stepper = ode::make_controlled<ode::runge_kutta_dopri5<State>>(param, param);
    double t = 0, dt = 1e-3;
    while (t < T) {
      if (t + dt > T) dt = T - t;
      if (stepper.try_step(rhs, s, t, dt) != ode::success) continue;  // dt was reduced
      ++steps;
      if (steps % 100 == 0) err.constraint = std::max(err.constraint, residual(s));
      project(s);
      stepper.reset();  // the state moved: the first-same-as-last derivative is stale
      if (steps % 100 == 0) err.sample(s);
    }
  }
  const double cpu = threadCpuNs() - t0;
  err.sample(s);
  std::printf(
      "{\"steps\": %ld, \"evaluations\": %ld, \"cpuMs\": %.3f, \"energy\": %.4e, \"momentum\": %.4e, \"constraint\": "
      "%.4e}\n",
      steps, evaluations, cpu * 1e-6, err.energy, err.momentum, err.constraint);
  return 0;
}

// Micro-benchmark of the AD layer (vilab/ad.hpp): the cost of one evaluation of
// what the generic variational engine asks of it, for several scalar types.
//
//   native: cmake --build build/native --target vilab_ad_bench && build/native/vilab_ad_bench [rounds] [ms]
//   wasm:   cmake --build build/wasm --target vilab_ad_bench && node build/wasm/vilab_ad_bench.cjs [rounds] [ms]
//
// Cases: D1 L_d (the gradient d1Step takes) and D1 L_d with its Jacobian in q_{k+1}
// (the Newton matrix, d1Step(..., &J)) of the midpoint discrete Lagrangian, for the
// penalty double spherical pendulum (ChainPenalty<2>, N = 6), the quaternion rigid
// body (RigidBodyQuaternion, N = 4) and the chart Lagrangian ChainAngles<2> (N = 4).
//
// Variants: "ad.hpp" calls VariationalIntegrator::d1Step itself; the others run the
// same computation (same seeds, same Lagrangian code) with a local copy of Jet whose
// constructor and outlining are switches, or with Eigen's AutoDiffScalar (nested
// for the second derivatives, as is and with direct double operations). Every Jet
// variant must give the bits of ad.hpp. The scalar types are in ad_bench.hpp, and
// each variant is compiled in a unit of its own, variant_*.cpp (why: ad_bench.hpp).
// Rounds interleave the variants (rotating their order); the median CPU time is
// reported (wall time too: on a busy machine it mostly measures the others).
#include "ad_bench.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <string>
#include <vector>

#ifdef __EMSCRIPTEN__
#include <emscripten.h>
// Process CPU time in Node; clock() in emscripten is wall time.
EM_JS(double, cpuMicroseconds, (), {
  const u = process.cpuUsage();
  return u.user + u.system;
});
static double cpuSeconds() { return cpuMicroseconds() * 1e-6; }
#else
static double cpuSeconds() { return static_cast<double>(std::clock()) / CLOCKS_PER_SEC; }
#endif

using namespace vilab;
using namespace adbench;

namespace {

// ---- cases -------------------------------------------------------------------------
ChainModel dspModel() {
  ChainModel m;
  m.masses = {1.0, 1.0};
  m.lengths = {1.0, 1.0};
  return m;
}
// The double-spherical-pendulum defaults: angles (1.6, 0), (2.2, 0.8), rates (0, 1.2), (0, -0.6).
const double kAngles[4] = {1.6, 0.0, 2.2, 0.8}, kRates[4] = {0.0, 1.2, 0.0, -0.6};

Inputs penaltyInputs() {
  const ChainAngles<2> angles{dspModel()};
  Vec<double, 4> u, du;
  for (int i = 0; i < 4; ++i) u[i] = kAngles[i], du[i] = kRates[i];
  Vec<double, 6> x, v;
  angles.cartesian(u, du, x, v);
  Inputs in{0.001, {}, {}};
  for (int i = 0; i < 6; ++i) in.q0.push_back(x[i]), in.delta.push_back(in.h * v[i]);
  return in;
}
Inputs anglesInputs() {
  Inputs in{0.005, {}, {}};
  for (int i = 0; i < 4; ++i) in.q0.push_back(kAngles[i]), in.delta.push_back(in.h * kRates[i]);
  return in;
}
// The rigid-body defaults: q = 1, ω = (0.02, 2, 0.02); q̇ = ½ q ⊗ (0, ω).
Inputs bodyInputs() {
  Inputs in{0.01, {1, 0, 0, 0}, {}};
  const double w[3] = {0.02, 2.0, 0.02};
  in.delta = {0.0, 0.5 * in.h * w[0], 0.5 * in.h * w[1], 0.5 * in.h * w[2]};
  return in;
}

ChainPenalty<2> penaltySystem() { return ChainPenalty<2>{ChainCartesian<2>{dspModel()}, 1e4}; }
ChainAngles<2> anglesSystem() { return ChainAngles<2>{dspModel()}; }
RigidBodyQuaternion bodySystem() {
  RigidBodyModel m;
  m.inertia = Vec3(1, 2, 3);
  return RigidBodyQuaternion(m);
}

using Eval = void (*)(const void* sys, const Inputs& in, Result& out);

template <Variant V, class System, bool Newton>
void evaluateErased(const void* sys, const Inputs& in, Result& out) {
  evaluate<V, System, Newton>(*static_cast<const Subject<System>*>(sys), in, out);
}

struct Case {
  std::string name;
  const void* system = nullptr;
  Inputs in;
  Eval eval[kVariants] = {};
  long iterations[kVariants] = {};
  std::vector<double> cpu[kVariants], wall[kVariants];  // ns per evaluation
};

template <class System, bool Newton>
Case makeCase(const std::string& name, const Subject<System>* sys, const Inputs& in) {
  Case c;
  c.name = name;
  c.system = sys;
  c.in = in;
  const Eval eval[kVariants] = {
      evaluateErased<kLibrary, System, Newton>, evaluateErased<kZeroFill, System, Newton>,
      evaluateErased<kDefault, System, Newton>, evaluateErased<kDefaultInline, System, Newton>,
      evaluateErased<kEigen, System, Newton>,   evaluateErased<kEigenTuned, System, Newton>};
  std::copy(eval, eval + kVariants, c.eval);
  return c;
}

struct Seconds {
  double cpu, wall;
};
Seconds secondsOf(const Case& c, int v, long n, Result& out) {
  const double c0 = cpuSeconds();
  const auto t0 = std::chrono::steady_clock::now();
  for (long k = 0; k < n; ++k) c.eval[v](c.system, c.in, out);
  const auto t1 = std::chrono::steady_clock::now();
  return {cpuSeconds() - c0, std::chrono::duration<double>(t1 - t0).count()};
}

void printTable(const std::vector<Case>& cases, bool cpu) {
  std::printf("  %-38s", "case");
  for (int v = 0; v < kVariants; ++v) std::printf(" %22s", kVariantNames[v]);
  std::printf("\n");
  for (const Case& c : cases) {
    std::printf("  %-38s", c.name.c_str());
    for (int v = 0; v < kVariants; ++v) {
      std::vector<double> t = cpu ? c.cpu[v] : c.wall[v];
      std::sort(t.begin(), t.end());
      char cell[64];
      std::snprintf(cell, sizeof cell, "%.0f (%.0f)", t[t.size() / 2], t.front());
      std::printf(" %22s", cell);
    }
    std::printf("\n");
  }
}

bool sameBits(const std::vector<double>& a, const std::vector<double>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(double)) == 0;
}
double maxRelDiff(const std::vector<double>& a, const std::vector<double>& b) {
  double scale = 0, d = 0;
  for (size_t i = 0; i < a.size(); ++i) scale = std::max(scale, std::abs(a[i]));
  for (size_t i = 0; i < a.size(); ++i) d = std::max(d, std::abs(a[i] - b[i]));
  return scale > 0 ? d / scale : d;
}

}  // namespace

int main(int argc, char** argv) {
  // --count K: K evaluations of each case and variant, untimed, for an instruction
  // counter (valgrind --tool=callgrind: inclusive cost of evaluate<...> / K).
  const bool countOnly = argc > 2 && std::strcmp(argv[1], "--count") == 0;
  const long count = countOnly ? std::atol(argv[2]) : 0;
  const int rounds = !countOnly && argc > 1 ? std::max(1, std::atoi(argv[1])) : 9;
  const double targetSeconds = (!countOnly && argc > 2 ? std::atof(argv[2]) : 40.0) / 1000.0;

  const Subject<ChainPenalty<2>> penalty(penaltySystem(), penaltyInputs().h);
  const Subject<ChainAngles<2>> angles(anglesSystem(), anglesInputs().h);
  const Subject<RigidBodyQuaternion> body(bodySystem(), bodyInputs().h);
  std::vector<Case> cases;
  cases.push_back(makeCase<ChainPenalty<2>, false>("(a) penalty DSP, gradient (N=6)", &penalty, penaltyInputs()));
  cases.push_back(makeCase<ChainPenalty<2>, true>("(b) penalty DSP, Newton matrix", &penalty, penaltyInputs()));
  cases.push_back(makeCase<RigidBodyQuaternion, false>("(c) quaternion body, gradient (N=4)", &body, bodyInputs()));
  cases.push_back(makeCase<RigidBodyQuaternion, true>("(d) quaternion body, Newton matrix", &body, bodyInputs()));
  cases.push_back(makeCase<ChainAngles<2>, false>("(e) ChainAngles<2>, gradient (N=4)", &angles, anglesInputs()));
  cases.push_back(makeCase<ChainAngles<2>, true>("(e) ChainAngles<2>, Newton matrix", &angles, anglesInputs()));

  // Results against ad.hpp: Jet variants must match bit for bit.
  bool identical = true;
  std::printf("results against ad.hpp (d1Step):\n");
  for (Case& c : cases) {
    Result ref, r;
    c.eval[kLibrary](c.system, c.in, ref);
    for (int v = 1; v < kVariants; ++v) {
      c.eval[v](c.system, c.in, r);
      const bool same = sameBits(ref.grad, r.grad) && sameBits(ref.jac, r.jac);
      if (v < kEigen) identical = identical && same;
      std::printf("  %-38s %-24s %s", c.name.c_str(), kVariantNames[v], same ? "bit-identical" : "DIFFERENT");
      if (!same)
        std::printf(" (max rel. diff: gradient %.1e, matrix %.1e)", maxRelDiff(ref.grad, r.grad),
                    ref.jac.empty() ? 0.0 : maxRelDiff(ref.jac, r.jac));
      std::printf("\n");
    }
  }

  Result sink;
  if (countOnly) {
    for (Case& c : cases)
      for (int v = 0; v < kVariants; ++v) secondsOf(c, v, count, sink);
    return identical ? 0 : 1;
  }

  // Calibrate: iterations per timing so that one takes about targetSeconds.
  for (Case& c : cases)
    for (int v = 0; v < kVariants; ++v) {
      long n = 16;
      double t = secondsOf(c, v, n, sink).wall;
      while (t < targetSeconds / 8) n *= 2, t = secondsOf(c, v, n, sink).wall;
      c.iterations[v] = std::max(1L, static_cast<long>(n * targetSeconds / t));
    }
  for (int r = 0; r < rounds; ++r)
    for (Case& c : cases)
      for (int k = 0; k < kVariants; ++k) {
        const int v = (k + r) % kVariants;  // rotate the order every round
        const Seconds t = secondsOf(c, v, c.iterations[v], sink);
        c.cpu[v].push_back(t.cpu * 1e9 / static_cast<double>(c.iterations[v]));
        c.wall[v].push_back(t.wall * 1e9 / static_cast<double>(c.iterations[v]));
      }

  std::printf("\nCPU ns per evaluation, median (min) of %d interleaved rounds of ~%.0f ms:\n", rounds,
              targetSeconds * 1e3);
  printTable(cases, true);
  std::printf("\nwall-clock ns per evaluation, median (min):\n");
  printTable(cases, false);
  if (!identical) {
    std::printf("\nFAIL: a Jet variant differs from ad.hpp\n");
    return 1;
  }
  return 0;
}

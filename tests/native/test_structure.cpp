// The O(N) multiplier path of a chain is the generic engine's map (W–M §4: with a
// constant mass matrix and uniform gravity, Newton reduces to the multipliers). The
// generic engine differentiates L by nested jets, whose 48×48 second derivatives at
// N = 16 outgrow Eigen's stack-allocation guard: lifted here, and run on a thread
// with a large stack.
#define EIGEN_STACK_ALLOCATION_LIMIT 0
#include <pthread.h>

#include "chain_states.hpp"
#include "vilab/integrators/variational.hpp"
#include "vilab/lagrangians/chain.hpp"

using namespace vilab;
using namespace vilab::test;

namespace {

// One step of the generic engine on ChainCartesian<N>, from a canonical state.
template <int Bobs>
State genericStep(const ChainModel& m, DiscreteRule rule, double h, const State& s) {
  const VariationalIntegrator<ChainCartesian<Bobs>> vi(ChainCartesian<Bobs>{m}, rule, h);
  Vec<double, 3 *Bobs> q = s.q, p = s.p;
  REQUIRE(vi.step(q, p).ok);
  State out{q, p};
  ChainMomentumProjector().project(m, out.q, out.p);  // the canonical (tangent) momentum
  return out;
}

template <int N>
void compare(double phase) {
  const ChainModel m = chainModel(N);
  const State s = chainState(m, phase);
  for (DiscreteRule rule : {DiscreteRule::midpoint(), DiscreteRule::alphaFamily(0.3)}) {
    const State a = fastStep(m, rule, 0.01, s), b = genericStep<N>(m, rule, 0.01, s);
    const double dq = maxDifference(a.q, b.q), dp = maxDifference(a.p, b.p) / (1 + b.p.cwiseAbs().maxCoeff());
    INFO("N = " << N << ", α = " << rule.alpha << ": |Δq| " << dq << ", |Δp|/|p| " << dp);
    CHECK(dq <= 1e-14);
    CHECK(dp <= 1e-13);
  }
}

void* compareAll(void*) {
  for (double phase : {0.0, 0.7, 2.1}) {
    compare<2>(phase);
    compare<5>(phase);
    compare<16>(phase);
  }
  return nullptr;
}

}  // namespace

TEST_CASE("structure: the O(N) chain path is the generic engine's map at N = 2, 5 and 16", "[variational][structure]") {
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setstacksize(&attr, 256u << 20);
  pthread_t thread;
  REQUIRE(pthread_create(&thread, &attr, compareAll, nullptr) == 0);
  pthread_join(thread, nullptr);
  pthread_attr_destroy(&attr);
}

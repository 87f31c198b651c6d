// The tridiagonal solve (solver/tridiagonal.hpp): solve() eliminates and sweeps forward in
// one loop, and must give the bits, the pivot ratio and the refusals of factorize() then
// solveFactorized(), fixed-size and sized at run time; its answers against Eigen's.
#include <Eigen/Dense>
#include <catch2/catch.hpp>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include "vilab/solver/tridiagonal.hpp"

using namespace vilab;

namespace {

bool sameEntries(const std::vector<double>& a, const std::vector<double>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(double)) == 0;
}

// A random system of n rows, diagonally dominant (as the chains' Gram matrices are) when
// dominant, else with diagonals as small as the couplings.
template <int N>
void randomSystem(TridiagonalT<N>& t, std::vector<double>& rhs, int n, bool dominant, std::mt19937& rng) {
  std::uniform_real_distribution<double> u(-1, 1);
  t.resize(n);
  rhs.resize(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) {
    t.lower[i] = i > 0 ? u(rng) : 0.0;
    t.upper[i] = i + 1 < n ? u(rng) : 0.0;
    t.diag[i] = dominant ? 2.5 + u(rng) : u(rng);
    rhs[static_cast<std::size_t>(i)] = 1e3 * u(rng);
  }
}

template <int N>
void checkAgainstTwoPasses(int n, bool dominant, std::mt19937& rng) {
  TridiagonalT<N> fused, twoPasses;
  std::vector<double> b;
  randomSystem(fused, b, n, dominant, rng);
  twoPasses = fused;
  const std::vector<double> original = b;
  std::vector<double> expected = b;
  const bool ok = fused.solve(b.data());
  REQUIRE(ok == twoPasses.factorize());
  if (!ok) return;
  twoPasses.solveFactorized(expected.data());
  CHECK(sameEntries(b, expected));
  CHECK(fused.pivotRatio == twoPasses.pivotRatio);
  if (!dominant) return;
  // And the answer, against Eigen's dense LU of the same matrix.
  Eigen::MatrixXd A = Eigen::MatrixXd::Zero(n, n);
  for (int i = 0; i < n; ++i) {
    A(i, i) = fused.diag[i];
    if (i > 0) A(i, i - 1) = fused.lower[i];
    if (i + 1 < n) A(i, i + 1) = fused.upper[i];
  }
  const Eigen::VectorXd reference = A.partialPivLu().solve(Eigen::Map<const Eigen::VectorXd>(original.data(), n));
  const Eigen::Map<const Eigen::VectorXd> x(b.data(), n);
  CHECK((reference - x).cwiseAbs().maxCoeff() <= 1e-12 * reference.cwiseAbs().maxCoeff());
}

}  // namespace

TEST_CASE("the tridiagonal solve in one pass gives the bits of the factorization and its solve",
          "[solver][determinism]") {
  std::mt19937 rng(20261205);
  for (int trial = 0; trial < 200; ++trial) {
    const bool dominant = trial % 2 == 0;
    checkAgainstTwoPasses<-1>(1 + trial % 70, dominant, rng);
    checkAgainstTwoPasses<1>(1, dominant, rng);
    checkAgainstTwoPasses<3>(3, dominant, rng);
    checkAgainstTwoPasses<8>(8, dominant, rng);
  }
}

TEST_CASE("the tridiagonal solve refuses a vanishing or non-finite pivot as the factorization does", "[solver]") {
  std::mt19937 rng(7);
  for (const double bad : {0.0, std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::infinity()}) {
    for (const int at : {0, 3, 9}) {
      Tridiagonal fused, twoPasses;
      std::vector<double> b;
      randomSystem(fused, b, 10, true, rng);
      fused.diag[at] = bad;
      if (at > 0) fused.lower[at] = 0;  // the pivot is then the diagonal itself
      twoPasses = fused;
      CAPTURE(bad, at);
      CHECK_FALSE(twoPasses.factorize());
      CHECK_FALSE(fused.solve(b.data()));
      CHECK(fused.pivotRatio == std::numeric_limits<double>::infinity());
    }
  }
}

// The small products of systems defined by data (solver/strided_dot.hpp): a diagonal
// matrix's product without its zero terms gives the bits of the sums in full.
#include <Eigen/Dense>
#include <array>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>

#include "vilab/solver/strided_dot.hpp"

using namespace vilab;

TEST_CASE("strided dot: diagonalZerosSign tells a diagonal matrix and the sign of its zeros", "[strided_dot]") {
  Eigen::Matrix3d A = Eigen::Matrix3d::Identity();
  CHECK(diagonalZerosSign(A) == 1);
  CHECK(diagonalZerosSign(Eigen::Matrix3d(-A)) == -1);  // −1 · +0 = −0 off the diagonal
  Eigen::Matrix3d mixed = A;
  mixed(0, 1) = -0.0;
  CHECK(diagonalZerosSign(mixed) == 0);
  Eigen::Matrix3d full = A;
  full(2, 0) = 1e-300;
  CHECK(diagonalZerosSign(full) == 0);
  Eigen::Matrix3d infinite = A;
  infinite(1, 1) = std::numeric_limits<double>::infinity();
  CHECK(diagonalZerosSign(infinite) == 0);
  CHECK(diagonalZerosSign(Eigen::Matrix<double, 1, 1>::Constant(2.0)) == 1);  // nothing off it
  // The inverse of a diagonal matrix by the LU in place: zeros signed by its pivots.
  const Eigen::Vector3d d(-2.0, -0.5, -4.0);
  CHECK(diagonalZerosSign(Eigen::Matrix3d(Eigen::Matrix3d(d.asDiagonal()).partialPivLu().inverse())) != 0);
}

TEST_CASE("strided dot: diagonalTimes gives stridedDot's bits, signed zeros included", "[strided_dot][determinism]") {
  // Every row summed in full (stridedDot from its first term) against the one term and
  // its zero's sign. Entries drawn to make zero sums common: zeros of both signs, values
  // that underflow to ±0 in the product, negative runs, and sizes 1 to 8 (a run-time
  // size, as the systems of more than six coordinates have).
  std::mt19937_64 rng(20261206);
  std::uniform_int_distribution<int> kind(0, 7);
  std::uniform_real_distribution<double> uniform(-3.0, 3.0);
  const auto draw = [&]() {
    switch (kind(rng)) {
      case 0: return 0.0;
      case 1: return -0.0;
      case 2: return 1e-300 * uniform(rng);  // its product with a small diagonal underflows
      case 3: return -std::abs(uniform(rng));
      default: return uniform(rng);
    }
  };
  std::uint64_t rows = 0, zeroRows = 0, negativeZeroRows = 0;
  for (int trial = 0; trial < 20000; ++trial) {
    const int n = 1 + trial % 8;
    const int sign = trial / 8 % 2 ? 1 : -1;
    Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, 0, 8, 8> A(n, n);
    for (int j = 0; j < n; ++j)
      for (int i = 0; i < n; ++i) {
        const double d = trial % 3 == 0 ? 1e-20 * uniform(rng) : uniform(rng);
        A(i, j) = i == j ? (d == 0 ? 1.0 : d) : (sign > 0 ? 0.0 : -0.0);
      }
    REQUIRE((n == 1 || diagonalZerosSign(A) == sign));
    std::array<double, 8> x{}, y{};
    for (int j = 0; j < n; ++j) x[j] = draw();
    diagonalTimes(A.data(), A.outerStride(), sign, x.data(), y.data(), n);
    for (int i = 0; i < n; ++i) {
      const double sum = stridedDot(&A(i, 0), A.outerStride(), x.data(), 1, n);
      INFO("n = " << n << ", row " << i << ": " << sum << " against " << y[i]);
      REQUIRE(std::memcmp(&y[i], &sum, sizeof sum) == 0);  // the same bits
      ++rows;
      if (sum == 0) ++zeroRows;
      if (sum == 0 && std::signbit(sum)) ++negativeZeroRows;
    }
  }
  // The zero sums of both signs were met, so their signs were tested.
  CHECK(zeroRows > rows / 20);
  CHECK(negativeZeroRows > 100);

  // A coordinate that is not finite: the sums' rows are all NaN; diagonalTimes' row of
  // that coordinate is not finite (what its callers refuse on).
  const Eigen::Matrix3d A = Eigen::Vector3d(2.0, 3.0, 4.0).asDiagonal();
  for (const double bad : {std::numeric_limits<double>::infinity(), std::numeric_limits<double>::quiet_NaN()}) {
    const std::array<double, 3> x{1.0, bad, -2.0};
    std::array<double, 3> y{};
    diagonalTimes(A.data(), A.outerStride(), 1, x.data(), y.data(), 3);
    CHECK_FALSE(std::isfinite(y[1]));
    CHECK(std::isnan(stridedDot(&A(0, 0), A.outerStride(), x.data(), 1, 3)));
  }
}

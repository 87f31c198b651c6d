// The pivoted LU (solver/small_lu.hpp) over fixed-size, small dynamic and dense dynamic
// matrices: solutions against Eigen's dense solve, the same bits for both dynamic types
// and for many right-hand sides as for one, pivoting where the diagonal alone would lose
// every digit, and singular or non-finite input.
#include <Eigen/Dense>
#include <array>
#include <catch2/catch.hpp>
#include <cstring>
#include <limits>
#include <random>

#include "vilab/solver/small_lu.hpp"
#include "vilab/types.hpp"

using namespace vilab;

namespace {

// A random matrix whose diagonal is small against the rest: partial pivoting must
// reorder the rows (a diagonal LU would lose every digit or divide by zero).
Eigen::MatrixXd offDiagonal(int n, std::mt19937& rng) {
  std::uniform_real_distribution<double> u(-1, 1);
  Eigen::MatrixXd A(n, n);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) A(i, j) = i == j ? 1e-14 * u(rng) : u(rng);
  return A;
}

// The largest error of x against Eigen's partial-pivoting solve, relative to its size.
double relativeError(const Eigen::MatrixXd& A, const Eigen::MatrixXd& b, const Eigen::MatrixXd& x) {
  const Eigen::MatrixXd reference = A.partialPivLu().solve(b);
  return (x - reference).cwiseAbs().maxCoeff() / reference.cwiseAbs().maxCoeff();
}

template <int N>
void checkFixed(std::mt19937& rng) {
  using Matrix = Eigen::Matrix<double, N, N>;
  using Vector = Eigen::Matrix<double, N, 1>;
  const Eigen::MatrixXd dense = offDiagonal(N, rng);
  const Matrix A = dense;
  const Vector b = Vector::Random();
  PivotedLU<Matrix> lu;
  REQUIRE(lu.compute(A));
  INFO("N = " << N << ", pivot ratio " << lu.pivotRatio());
  CHECK(lu.pivotRatio() < 1e4);
  const Vector x = lu.solve(b);
  CHECK(relativeError(dense, b, x) <= 1e-13);
  CHECK((A * x - b).cwiseAbs().maxCoeff() <= 1e-13 * b.cwiseAbs().maxCoeff() * N);
  // A matrix of right-hand sides: each column by the vector's own operations.
  const Matrix B = Matrix::Random();
  const Matrix X = lu.solve(B);
  for (int j = 0; j < N; ++j) CHECK(X.col(j) == lu.solve(Vector(B.col(j))));
  CHECK((lu.inverse() * A - Matrix::Identity()).cwiseAbs().maxCoeff() <= 1e-12);
  // The same matrix as a dynamic one: the same factorization; the dynamic types divide by
  // the pivots where fixed sizes multiply by their reciprocals (within rounding), and
  // both dynamic types give the same bits.
  PivotedLU<SmallMat> small;
  PivotedLU<Eigen::MatrixXd> large;
  REQUIRE(small.compute(SmallMat(dense)));
  REQUIRE(large.compute(dense));
  CHECK(small.pivotRatio() == lu.pivotRatio());
  CHECK(large.pivotRatio() == lu.pivotRatio());
  SmallVec xs = SmallVec(b);
  VecX xl = VecX(b);
  small.solveInPlace(xs);
  large.solveInPlace(xl);
  CHECK(VecX(xs) == xl);
  CHECK((Vector(xs) - x).cwiseAbs().maxCoeff() <= 1e-14 * x.cwiseAbs().maxCoeff() * N);
}

}  // namespace

TEST_CASE("pivoted LU: fixed sizes against a dense solve and against dynamic sizes", "[solver]") {
  std::mt19937 rng(7);
  checkFixed<2>(rng);
  checkFixed<3>(rng);
  checkFixed<5>(rng);
  checkFixed<8>(rng);
  checkFixed<12>(rng);
  checkFixed<16>(rng);
}

TEST_CASE("pivoted LU: dynamic sizes against a dense solve", "[solver]") {
  std::mt19937 rng(13);
  for (int n : {1, 3, 7, 16, 32}) {
    const Eigen::MatrixXd A = offDiagonal(n, rng);
    const Eigen::MatrixXd b = Eigen::MatrixXd::Random(n, 3);
    SmallLU lu;
    REQUIRE(lu.compute(SmallMat(A)));
    INFO("SmallMat n = " << n);
    CHECK(relativeError(A, b, lu.solve(SmallMat(b))) <= 1e-12);
  }
  // Dense dynamic sizes beyond SmallMat's 32 (the Gauss–Legendre Newton matrices).
  for (int n : {40, 128}) {
    const Eigen::MatrixXd A = offDiagonal(n, rng);
    const VecX b = VecX::Random(n);
    PivotedLU<Eigen::MatrixXd> lu;
    REQUIRE(lu.compute(A));
    VecX x = b;
    lu.solveInPlace(x);
    INFO("MatrixXd n = " << n);
    CHECK(relativeError(A, b, x) <= 1e-11);
    // A second factorization of another size reuses the object.
    REQUIRE(lu.compute(A.topLeftCorner(n / 2, n / 2)));
    VecX y = b.head(n / 2);
    lu.solveInPlace(y);
    CHECK(relativeError(A.topLeftCorner(n / 2, n / 2), b.head(n / 2), y) <= 1e-11);
  }
}

TEST_CASE("pivoted LU: the pivot ratio, zero pivots and non-finite input", "[solver]") {
  // A permutation matrix: no diagonal entry, every pivot 1 after the row exchanges.
  Eigen::Matrix3d P;
  P << 0, 1, 0, 0, 0, 1, 1, 0, 0;
  PivotedLU<Eigen::Matrix3d> lu;
  REQUIRE(lu.compute(P));
  CHECK(lu.pivotRatio() == 1);
  CHECK(lu.solve(Eigen::Vector3d(1, 2, 3)) == Eigen::Vector3d(3, 1, 2));
  // diag(4, 1e-3, 1): the ratio is the largest over the smallest |pivot|.
  REQUIRE(lu.compute(Eigen::Vector3d(4, -1e-3, 1).asDiagonal().toDenseMatrix()));
  CHECK(lu.pivotRatio() == 4 / 1e-3);
  CHECK(lu.smallestPivot() == 1e-3);
  CHECK(lu.regular(1e4));
  CHECK_FALSE(lu.regular(1e3));
  // Rank 2 (a row repeated): a zero pivot is refused, not divided by.
  Eigen::Matrix3d singular;
  singular << 1, 2, 3, 4, 5, 6, 1, 2, 3;
  CHECK_FALSE(lu.compute(singular));
  CHECK(lu.pivotRatio() == std::numeric_limits<double>::infinity());
  Eigen::Matrix3d nan = Eigen::Matrix3d::Identity();
  nan(1, 2) = std::numeric_limits<double>::quiet_NaN();
  CHECK_FALSE(lu.compute(nan));
  SmallLU small;
  CHECK_FALSE(small.compute(SmallMat(singular)));
  CHECK(small.compute(SmallMat(0, 0)));
  CHECK(small.pivotRatio() == 1);
}

TEST_CASE(
    "pivoted LU: the constraints' blocks (1×1 to 3×3 copied with constant bounds) give SmallLU's bits, and "
    "refuse a non-finite entry wherever it is",
    "[solver]") {
  std::mt19937 rng(29);
  ConstraintLU blocks;  // one object through every size, as a Newton iteration reuses it
  SmallLU generic;
  for (int round = 0; round < 20; ++round)
    for (int n : {3, 1, 2, 4}) {
      INFO("n = " << n << ", round " << round);
      const SmallMat A = SmallMat(offDiagonal(n, rng));
      REQUIRE(blocks.compute(A));
      REQUIRE(generic.compute(A));
      CHECK(blocks.pivotRatio() == generic.pivotRatio());
      CHECK(blocks.smallestPivot() == generic.smallestPivot());
      SmallVec x = SmallVec(Eigen::VectorXd::Random(n)), y = x;
      blocks.solveInPlace(x);
      generic.solveInPlace(y);
      CHECK(std::memcmp(x.data(), y.data(), sizeof(double) * static_cast<std::size_t>(n)) == 0);
      const SmallMat inverse = blocks.inverse(), reference = generic.inverse();
      CHECK(std::memcmp(inverse.data(), reference.data(), sizeof(double) * static_cast<std::size_t>(n * n)) == 0);
    }
  for (int n = 1; n <= 3; ++n)
    for (int k = 0; k < n * n; ++k)
      for (const double bad : {std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::infinity(),
                               -std::numeric_limits<double>::infinity()}) {
        INFO("n = " << n << ", entry " << k << ", " << bad);
        SmallMat A = SmallMat::Identity(n, n);
        A(k % n, k / n) = bad;
        CHECK_FALSE(blocks.compute(A));
        CHECK(blocks.pivotRatio() == std::numeric_limits<double>::infinity());
      }
  // A zero pivot is refused, as SmallLU refuses it.
  CHECK_FALSE(blocks.compute(SmallMat::Zero(2, 2)));
  CHECK_FALSE(generic.compute(SmallMat::Zero(2, 2)));
}

namespace {
// A fixed-size block that divides by its pivots (kDivide) against the same block sized at
// run time: the same pivots, ratio and bits, solved as a vector or a map.
template <int N>
void checkDividingBlock(std::mt19937& rng) {
  using Matrix = Eigen::Matrix<double, N, N>;
  using Vector = Eigen::Matrix<double, N, 1>;
  PivotedLU<Matrix, true, true> fixed;
  ConstraintLU runTime;
  for (int round = 0; round < 20; ++round) {
    INFO("N = " << N << ", round " << round);
    const Eigen::MatrixXd dense = offDiagonal(N, rng);
    REQUIRE(fixed.compute(Matrix(dense)));
    REQUIRE(runTime.compute(SmallMat(dense)));
    CHECK(fixed.pivotRatio() == runTime.pivotRatio());
    CHECK(fixed.smallestPivot() == runTime.smallestPivot());
    Vector x = Vector::Random();
    SmallVec y = SmallVec(x);
    std::array<double, N> z;
    for (int i = 0; i < N; ++i) z[static_cast<std::size_t>(i)] = x[i];
    fixed.solveInPlace(x);
    runTime.solveInPlace(y);
    fixed.solveInPlace(Eigen::Map<Vector>(z.data()));
    CHECK(std::memcmp(x.data(), y.data(), sizeof(double) * N) == 0);
    CHECK(std::memcmp(z.data(), y.data(), sizeof(double) * N) == 0);
  }
  // The multiplying default differs from the dividing one in the last bits somewhere.
  PivotedLU<Matrix> multiplying;
  bool differs = false;
  for (int round = 0; round < 200 && !differs; ++round) {
    const Matrix A = Matrix(offDiagonal(N, rng));
    REQUIRE(fixed.compute(A));
    REQUIRE(multiplying.compute(A));
    const Vector b = Vector::Random();
    differs = fixed.solve(b) != multiplying.solve(b);
  }
  CHECK(differs);
}
}  // namespace

TEST_CASE("pivoted LU: fixed-size blocks that divide by their pivots give the run-time size's bits", "[solver]") {
  std::mt19937 rng(31);
  checkDividingBlock<1>(rng);
  checkDividingBlock<2>(rng);
  checkDividingBlock<3>(rng);
}

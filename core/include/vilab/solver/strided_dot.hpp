// The small products of systems defined by data, written out without Eigen's
// run-time-sized evaluators.
#pragma once

#include <cmath>
#include <cstddef>
#include <limits>
#include <type_traits>

namespace vilab {

// Σ_k a[k·aStride] b[k·bStride] from the first term, in index order, as Eigen's lazyProduct
// sums it: floating-point addition is not associative, so this order keeps its bits.
// Inlined: it is on the typed step's path (a call per product cost 4–10 % natively).
inline double stridedDot(const double* a, std::ptrdiff_t aStride, const double* b, std::ptrdiff_t bStride, int size) {
  double sum = a[0] * b[0];
  for (int k = 1; k < size; ++k) sum += a[k * aStride] * b[k * bStride];
  return sum;
}

// The sign of a square matrix's zeros off its diagonal when they all have one, its
// diagonal is finite and it has no other entry off it: −1 or +1 (an inverse's zeros take
// the signs of its pivots); 0 for any other matrix. M⁻¹ and the reduced Newton's J11⁻¹
// of point masses in Cartesian coordinates are such (diagonalTimes).
template <class Matrix>
int diagonalZerosSign(const Matrix& A) {
  bool positive = false, negative = false;
  for (int j = 0; j < A.cols(); ++j)
    for (int i = 0; i < A.rows(); ++i) {
      const double x = A(i, j);
      if (i == j ? !std::isfinite(x) : x != 0) return 0;
      if (i != j) (std::signbit(x) ? negative : positive) = true;
    }
  if (positive && negative) return 0;
  return negative ? -1 : 1;
}

// diagonalTimes' rows where the sign of a sum of zeros depends on the row: z_i = −0 when
// every term of row i but its own is −0, +0 otherwise. Out of line: rarely needed.
[[gnu::noinline]] inline void diagonalTimesRowByRow(const double* a, std::ptrdiff_t stride, bool flip,
                                                    int negativeTerms, const double* x, double* y, int size) {
  for (int i = 0; i < size; ++i) {
    const bool othersNegative = negativeTerms - (std::signbit(x[i]) != flip) == size - 1;
    y[i] = a[i * (stride + 1)] * x[i] + (othersNegative ? -0.0 : 0.0);
  }
}

// y_i = Σ_j A(i, j) x_j for i < size, with the bits of stridedDot(&A(i, 0), stride, x, 1,
// size) wherever every x_j is finite, for A diagonal with zeros of one sign off it
// (diagonalZerosSign: its `zerosSign`). A row's other terms are then zeros, each −0
// exactly when its x_j's sign and theirs differ, and a sum from its first term is
// A(i, i) x_i when that is not zero (±0 added to a nonzero number, or a nonzero number to
// ±0, leaves it as it is), else a sum of zeros, −0 exactly when every term is (round to
// nearest): A(i, i) x_i + z_i with z_i = −0 when every other term is −0, +0 otherwise.
// A row costs a product and an addition, not a chain of `size`. Where some x_j is not
// finite, y_j is not finite either (the sums are all NaN): the callers refuse both alike.
[[gnu::always_inline]] inline void diagonalTimes(const double* a, std::ptrdiff_t stride, int zerosSign, const double* x,
                                                 double* y, int size) {
  const bool flip = zerosSign < 0;
  int negativeTerms = 0;  // of the zero terms the x_j give
  for (int j = 0; j < size; ++j) negativeTerms += std::signbit(x[j]) != flip;
  if (negativeTerms >= size - 1) return diagonalTimesRowByRow(a, stride, flip, negativeTerms, x, y, size);
  // Every row has a +0 term besides its own: z_i = +0.
  for (int i = 0; i < size; ++i) y[i] = a[i * (stride + 1)] * x[i] + 0.0;
}

// f(K) with K the count as a constant when it is 1 to Max (loops over it unroll: the same
// operations in the same order, so the same bits), else K = 0 (the count at run time).
// Each constant is another copy of f's code: for the typed step's small loops only.
template <int Max, class F>
decltype(auto) withSmallCount(int count, F&& f) {
  if constexpr (Max == 0) {
    return f(std::integral_constant<int, 0>{});
  } else {
    if (count == Max) return f(std::integral_constant<int, Max>{});
    return withSmallCount<Max - 1>(count, f);
  }
}

// The count that loops run to: K when it is a constant, else the run-time count.
template <class K>
constexpr int countOf(K, int count) {
  return K::value > 0 ? K::value : count;
}

// The typed step's counts (systems defined by data): the coordinates' n as a constant for
// 1 to 6 (every shipped system but the FPUT chain), the constraints' c for 1 to 3.
template <class F>
decltype(auto) withCoordinateCount(int n, F&& f) {
  return withSmallCount<6>(n, f);
}
template <class F>
decltype(auto) withConstraintCount(int c, F&& f) {
  return withSmallCount<3>(c, f);
}
// f(N, C) with both counts as constants where c < n ≤ 6 and c ≤ 3 (a system with
// constraints that can move has c < n), else both at run time (0): 13 copies of f's
// code, not the 28 of every pair.
template <class F>
decltype(auto) withCoordinateAndConstraintCounts(int n, int c, F&& f) {
  return withCoordinateCount(n, [&](auto N) {
    return withConstraintCount(c, [&](auto C) {
      using NK = decltype(N);
      using CK = decltype(C);
      if constexpr (NK::value > 0 && CK::value > 0 && CK::value < NK::value)
        return f(N, C);
      else
        return f(std::integral_constant<int, 0>{}, std::integral_constant<int, 0>{});
    });
  });
}

}  // namespace vilab

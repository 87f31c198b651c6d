// The small products of systems defined by data, written out without Eigen's
// run-time-sized evaluators.
#pragma once

#include <cstddef>
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

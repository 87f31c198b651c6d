// The small products of systems defined by data, written out without Eigen's
// run-time-sized evaluators.
#pragma once

#include <cstddef>

namespace vilab {

// Σ_k a[k·aStride] b[k·bStride] from the first term, in index order, as Eigen's lazyProduct
// sums it: floating-point addition is not associative, so this order keeps its bits.
// Inlined: it is on the typed step's path (a call per product cost 4–10 % natively).
inline double stridedDot(const double* a, std::ptrdiff_t aStride, const double* b, std::ptrdiff_t bStride, int size) {
  double sum = a[0] * b[0];
  for (int k = 1; k < size; ++k) sum += a[k * aStride] * b[k * bStride];
  return sum;
}

}  // namespace vilab

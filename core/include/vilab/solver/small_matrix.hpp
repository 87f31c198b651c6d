// Vectors and matrices of systems defined by data: dynamic sizes up to 32 (16
// coordinates plus 16 constraints), held without heap allocation.
#pragma once

#include <Eigen/Core>

namespace vilab {

constexpr int kMaxSmallSize = 32;
using SmallVec = Eigen::Matrix<double, Eigen::Dynamic, 1, 0, kMaxSmallSize, 1>;
using SmallMat = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, 0, kMaxSmallSize, kMaxSmallSize>;

}  // namespace vilab

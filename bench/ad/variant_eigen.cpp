// AD micro-benchmark, variant "Eigen AutoDiff": AutoDiffScalar, nested, as Eigen provides it.
#define VILAB_AD_BENCH_VARIANT kEigen
#include "ad_bench.hpp"

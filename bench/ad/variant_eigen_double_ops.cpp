// AD micro-benchmark, variant "Eigen, double ops": nested AutoDiffScalar with direct double operations.
#define VILAB_AD_BENCH_VARIANT kEigenTuned
#include "ad_bench.hpp"

// AD micro-benchmark, variant "ad.hpp (d1Step)": VariationalIntegrator::d1Step itself.
#define VILAB_AD_BENCH_VARIANT kLibrary
#include "ad_bench.hpp"

// AD micro-benchmark, variant "Jet zero-fill": ad.hpp's jets as they were, zero-filling default constructor.
#define VILAB_AD_BENCH_VARIANT kZeroFill
#include "ad_bench.hpp"

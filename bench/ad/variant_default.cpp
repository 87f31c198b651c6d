// AD micro-benchmark, variant "Jet = default": defaulted constructor, nested operations out of line.
#define VILAB_AD_BENCH_VARIANT kDefault
#include "ad_bench.hpp"

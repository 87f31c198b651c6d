// AD micro-benchmark, variant "Jet = default, inline": defaulted constructor, nested operations inline.
#define VILAB_AD_BENCH_VARIANT kDefaultInline
#include "ad_bench.hpp"

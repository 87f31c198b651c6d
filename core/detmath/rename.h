/* Forced include (-include) of every musl libm source compiled for vilab.
 * Renames each symbol they define or call to vilab_musl_*, so they never clash
 * with, nor resolve to, the platform libm (glibc natively, emscripten's musl in
 * wasm). fabs, floor and sqrt are not renamed: they are exact IEEE operations,
 * the same bits from any libm or instruction. */
#ifndef VILAB_MUSL_RENAME_H
#define VILAB_MUSL_RENAME_H

#if defined(__FAST_MATH__)
#error "musl libm for vilab: -ffast-math breaks bitwise determinism"
#endif

/* As in musl's src/include/features.h (exp_data.h and libm.h use it). */
#define hidden __attribute__((__visibility__("hidden")))

/* Public functions (declared for C++ in vilab/detmath.hpp). */
#define sin vilab_musl_sin
#define cos vilab_musl_cos
#define sincos vilab_musl_sincos
#define atan2 vilab_musl_atan2
#define hypot vilab_musl_hypot
#define exp vilab_musl_exp
#define tan vilab_musl_tan
#define log vilab_musl_log

/* Their dependencies inside musl. */
#define atan vilab_musl_atan
#define scalbn vilab_musl_scalbn
#define __sin vilab_musl_kernel_sin
#define __cos vilab_musl_kernel_cos
#define __tan vilab_musl_kernel_tan
#define __rem_pio2 vilab_musl_rem_pio2
#define __rem_pio2_large vilab_musl_rem_pio2_large
#define __exp_data vilab_musl_exp_data
#define __log_data vilab_musl_log_data
#define __math_divzero vilab_musl_math_divzero
#define __math_invalid vilab_musl_math_invalid
#define __math_oflow vilab_musl_math_oflow
#define __math_uflow vilab_musl_math_uflow
#define __math_xflow vilab_musl_math_xflow

#endif

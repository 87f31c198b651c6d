/* Minimal <math.h> for the musl libm sources, used on both targets. musl's
 * libm.h includes <math.h>; glibc's would also declare its own __sin and __cos
 * with other prototypes, and one header for both builds keeps them alike. */
#ifndef VILAB_MUSL_MATH_H
#define VILAB_MUSL_MATH_H

#include <float.h>

/* musl picks double_t from FLT_EVAL_METHOD; only 0 (no excess precision) is
 * bitwise reproducible (x87 is not). */
#if FLT_EVAL_METHOD != 0
#error "musl libm for vilab: FLT_EVAL_METHOD != 0 (excess precision)"
#endif
typedef double double_t;
typedef float float_t;

#define INFINITY __builtin_inff()
#define isnan(x) __builtin_isnan(x)

/* Exact IEEE operations, from the platform. */
double fabs(double);
double floor(double);
double sqrt(double);

/* Defined by the compiled musl sources (names changed by rename.h). */
double sin(double);
double cos(double);
void sincos(double, double *, double *);
double atan(double);
double atan2(double, double);
double hypot(double, double);
double exp(double);
double scalbn(double, int);

#endif

/* <float.h> for the musl libm sources: the platform's, with long double shown
 * as double. These sources define no long double function, and musl's
 * __rem_pio2_large sizes its 2/pi table by LDBL_MAX_EXP: with x86's 80-bit or
 * wasm's 128-bit long double it would carry 620 entries that double never reads
 * (2.5 KB of incompressible digits in the wasm). Same header on both targets. */
#ifndef VILAB_MUSL_FLOAT_H
#define VILAB_MUSL_FLOAT_H

#include_next <float.h>

#undef LDBL_MANT_DIG
#undef LDBL_MAX_EXP
#undef LDBL_EPSILON
#define LDBL_MANT_DIG DBL_MANT_DIG
#define LDBL_MAX_EXP DBL_MAX_EXP
#define LDBL_EPSILON DBL_EPSILON

#endif

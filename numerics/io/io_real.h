/* io_real.h — exact decimal-to-double conversion for the .dat readers. */
#ifndef NS_IO_REAL_H
#define NS_IO_REAL_H
#include <stddef.h>

/** s[0..len) must spell [sign] digits [. digits] [e|E [sign] digits] with
 *  at least one digit in the mantissa (the caller checks). *out = the
 *  double strtod would return for it (round to nearest, ties to even;
 *  overflow gives an infinity, underflow 0 or a subnormal). Returns 0, or
 *  -1 when memory for a rare long-token fallback runs out. No state. */
int ns_real_decimal(const char *s, size_t len, double *out);

/** The longest prefix of s[0..len) of that form: its value in *out and its
 *  length in *used; -1 when s does not start with one (no digit before
 *  the exponent, or an exponent without digits) or memory runs out. */
int ns_real_scan(const char *s, size_t len, double *out, size_t *used);

#endif

/* io_real.c — decimal text to the nearest double, without strtod for the
 * numbers files hold (docs/formats-extensions.md: reading speed).
 *
 * The token is already known to be [sign] digits [. digits] [e [sign]
 * digits]. Its significant digits go into a 64-bit integer w (at most 19;
 * further digits are only noted), the decimal exponent into q, so that the
 * value is w · 10^q (exactly, when no digit was dropped). Then, in order:
 *
 * 1. exact small case: w < 2^53 and |q| ≤ 22: w and 10^|q| are both exact
 *    doubles, so one IEEE multiplication or division rounds the exact
 *    product once: the nearest double.
 * 2. w · 10^q = w · 5^q · 2^q with 5^q taken from a table of its 128 leading
 *    bits: the 64 × 128-bit product gives the leading bits of the value;
 *    when the bits below the 53 kept ones are far enough from a rounding
 *    boundary that the table's truncation cannot move them across it, they
 *    round correctly; otherwise (rare: a value within about 2^-64 relative
 *    of a halfway point) the case is given up.
 * 3. digits were dropped: the value lies between w · 10^q and (w + 1) · 10^q;
 *    when both round to the same double (step 2 on each), that is the
 *    answer.
 * Every case given up (ties, subnormals, overflow, exponents beyond the
 * table) goes to strtod. So the result is always strtod's, in the default
 * rounding mode; tests/io compare the two on many random numbers. */
#include "io/io_real.h"
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "io/io_pow5_table.h"

static const double exact_pow10[23] = {
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
    1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22
};

static void mul64(uint64_t a, uint64_t b, uint64_t *hi, uint64_t *lo)
{
    __extension__ typedef unsigned __int128 u128;
    u128 p = (u128)a * b;
    *hi = (uint64_t)(p >> 64);
    *lo = (uint64_t)p;
}

static int leading_zeros(uint64_t x)
{
    return __builtin_clzll(x);
}

/* The double nearest w · 10^q (w ≠ 0), as its bit pattern without sign;
 * 0 when the rounding cannot be decided here or the result is not a
 * normal double. */
static int scale_pow10(uint64_t w, int q, uint64_t *bits)
{
    if (q < NS_POW5_MIN || q > NS_POW5_MAX) return 0;
    const uint64_t *t = NS_POW5_TABLE[q - NS_POW5_MIN];
    int lz = leading_zeros(w);
    w <<= lz;
    uint64_t hi, lo;
    mul64(w, t[0], &hi, &lo);
    /* the low 9 bits of hi all ones: the rounding may depend on the bits of
     * the product with the table's second word (the error of using the
     * first word alone is below w, hence the carry test) */
    if ((hi & 0x1FF) == 0x1FF && lo + w < lo) {
        uint64_t hi2, lo2;
        mul64(w, t[1], &hi2, &lo2);
        uint64_t mid = lo + hi2;
        if (mid < lo) hi++;
        if (mid + 1 == 0 && (hi & 0x1FF) == 0x1FF && lo2 + w < lo2) return 0;
        lo = mid;
    }
    int top = (int)(hi >> 63);        /* the product's leading bit: 127 or 126 */
    uint64_t m = hi >> (top + 9);     /* 54 bits: 53 kept + one to round */
    lz += 1 ^ top;
    /* exactly halfway between two doubles (as far as these bits tell):
     * round-half-even needs the exact value */
    if (lo == 0 && (hi & 0x1FF) == 0 && (m & 3) == 1) return 0;
    m += m & 1;
    m >>= 1;
    if (m >= (UINT64_C(1) << 53)) {   /* rounding carried into a new bit */
        m = UINT64_C(1) << 52;
        lz--;
    }
    m &= ~(UINT64_C(1) << 52);
    /* binary exponent: floor(q log2 10) from 217706 / 2^16 ≈ log2 10 (exact
     * over the table's range), plus the bias and the product's scale */
    int64_t e = ((217706 * (int64_t)q) >> 16) + 1024 + 63 - lz;
    if (e < 1 || e > 2046) return 0;
    *bits = m | ((uint64_t)e << 52);
    return 1;
}

static double from_bits(uint64_t b)
{
    double d;
    memcpy(&d, &b, sizeof d);
    return d;
}

int ns_real_scan(const char *s, size_t len, double *out, size_t *used)
{
    size_t k = 0;
    int neg = 0;
    if (k < len && (s[k] == '+' || s[k] == '-')) { neg = s[k] == '-'; k++; }
    uint64_t w = 0;
    int nd = 0;            /* significant digits kept in w */
    int dropped = 0;       /* digits beyond 19 (any value) */
    int digits = 0;        /* mantissa digits seen */
    long q = 0;
    for (; k < len && s[k] >= '0' && s[k] <= '9'; k++, digits++) {
        if (nd < 19) {
            w = 10 * w + (uint64_t)(s[k] - '0');
            if (w) nd++;
        } else {
            dropped = 1;
            q++;
        }
    }
    if (k < len && s[k] == '.') {
        for (k++; k < len && s[k] >= '0' && s[k] <= '9'; k++, digits++) {
            if (nd < 19) {
                w = 10 * w + (uint64_t)(s[k] - '0');
                if (w) nd++;
                q--;
            } else {
                dropped = 1;
            }
        }
    }
    if (digits == 0) return -1;
    if (k < len && (s[k] == 'e' || s[k] == 'E')) {
        int eneg = 0, ed = 0;
        long ev = 0;
        k++;
        if (k < len && (s[k] == '+' || s[k] == '-')) { eneg = s[k] == '-'; k++; }
        for (; k < len && s[k] >= '0' && s[k] <= '9'; k++, ed++)
            if (ev < 100000) ev = 10 * ev + (s[k] - '0');
        if (ed == 0) return -1;
        q += eneg ? -ev : ev;
    }
    *used = k;
    if (w == 0) { *out = neg ? -0.0 : 0.0; return 0; }   /* all digits kept were 0: so were the rest */
    if (!dropped && w <= (UINT64_C(1) << 53) && q >= -22 && q <= 22) {
        double v = (double)w;
        v = q < 0 ? v / exact_pow10[-q] : v * exact_pow10[q];
        *out = neg ? -v : v;
        return 0;
    }
    if (q >= -400 && q <= 400) {
        uint64_t b0, b1;
        if (scale_pow10(w, (int)q, &b0) &&
            (!dropped || (scale_pow10(w + 1, (int)q, &b1) && b1 == b0))) {
            double v = from_bits(b0);
            *out = neg ? -v : v;
            return 0;
        }
    }
    /* the rare rest: strtod on a NUL-terminated copy */
    char small[128], *tmp = small;
    if (k >= sizeof small && !(tmp = malloc(k + 1))) return -1;
    memcpy(tmp, s, k);
    tmp[k] = '\0';
    *out = strtod(tmp, NULL);
    if (tmp != small) free(tmp);
    return 0;
}

int ns_real_decimal(const char *s, size_t len, double *out)
{
    size_t used;
    if (ns_real_scan(s, len, out, &used) || used != len) return -1;
    return 0;
}

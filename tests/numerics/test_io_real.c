/* test_io_real.c — the .dat readers' decimal-to-double conversion
 * (io/io_real.c) gives exactly strtod's double: on random bit patterns
 * printed with 1 to 25 significant digits, on random digit strings of up to
 * 40 digits with exponents across the whole double range (subnormals,
 * overflow), on numbers in the shared files' style (%.24e), and on the hard
 * cases: halfway points between two doubles written out in full and one
 * digit either side, the extremes of the range, long zero runs. The
 * lexer's number rules (decimal syntax only, non-finite refused) stay. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "io/io_real.h"
#include "io/io_lexer.h"

static uint64_t g_state = 0x9E3779B97F4A7C15ULL;
static uint64_t rnd(void)
{
    g_state ^= g_state << 13;
    g_state ^= g_state >> 7;
    g_state ^= g_state << 17;
    return g_state;
}

static long g_count;

static void check(const char *s)
{
    double want = strtod(s, NULL), got = -12345.0;
    assert_int_equal(ns_real_decimal(s, strlen(s), &got), 0);
    if (memcmp(&want, &got, sizeof want) != 0)
        fail_msg("'%s': strtod %.17g, ns_real_decimal %.17g", s, want, got);
    g_count++;
}

static void test_random_doubles(void **state)
{
    (void)state;
    char buf[64];
    for (long it = 0; it < 400000; it++) {
        uint64_t b = rnd();
        double x;
        memcpy(&x, &b, sizeof x);
        if (!isfinite(x)) continue;
        snprintf(buf, sizeof buf, "%.*e", (int)(rnd() % 25), x);
        check(buf);
    }
}

static void test_file_style(void **state)
{
    (void)state;
    char buf[64];
    for (long it = 0; it < 200000; it++) {
        double x = ((double)(rnd() >> 11) / 9007199254740992.0 - 0.5) * pow(10.0, (double)(rnd() % 30) - 15);
        snprintf(buf, sizeof buf, it % 2 ? "%.24e" : "%.17g", x);
        check(buf);
    }
}

static void test_random_digits(void **state)
{
    (void)state;
    char buf[96];
    for (long it = 0; it < 300000; it++) {
        int nd = 1 + (int)(rnd() % 40), p = 0, dot = (int)(rnd() % (unsigned)(nd + 1));
        if (rnd() % 2) buf[p++] = '-';
        for (int i = 0; i < nd; i++) {
            if (i == dot) buf[p++] = '.';
            buf[p++] = (char)('0' + rnd() % 10);
        }
        if (rnd() % 4) p += sprintf(buf + p, "e%d", (int)(rnd() % 720) - 360);
        buf[p] = '\0';
        check(buf);
    }
}

/* x and its successor: their exact midpoint in full decimal (53-bit
 * doubles have finite decimal expansions), and the last digit nudged. */
static void test_halfway(void **state)
{
    (void)state;
    char buf[1200];
    for (int it = 0; it < 3000; it++) {
        double x = ldexp((double)((rnd() >> 11) | 1), (int)(rnd() % 200) - 150);
        double y = nextafter(x, INFINITY);
        long double mid = ((long double)x + (long double)y) / 2;   /* exact: 64-bit mantissa */
        int n = snprintf(buf, sizeof buf, "%.*Le", 60, mid);
        check(buf);
        /* one unit more and less in the 60th digit before the exponent */
        char *e = strchr(buf, 'e');
        assert_non_null(e);
        char save = e[-1];
        if (save < '9') { e[-1] = (char)(save + 1); check(buf); }
        if (save > '0') { e[-1] = (char)(save - 1); check(buf); }
        e[-1] = save;
        (void)n;
    }
    static const char *hard[] = {
        "1.00000000000000011102230246251565404236316680908203125",
        "1.00000000000000011102230246251565404236316680908203124",
        "1.00000000000000011102230246251565404236316680908203126",
        "9007199254740993", "9007199254740993.000000000000000000001", "9007199254740992.999999999999",
        "2.2250738585072011e-308", "2.2250738585072014e-308", "4.9406564584124654e-324",
        "2.4703282292062327e-324", "2.4703282292062328e-324", "1e-400", "1.7976931348623157e308",
        "1.7976931348623158e308", "1.7976931348623159e308", "1e309", "0", "-0", "0.000", "00000.0e5",
        "0.0000000000000000000000000000000000000000000000000000000001e58", "1e23", "8.98846567431158e307",
        "123456789012345678901234567890", "0.1", "0.3", "2.5", "-3.14159265358979323846264338327950288",
        "7.2057594037927933e16", "1e-342", "1e-343", "1e308", "1e-22", "1e22", "1e-23", "4e22",
        "18446744073709551615", "18446744073709551616", "9999999999999999999", "99999999999999999999e-20",
    };
    for (size_t k = 0; k < sizeof hard / sizeof hard[0]; k++) check(hard[k]);
    print_message("%ld numbers, all equal to strtod's\n", g_count);
}

/* The lexer keeps its rules: decimal syntax only, NaN/Inf and overflow
 * refused as not finite, underflow accepted. */
static void test_lexer_rules(void **state)
{
    (void)state;
    double v;
    int nf;
    assert_int_equal(ns_parse_real("1.5e3", 5, &v, &nf), 0);
    assert_true(v == 1500.0);
    assert_int_equal(ns_parse_real("-.5", 3, &v, &nf), 0);
    assert_true(v == -0.5);
    assert_int_equal(ns_parse_real("5.", 2, &v, &nf), 0);
    assert_true(v == 5.0);
    assert_int_equal(ns_parse_real("1e-400", 6, &v, &nf), 0);
    assert_true(v == 0.0);
    static const char *bad[] = { "", "-", ".", "e5", "1e", "1e+", "0x10", "1.5f", "1..2", "--1", "1e5.5", "abc" };
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        assert_int_equal(ns_parse_real(bad[k], strlen(bad[k]), &v, &nf), -1);
        assert_int_equal(nf, 0);
    }
    static const char *nonfinite[] = { "nan", "-NaN", "inf", "+Infinity", "1e309", "-1e400000" };
    for (size_t k = 0; k < sizeof nonfinite / sizeof nonfinite[0]; k++) {
        assert_int_equal(ns_parse_real(nonfinite[k], strlen(nonfinite[k]), &v, &nf), -1);
        assert_int_equal(nf, 1);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_random_doubles),
        cmocka_unit_test(test_file_style),
        cmocka_unit_test(test_random_digits),
        cmocka_unit_test(test_halfway),
        cmocka_unit_test(test_lexer_rules),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

/* ns_test.h — helpers shared by the test programs (not part of the library). */
#ifndef NS_TEST_H
#define NS_TEST_H
#include <stddef.h>
#include <stdint.h>

/** Root of the third-party collection (../shared/data), or NULL when the
 *  directory is absent (tests then skip with exit code 77). */
const char *ns_test_data_dir(void);

/** Joins the data root and a relative path into buf; returns buf. */
char *ns_test_data_path(char *buf, size_t len, const char *rel);

/** A fresh temporary name (nothing created) under $TMPDIR or /tmp; whatever
 *  the test makes there (file or directory tree) is removed when the test
 *  program exits, unless NS_TEST_KEEP is set. */
char *ns_test_tmpname(char *buf, size_t len, const char *suffix);

/** Deterministic pseudo-random numbers (xorshift64*), no global state. */
typedef struct ns_rng { uint64_t s; } ns_rng;
void ns_rng_seed(ns_rng *r, uint64_t seed);
double ns_rng_uniform(ns_rng *r);            /* in [0, 1) */
double ns_rng_range(ns_rng *r, double a, double b);

/** Writes text to a new file; returns 0 on success. */
int ns_test_write_file(const char *path, const char *text);
/** The tools' --json output in path is one valid JSON document (checked by
 *  `python3 -m json.tool`, which refuses invalid UTF-8, bare NaN and
 *  trailing text): 1 valid, 0 not, -1 no python3 to check with. */
int ns_test_json_valid(const char *path);
/** Asserts ns_test_json_valid (skipped without python3) when args hold
 *  --json; for the tool tests' run helpers. */
void ns_test_check_json(const char *args, const char *path);

struct ns_matrix;
/** n×n tridiagonal SPARSE (CSC) matrix, n ≥ 2: diagonal d (de on the two
 *  end rows), off-diagonals o, every entry times s (bar finite elements:
 *  consistent mass d = 4, de = 2, o = 1, s = l/6; stiffness 2, 1, −1,
 *  ES/l). NULL when out of memory. */
struct ns_matrix *ns_test_tridiag(int n, double d, double de, double o, double s);
#endif

/* cli_numbers.h — strict parsing of numeric command-line values. */
#ifndef NS_TOOLS_CLI_NUMBERS_H
#define NS_TOOLS_CLI_NUMBERS_H

/** *out = the finite real spelled by all of s; 0, or −1 (out untouched). */
int ns_cli_double(const char *s, double *out);

/** *out = the integer spelled by all of s, in [min, 2·10⁹]; 0, or −1. */
int ns_cli_int(const char *s, int *out, int min);

#endif

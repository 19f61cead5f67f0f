/* json_string.h — a C string as a JSON string literal, for the tools'
 * --json output: quotes, backslashes and control characters escaped, and
 * bytes that are not well-formed UTF-8 (a file name from a non-UTF-8 file
 * system, a cut message) written as U+FFFD, so the output is always valid
 * JSON. */
#ifndef NS_TOOL_JSON_STRING_H
#define NS_TOOL_JSON_STRING_H
#include <stdio.h>

void ns_json_string(FILE *f, const char *s);

#endif

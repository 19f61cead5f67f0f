/* json_string.c — JSON string literals with UTF-8 checked (json_string.h). */
#include "json_string.h"
#include <stddef.h>

/* Length of the well-formed UTF-8 sequence at p (1..4), 0 if ill-formed
 * (RFC 3629: no overlongs, no surrogates, nothing above U+10FFFF). */
static size_t utf8_len(const unsigned char *p)
{
    unsigned c = p[0];
    size_t n;
    unsigned lo = 0x80, hi = 0xBF;
    if (c < 0x80) return 1;
    if (c >= 0xC2 && c <= 0xDF) n = 2;
    else if (c >= 0xE0 && c <= 0xEF) {
        n = 3;
        if (c == 0xE0) lo = 0xA0;
        if (c == 0xED) hi = 0x9F;
    } else if (c >= 0xF0 && c <= 0xF4) {
        n = 4;
        if (c == 0xF0) lo = 0x90;
        if (c == 0xF4) hi = 0x8F;
    } else return 0;
    if (p[1] < lo || p[1] > hi) return 0;
    for (size_t k = 2; k < n; k++)
        if (p[k] < 0x80 || p[k] > 0xBF) return 0;
    return n;
}

void ns_json_string(FILE *f, const char *s)
{
    fputc('"', f);
    const unsigned char *p = (const unsigned char *)(s ? s : "");
    while (*p) {
        if (*p == '"' || *p == '\\') { fprintf(f, "\\%c", *p); p++; continue; }
        if (*p < 0x20 || *p == 0x7F) { fprintf(f, "\\u%04x", *p); p++; continue; }
        size_t n = utf8_len(p);
        if (n == 0) { fputs("\\ufffd", f); p++; continue; }
        fwrite(p, 1, n, f);
        p += n;
    }
    fputc('"', f);
}

/* nearest.h - "did you mean" for a name the user typed: the one known name it is a slip of.
 * Invariant: a hint is given only for a near miss (same letters but for case, or, for names of
 * three or more characters, one letter added, dropped or changed, or two neighbours swapped,
 * ignoring case) and only when exactly one known name is that near: an ambiguous or far name
 * gets no guess. A name equal but for case wins over names one edit away. */
#ifndef WS_NEAREST_H
#define WS_NEAREST_H

#include <stdbool.h>
#include <stddef.h>

/* True when typed is a near miss of known (the rule above); false when they are equal. */
bool ws_near_miss(const char *typed, const char *known);

/* The index of the one name in known[0..n) that typed is a near miss of, -1 for none or more
 * than one. stride: bytes from one name to the next, for a name array inside structs
 * (sizeof(const char *) for a plain const char *[], or the row size with by_value for
 * char name[N] arrays). Example: ws_nearest("ouput", kw, 12, sizeof kw[0], false). */
int ws_nearest(const char *typed, const void *known, int n, size_t stride, bool by_value);

#endif

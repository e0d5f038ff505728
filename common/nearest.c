/* nearest.c - the near-miss rule of nearest.h: case-folded equality, or one edit (insert,
 * delete, substitute, swap of neighbours) between case-folded names of three or more characters. Short names get
 * no one-letter guess: any one-letter name is one edit from any other, so W for X would be noise. */
#include "nearest.h"

#include <ctype.h>
#include <string.h>

static int fold(char c) { return tolower((unsigned char)c); }

static bool fold_equal(const char *a, const char *b)
{
    for (; *a && *b; a++, b++)
        if (fold(*a) != fold(*b)) return false;
    return !*a && !*b;
}

/* One insert, delete or substitution apart (case folded); la >= lb. */
static bool one_edit(const char *a, size_t la, const char *b, size_t lb)
{
    if (la - lb > 1) return false;
    size_t i = 0;
    while (i < lb && fold(a[i]) == fold(b[i])) i++;  /* the common prefix */
    if (i == lb) return la == lb + 1;                /* a has one letter more at its end */
    if (la == lb)                                    /* a changed letter, or two neighbours swapped */
        return fold_equal(a + i + 1, b + i + 1) ||
               (i + 1 < la && fold(a[i]) == fold(b[i + 1]) && fold(a[i + 1]) == fold(b[i]) &&
                fold_equal(a + i + 2, b + i + 2));
    return fold_equal(a + i + 1, b + i);             /* a's extra letter */
}

bool ws_near_miss(const char *typed, const char *known)
{
    if (!strcmp(typed, known)) return false;
    if (fold_equal(typed, known)) return true;
    size_t lt = strlen(typed), lk = strlen(known);
    if (lt < 3 || lk < 3) return false;
    return lt >= lk ? one_edit(typed, lt, known, lk) : one_edit(known, lk, typed, lt);
}

/* The one name of known[] that match() accepts; -1 for none, -2 for more than one. */
static int only_match(const char *typed, const void *known, int n, size_t stride, bool by_value,
                      bool (*match)(const char *, const char *))
{
    int found = -1;
    for (int i = 0; i < n; i++) {
        const char *p = (const char *)known + (size_t)i * stride;
        const char *name = by_value ? p : *(const char *const *)p;
        if (!name || !match(typed, name)) continue;
        if (found >= 0) return -2;
        found = i;
    }
    return found;
}

static bool case_slip(const char *typed, const char *known) { return strcmp(typed, known) && fold_equal(typed, known); }

int ws_nearest(const char *typed, const void *known, int n, size_t stride, bool by_value)
{
    /* a name that differs only in case is the likelier slip: it wins over one-edit neighbours */
    int k = only_match(typed, known, n, stride, by_value, case_slip);
    if (k == -1) k = only_match(typed, known, n, stride, by_value, ws_near_miss);
    return k < 0 ? -1 : k;
}

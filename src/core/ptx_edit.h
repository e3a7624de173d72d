/* Edits of PTX text (insertions and removals at offsets of the original, applied in one pass by
 * cv_ptx_rewrite) and the small lexer they are found with. */
#ifndef CV_CORE_PTX_EDIT_H
#define CV_CORE_PTX_EDIT_H

#include <stdbool.h>
#include <stddef.h>

typedef struct cv_edit {
    size_t pos;    /* where the text goes */
    size_t remove; /* bytes of the original removed at pos */
    const char *text;
    bool owned;
} cv_edit;

typedef struct cv_edits {
    cv_edit *e;
    size_t n, cap;
    bool oom;
} cv_edits;

/* Adds an edit; text NULL (an allocation that failed) or no memory marks ed->oom. An owned text
 * is freed with the list. */
void cv_edit_add(cv_edits *ed, size_t pos, size_t remove, const char *text, bool owned);

bool cv_ptx_is_ident(char c);
/* Skips whitespace and comments from p; returns the new position. */
size_t cv_ptx_skip(const char *s, size_t end, size_t p);
/* The same, passing each // comment on the way to line(arg, start, stop): [start, stop) runs from
 * its slashes to the end of its line. */
size_t cv_ptx_skip_lines(const char *s, size_t end, size_t p,
                         void (*line)(void *arg, size_t start, size_t stop), void *arg);
size_t cv_ptx_ident_end(const char *s, size_t end, size_t p);

#endif

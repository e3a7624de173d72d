/* PTX edits and lexing (core/ptx_edit.h). */
#include "core/ptx_edit.h"

#include <ctype.h>
#include <stdlib.h>

void cv_edit_add(cv_edits *ed, size_t pos, size_t remove, const char *text, bool owned) {
    if (!text) {
        ed->oom = true;
        return;
    }
    if (ed->n == ed->cap) {
        size_t cap = ed->cap ? ed->cap * 2 : 16;
        void *p = realloc(ed->e, cap * sizeof *ed->e);
        if (!p) {
            ed->oom = true;
            if (owned)
                free((char *)text);
            return;
        }
        ed->e = p;
        ed->cap = cap;
    }
    ed->e[ed->n++] = (cv_edit){pos, remove, text, owned};
}

bool cv_ptx_is_ident(char c) {
    return isalnum((unsigned char)c) || c == '_' || c == '$' || c == '%' || c == '.';
}

size_t cv_ptx_skip(const char *s, size_t end, size_t p) {
    return cv_ptx_skip_lines(s, end, p, NULL, NULL);
}

size_t cv_ptx_skip_lines(const char *s, size_t end, size_t p,
                         void (*line)(void *arg, size_t start, size_t stop), void *arg) {
    for (;;) {
        while (p < end && isspace((unsigned char)s[p]))
            p++;
        if (p + 1 < end && s[p] == '/' && s[p + 1] == '/') {
            size_t start = p;
            while (p < end && s[p] != '\n')
                p++;
            if (line)
                line(arg, start, p);
        } else if (p + 1 < end && s[p] == '/' && s[p + 1] == '*') {
            p += 2;
            while (p + 1 < end && !(s[p] == '*' && s[p + 1] == '/'))
                p++;
            p = p + 2 <= end ? p + 2 : end;
        } else {
            return p;
        }
    }
}

size_t cv_ptx_ident_end(const char *s, size_t end, size_t p) {
    while (p < end && cv_ptx_is_ident(s[p]))
        p++;
    return p;
}

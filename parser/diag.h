/* diag.h — diagnostics: errors and warnings with a file position.
 *
 * Ownership: a diag_list owns its messages (copied in); diag_list_free
 * releases them.  Library code only appends here; the command-line tools
 * decide how to print (diag_render gives the gcc-style text with the source
 * line and a caret).
 */
#ifndef PTXEMU_DIAG_H
#define PTXEMU_DIAG_H

#include <stddef.h>
#include <stdio.h>

typedef enum diag_severity { DIAG_ERROR, DIAG_WARNING, DIAG_NOTE } diag_severity;

typedef struct diag {
    diag_severity sev;
    char *file;              /* may be NULL: no position */
    int line, col;           /* 1-based; 0 = unknown */
    char *msg;
} diag;

typedef struct diag_list {
    diag *v;
    int n, cap;
    int nerrors;
    int max;                 /* stop recording after this many (0 = 100) */
} diag_list;

void diag_init(diag_list *d);
void diag_list_free(diag_list *d);
/* Appends one message (printf-style).  Returns 0, or -1 once `max` is hit. */
int diag_add(diag_list *d, diag_severity sev, const char *file, int line,
             int col, const char *fmt, ...) __attribute__((format(printf, 6, 7)));

/* Writes every message as
 *     file:line:col: error: message
 *         the source line
 *              ^
 * `src`/`len` is the text of the file the positions refer to (NULL: no
 * source line).  Lines longer than 200 columns are cut around the caret. */
void diag_render(const diag_list *d, const char *src, size_t len, FILE *out);

#endif

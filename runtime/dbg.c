/* dbg.c — the debugger's command language (see dbg.h): parses and runs
 * each command line over the engine (dbg_engine.h) and the expression
 * language (dbg_expr.h), and formats everything the user reads.  The only
 * file of the debugger that writes output. */
#include <ctype.h>
#include <inttypes.h>
#include <limits.h>
#include <regex.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "dbg.h"
#include "dbg_engine.h"
#include "dbg_expr.h"

const char *const dbg_command_names[] = {
    "break", "tbreak", "condition", "ignore", "delete", "watch", "rwatch", "awatch", "run", "start",
    "continue", "step", "next", "finish", "focus", "print", "display", "undisplay", "x", "info", "list",
    "backtrace", "frame", "up", "down", "help", "quit", NULL
};

static void say(dbg_session *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void say(dbg_session *s, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vfprintf(s->out, fmt, ap);
    va_end(ap);
}

/* "file.ptx:N (file.cu:L inlined at file.cu:K)" for pc. */
static void fmt_loc(const dbg_session *s, uint32_t pc, char *buf, size_t len)
{
    const bc_module *m = s->m;
    if (pc >= m->ncode) { snprintf(buf, len, "?"); return; }
    size_t n = (size_t)snprintf(buf, len, "%s:%d", dbg_base_name(m->path), m->code[pc].line);
    int src = m->code[pc].src;
    for (int d = 0; src >= 0 && src < m->nsrclocs && d < 16 && n < len; d++) {
        const bc_srcloc *l = &m->srclocs[src];
        n += (size_t)snprintf(buf + n, len - n, "%s%s:%d", d ? " inlined at " : " (", dbg_file_name(m, l->file), l->line);
        src = l->parent;
        if ((src < 0 || d == 15) && n < len) n += (size_t)snprintf(buf + n, len - n, ")");
    }
}

static void fmt_state(const dbg_session *s, const vm_cta *cta, const vm_warp *w, int l, char *buf, size_t len)
{
    switch (w->state[l]) {
    case LANE_READY: snprintf(buf, len, "ready"); break;
    case LANE_EXITED: snprintf(buf, len, "exited"); break;
    case LANE_WAIT_COLL:
        snprintf(buf, len, "in collective %s (membermask 0x%08x)", bc_op_name[s->m->code[w->pc[l]].op], w->coll_mask[l]);
        break;
    case LANE_WAIT_BAR: {
        uint32_t a, e;
        dbg_bar_counts(s, cta, w->bar_id[l], &a, &e);
        snprintf(buf, len, "at barrier %d (%u of %u arrived)", w->bar_id[l], a, e);
        break;
    }
    default: snprintf(buf, len, "?");
    }
}

/* The PTX source text of line n (1-based), trimmed, in buf. */
static int ptx_line_text(const dbg_session *s, int n, char *buf, size_t len)
{
    const char *t = s->P.m->text, *e = t + s->P.m->len;
    int line = 1;
    while (t < e && line < n) { if (*t++ == '\n') line++; }
    if (t >= e || line != n) { if (len) buf[0] = 0; return -1; }
    const char *q = t;
    while (q < e && *q != '\n') q++;
    while (t < q && (*t == ' ' || *t == '\t')) t++;
    size_t k = 0;
    for (; t < q && k + 1 < len; t++) buf[k++] = *t == '\t' ? ' ' : *t;
    while (k && (buf[k - 1] == ' ' || buf[k - 1] == '\r')) k--;
    buf[k] = 0;
    return 0;
}

/* ---- session ------------------------------------------------------------------------- */

static void write_output(void *ctx, const char *text, size_t len)
{
    dbg_session *s = ctx;
    fwrite(text, 1, len, s->out);
}

/* Prepares the launch; errors (PTX diagnostics or a message) go to err. */
static int prepare(dbg_session *s, FILE *err)
{
    diag_list d;
    diag_init(&d);
    char msg[1024];
    int code = dbg_prepare(s, msg, sizeof msg, &d);
    if (code == PTXEMU_EXIT_PTX) diag_render(&d, s->P.ptx_text, s->P.ptx_len, err);
    else if (code) fprintf(err, "ptxemu: %s\n", msg);
    diag_list_free(&d);
    return code;
}

dbg_session *dbg_new(const rt_case *c, const dbg_opts *o, FILE *out, FILE *err, int *exit_code)
{
    dbg_session *s = calloc(1, sizeof *s);
    if (!s) { *exit_code = PTXEMU_EXIT_USAGE; return NULL; }
    s->out = out;
    s->cond_eval = dbg_cond_lanes;
    s->output = write_output;
    s->output_ctx = s;
    dbg_engine_init(s, c, o);
    *exit_code = prepare(s, err);
    if (*exit_code) { rt_prepared_free(&s->P); free(s); return NULL; }
    return s;
}

void dbg_free(dbg_session *s)
{
    if (!s) return;
    dbg_engine_fini(s);
    for (int i = 0; i < s->ndisp; i++) free(s->disp[i]);
    free(s);
}

void dbg_banner(dbg_session *s)
{
    const bc_func *k = &s->m->funcs[s->P.kernel];
    const uint32_t *g = s->P.cfg.grid, *b = s->P.cfg.block;
    uint32_t nt = dbg_nthreads(s);
    say(s, "Kernel %s of %s: grid (%u,%u,%u) block (%u,%u,%u), %u warp%s per CTA; schedule %s\n", k->name,
        dbg_base_name(s->m->path), g[0] ? g[0] : 1, g[1] ? g[1] : 1, g[2] ? g[2] : 1, b[0] ? b[0] : 1, b[1] ? b[1] : 1,
        b[2] ? b[2] : 1, (nt + 31) / 32, (nt + 31) / 32 == 1 ? "" : "s", s->o.adversarial ? "adversarial" : "hw");
}

static void info_warps(dbg_session *s);
static void do_displays(dbg_session *s);

/* ---- reporting stops ---------------------------------------------------------------------- */

/* "cta (x,y,z) thread (x,y,z) warp W lanes 0x..." of the focus. */
static void fmt_focus(const dbg_session *s, char *buf, size_t len)
{
    uint32_t c[3], t[3];
    dbg_cta_of(s, s->fcta, c);
    dbg_tid_of(s, s->fwarp, s->flane, t);
    const vm_warp *w = dbg_focus_warp(s);
    size_t n = (size_t)snprintf(buf, len, "cta (%u,%u,%u) thread (%u,%u,%u) warp %d", c[0], c[1], c[2], t[0], t[1], t[2], s->fwarp);
    if (w && n < len) {
        if ((w->live >> s->flane) & 1) snprintf(buf + n, len - n, " lanes 0x%08x", dbg_group_of(w, s->flane));
        else snprintf(buf + n, len - n, " lane %d (exited)", s->flane);
    }
}

static void show_where(dbg_session *s, const char *prefix)
{
    char loc[512], foc[256], text[256];
    const vm_warp *w = dbg_focus_warp(s);
    fmt_focus(s, foc, sizeof foc);
    if (!w || !((w->live >> s->flane) & 1)) { say(s, "%s%s%s\n", prefix, *prefix ? ": " : "", foc); return; }
    uint32_t pc = w->pc[s->flane];
    fmt_loc(s, pc, loc, sizeof loc);
    say(s, "%s%s%s %s\n", prefix, *prefix ? " at " : "", loc, foc);
    ptx_line_text(s, s->m->code[pc].line, text, sizeof text);
    say(s, "=> %d\t%s\n", s->m->code[pc].line, text);
}

static const char *const watch_name[] = { "", "Watchpoint", "Read watchpoint", "Access watchpoint" };

/* "-5 (0xfffffffb)": n bytes as a signed integer, then hex. */
static void fmt_sized(uint64_t v, int n, char *buf, size_t len)
{
    int b = 8 * n;
    v = b >= 64 ? v : v & ((1ull << b) - 1);
    int64_t sv = b >= 64 ? (int64_t)v : (int64_t)(v << (64 - b)) >> (64 - b);
    snprintf(buf, len, "%" PRId64 " (0x%0*" PRIx64 ")", sv, 2 * n, v);
}

static void report_watch(dbg_session *s, const dbg_watch_report *r)
{
    char loc[512];
    uint32_t c[3], t[3];
    dbg_cta_of(s, r->cta, c);
    dbg_tid_of(s, r->warp, r->lane, t);
    fmt_loc(s, r->pc, loc, sizeof loc);
    say(s, "%s %d: [%s 0x%" PRIx64 "] %s by cta (%u,%u,%u) thread (%u,%u,%u) warp %d at %s\n", watch_name[r->kind], r->id,
        r->space == BC_SP_SHARED ? "shared" : "global", r->addr, r->written ? "written" : "read", c[0], c[1], c[2], t[0], t[1], t[2],
        r->warp, loc);
    char o[64], v[64];
    fmt_sized(r->old, r->size, o, sizeof o);
    fmt_sized(r->value, r->size, v, sizeof v);
    if (r->written) say(s, "Old value = %s\nNew value = %s\n", o, v);
    else say(s, "Value = %s\n", v);
}

/* Runs the launch until the next stop (dbg_resume) and reports it. */
static void resume(dbg_session *s)
{
    dbg_stop st;
    s->sel_frame = 0;
    dbg_resume(s, &st);
    if (st.status == VM_PAUSED) {
        switch (st.why) {
        case STOP_BP: {
            char pre[64], cond[160] = "";
            snprintf(pre, sizeof pre, "%s %d", st.bp_temp ? "Temporary breakpoint" : "Breakpoint", st.bp_id);
            if (st.cond[0]) snprintf(cond, sizeof cond, "Condition %s holds for lanes 0x%08x\n", st.cond, st.cond_lanes);
            if (st.cond_err[0]) say(s, "%s\n", st.cond_err);
            show_where(s, pre);
            say(s, "%s", cond);
            break;
        }
        case STOP_WATCH:
            report_watch(s, &st.watch);
            show_where(s, "");
            break;
        case STOP_GONE:
            say(s, "Thread (%u,%u,%u) exited; focus moves to the next thread that runs\n", st.gone_tid[0], st.gone_tid[1],
                st.gone_tid[2]);
            show_where(s, "");
            break;
        case STOP_CTA: {
            uint32_t c[3];
            dbg_cta_of(s, st.cta, c);
            say(s, "CTA (%u,%u,%u) started\n", c[0], c[1], c[2]);
            show_where(s, "");
            break;
        }
        default:
            show_where(s, "");
        }
        do_displays(s);
        return;
    }
    if (st.has_watch) report_watch(s, &st.watch);
    if (s->st == VM_OK) {
        say(s, "Kernel %s finished: %" PRIu64 " lane-instructions\n", s->m->funcs[s->P.kernel].name, s->L->lane_insns);
        return;
    }
    vm_fault *f = &s->L->fault;
    if (s->st == VM_DEADLOCK) {
        say(s, "Deadlock: %s\n", strncmp(f->msg, "deadlock: ", 10) ? f->msg : f->msg + 10);
        show_where(s, "Stopped");
        info_warps(s);
        /* the VM's own report, as `ptxemu run` prints it */
        if (f->report) say(s, "blocked threads:\n%s", f->report);
        do_displays(s);
    } else {
        char loc[512];
        fmt_loc(s, f->pc, loc, sizeof loc);
        uint32_t t[3];
        memcpy(t, f->tid, sizeof t);
        say(s, "Program stopped (%s): %s\n  at %s cta (%u,%u,%u) thread (%u,%u,%u)\n", vm_status_name(s->st), f->msg, loc,
            f->cta[0], f->cta[1], f->cta[2], t[0], t[1], t[2]);
        do_displays(s);
    }
}

/* Starts (or restarts) the launch; says why not. */
static int start_launch(dbg_session *s)
{
    diag_list d;
    diag_init(&d);
    char msg[1024];
    int code = 0;
    int r = dbg_start(s, &code, msg, sizeof msg, &d);
    if (r == -1 && code == PTXEMU_EXIT_PTX) diag_render(&d, s->P.ptx_text, s->P.ptx_len, s->out);
    else if (r == -1) fprintf(s->out, "ptxemu: %s\n", msg);
    else if (r == -2) say(s, "Cannot launch: %s\n", msg);
    diag_list_free(&d);
    return r ? -1 : 0;
}

static int need_running(dbg_session *s)
{
    if (!s->L || s->ended) { say(s, "The program is not being run.\n"); return 0; }
    return 1;
}

/* The focused lane, live and in the CTA in flight; else says why not. */
static vm_warp *need_focus_lane(dbg_session *s)
{
    if (!s->L) { say(s, "The program is not being run.\n"); return NULL; }
    vm_warp *w = dbg_focus_warp(s);
    uint32_t c[3], t[3];
    dbg_cta_of(s, s->fcta, c);
    dbg_tid_of(s, s->fwarp, s->flane, t);
    if (!w) {
        say(s, "CTA (%u,%u,%u) is not running%s.\n", c[0], c[1], c[2],
            dbg_cta_finished(s, s->fcta) ? " (it has finished)" : " (it has not started)");
        return NULL;
    }
    if (!((w->live >> s->flane) & 1)) { say(s, "Thread (%u,%u,%u) has exited.\n", t[0], t[1], t[2]); return NULL; }
    return w;
}

/* Evaluates text for lane `lane` of w (w may be NULL) in physical frame
 * `phys`; 0 or -1 (message printed). */
static int evaluate_in(dbg_session *s, vm_warp *w, int lane, int phys, const char *text, dbg_val *out, const char **rest)
{
    dbg_where at = { w, lane, phys, 0, 0, 0, 0 };
    char err[DBG_EXPR_ERR];
    const char *p;
    if (dbg_eval(s, &at, text, out, &p, err)) { say(s, "%s\n", err); return -1; }
    if (rest) *rest = p;
    else if (*p) { say(s, "Junk after expression: \"%s\"\n", p); return -1; }
    return 0;
}

/* Evaluates text for lane `lane` of w (w may be NULL); 0 or -1 (message printed). */
static int evaluate(dbg_session *s, vm_warp *w, int lane, const char *text, dbg_val *out, const char **rest)
{
    return evaluate_in(s, w, lane, 0, text, out, rest);
}

/* The focused thread's warp for evaluation (NULL if none is live). */
static vm_warp *eval_warp(dbg_session *s)
{
    vm_warp *w = dbg_inspectable(s) ? dbg_focus_warp(s) : NULL;
    return w && ((w->live >> s->flane) & 1) ? w : NULL;
}

static void describe_bp(dbg_session *s, const dbg_bp *b, char *buf, size_t len)
{
    size_t n = 0;
    if (b->kind == BP_WATCH) {
        snprintf(buf, len, "[%s 0x%" PRIx64 "] (%d byte%s)", b->space == BC_SP_SHARED ? "shared" : "global", b->addr,
                 b->wsize, b->wsize == 1 ? "" : "s");
        return;
    }
    for (int k = 0; k < b->npcs && n < len; k++) {
        char loc[512];
        fmt_loc(s, b->pcs[k], loc, sizeof loc);
        n += (size_t)snprintf(buf + n, len - n, "%s%s", k ? ", " : "", loc);
    }
}

/* ---- commands ----------------------------------------------------------------------------- */

/* Splits "LOC if EXPR": the condition (or NULL); loc gets LOC. */
static const char *split_if(const char *arg, char *loc, size_t len)
{
    const char *c = NULL;
    for (const char *p = arg; *p; p++)
        if ((p == arg || p[-1] == ' ' || p[-1] == '\t') && !strncmp(p, "if", 2) && (!p[2] || p[2] == ' ' || p[2] == '\t' || p[2] == '(')) {
            c = p + 2;
            break;
        }
    size_t n = c ? (size_t)(c - 2 - arg) : strlen(arg);
    while (n && (arg[n - 1] == ' ' || arg[n - 1] == '\t')) n--;
    snprintf(loc, len, "%.*s", (int)n, arg);
    if (c) while (*c == ' ' || *c == '\t') c++;
    return c;
}

static void cmd_break(dbg_session *s, const char *arg, int temp)
{
    char loc[256];
    const char *cond = split_if(arg, loc, sizeof loc);
    if (!loc[0]) { say(s, "usage: break LOC [if EXPR] (LOC: N, file.ptx:N, file.cu:N, LABEL or FUNCTION)\n"); return; }
    if (cond && !*cond) { say(s, "Argument required (boolean expression after \"if\").\n"); return; }
    if (cond && strlen(cond) >= sizeof s->bp[0].cond) { say(s, "Condition too long.\n"); return; }
    if (s->nbp == DBG_MAX_BP) { say(s, "Too many breakpoints.\n"); return; }
    dbg_bp b;
    memset(&b, 0, sizeof b);
    b.kind = BP_BREAK;
    b.temp = temp;
    snprintf(b.spec, sizeof b.spec, "%s", loc);
    if (cond) snprintf(b.cond, sizeof b.cond, "%s", cond);
    char msg[1024];
    if (dbg_resolve_loc(s, loc, &b, msg, sizeof msg)) { say(s, "%s\n", msg); free(b.pcs); return; }
    b.id = dbg_bp_add(s, &b);
    char where[1024];
    describe_bp(s, &b, where, sizeof where);
    say(s, "%s %d at %s%s%s\n", temp ? "Temporary breakpoint" : "Breakpoint", b.id, where, b.cond[0] ? " if " : "", b.cond);
}

static dbg_bp *find_bp(dbg_session *s, const char *arg, const char **rest)
{
    char *end;
    long id = strtol(arg, &end, 10);
    if (end == arg || (*end && *end != ' ')) { say(s, "Bad breakpoint argument: '%s'\n", arg); return NULL; }
    while (*end == ' ') end++;
    *rest = end;
    for (int i = 0; i < s->nbp; i++) if (s->bp[i].id == id) return &s->bp[i];
    say(s, "No breakpoint number %ld.\n", id);
    return NULL;
}

/* condition N [EXPR]: sets or (without EXPR) removes breakpoint N's condition. */
static void cmd_condition(dbg_session *s, const char *arg)
{
    if (!*arg) { say(s, "usage: condition N [EXPR]\n"); return; }
    const char *e;
    dbg_bp *b = find_bp(s, arg, &e);
    if (!b) return;
    if (b->kind != BP_BREAK) { say(s, "Watchpoint %d cannot have a condition.\n", b->id); return; }
    if (!*e) {
        b->cond[0] = 0;
        say(s, "Breakpoint %d now unconditional.\n", b->id);
        return;
    }
    if (strlen(e) >= sizeof b->cond) { say(s, "Condition too long.\n"); return; }
    snprintf(b->cond, sizeof b->cond, "%s", e);
    say(s, "Breakpoint %d stops only where %s holds.\n", b->id, b->cond);
}

/* ignore N COUNT: the next COUNT stops of breakpoint N are not made. */
static void cmd_ignore(dbg_session *s, const char *arg)
{
    const char *e;
    if (!*arg) { say(s, "usage: ignore N COUNT\n"); return; }
    dbg_bp *b = find_bp(s, arg, &e);
    if (!b) return;
    char *end;
    long n = strtol(e, &end, 10);
    if (!*e || *end || n < 0) { say(s, "usage: ignore N COUNT\n"); return; }
    b->ignore = (int)n;
    if (!n) say(s, "Will stop next time breakpoint %d is reached.\n", b->id);
    else if (n == 1) say(s, "Will ignore next crossing of breakpoint %d.\n", b->id);
    else say(s, "Will ignore next %ld crossings of breakpoint %d.\n", n, b->id);
}

/* watch / rwatch / awatch [-l] [shared|global] ADDR [size N]; size from
 * watch/N when nonzero. */
static void cmd_watch(dbg_session *s, const char *arg, int kind, int size)
{
    if (s->nbp == DBG_MAX_BP) { say(s, "Too many breakpoints.\n"); return; }
    int space = BC_SP_GENERIC;
    char buf[512];
    snprintf(buf, sizeof buf, "%s", arg);
    char *sz = NULL;
    for (char *q = buf; (q = strstr(q, "size")); q++)
        if ((q == buf || q[-1] == ' ') && (q[4] == ' ' || q[4] == '=')) sz = q;
    if (sz) {
        char *end;
        long n = strtol(sz + 5, &end, 0);
        while (*end == ' ') end++;
        if (*end || end == sz + 5) { say(s, "usage: watch [-l] [shared|global] ADDR [size 1|2|4|8]\n"); return; }
        if (size && size != n) { say(s, "Two sizes given.\n"); return; }
        size = (int)n;
        *sz = 0;
    }
    char *p = buf;
    while (*p == ' ') p++;
    if (!strncmp(p, "-location ", 10)) p += 10;
    else if (!strncmp(p, "-l ", 3)) p += 3;
    while (*p == ' ') p++;
    /* [global ADDR], [shared.u64 ADDR]: the print syntax for memory */
    size_t pl = strlen(p);
    while (pl && p[pl - 1] == ' ') p[--pl] = 0;
    if (*p == '[' && pl > 1 && p[pl - 1] == ']') {
        p[pl - 1] = 0;
        p++;
        while (*p == ' ') p++;
        const char *q = p;
        dbg_space_word(&q, &space);
        ast_type t;
        if (*q == '.') {
            q++;
            if (dbg_parse_type(&q, &t)) { say(s, "unknown type after '.'\n"); return; }
            if (!size) size = dbg_type_bits(t) / 8;
        }
        p = (char *)q;
    } else {
        const char *q = p;
        dbg_space_word(&q, &space);
        p = (char *)q;
    }
    if (!size) size = 4;
    if (size != 1 && size != 2 && size != 4 && size != 8) { say(s, "A watchpoint covers 1, 2, 4 or 8 bytes.\n"); return; }
    dbg_val a;
    if (!*p) { say(s, "usage: %swatch [-l] [shared|global] ADDR [size 1|2|4|8]\n", kind == WATCH_READ ? "r" : kind == WATCH_ACCESS ? "a" : ""); return; }
    if (evaluate(s, eval_warp(s), s->flane, p, &a, NULL)) return;
    uint64_t addr = (uint64_t)dbg_to_int(a);
    if (space == BC_SP_GENERIC) vm_resolve(s->L, space, addr, &space, &addr);
    if (space != BC_SP_GLOBAL && space != BC_SP_SHARED) { say(s, "Can only watch global or shared memory.\n"); return; }
    dbg_bp b;
    memset(&b, 0, sizeof b);
    b.kind = BP_WATCH;
    b.space = space;
    b.addr = addr;
    b.wkind = kind;
    b.wsize = size;
    snprintf(b.spec, sizeof b.spec, "%s", arg);
    vm_warp *w = eval_warp(s);
    const uint8_t *q = dbg_mem_at(s, w, s->flane, space, addr, (uint64_t)size);
    if (q) memcpy(&b.old, q, (size_t)size);
    b.id = dbg_bp_add(s, &b);
    say(s, "%s %d: [%s 0x%" PRIx64 "] (%d byte%s)\n", watch_name[kind], b.id, space == BC_SP_SHARED ? "shared" : "global", addr,
        size, size == 1 ? "" : "s");
}

static void cmd_delete(dbg_session *s, const char *arg)
{
    if (!*arg) {
        while (s->nbp) dbg_bp_delete(s, s->nbp - 1);
        say(s, "Deleted all breakpoints.\n");
        return;
    }
    int id = atoi(arg);
    for (int i = 0; i < s->nbp; i++)
        if (s->bp[i].id == id) { dbg_bp_delete(s, i); say(s, "Deleted breakpoint %d.\n", id); return; }
    say(s, "No breakpoint number %s.\n", arg);
}

static void info_breakpoints(dbg_session *s)
{
    if (!s->nbp) { say(s, "No breakpoints or watchpoints.\n"); return; }
    say(s, "Num  Type        Disp  Hits  Where\n");
    for (int i = 0; i < s->nbp; i++) {
        const dbg_bp *b = &s->bp[i];
        char where[1024];
        describe_bp(s, b, where, sizeof where);
        static const char *const wtype[] = { "", "watchpoint", "rwatchpoint", "awatchpoint" };
        say(s, "%-4d %-11s %-5s %-5d %s%s%s\n", b->id, b->kind == BP_WATCH ? wtype[b->wkind] : "breakpoint",
            b->temp ? "del" : "keep", b->hits, b->kind == BP_BREAK ? b->spec : where,
            b->kind == BP_BREAK ? " -> " : "", b->kind == BP_BREAK ? where : "");
        if (b->cond[0]) say(s, "        stop only if %s (tested per lane)\n", b->cond);
        if (b->ignore) say(s, "        will ignore next %d crossing%s\n", b->ignore, b->ignore == 1 ? "" : "s");
    }
}

static void cmd_run(dbg_session *s)
{
    if (start_launch(s)) return;
    dbg_arm_continue(s);
    resume(s);
}

static void cmd_continue(dbg_session *s)
{
    if (!need_running(s)) return;
    dbg_arm_continue(s);
    resume(s);
}

static int coll_info(dbg_session *s, vm_warp *w)
{
    int l = s->flane;
    const bc_insn *I = &s->m->code[w->pc[l]];
    vm_cta *cta = dbg_focus_cta(s);
    if (w->state[l] == LANE_WAIT_COLL) {
        say(s, "Thread waits in %s (membermask 0x%08x); running until it completes.\n", bc_op_name[I->op], w->coll_mask[l]);
        return 1;
    }
    if (w->state[l] == LANE_WAIT_BAR) {
        uint32_t a, e;
        dbg_bar_counts(s, cta, w->bar_id[l], &a, &e);
        say(s, "Thread waits at barrier %d (%u of %u arrived); running until it completes.\n", w->bar_id[l], a, e);
        return 1;
    }
    if (I->guard != BC_NO_GUARD && (((w->R[I->guard + (uint32_t)l] & 1) ^ I->gneg) == 0)) return 0;
    uint32_t group = dbg_group_of(w, l);
    if (dbg_is_collective(I->op)) {
        uint32_t M = bc_op_fmt[I->op] == F_MMA ? 0xffffffffu : (uint32_t)w->R[I->x + (uint32_t)l], waiting = 0;
        for (uint32_t mm = M & w->live; mm; mm &= mm - 1) {
            int k = __builtin_ctz(mm);
            if (w->state[k] == LANE_WAIT_COLL && w->coll_mask[k] == M) waiting |= 1u << k;
        }
        uint32_t need = M & w->live & ~group & ~waiting;
        if (need) say(s, "%s with membermask 0x%08x also needs lanes 0x%08x; running them until it completes.\n",
                      bc_op_name[I->op], M, need);
        else if (waiting) say(s, "%s with membermask 0x%08x: lanes 0x%08x already wait in it; lanes 0x%08x complete it.\n",
                              bc_op_name[I->op], M, waiting, group & M);
        return 1;
    }
    if (I->op == OP_BAR) {
        int id = (int)(w->R[I->a + (uint32_t)l] & 15);
        uint32_t a, e;
        dbg_bar_counts(s, cta, id, &a, &e);
        if (I->n) e = (uint32_t)w->R[I->b + (uint32_t)l];
        uint32_t mine = (uint32_t)__builtin_popcount(group);
        if (I->m1 == 1) say(s, "Barrier %d: %u of %u threads arrived; this group arrives without waiting%s.\n", id, a, e,
                            a + mine >= e ? " and completes it" : "");
        else if (a + mine < e) say(s, "Barrier %d: %u of %u threads arrived, with this group %u; running the others until it completes.\n", id, a, e, a + mine);
        else say(s, "Barrier %d: %u of %u threads arrived; this group completes it.\n", id, a, e);
        return 1;
    }
    return 0;
}

static void cmd_step(dbg_session *s, const char *arg, int mode)
{
    if (!need_running(s)) return;
    vm_warp *w = need_focus_lane(s);
    if (!w) return;
    uint32_t pc = w->pc[s->flane];
    if (mode == RUN_STEP) {
        long n = *arg ? strtol(arg, NULL, 0) : 1;
        if (n < 1) { say(s, "step count must be positive\n"); return; }
        dbg_arm_step(s, n);
        if (n == 1) coll_info(s, w);
    } else if (mode == RUN_NEXT) {
        dbg_arm_next(s, w);
    } else {
        if (dbg_arm_finish(s, w)) { say(s, "\"finish\" not meaningful in the outermost frame (the kernel).\n"); return; }
        int f = bc_func_at(s->m, pc);
        say(s, "Run till exit from %s\n", f >= 0 ? s->m->funcs[f].name : "?");
    }
    resume(s);
    dbg_arm_continue(s);
}

static void print_focus(dbg_session *s)
{
    if (dbg_inspectable(s) && dbg_focus_warp(s)) { show_where(s, "Focus"); return; }
    char foc[256];
    fmt_focus(s, foc, sizeof foc);
    say(s, "Focus: %s\n", foc);
}

static int parse_coords(const char *arg, uint32_t v[3], int *n)
{
    *n = 0;
    char *end;
    while (*arg && *n < 3) {
        while (*arg == ' ' || *arg == ',' || *arg == '(' || *arg == ')') arg++;
        if (!*arg) break;
        long x = strtol(arg, &end, 0);
        if (end == arg || x < 0) return -1;
        v[(*n)++] = (uint32_t)x;
        arg = end;
    }
    while (*arg == ' ' || *arg == ')') arg++;
    return *arg || !*n ? -1 : 0;
}

static void cmd_focus(dbg_session *s, const char *arg)
{
    if (!*arg) { print_focus(s); return; }
    s->sel_frame = 0;
    char what[16];
    int k = 0;
    while (*arg && *arg != ' ' && k < 15) what[k++] = *arg++;
    what[k] = 0;
    while (*arg == ' ') arg++;
    uint32_t v[3], t[3], c[3];
    int n;
    if (!strcmp(what, "cta") || !strcmp(what, "block")) {
        dbg_cta_of(s, s->fcta, c);
        if (parse_coords(arg, v, &n)) { say(s, "usage: focus cta X [Y Z]\n"); return; }
        for (int i = 0; i < n; i++) c[i] = v[i];
        for (int i = 0; i < 3; i++)
            if (c[i] >= (s->c->grid[i] ? s->c->grid[i] : 1)) { say(s, "CTA (%u,%u,%u) is outside the grid.\n", c[0], c[1], c[2]); return; }
        uint64_t gx = s->c->grid[0] ? s->c->grid[0] : 1, gy = s->c->grid[1] ? s->c->grid[1] : 1;
        uint64_t lin = c[0] + gx * (c[1] + gy * (uint64_t)c[2]);
        int where = dbg_set_focus_cta(s, lin);
        if (where == DBG_CTA_FINISHED && s->L->nres > 1) say(s, "CTA (%u,%u,%u) has finished.\n", c[0], c[1], c[2]);
        else if (where == DBG_CTA_FINISHED) say(s, "CTA (%u,%u,%u) has finished (CTAs run one at a time, in linear order).\n", c[0], c[1], c[2]);
        else if (where == DBG_CTA_PENDING) say(s, "CTA (%u,%u,%u) has not started; continue stops when it starts.\n", c[0], c[1], c[2]);
    } else if (!strcmp(what, "thread")) {
        dbg_tid_of(s, s->fwarp, s->flane, t);
        if (parse_coords(arg, v, &n)) { say(s, "usage: focus thread X [Y Z]\n"); return; }
        for (int i = 0; i < n; i++) t[i] = v[i];
        for (int i = 0; i < 3; i++)
            if (t[i] >= (s->c->block[i] ? s->c->block[i] : 1)) { say(s, "Thread (%u,%u,%u) is outside the block.\n", t[0], t[1], t[2]); return; }
        uint32_t bx = s->c->block[0] ? s->c->block[0] : 1, by = s->c->block[1] ? s->c->block[1] : 1;
        uint32_t lin = t[0] + bx * (t[1] + by * t[2]);
        dbg_set_focus_thread(s, (int)(lin / BC_WARP), (int)(lin % BC_WARP));
    } else if (!strcmp(what, "warp")) {
        char *end;
        long wv = strtol(arg, &end, 0);
        long lv = s->flane;
        if (end == arg) { say(s, "usage: focus warp W [lane L]\n"); return; }
        while (*end == ' ') end++;
        if (!strncmp(end, "lane", 4)) { char *e2; lv = strtol(end + 4, &e2, 0); if (e2 == end + 4) { say(s, "usage: focus warp W [lane L]\n"); return; } }
        else if (*end) { say(s, "usage: focus warp W [lane L]\n"); return; }
        uint32_t nt = dbg_nthreads(s);
        /* in 64 bits, and the warp bounded first: a huge W must not wrap onto a real thread */
        if (wv < 0 || wv >= (long)((nt + BC_WARP - 1) / BC_WARP) || lv < 0 || lv >= BC_WARP ||
            (uint64_t)wv * BC_WARP + (uint64_t)lv >= nt) { say(s, "No such warp/lane in the block.\n"); return; }
        dbg_set_focus_thread(s, (int)wv, (int)lv);
    } else if (!strcmp(what, "lane")) {
        long lv = strtol(arg, NULL, 0);
        if (lv < 0 || lv >= BC_WARP || (uint32_t)(s->fwarp * BC_WARP + lv) >= dbg_nthreads(s)) { say(s, "No such lane.\n"); return; }
        dbg_set_focus_thread(s, s->fwarp, (int)lv);
    } else { say(s, "usage: focus cta X [Y Z] | thread X [Y Z] | warp W [lane L]\n"); return; }
    print_focus(s);
}

static void print_all(dbg_session *s, const char *expr)
{
    vm_warp *w = dbg_inspectable(s) ? dbg_focus_warp(s) : NULL;
    if (!w) { if (dbg_inspectable(s)) need_focus_lane(s); else say(s, "The program is not being run.\n"); return; }
    char vals[BC_WARP][64];
    int width = 1;
    for (int l = 0; l < BC_WARP; l++) {
        vals[l][0] = 0;
        if (!((w->present >> l) & 1)) continue;
        if (!((w->live >> l) & 1)) { snprintf(vals[l], sizeof vals[l], "-"); continue; }
        dbg_val v;
        dbg_where at = { w, l, 0, 0, 0, 0, 0 };
        char err[DBG_EXPR_ERR];
        const char *rest;
        if (dbg_eval(s, &at, expr, &v, &rest, err)) { say(s, "%s\n", err); return; }
        dbg_fmt_val(v, 1, vals[l], sizeof vals[l]);
        int n = (int)strlen(vals[l]);
        if (n > width) width = n;
    }
    say(s, "%s@all (warp %d; - exited):\n", expr, w->id);
    for (int l0 = 0; l0 < BC_WARP; l0 += 8) {
        if (!((w->present >> l0) & 0xff)) break;
        say(s, "  [%2d-%2d]", l0, l0 + 7);
        for (int l = l0; l < l0 + 8 && vals[l][0]; l++) say(s, " %*s", width, vals[l]);
        say(s, "\n");
    }
}

static int sel_phys(dbg_session *s, vm_warp *w);

static int print_vector(dbg_session *s, vm_warp *w, const char *name)
{
    if (!w) return 0;
    dbg_pframe pf[DBG_MAX_FRAMES];
    int npf = dbg_phys_frames(s, w, s->flane, pf, DBG_MAX_FRAMES), phys = sel_phys(s, w);
    uint32_t pc = pf[phys].pc;
    int f = bc_func_at(s->m, pc);
    for (int i = 0; i < s->m->nregnames; i++) {
        const bc_regname *r = &s->m->regnames[i];
        if (r->func != f || pc < r->pc_begin || pc >= r->pc_end || !r->vec || r->count || strcmp(r->name, name)) continue;
        say(s, "%s = {", name);
        for (int k = 0; k < r->vec; k++) {
            char b[64];
            dbg_val v = { dbg_frame_reg(s, w, s->flane, pf, npf, phys, r->slot + (uint32_t)k * BC_WARP), r->type };
            dbg_fmt_val(v, 0, b, sizeof b);
            say(s, "%s%s", k ? ", " : "", b);
        }
        say(s, "}\n");
        return 1;
    }
    return 0;
}

static void cmd_print(dbg_session *s, const char *arg)
{
    if (!*arg) { say(s, "usage: print EXPR | print %%REG@all\n"); return; }
    size_t n = strlen(arg);
    if (n > 4 && !strcmp(arg + n - 4, "@all")) {
        char e[256];
        snprintf(e, sizeof e, "%.*s", (int)(n - 4), arg);
        print_all(s, e);
        return;
    }
    vm_warp *w = eval_warp(s);
    if (arg[0] == '%' && print_vector(s, w, arg)) return;
    dbg_val v;
    if (evaluate_in(s, w, s->flane, sel_phys(s, w), arg, &v, NULL)) return;
    char b[128];
    dbg_fmt_val(v, 0, b, sizeof b);
    say(s, "%s = %s\n", arg, b);
}

static const char *buffer_of(dbg_session *s, uint64_t a, uint64_t *off)
{
    for (int i = 0; i < s->c->nbuffers; i++)
        if (a >= s->P.bufaddr[i] && a - s->P.bufaddr[i] < s->c->buffers[i].size) { *off = a - s->P.bufaddr[i]; return s->c->buffers[i].name; }
    return NULL;
}

static void cmd_x(dbg_session *s, const char *cmd)
{
    /* cmd is "x" or "x/FMT" followed by the address */
    long count = 1;
    int size = 4, fmt = 'x';
    const char *p = cmd + 1;
    if (*p == '/') {
        p++;
        char *end;
        long c = strtol(p, &end, 10);
        if (end != p) count = c;
        p = end;
        for (; *p && *p != ' '; p++) {
            switch (*p) {
            case 'b': size = 1; break; case 'h': size = 2; break; case 'w': size = 4; break; case 'g': size = 8; break;
            case 'x': case 'd': case 'u': fmt = *p; break;
            case 'f': fmt = 'f'; if (size != 8) size = 4; break;
            default: say(s, "Undefined output format \"%c\".\n", *p); return;
            }
        }
    }
    while (*p == ' ') p++;
    if (count < 1 || count > 4096) { say(s, "bad count\n"); return; }
    int space = BC_SP_GENERIC;
    dbg_space_word(&p, &space);
    vm_warp *w = eval_warp(s);
    dbg_val a;
    if (!*p) { say(s, "usage: x/N{b,h,w,g,f} [shared|global] ADDR\n"); return; }
    if (evaluate(s, w, s->flane, p, &a, NULL)) return;
    uint64_t addr = (uint64_t)dbg_to_int(a);
    int per = size == 8 ? 2 : size == 4 ? 4 : 8;
    for (long i = 0; i < count; i++) {
        uint64_t ea = addr + (uint64_t)i * (uint64_t)size;
        if (i % per == 0) {
            if (i) say(s, "\n");
            uint64_t off;
            const char *bn = space == BC_SP_SHARED ? NULL : buffer_of(s, ea, &off);
            if (space == BC_SP_SHARED) say(s, "shared 0x%" PRIx64 ":", ea);
            else if (bn) say(s, "0x%" PRIx64 " <%s+%" PRIu64 ">:", ea, bn, off);
            else say(s, "0x%" PRIx64 ":", ea);
        }
        const uint8_t *q = dbg_mem_at(s, w, s->flane, space, ea, (uint64_t)size);
        if (!q) { say(s, "\nCannot access memory at address 0x%" PRIx64 "\n", ea); return; }
        uint64_t v = 0;
        memcpy(&v, q, (size_t)size);
        char b[64];
        if (fmt == 'f') {
            dbg_val x = { v, size == 8 ? AST_T_F64 : AST_T_F32 };
            dbg_fmt_val(x, 1, b, sizeof b);
        } else if (fmt == 'd' || fmt == 'u') {
            static const ast_type st[] = { AST_T_S8, AST_T_S16, AST_T_NONE, AST_T_S32, AST_T_NONE, AST_T_NONE, AST_T_NONE, AST_T_S64 };
            static const ast_type ut[] = { AST_T_U8, AST_T_U16, AST_T_NONE, AST_T_U32, AST_T_NONE, AST_T_NONE, AST_T_NONE, AST_T_U64 };
            dbg_val x = { v, fmt == 'd' ? st[size - 1] : ut[size - 1] };
            dbg_fmt_val(x, 1, b, sizeof b);
        } else snprintf(b, sizeof b, "0x%0*" PRIx64, size * 2, v);
        say(s, "\t%s", b);
    }
    say(s, "\n");
}

static void info_warps(dbg_session *s)
{
    vm_cta *cta = dbg_inspectable(s) ? dbg_focus_cta(s) : NULL;
    if (!cta) { if (dbg_inspectable(s)) need_focus_lane(s); else say(s, "The program is not being run.\n"); return; }
    if (s->L->nres > 1) {              /* the CTAs in flight; * marks the focused one */
        say(s, "CTAs in flight (%d resident):", s->L->nres);
        for (int i = 0; i < s->L->nres; i++) {
            const vm_cta *o = &s->L->ctas[i];
            if (o->live) say(s, " %s(%u,%u,%u)%s", o == cta ? "*" : "", o->ctaid[0], o->ctaid[1], o->ctaid[2], o->stuck ? " blocked" : "");
        }
        say(s, "\n");
    }
    say(s, "CTA (%u,%u,%u): %d warp%s\n", cta->ctaid[0], cta->ctaid[1], cta->ctaid[2], cta->nwarps, cta->nwarps == 1 ? "" : "s");
    for (int wi = 0; wi < cta->nwarps; wi++) {
        vm_warp *w = &cta->warps[wi];
        if (!w->live) { say(s, "%c warp %-3d lanes 0x%08x  exited\n", wi == s->fwarp ? '*' : ' ', wi, w->present); continue; }
        uint32_t done = ~w->live, first = 1;
        while (done != 0xffffffffu) {
            int l = __builtin_ctz(~done);
            uint32_t g = dbg_group_of(w, l);
            done |= g;
            char loc[512], st[160];
            fmt_loc(s, w->pc[l], loc, sizeof loc);
            fmt_state(s, cta, w, l, st, sizeof st);
            int mark = wi == s->fwarp && ((g >> s->flane) & 1);
            if (first) say(s, "%c warp %-3d lanes 0x%08x  pc %-4u %s  %s\n", mark ? '*' : ' ', wi, g, w->pc[l], loc, st);
            else say(s, "%c          lanes 0x%08x  pc %-4u %s  %s\n", mark ? '*' : ' ', g, w->pc[l], loc, st);
            first = 0;
        }
        uint32_t ex = w->present & ~w->live;
        if (ex) say(s, "           lanes 0x%08x  exited\n", ex);
    }
}

static void info_lanes(dbg_session *s)
{
    vm_warp *w = dbg_inspectable(s) ? dbg_focus_warp(s) : NULL;
    if (!w) { if (dbg_inspectable(s)) need_focus_lane(s); else say(s, "The program is not being run.\n"); return; }
    vm_cta *cta = dbg_focus_cta(s);
    say(s, "Warp %d of CTA (%u,%u,%u):\n  lane thread         pc    location  state\n", w->id, cta->ctaid[0], cta->ctaid[1], cta->ctaid[2]);
    for (int l = 0; l < BC_WARP; l++) {
        if (!((w->present >> l) & 1)) continue;
        uint32_t t[3];
        dbg_tid_of(s, w->id, l, t);
        char th[48], loc[512], st[160];
        snprintf(th, sizeof th, "(%u,%u,%u)", t[0], t[1], t[2]);
        if (!((w->live >> l) & 1)) { say(s, "%c %-4d %-14s -     exited\n", l == s->flane ? '*' : ' ', l, th); continue; }
        fmt_loc(s, w->pc[l], loc, sizeof loc);
        fmt_state(s, cta, w, l, st, sizeof st);
        say(s, "%c %-4d %-14s %-5u %s  %s\n", l == s->flane ? '*' : ' ', l, th, w->pc[l], loc, st);
    }
}

static void info_barriers(dbg_session *s)
{
    vm_cta *cta = dbg_inspectable(s) ? dbg_focus_cta(s) : NULL;
    if (!cta) { if (dbg_inspectable(s)) need_focus_lane(s); else say(s, "The program is not being run.\n"); return; }
    say(s, "Barriers of CTA (%u,%u,%u):\n", cta->ctaid[0], cta->ctaid[1], cta->ctaid[2]);
    for (int id = 0; id < VM_NBAR; id++) {
        uint32_t a, e;
        dbg_bar_counts(s, cta, id, &a, &e);
        if (!a) { say(s, "  barrier %-2d idle\n", id); continue; }
        say(s, "  barrier %-2d %u of %u threads arrived%s; warps counted 0x%x; waiting:", id, a, e,
            cta->bar[id].expected ? " (counted in whole warps)" : "", cta->bar[id].warps);
        for (int k = 0; k < cta->nwarps; k++) {
            uint32_t wl = 0;
            for (int l = 0; l < BC_WARP; l++)
                if (cta->warps[k].state[l] == LANE_WAIT_BAR && cta->warps[k].bar_id[l] == id) wl |= 1u << l;
            if (wl) say(s, " warp %d lanes 0x%08x", k, wl);
        }
        say(s, "\n");
    }
}

static void cmd_list(dbg_session *s, const char *arg)
{
    int center;
    vm_warp *w = eval_warp(s);
    if (*arg) {
        char *end;
        long n = strtol(arg, &end, 10);
        if (*end || end == arg) {
            dbg_bp b;
            memset(&b, 0, sizeof b);
            char msg[1024];
            if (dbg_resolve_loc(s, arg, &b, msg, sizeof msg)) { say(s, "%s\n", msg); return; }
            center = s->m->code[b.pcs[0]].line;
            free(b.pcs);
        } else if (n < 1 || n > INT_MAX - 16) {
            say(s, "Line number %s is out of range for \"%s\".\n", arg, dbg_base_name(s->m->path));
            return;
        } else center = (int)n;
    } else if (w) center = s->m->code[w->pc[s->flane]].line;
    else center = s->m->funcs[s->P.kernel].line;
    int cur = w ? s->m->code[w->pc[s->flane]].line : -1;
    for (int line = center - 5 > 1 ? center - 5 : 1; line <= center + 5; line++) {
        char text[256];
        if (ptx_line_text(s, line, text, sizeof text)) break;
        /* the CUDA position of the line's instruction, if it has one */
        char cu[256] = "";
        for (uint32_t pc = 0; pc < s->m->ncode; pc++)
            if (s->m->code[pc].line == line && s->m->code[pc].src >= 0) {
                char loc[512];
                fmt_loc(s, pc, loc, sizeof loc);
                char *paren = strchr(loc, '(');
                if (paren) snprintf(cu, sizeof cu, "  // %.*s", (int)strlen(paren + 1) - 1, paren + 1);
                break;
            }
        say(s, "%s%-5d %s%s\n", line == cur ? "=> " : "   ", line, text, cu);
    }
}

/* ---- frames: backtrace, frame, up, down ------------------------------------------------------ */

static void print_lframe(dbg_session *s, const char *ind, int k, const dbg_lframe *f, const dbg_pframe *pf)
{
    const bc_module *m = s->m;
    if (f->inl) {
        const bc_srcloc *l = &m->srclocs[f->src];
        say(s, "%s#%-2d %s (inlined) at %s:%d\n", ind, k, l->func ? l->func : "?", dbg_file_name(m, l->file), l->line);
        return;
    }
    char loc[64] = "";
    if (f->src >= 0 && f->src < m->nsrclocs)
        snprintf(loc, sizeof loc, " (%s:%d)", dbg_file_name(m, m->srclocs[f->src].file), m->srclocs[f->src].line);
    int fidx = pf[f->phys].func;
    say(s, "%s#%-2d %s at %s:%d%s%s\n", ind, k, fidx >= 0 ? m->funcs[fidx].name : "?", dbg_base_name(m->path), m->code[f->pc].line, loc,
        f->phys ? " (call)" : "");
}

static void print_backtrace(dbg_session *s, const char *ind, vm_warp *w, int lane)
{
    static dbg_pframe pf[DBG_MAX_FRAMES];
    static dbg_lframe lf[DBG_MAX_FRAMES * 4];
    int npf = dbg_phys_frames(s, w, lane, pf, DBG_MAX_FRAMES);
    int n = dbg_logical_frames(s, pf, npf, lf, DBG_MAX_FRAMES * 4);
    for (int k = 0; k < n; k++) print_lframe(s, ind, k, &lf[k], pf);
}

/* Whether lanes a and b of w have the same call stack (the same call pcs). */
static int same_stack(const dbg_session *s, const vm_warp *w, int a, int b)
{
    dbg_pframe fa[DBG_MAX_FRAMES], fb[DBG_MAX_FRAMES];
    int na = dbg_phys_frames(s, w, a, fa, DBG_MAX_FRAMES), nb = dbg_phys_frames(s, w, b, fb, DBG_MAX_FRAMES);
    if (na != nb) return 0;
    for (int i = 1; i < na; i++) if (fa[i].pc != fb[i].pc) return 0;
    return 1;
}

/* backtrace all: one backtrace per lane group of the focused warp (lanes at
 * the same pc, in the same state, with the same call stack). */
static void backtrace_warp(dbg_session *s)
{
    vm_warp *w = dbg_inspectable(s) ? dbg_focus_warp(s) : NULL;
    if (!w) { if (dbg_inspectable(s)) need_focus_lane(s); else say(s, "The program is not being run.\n"); return; }
    vm_cta *cta = dbg_focus_cta(s);
    say(s, "Warp %d of CTA (%u,%u,%u):\n", w->id, cta->ctaid[0], cta->ctaid[1], cta->ctaid[2]);
    uint32_t done = ~w->live;
    while (done != 0xffffffffu) {
        int l = __builtin_ctz(~done);
        uint32_t g = 0;
        for (uint32_t mm = dbg_group_of(w, l) & ~done; mm; mm &= mm - 1) {
            int k = __builtin_ctz(mm);
            if (same_stack(s, w, l, k)) g |= 1u << k;
        }
        done |= g;
        uint32_t t[3];
        dbg_tid_of(s, w->id, l, t);
        char st[160];
        fmt_state(s, cta, w, l, st, sizeof st);
        say(s, "%c lanes 0x%08x (first thread (%u,%u,%u)): %s\n", (g >> s->flane) & 1 ? '*' : ' ', g, t[0], t[1], t[2], st);
        print_backtrace(s, "    ", w, l);
    }
    uint32_t ex = w->present & ~w->live;
    if (ex) say(s, "  lanes 0x%08x: exited\n", ex);
}

static void cmd_backtrace(dbg_session *s, const char *arg)
{
    if (!strcmp(arg, "all") || !strcmp(arg, "-warp") || !strcmp(arg, "warp")) { backtrace_warp(s); return; }
    if (*arg) { say(s, "usage: backtrace [all | -warp]\n"); return; }
    if (!dbg_inspectable(s)) { say(s, "The program is not being run.\n"); return; }
    vm_warp *w = need_focus_lane(s);
    if (!w) return;
    print_backtrace(s, "", w, s->flane);
}

/* The physical frame of the selected frame of the focused lane (0 if none). */
static int sel_phys(dbg_session *s, vm_warp *w)
{
    if (!s->sel_frame || !w) return 0;
    dbg_pframe pf[DBG_MAX_FRAMES];
    dbg_lframe lf[DBG_MAX_FRAMES * 4];
    int npf = dbg_phys_frames(s, w, s->flane, pf, DBG_MAX_FRAMES);
    int n = dbg_logical_frames(s, pf, npf, lf, DBG_MAX_FRAMES * 4);
    return s->sel_frame < n ? lf[s->sel_frame].phys : 0;
}

/* frame [N], up [N] (dir 1), down [N] (dir -1). */
static void cmd_frame(dbg_session *s, const char *arg, int dir)
{
    if (!dbg_inspectable(s)) { say(s, "The program is not being run.\n"); return; }
    vm_warp *w = need_focus_lane(s);
    if (!w) return;
    static dbg_pframe pf[DBG_MAX_FRAMES];
    static dbg_lframe lf[DBG_MAX_FRAMES * 4];
    int npf = dbg_phys_frames(s, w, s->flane, pf, DBG_MAX_FRAMES);
    int n = dbg_logical_frames(s, pf, npf, lf, DBG_MAX_FRAMES * 4);
    char *end;
    long v = *arg ? strtol(arg, &end, 10) : (dir ? 1 : s->sel_frame);
    if (*arg && (*end || v < 0)) { say(s, "usage: %s [N]\n", dir > 0 ? "up" : dir < 0 ? "down" : "frame"); return; }
    long f = dir ? s->sel_frame + dir * v : v;
    if (f >= n) {
        if (dir) { say(s, "Initial frame selected; you cannot go up.\n"); return; }
        say(s, "No frame at level %ld.\n", v);
        return;
    }
    if (f < 0) { say(s, "Bottom (innermost) frame selected; you cannot go down.\n"); return; }
    s->sel_frame = (int)f;
    print_lframe(s, "", s->sel_frame, &lf[f], pf);
    char text[256];
    ptx_line_text(s, s->m->code[lf[f].pc].line, text, sizeof text);
    say(s, "=> %d\t%s\n", s->m->code[lf[f].pc].line, text);
}

/* ---- info registers, display ---------------------------------------------------------------- */

static void print_reg_line(dbg_session *s, const char *name, const bc_regname *r, vm_warp *w, const dbg_pframe *pf, int npf, int phys,
                           uint32_t slot)
{
    char b[256];
    if (r && r->vec && !r->count) {
        size_t n = (size_t)snprintf(b, sizeof b, "{");
        for (int k = 0; k < r->vec && n < sizeof b; k++) {
            char e[64];
            dbg_val v = { dbg_frame_reg(s, w, s->flane, pf, npf, phys, r->slot + (uint32_t)k * BC_WARP), r->type };
            dbg_fmt_val(v, 0, e, sizeof e);
            n += (size_t)snprintf(b + n, sizeof b - n, "%s%s", k ? ", " : "", e);
        }
        if (n < sizeof b) snprintf(b + n, sizeof b - n, "}");
        say(s, "%-10s .v%d.%-4s %s\n", name, r->vec, ast_type_name(r->type), b);
        return;
    }
    ast_type t = r ? r->type : AST_T_B32;
    dbg_val v = { dbg_frame_reg(s, w, s->flane, pf, npf, phys, slot), t };
    dbg_fmt_val(v, 0, b, sizeof b);
    say(s, "%-10s .%-7s %s\n", name, ast_type_name(t), b);
}

/* info registers [NAME|REGEX]: the registers visible at the selected
 * frame's pc, with the focused lane's values. */
static void info_registers(dbg_session *s, const char *arg)
{
    if (!dbg_inspectable(s)) { say(s, "The program is not being run.\n"); return; }
    vm_warp *w = need_focus_lane(s);
    if (!w) return;
    const bc_module *m = s->m;
    dbg_pframe pf[DBG_MAX_FRAMES];
    int npf = dbg_phys_frames(s, w, s->flane, pf, DBG_MAX_FRAMES), phys = sel_phys(s, w);
    uint32_t pc = pf[phys].pc, slot;
    int f = bc_func_at(m, pc);
    ast_type t;
    /* one register by its name (a vector component included) */
    if (*arg && bc_lookup_reg(m, pc, arg, &slot, &t) == 0) {
        const bc_regname *rv = NULL;
        for (int i = 0; i < m->nregnames; i++) {
            const bc_regname *r = &m->regnames[i];
            if (r->func == f && pc >= r->pc_begin && pc < r->pc_end && !r->count && r->vec && !strcmp(r->name, arg)) rv = r;
        }
        bc_regname one = { f, arg, t, 0, 0, slot, 0, 0 };
        print_reg_line(s, arg, rv ? rv : &one, w, pf, npf, phys, slot);
        return;
    }
    regex_t re;
    if (*arg) {
        int e = regcomp(&re, arg, REG_EXTENDED | REG_NOSUB);
        if (e) { char msg[128]; regerror(e, &re, msg, sizeof msg); say(s, "Invalid regular expression \"%s\": %s\n", arg, msg); return; }
    }
    int shown = 0;
    for (int i = 0; i < m->nregnames; i++) {
        const bc_regname *r = &m->regnames[i];
        if (r->func != f || pc < r->pc_begin || pc >= r->pc_end) continue;
        int64_t cnt = r->count ? r->count : 1;
        for (int64_t ix = 0; ix < cnt; ix++) {
            char name[160];
            if (r->count) snprintf(name, sizeof name, "%s%" PRId64, r->name, ix);
            else snprintf(name, sizeof name, "%s", r->name);
            uint32_t want = r->slot + (uint32_t)ix * BC_WARP;
            /* a name an inner scope declares again shows once, as print sees it */
            if (bc_lookup_reg(m, pc, name, &slot, &t) || slot != want) continue;
            if (*arg && regexec(&re, name, 0, NULL, 0)) continue;
            print_reg_line(s, name, r, w, pf, npf, phys, want);
            shown++;
        }
    }
    if (*arg) regfree(&re);
    if (!shown) say(s, *arg ? "No register matches \"%s\".\n" : "No registers%s.\n", *arg ? arg : "");
}

static void show_display(dbg_session *s, int i)
{
    const char *e = s->disp[i];
    size_t n = strlen(e);
    if (n > 4 && !strcmp(e + n - 4, "@all")) {
        char x[256];
        snprintf(x, sizeof x, "%.*s", (int)(n - 4), e);
        say(s, "%d: ", s->disp_id[i]);
        print_all(s, x);
        return;
    }
    vm_warp *w = eval_warp(s);
    dbg_val v;
    dbg_where at = { w, s->flane, sel_phys(s, w), 0, 0, 0, 0 };
    char err[DBG_EXPR_ERR];
    const char *rest;
    int bad = dbg_eval(s, &at, e, &v, &rest, err);
    if (!bad && *rest) { snprintf(err, sizeof err, "Junk after expression: \"%s\"", rest); bad = 1; }
    if (bad) { say(s, "%d: %s: %s\n", s->disp_id[i], e, err); return; }
    char b[128];
    dbg_fmt_val(v, 0, b, sizeof b);
    say(s, "%d: %s = %s\n", s->disp_id[i], e, b);
}

static void do_displays(dbg_session *s)
{
    if (!dbg_inspectable(s)) return;
    for (int i = 0; i < s->ndisp; i++) show_display(s, i);
}

static void cmd_display(dbg_session *s, const char *arg)
{
    if (!*arg) { do_displays(s); return; }
    if (s->ndisp == DBG_MAX_DISP) { say(s, "Too many display expressions.\n"); return; }
    s->disp[s->ndisp] = strdup(arg);
    s->disp_id[s->ndisp] = ++s->next_disp;
    s->ndisp++;
    if (dbg_inspectable(s)) show_display(s, s->ndisp - 1);
    else say(s, "%d: %s (shown at every stop)\n", s->next_disp, arg);
}

static void cmd_undisplay(dbg_session *s, const char *arg)
{
    if (!*arg) {
        for (int i = 0; i < s->ndisp; i++) free(s->disp[i]);
        s->ndisp = 0;
        say(s, "Deleted all display expressions.\n");
        return;
    }
    for (const char *p = arg; *p;) {
        char *end;
        long id = strtol(p, &end, 10);
        if (end == p) { say(s, "Arguments must be display numbers.\n"); return; }
        int i = 0;
        while (i < s->ndisp && s->disp_id[i] != id) i++;
        if (i == s->ndisp) say(s, "No display number %ld.\n", id);
        else {
            free(s->disp[i]);
            memmove(&s->disp[i], &s->disp[i + 1], (size_t)(s->ndisp - i - 1) * sizeof *s->disp);
            memmove(&s->disp_id[i], &s->disp_id[i + 1], (size_t)(s->ndisp - i - 1) * sizeof *s->disp_id);
            s->ndisp--;
        }
        p = end;
        while (*p == ' ' || *p == ',') p++;
    }
}

static void info_display(dbg_session *s)
{
    if (!s->ndisp) { say(s, "There are no auto-display expressions now.\n"); return; }
    say(s, "Auto-display expressions now in effect:\nNum Expression\n");
    for (int i = 0; i < s->ndisp; i++) say(s, "%-3d %s\n", s->disp_id[i], s->disp[i]);
}

static void info_frame(dbg_session *s)
{
    cmd_frame(s, "", 0);
}

static void cmd_info(dbg_session *s, const char *arg)
{
    size_t n = strcspn(arg, " ");
    const char *rest = arg + n;
    while (*rest == ' ') rest++;
    if (!n) { say(s, "info breakpoints | watchpoints | warps | lanes | barriers | focus | registers [REGEX] | display | frame\n"); return; }
    if (!strncmp("breakpoints", arg, n) || !strncmp("watchpoints", arg, n)) info_breakpoints(s);
    else if (!strncmp("warps", arg, n)) info_warps(s);
    else if (!strncmp("lanes", arg, n)) info_lanes(s);
    else if (!strncmp("barriers", arg, n)) info_barriers(s);
    else if (!strncmp("focus", arg, n)) print_focus(s);
    else if (!strncmp("registers", arg, n) || !strncmp("all-registers", arg, n)) info_registers(s, rest);
    else if (!strncmp("display", arg, n)) info_display(s);
    else if (!strncmp("frame", arg, n)) info_frame(s);
    else say(s, "Undefined info command: \"%s\".\n", arg);
}

/* ---- help ------------------------------------------------------------------------------------ */

typedef struct help_entry {
    const char *names;           /* "break b br": the command, then its aliases */
    const char *text;            /* usage line(s), then a description */
} help_entry;

static const help_entry help_tab[] = {
    { "break b br",
      "break LOC [if EXPR]\n"
      "Stops every lane group that reaches LOC, in every warp and CTA.  LOC: a PTX line N or\n"
      "file.ptx:N (the next line with code), a CUDA line file.cu:N (every instruction whose .loc\n"
      "chain, inlined-at included, holds that line), a label ($L__BB1_3) or a function.\n"
      "With \"if EXPR\" the condition is evaluated for each lane of the group; the breakpoint stops\n"
      "only if it holds for some lane, and the focus moves to the first of those lanes.\n" },
    { "tbreak tb", "tbreak LOC [if EXPR]\nLike break, deleted when it first stops.\n" },
    { "condition",
      "condition N [EXPR]\nBreakpoint N stops only where EXPR holds (per lane); without EXPR, unconditionally.\n" },
    { "ignore", "ignore N COUNT\nThe next COUNT stops of breakpoint N are not made (their hits still count).\n" },
    { "watch",
      "watch [-l] [global|shared] ADDR [size 1|2|4|8],  watch/N ADDR\n"
      "Stops after a thread writes any of the N bytes (default 4) at ADDR (a generic or global\n"
      "address, or a shared offset); prints the writer, the old and the new value.\n" },
    { "rwatch",
      "rwatch [-l] [global|shared] ADDR [size 1|2|4|8],  rwatch/N ADDR\n"
      "Stops after a thread reads any of the N bytes at ADDR (atomics included); prints the reader\n"
      "and the value.\n" },
    { "awatch",
      "awatch [-l] [global|shared] ADDR [size 1|2|4|8],  awatch/N ADDR\n"
      "Stops after a thread reads or writes any of the N bytes at ADDR.\n" },
    { "delete d", "delete [N]\nDeletes breakpoint or watchpoint N; all of them without N.\n" },
    { "run r", "run\nStarts (or restarts) the launch; breakpoints and displays are kept.\n" },
    { "start", "start\nStarts the launch and stops at the kernel entry (a temporary breakpoint).\n" },
    { "continue c", "continue\nRuns to the next breakpoint, watchpoint, fault, deadlock or the end of the launch.\n" },
    { "step s stepi si",
      "step [N]\nThe focused thread's lane group executes N PTX instructions (1 without N).  At a\n"
      "collective or barrier it says which participants are still needed and runs them.\n" },
    { "next n", "next\nSteps to the next CUDA source line, over calls and inlined calls.\n" },
    { "finish fin", "finish\nRuns until the focused thread returns from its .func.\n" },
    { "focus cuda",
      "focus cta X [Y Z] | thread X [Y Z] | warp W [lane L] | lane L\n"
      "Changes (or, without arguments, shows) the focused thread, keeping the other coordinates.\n" },
    { "print p",
      "print EXPR,  print EXPR@all\n"
      "Registers of any type (%r5, %rd2, %p1, %f3, vectors), special registers (%tid.x, %ctaid.y,\n"
      "%laneid, %lanemask_lt, ...), memory [global ADDR], [shared ADDR], [ADDR] (generic), with a\n"
      "type [shared.f32 8]; buffer and kernel parameter names; + - * / % & | ^ << >> ~, comparisons\n"
      "== != < <= > >=, ! && || and parentheses.  EXPR@all prints it for every lane of the warp.\n"
      "Registers are those of the selected frame (see frame).\n" },
    { "display",
      "display [EXPR]\nPrints EXPR (as print does; EXPR@all too) now and at every stop; without EXPR, all of them.\n" },
    { "undisplay",
      "undisplay [N...]\nDeletes display expressions N (all without N).  \"info display\" lists them.\n" },
    { "x",
      "x/N{b,h,w,g}{x,d,u,f} [shared|global] ADDR\n"
      "Examines N units of memory (x/4dw out, x/2g shared 0, x/4f in); global buffers are labelled.\n" },
    { "info i",
      "info warps | lanes | barriers | breakpoints | watchpoints | registers [NAME|REGEX] | display | frame | focus\n"
      "warps: every warp of the focused CTA by lane group (pc, PTX and CUDA line, state);\n"
      "lanes: the focused warp lane by lane;  barriers: the 16 barriers of the CTA;\n"
      "registers: the registers visible at the selected frame's pc with the focused lane's values\n"
      "(a register name shows that one, anything else is an extended regular expression: \"%p\");\n"
      "display: the display expressions;  frame: the selected frame.\n" },
    { "list l", "list [N|LOC]\nPTX around the focused thread's pc (or line N, or LOC), with the CUDA line of each instruction.\n" },
    { "backtrace bt where",
      "backtrace,  backtrace all (bt -warp)\n"
      "The focused thread's call stack, inlined frames included; with \"all\", one call stack per lane\n"
      "group of the focused warp (lanes at one pc, in one state, with the same callers).\n" },
    { "frame f",
      "frame [N]\nSelects frame N of the backtrace (print, display and info registers then read the\n"
      "registers of that call; a caller's registers come from the lane's call stack) and shows it.\n" },
    { "up", "up [N]\nSelects the frame N (1) levels up: towards the kernel.\n" },
    { "down", "down [N]\nSelects the frame N (1) levels down: towards the innermost frame.\n" },
    { "help h", "help [COMMAND]\nLists the commands, or describes one.\n" },
    { "quit q", "quit\nEnds the session.\n" },
    { NULL, NULL }
};

static void cmd_help(dbg_session *s, const char *arg)
{
    if (*arg) {
        for (const help_entry *h = help_tab; h->names; h++) {
            char names[64];
            snprintf(names, sizeof names, " %s ", h->names);
            char want[80];
            snprintf(want, sizeof want, " %s ", arg);
            if (!strstr(names, want)) continue;
            const char *sp = strchr(h->names, ' ');
            say(s, "%s", h->text);
            if (sp) say(s, "Aliases:%s\n", sp);
            return;
        }
        say(s, "Undefined command: \"%s\".  Try \"help\".\n", arg);
        return;
    }
    say(s,
        "break LOC [if EXPR] (b)   stop before LOC: N | file.ptx:N (PTX line), file.cu:N (CUDA line,\n"
        "                          inlined code included), LABEL or FUNCTION;  tbreak LOC: once\n"
        "condition N [EXPR]        stop at breakpoint N only for the lanes where EXPR holds\n"
        "ignore N COUNT            do not stop at breakpoint N the next COUNT times\n"
        "watch [shared] ADDR [size N]   stop after a thread writes the N (4) bytes at ADDR (watch/N ADDR)\n"
        "rwatch, awatch            the same for reads; for reads and writes\n"
        "delete [N]                delete breakpoint N (all without N)\n"
        "run (r)                   start (or restart) the launch;  start: stop at the kernel entry\n"
        "continue (c)              run to the next breakpoint, watchpoint, fault, deadlock or the end\n"
        "step [N] (s)              the focused thread's lane group executes N instructions\n"
        "next (n)                  step to the next CUDA source line (over calls and inlined calls)\n"
        "finish                    run until the focused thread returns from its .func\n"
        "focus cta X [Y Z] | thread X [Y Z] | warp W [lane L]   change the focused thread\n"
        "print EXPR (p)            %%r5, %%p1, %%f2, %%rd4, %%tid.x, %%laneid, [global ADDR], [shared.f32 ADDR],\n"
        "                          buffer and parameter names, arithmetic, comparisons;  %%r5@all: every lane\n"
        "display EXPR              print EXPR at every stop;  undisplay [N]\n"
        "x/N{b,h,w,g,f} ADDR       examine memory (x/4w out, x/2g shared 0)\n"
        "info warps | lanes | barriers | breakpoints | registers [REGEX] | display | frame | focus\n"
        "list [N|LOC] (l)          PTX around the focused thread's PC, with CUDA lines\n"
        "backtrace [all] (bt)      the focused thread's call stack;  all: every lane group of its warp\n"
        "frame [N], up, down       select a frame of the backtrace (a caller's registers)\n"
        "help [COMMAND], quit (q)  help COMMAND describes one command\n");
}

int dbg_exec(dbg_session *s, const char *line)
{
    while (*line == ' ' || *line == '\t') line++;
    char cmd[64];
    size_t n = 0;
    while (line[n] && line[n] != ' ' && line[n] != '\t' && n + 1 < sizeof cmd) { cmd[n] = line[n]; n++; }
    cmd[n] = 0;
    const char *arg = line + n;
    while (*arg == ' ' || *arg == '\t') arg++;
    char argbuf[512];
    snprintf(argbuf, sizeof argbuf, "%s", arg);
    for (size_t k = strlen(argbuf); k && (argbuf[k - 1] == ' ' || argbuf[k - 1] == '\n' || argbuf[k - 1] == '\r'); k--) argbuf[k - 1] = 0;
    arg = argbuf;
    if (!cmd[0] || cmd[0] == '#') return 0;
    /* watch/N, rwatch/N, awatch/N */
    int wsize = 0;
    char *slash = strchr(cmd, '/');
    if (slash && cmd[0] != 'x') {
        char *end;
        wsize = (int)strtol(slash + 1, &end, 10);
        if (*end || end == slash + 1) wsize = -1;
        *slash = 0;
        if (strcmp(cmd, "watch") && strcmp(cmd, "rwatch") && strcmp(cmd, "awatch")) { *slash = '/'; wsize = 0; }
        else if (wsize < 0) { say(s, "usage: %s/N ADDR (N: 1, 2, 4 or 8)\n", cmd); fflush(s->out); return 0; }
    }
    if (!strcmp(cmd, "quit") || !strcmp(cmd, "q")) return 1;
    if (!strcmp(cmd, "break") || !strcmp(cmd, "b") || !strcmp(cmd, "br")) cmd_break(s, arg, 0);
    else if (!strcmp(cmd, "tbreak") || !strcmp(cmd, "tb")) cmd_break(s, arg, 1);
    else if (!strcmp(cmd, "condition")) cmd_condition(s, arg);
    else if (!strcmp(cmd, "ignore")) cmd_ignore(s, arg);
    else if (!strcmp(cmd, "delete") || !strcmp(cmd, "d")) cmd_delete(s, arg);
    else if (!strcmp(cmd, "watch")) cmd_watch(s, arg, WATCH_WRITE, wsize);
    else if (!strcmp(cmd, "rwatch")) cmd_watch(s, arg, WATCH_READ, wsize);
    else if (!strcmp(cmd, "awatch")) cmd_watch(s, arg, WATCH_ACCESS, wsize);
    else if (!strcmp(cmd, "run") || !strcmp(cmd, "r")) cmd_run(s);
    else if (!strcmp(cmd, "start")) {
        char k[256];
        snprintf(k, sizeof k, "%s", s->m->funcs[s->P.kernel].name);
        cmd_break(s, k, 1);
        cmd_run(s);
    }
    else if (!strcmp(cmd, "continue") || !strcmp(cmd, "c")) cmd_continue(s);
    else if (!strcmp(cmd, "step") || !strcmp(cmd, "s") || !strcmp(cmd, "stepi") || !strcmp(cmd, "si")) cmd_step(s, arg, RUN_STEP);
    else if (!strcmp(cmd, "next") || !strcmp(cmd, "n")) cmd_step(s, arg, RUN_NEXT);
    else if (!strcmp(cmd, "finish") || !strcmp(cmd, "fin")) cmd_step(s, arg, RUN_FINISH);
    else if (!strcmp(cmd, "focus") || !strcmp(cmd, "cuda")) cmd_focus(s, arg);
    else if (!strcmp(cmd, "print") || !strcmp(cmd, "p")) cmd_print(s, arg);
    else if (!strcmp(cmd, "display")) cmd_display(s, arg);
    else if (!strcmp(cmd, "undisplay")) cmd_undisplay(s, arg);
    else if (cmd[0] == 'x' && (!cmd[1] || cmd[1] == '/')) {
        char full[600];
        snprintf(full, sizeof full, "%s %s", cmd, arg);
        cmd_x(s, full);
    }
    else if (!strcmp(cmd, "info") || !strcmp(cmd, "i")) cmd_info(s, arg);
    else if (!strcmp(cmd, "list") || !strcmp(cmd, "l")) cmd_list(s, arg);
    else if (!strcmp(cmd, "backtrace") || !strcmp(cmd, "bt") || !strcmp(cmd, "where")) cmd_backtrace(s, arg);
    else if (!strcmp(cmd, "frame") || !strcmp(cmd, "f")) cmd_frame(s, arg, 0);
    else if (!strcmp(cmd, "up")) cmd_frame(s, arg, 1);
    else if (!strcmp(cmd, "down")) cmd_frame(s, arg, -1);
    else if (!strcmp(cmd, "help") || !strcmp(cmd, "h")) cmd_help(s, arg);
    else say(s, "Undefined command: \"%s\".  Try \"help\".\n", cmd);
    fflush(s->out);
    return 0;
}


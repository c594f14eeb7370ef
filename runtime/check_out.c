/* check_out.c — the checker's reports: text (for people), JSON (for
 * scripts) and SARIF 2.1.0 (for GitHub code scanning).  Every pc is turned
 * into a PTX file:line, the CUDA file:line:column of its .loc (with the
 * inlined-at chain) and the function, from the module chk_run loaded. */
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "check.h"
#include "ptxemu.h"

/* Where a pc is, in both languages. */
typedef struct where {
    char ptx[PATH_MAX];
    int ptx_line;
    const char *src_file;        /* NULL: no .loc */
    int src_line, src_col;
    char chain[512];             /* "f.cu:3:5 inlined at f.cu:9:2" */
    const char *func;
} where;

/* A path relative to the working directory when it lies below it. */
static void rel_path(const char *p, char *out, size_t len)
{
    char rp[PATH_MAX], cwd[PATH_MAX];
    if (!realpath(p, rp)) { snprintf(out, len, "%s", p); return; }
    if (getcwd(cwd, sizeof cwd)) {
        size_t n = strlen(cwd);
        if (!strncmp(rp, cwd, n) && rp[n] == '/') { snprintf(out, len, "%s", rp + n + 1); return; }
    }
    snprintf(out, len, "%s", rp);
}

static void locate(const chk_result *r, uint32_t pc, where *w)
{
    memset(w, 0, sizeof *w);
    const bc_module *m = r->mod->bc;
    rel_path(r->mod->path, w->ptx, sizeof w->ptx);
    if (pc >= m->ncode) return;
    const bc_insn *I = &m->code[pc];
    w->ptx_line = I->line;
    if (I->src >= 0 && I->src < m->nsrclocs) {
        const bc_srcloc *s = &m->srclocs[I->src];
        if (s->file >= 0 && s->file < m->nfiles && m->files[s->file]) {
            w->src_file = m->files[s->file];
            w->src_line = s->line;
            w->src_col = s->col;
            bc_format_srcloc(m, I->src, 1, w->chain, sizeof w->chain);
        }
    }
    int f = bc_func_at(m, pc);
    w->func = f >= 0 ? m->funcs[f].name : "?";
}

/* ---- text ------------------------------------------------------------------------------ */

static void text_site(FILE *f, const chk_result *r, const chk_site *s, const char *lead)
{
    where w;
    locate(r, s->pc, &w);
    fprintf(f, "    %s", lead);
    if (s->access && strcmp(lead, "at ")) fprintf(f, "%s at ", s->access);
    if (w.src_file) fprintf(f, "%s (%s:%d)", w.chain, w.ptx, w.ptx_line);
    else fprintf(f, "%s:%d", w.ptx, w.ptx_line);
    fprintf(f, " in %s", w.func);
    if (s->has_thread)
        fprintf(f, ", block (%u,%u,%u) thread (%u,%u,%u)", s->cta[0], s->cta[1], s->cta[2], s->tid[0], s->tid[1], s->tid[2]);
    fputc('\n', f);
}

void chk_write_text(const chk_result *r, FILE *f, const char *replay)
{
    int counts[CHK_NKINDS] = { 0 };
    for (int i = 0; i < r->nfindings; i++) {
        const chk_finding *x = &r->findings[i];
        counts[x->kind]++;
        fprintf(f, "%s: %s\n", chk_kind_names[x->kind], x->msg);
        text_site(f, r, &x->at, "at ");
        if (x->other.valid) text_site(f, r, &x->other, "other side: ");
        if (x->detail && *x->detail) {
            fprintf(f, "    blocked threads:\n");
            const char *p = x->detail;
            while (*p) {
                const char *e = strchr(p, '\n');
                int n = e ? (int)(e - p) : (int)strlen(p);
                fprintf(f, "    %.*s\n", n, p);
                p += n + (e != NULL);
            }
        }
        fprintf(f, "    %llu occurrence%s; schedule %d, seed %llu: %s --seed %llu --schedules 1\n\n",
                (unsigned long long)x->count, x->count == 1 ? "" : "s", x->schedule, (unsigned long long)x->seed,
                replay ? replay : "ptxemu check CASE", (unsigned long long)x->seed);
    }
    if (!r->nfindings) fprintf(f, "no findings in %d schedule%s\n", r->schedules, r->schedules == 1 ? "" : "s");
    else {
        fprintf(f, "%d finding%s (", r->nfindings, r->nfindings == 1 ? "" : "s");
        int first = 1;
        for (int k = 0; k < CHK_NKINDS; k++)
            if (counts[k]) { fprintf(f, "%s%s %d", first ? "" : ", ", chk_kind_names[k], counts[k]); first = 0; }
        fprintf(f, ") in %d schedule%s", r->schedules, r->schedules == 1 ? "" : "s");
        if (r->dropped) fprintf(f, "; %llu more not shown (--max-findings)", (unsigned long long)r->dropped);
        fputc('\n', f);
    }
    if (r->status != VM_OK && r->end_msg[0]) {
        fprintf(f, "the launch ended with %s under the hardware-like schedule (seed %llu)%s:\n", vm_status_name(r->status),
                (unsigned long long)r->base_seed, r->nfindings ? "" : " (not a checker finding, nor a clean run)");
        const char *p = r->end_msg;
        while (*p) {
            const char *e = strchr(p, '\n');
            int n = e ? (int)(e - p) : (int)strlen(p);
            fprintf(f, "    %.*s\n", n, p);
            p += n + (e != NULL);
        }
    }
    if (r->skipped)
        fprintf(f, "note: the other %d schedules were not run: schedule 0 found no race, and the kernel uses nothing whose "
                   "outcome depends on the schedule (collectives, flags, atomics whose order matters, activemask, clocks), "
                   "so every schedule computes the same (docs/CHECKING.md, \"Schedule-free kernels\")\n", r->skipped);
    if (r->limited) fprintf(f, "note: %d schedule%s stopped at the time or instruction limit\n", r->limited, r->limited == 1 ? "" : "s");
    if (r->sampled0 < r->blocks || (r->schedules > 1 && r->sampled_adv < r->blocks))
        fprintf(f, "note: sampled: schedule 0 checked %llu of %llu blocks, each adversarial schedule %llu; the other "
                   "blocks ran unchecked (docs/CHECKING.md, \"Large launches\")\n",
                (unsigned long long)r->sampled0, (unsigned long long)r->blocks, (unsigned long long)r->sampled_adv);
    if (r->independent > 0)
        fprintf(f, "note: the blocks are independent (schedule 0 saw no block use another's data), so each adversarial "
                   "schedule ran only its sampled blocks, against a hardware-like run of the same blocks\n");
    else if (r->independent < 0)
        fprintf(f, "note: the blocks depend on one another (%s): adversarial schedules ran every block\n", r->dep_why);
}

/* ---- JSON ------------------------------------------------------------------------------- */

static void jstr(FILE *f, const char *s)
{
    fputc('"', f);
    for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p; p++) {
        if (*p == '"' || *p == '\\') fprintf(f, "\\%c", *p);
        else if (*p == '\n') fputs("\\n", f);
        else if (*p == '\t') fputs("\\t", f);
        else if (*p < 0x20) fprintf(f, "\\u%04x", *p);
        else fputc(*p, f);
    }
    fputc('"', f);
}

static void json_site_fields(FILE *f, const chk_result *r, const chk_site *s)
{
    where w;
    locate(r, s->pc, &w);
    fputs("\"ptx\": {\"file\": ", f);
    jstr(f, w.ptx);
    fprintf(f, ", \"line\": %d}, \"source\": ", w.ptx_line);
    if (w.src_file) {
        fputs("{\"file\": ", f);
        jstr(f, w.src_file);
        fprintf(f, ", \"line\": %d, \"column\": %d, \"location\": ", w.src_line, w.src_col);
        jstr(f, w.chain);
        fputs("}", f);
    } else fputs("null", f);
    fputs(", \"function\": ", f);
    jstr(f, w.func);
    if (s->has_thread)
        fprintf(f, ", \"cta\": [%u, %u, %u], \"thread\": [%u, %u, %u]", s->cta[0], s->cta[1], s->cta[2], s->tid[0],
                s->tid[1], s->tid[2]);
    else fputs(", \"cta\": null, \"thread\": null", f);
    if (s->access) { fputs(", \"access\": ", f); jstr(f, s->access); }
}

void chk_write_json(const chk_result *r, FILE *f)
{
    fputs("{\"findings\": [", f);
    for (int i = 0; i < r->nfindings; i++) {
        const chk_finding *x = &r->findings[i];
        fputs(i ? ",\n  {" : "\n  {", f);
        fputs("\"kind\": ", f);
        jstr(f, chk_kind_names[x->kind]);
        fputs(", \"message\": ", f);
        jstr(f, x->msg);
        fputs(", ", f);
        json_site_fields(f, r, &x->at);
        fputs(", \"other\": ", f);
        if (x->other.valid) { fputs("{", f); json_site_fields(f, r, &x->other); fputs("}", f); }
        else fputs("null", f);
        if (x->detail) { fputs(", \"detail\": ", f); jstr(f, x->detail); }
        fprintf(f, ", \"seed\": %llu, \"schedule\": %d, \"count\": %llu}", (unsigned long long)x->seed, x->schedule,
                (unsigned long long)x->count);
    }
    fprintf(f, "%s], \"schedules\": %d, \"skipped_schedules\": %d, \"schedule_free_code\": %s, \"seed\": %llu, \"dropped\": %llu, \"blocks\": %llu, "
               "\"checked_blocks\": {\"schedule0\": %llu, \"adversarial\": %llu}, \"independent_blocks\": %s, \"status\": ",
            r->nfindings ? "\n" : "", r->schedules, r->skipped,
            r->schedule_free > 0 ? "true" : r->schedule_free == 0 ? "false" : "null", (unsigned long long)r->base_seed, (unsigned long long)r->dropped,
            (unsigned long long)r->blocks, (unsigned long long)r->sampled0, (unsigned long long)r->sampled_adv,
            r->independent > 0 ? "true" : r->independent < 0 ? "false" : "null");
    jstr(f, vm_status_name(r->status));
    if (r->status != VM_OK && r->end_msg[0]) {
        fputs(", \"end\": {\"message\": ", f);
        jstr(f, r->end_msg);
        if (r->end_at.valid) { fputs(", ", f); json_site_fields(f, r, &r->end_at); }
        fputs("}", f);
    }
    fputs("}\n", f);
}

/* ---- SARIF 2.1.0 ------------------------------------------------------------------------- */

static const char *const rule_name[CHK_NKINDS] = {
    "DataRace", "Deadlock", "MembermaskMisuse", "BarrierMisuse", "OutOfBoundsAccess", "UninitializedRead",
    "ScheduleDependentResult"
};
static const char *const rule_text[CHK_NKINDS] = {
    "Two threads access the same shared or global memory word, at least one writes, and no barrier, warp "
    "synchronisation or fenced flag orders the accesses (independent thread scheduling: lanes of one warp are "
    "not ordered by program order).",
    "Threads wait at a barrier or in a warp collective that can never complete.",
    "A warp collective's membermask breaks the rules: the calling lane is not in it, a shuffle reads a lane "
    "outside it or an exited lane, or lanes named in one mask execute different collectives.",
    "A CTA barrier is misused: an aligned barrier reached divergently or at different instructions, more "
    "threads than its count, a count that is not a multiple of 32, or bar.red mixed with other forms.",
    "An out-of-bounds or misaligned memory access.",
    "A value read from shared or local memory that nothing wrote (or shuffled from a lane outside the mask) is "
    "used: it decides a branch, forms an address, is stored to global memory, or is an operand of a collective, an "
    "atomic, a barrier, printf or a host call. Reported at the load, with the use.",
    "The final memory contents depend on how diverged threads are interleaved (including results that depend on "
    "which lanes __activemask() returned), or the launch traps, asserts or faults only under some schedules."
};

/* A URI for a file path: relative paths stay relative (to the checkout),
 * absolute ones below the working directory become relative. */
static void uri_of(const char *p, char *out, size_t len)
{
    if (p[0] == '/') {
        char cwd[PATH_MAX];
        if (getcwd(cwd, sizeof cwd)) {
            size_t n = strlen(cwd);
            if (!strncmp(p, cwd, n) && p[n] == '/') { snprintf(out, len, "%s", p + n + 1); return; }
        }
        snprintf(out, len, "file://%s", p);
        return;
    }
    while (!strncmp(p, "./", 2)) p += 2;
    snprintf(out, len, "%s", p);
}

static void sarif_phys(FILE *f, const char *file, int line, int col)
{
    char uri[PATH_MAX + 16];
    uri_of(file, uri, sizeof uri);
    fputs("{\"physicalLocation\": {\"artifactLocation\": {\"uri\": ", f);
    jstr(f, uri);
    fprintf(f, "}, \"region\": {\"startLine\": %d", line > 0 ? line : 1);
    if (col > 0) fprintf(f, ", \"startColumn\": %d", col);
    fputs("}}", f);
}

/* The frame of a .loc chain to show in code scanning: the innermost one in
 * the project (a relative path, or one below the working directory), so a
 * shuffle inlined from a CUDA header points at the user's call. */
static const bc_srcloc *user_frame(const bc_module *m, int src)
{
    char cwd[PATH_MAX];
    const char *c = getcwd(cwd, sizeof cwd) ? cwd : NULL;
    const bc_srcloc *first = NULL;
    for (int depth = 0; src >= 0 && src < m->nsrclocs && depth < 16; depth++) {
        const bc_srcloc *x = &m->srclocs[src];
        const char *file = x->file >= 0 && x->file < m->nfiles ? m->files[x->file] : NULL;
        if (file) {
            if (!first) first = x;
            if (file[0] != '/' || (c && !strncmp(file, c, strlen(c)) && file[strlen(c)] == '/')) return x;
        }
        src = x->parent;
    }
    return first;
}

static void sarif_location(FILE *f, const chk_result *r, const chk_site *s, int ptx_only, int id, const char *what)
{
    where w;
    locate(r, s->pc, &w);
    const bc_module *m = r->mod->bc;
    const bc_srcloc *u = s->pc < m->ncode && !ptx_only ? user_frame(m, m->code[s->pc].src) : NULL;
    if (u) sarif_phys(f, m->files[u->file], u->line, u->col);
    else sarif_phys(f, w.ptx, w.ptx_line, 0);
    if (id >= 0) fprintf(f, ", \"id\": %d", id);
    fputs(", \"logicalLocations\": [{\"name\": ", f);
    jstr(f, w.func);
    fputs(", \"kind\": \"function\"}]", f);
    if (what) { fputs(", \"message\": {\"text\": ", f); jstr(f, what); fputs("}", f); }
    fputs("}", f);
}

void chk_write_sarif(const chk_result *r, FILE *f)
{
    fputs("{\n\"$schema\": \"https://json.schemastore.org/sarif-2.1.0.json\",\n\"version\": \"2.1.0\",\n\"runs\": [{\n"
          "\"tool\": {\"driver\": {\"name\": \"ptxemu-check\", \"informationUri\": "
          "\"https://github.com/ptxemu/ptxemu/blob/main/docs/CHECKING.md\", \"semanticVersion\": \"0.1.0\", \"rules\": [",
          f);
    for (int k = 0; k < CHK_NKINDS; k++) {
        fprintf(f, "%s\n  {\"id\": \"%s\", \"name\": \"%s\", \"shortDescription\": {\"text\": ", k ? "," : "",
                chk_kind_names[k], rule_name[k]);
        char shortd[128];
        snprintf(shortd, sizeof shortd, "ptxemu check: %s", chk_kind_names[k]);
        jstr(f, shortd);
        fputs("}, \"fullDescription\": {\"text\": ", f);
        jstr(f, rule_text[k]);
        fprintf(f, "}, \"defaultConfiguration\": {\"level\": \"%s\"}, \"properties\": {\"tags\": [\"cuda\", \"ptx\", "
                   "\"concurrency\"], \"precision\": \"high\", \"problem.severity\": \"%s\"}}",
                k == CHK_SCHEDULE ? "warning" : "error", k == CHK_SCHEDULE ? "warning" : "error");
    }
    fputs("]}},\n\"results\": [", f);
    for (int i = 0; i < r->nfindings; i++) {
        const chk_finding *x = &r->findings[i];
        char msg[1024];
        snprintf(msg, sizeof msg, "%s (%llu occurrence%s; reproduce with --seed %llu --schedules 1)", x->msg,
                 (unsigned long long)x->count, x->count == 1 ? "" : "s", (unsigned long long)x->seed);
        fprintf(f, "%s\n  {\"ruleId\": \"%s\", \"ruleIndex\": %d, \"level\": \"%s\", \"message\": {\"text\": ",
                i ? "," : "", chk_kind_names[x->kind], (int)x->kind, x->kind == CHK_SCHEDULE ? "warning" : "error");
        jstr(f, msg);
        fputs("},\n   \"locations\": [", f);
        sarif_location(f, r, &x->at, 0, -1, NULL);
        fputs("],\n   \"relatedLocations\": [", f);
        sarif_location(f, r, &x->at, 1, 1, "PTX instruction");
        if (x->other.valid) {
            fputs(", ", f);
            sarif_location(f, r, &x->other, 0, 2, "other side");
        }
        fprintf(f, "],\n   \"partialFingerprints\": {\"ptxemuFinding/v1\": ");
        jstr(f, x->key);
        fprintf(f, "},\n   \"properties\": {\"seed\": %llu, \"schedule\": %d, \"count\": %llu", (unsigned long long)x->seed,
                x->schedule, (unsigned long long)x->count);
        if (x->at.has_thread)
            fprintf(f, ", \"cta\": [%u, %u, %u], \"thread\": [%u, %u, %u]", x->at.cta[0], x->at.cta[1], x->at.cta[2],
                    x->at.tid[0], x->at.tid[1], x->at.tid[2]);
        fputs("}}", f);
    }
    fputs(r->nfindings ? "\n]" : "]", f);
    if (r->status != VM_OK && r->end_msg[0]) {
        /* how the launch itself ended: a notification, not a result (no rule) */
        fputs(",\n\"invocations\": [{\"executionSuccessful\": true, \"toolExecutionNotifications\": [{\"level\": "
              "\"error\", \"descriptor\": {\"id\": ", f);
        jstr(f, vm_status_name(r->status));
        fputs("}, \"message\": {\"text\": ", f);
        jstr(f, r->end_msg);
        fputs("}", f);
        if (r->end_at.valid) { fputs(", \"locations\": [", f); sarif_location(f, r, &r->end_at, 0, -1, NULL); fputs("]", f); }
        fputs("}]}]", f);
    }
    fprintf(f, ",\n\"properties\": {\"schedules\": %d, \"seed\": %llu, \"status\": \"%s\"}\n}]\n}\n", r->schedules,
            (unsigned long long)r->base_seed, vm_status_name(r->status));
}

/* cu_profile.c — `ptxemu exec --profile DIR`: one profile per kernel (per
 * function of a loaded module), summed over all its launches, written as
 * DIR/NAME.json and DIR/NAME.html (runtime/profile.h) when its module is
 * unloaded or the program exits.  A name written before in this run gets a
 * suffix (-2, -3, ...): a program may load one module several times. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cu.h"
#include "profile.h"

/* File names are kernel names (mangled C++ names included), cut to this. */
#define PROFILE_NAME_MAX 180

int cu_profile_hooks(cu_func *f, vm_hooks *h)
{
    if (!cu_g.profile_dir) return -1;
    if (!f->prof && !(f->prof = prof_new(f->mod->pm->bc, f->index))) return -1;
    prof_hooks(f->prof, h);
    return 0;
}

void cu_profile_done(cu_func *f)
{
    if (f->prof) prof_finish(f->prof);
    f->prof_launches++;
}

/* DIR/NAME[-K].EXT for the k-th use of name (k from 1). */
static void profile_path(char *buf, size_t len, const char *name, int k, const char *ext)
{
    if (k > 1) snprintf(buf, len, "%s/%.*s-%d.%s", cu_g.profile_dir, PROFILE_NAME_MAX, name, k, ext);
    else snprintf(buf, len, "%s/%.*s.%s", cu_g.profile_dir, PROFILE_NAME_MAX, name, ext);
}

/* How many profiles named `name` this run has written, this one counted. */
static int name_use(const char *name)
{
    static char **names;
    static int *uses, n, cap;
    for (int i = 0; i < n; i++) if (!strcmp(names[i], name)) return ++uses[i];
    if (n == cap) {
        int nc = cap ? cap * 2 : 16;
        char **nn = realloc(names, (size_t)nc * sizeof *nn);
        if (!nn) return 1;
        names = nn;
        int *nu = realloc(uses, (size_t)nc * sizeof *nu);
        if (!nu) return 1;
        uses = nu;
        cap = nc;
    }
    if (!(names[n] = strdup(name))) return 1;
    uses[n++] = 1;
    return 1;
}

static int write_one(const prof_report *r, const char *path, void (*emit)(const prof_report *, FILE *))
{
    FILE *f = fopen(path, "w");
    if (!f) {
        fprintf(stderr, "ptxemu: --profile: cannot write %s (%s); give a writable folder\n", path, strerror(errno));
        return -1;
    }
    emit(r, f);
    return fclose(f);
}

static void write_profile(cu_module *m, cu_func *f)
{
    const char *name = m->pm->bc->funcs[f->index].name;
    const char *cuda = getenv("CUDA_HOME");
    char cinc[1024];
    snprintf(cinc, sizeof cinc, "%s/include", cuda && *cuda ? cuda : "/usr/local/cuda");
    const char *dirs[] = { cinc };
    prof_source_opts so = { dirs, 1, 0 };
    prof_report rep;
    if (prof_report_build(f->prof, m->pm, &so, &rep)) {
        fprintf(stderr, "ptxemu: --profile: out of memory for the profile of %s\n", name);
        return;
    }
    int k = name_use(name);
    char json[4096], html[4096];
    profile_path(json, sizeof json, name, k, "json");
    profile_path(html, sizeof html, name, k, "html");
    if (!write_one(&rep, json, prof_write_json) && !write_one(&rep, html, prof_write_html))
        cu_report("profile %s (%llu launch%s): %s (and .json)", name, (unsigned long long)f->prof_launches,
                  f->prof_launches == 1 ? "" : "es", html);
    prof_report_free(&rep);
}

void cu_profile_write(cu_module *m)
{
    for (int i = 0; i < m->nfuncs; i++) {
        cu_func *f = &m->funcs[i];
        if (!f->prof) continue;
        if (f->prof_launches) write_profile(m, f);
        prof_free(f->prof);
        f->prof = NULL;
    }
}

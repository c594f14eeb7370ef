/* dbg_engine.h — the debugger's engine: one prepared launch driven through
 * the VM's hooks, its breakpoints and watchpoints, the focused thread,
 * stepping (step/next/finish over one thread's lane group) and the state
 * queries the expression and command languages read.
 *
 * How a stop works: the VM calls the step hook before every instruction a
 * lane group issues; returning nonzero pauses the launch before it, and
 * vm_launch_step returns VM_PAUSED.  A pick hook is installed too, so the
 * engine always knows which lane group is issuing (the step hook only sees
 * the guard-true lanes), and so a resumed launch re-issues exactly the
 * paused group.  On resume the first hook call is that paused instruction;
 * it is not checked against breakpoints again (it "skips once").
 *
 * Stepping counts the instructions the focused lane executes: `step N`
 * pauses before the focused lane's (N+1)-th instruction from here.  A
 * collective or barrier simply makes the focused lane wait; the launch goes
 * on running the other lanes and warps until it is released, and the step
 * ends before its next instruction.
 *
 * Ownership: the engine owns the launch, the breakpoint table, the focus
 * and the run state of a dbg_session (the fields above "command language"
 * in struct dbg_session); the other debugger files read them but change
 * them only through the functions here (a breakpoint's condition and ignore
 * count, the user's settings, excepted).  The engine never prints: what
 * happened comes back as values (dbg_stop, messages in caller buffers).
 */
#ifndef PTXEMU_DBG_ENGINE_H
#define PTXEMU_DBG_ENGINE_H

#include <stdint.h>
#include <stdio.h>
#include "dbg.h"
#include "check.h"

#define DBG_MAX_BP 64
#define DBG_MAX_DISP 32
#define DBG_MAX_FRAMES 256
#define DBG_AGE_LIMIT VM_AGE_LIMIT   /* the hw schedule's (vm.h) */

enum { BP_BREAK, BP_WATCH };
enum { WATCH_WRITE = 1, WATCH_READ = 2, WATCH_ACCESS = 3 };   /* bit 0: writes, bit 1: reads */
enum { RUN_CONTINUE, RUN_STEP, RUN_NEXT, RUN_FINISH };
enum { STOP_NONE, STOP_BP, STOP_WATCH, STOP_STEP, STOP_GONE, STOP_CTA };

typedef struct dbg_bp {
    int id, kind, temp, hits;
    char spec[128];              /* as typed */
    uint32_t *pcs;               /* break: the instructions it stops before */
    int npcs;
    char cond[128];              /* break: condition ("" none), evaluated per lane */
    int ignore;                  /* stops still to ignore (ignore N COUNT) */
    int space;                   /* watch: BC_SP_GLOBAL or BC_SP_SHARED */
    int wkind, wsize;            /* watch: WATCH_*, 1/2/4/8 bytes */
    uint64_t addr;
    uint64_t old;                /* watch: value at the last report */
} dbg_bp;

/* A physical frame of a lane: the function at pc; `save` indexes the saved
 * registers of the call that entered it in the lane's stack (UINT32_MAX for
 * the kernel's frame). */
typedef struct dbg_pframe { uint32_t pc; int func; uint32_t save; } dbg_pframe;

/* A frame as backtrace numbers it: the inlined calls of a physical frame
 * (innermost first), then the function itself. */
typedef struct dbg_lframe { int phys; uint32_t pc; int src; int inl; } dbg_lframe;

/* Tests breakpoint b's condition for the lanes of `group` (w issuing at pc):
 * the lanes where it holds in *lanes; an error stops the whole group, with
 * the message in err.  Returns 1.  (The expression language's
 * dbg_cond_lanes; the engine only calls it.) */
typedef int (*dbg_cond_fn)(dbg_session *s, const dbg_bp *b, vm_cta *cta, vm_warp *w, uint32_t group, uint32_t pc,
                           uint32_t *lanes, char *err, size_t errlen);

struct dbg_session {
    /* ---- the engine's ---------------------------------------------------- */
    const rt_case *c;
    dbg_opts o;
    rt_run_opts ro;
    rt_prepared P;
    const bc_module *m;
    vm_launch *L;
    vm_status st;                /* of the last vm_launch_step */
    int ended;                   /* the launch finished or stopped for good */
    vm_hooks hooks;
    chk_sched sched, sched0;     /* --schedule adversarial: the checker's schedule */
    dbg_cond_fn cond_eval;       /* breakpoint conditions (set by the creator) */
    vm_output_fn output;         /* device printf (set by the creator) */
    void *output_ctx;
    /* breakpoints and watchpoints */
    dbg_bp bp[DBG_MAX_BP];
    int nbp, next_id;
    /* focus */
    uint64_t fcta;               /* linear CTA index */
    int fwarp, flane;
    int want_cta;                /* stop when CTA fcta starts */
    /* run control */
    int mode;
    long step_left;
    uint32_t last_pc;            /* the focused lane's last instruction (step) */
    int next_file, next_line, next_level;
    uint32_t start_depth;
    /* the paused group */
    int paused;
    int pwarp, pslot;            /* warp and CTA slot of the paused group */
    uint32_t pgroup, ppc;
    int resume_pending, skip_once;
    vm_warp *cur_w;              /* the group issuing now (from pick) */
    uint32_t cur_group;
    /* why we stopped */
    int stop, stop_bp;
    int watch_hit;               /* bp index, -1 none */
    uint64_t w_cta; int w_warp, w_lane; uint32_t w_pc;
    int w_flags;                 /* the access that hit the watchpoint */
    uint64_t w_val;              /* read watchpoints: the value read */
    uint32_t cond_lanes;         /* the lanes whose breakpoint condition held */
    char cond_err[300];          /* an error testing a condition, "" none */
    int focus_gone;
    /* ---- the command language's (dbg.c) ----------------------------------- */
    FILE *out;
    char *disp[DBG_MAX_DISP];    /* display expressions */
    int disp_id[DBG_MAX_DISP], ndisp, next_disp;
    int sel_frame;               /* frame N / up / down: the selected frame (backtrace numbering) */
};

/* A watchpoint's report: who touched it and the values. */
typedef struct dbg_watch_report {
    int kind, id, space, size;   /* the watchpoint: WATCH_*, number, BC_SP_*, bytes */
    uint64_t addr;
    int written;                 /* reported as a write (else a read) */
    uint64_t old, value;         /* the value at the last report; the new (write) or read value */
    uint64_t cta;                /* the accessing thread: linear CTA, warp, lane, pc */
    int warp, lane;
    uint32_t pc;
} dbg_watch_report;

/* What dbg_resume saw.  status: of vm_launch_step (VM_PAUSED: a stop, the
 * launch goes on; anything else: it ended, s->ended set). */
typedef struct dbg_stop {
    vm_status status;
    int why;                     /* paused: STOP_* */
    /* STOP_BP */
    int bp_id, bp_temp;
    char cond[128];              /* the condition that held ("" none, or an error testing it) */
    uint32_t cond_lanes;
    char cond_err[300];          /* an error testing the condition, "" none */
    /* STOP_WATCH, or a watchpoint hit by the last instruction before the end */
    int has_watch;
    dbg_watch_report watch;
    uint32_t gone_tid[3];        /* STOP_GONE: the thread that exited */
    uint64_t cta;                /* STOP_CTA: the CTA that started (linear) */
} dbg_stop;

/* ---- session ------------------------------------------------------------ */

/* Fills s's engine part for case c (borrowed) and options o; then
 * dbg_prepare.  The creator sets cond_eval and output first. */
void dbg_engine_init(dbg_session *s, const rt_case *c, const dbg_opts *o);
/* Prepares the case's launch (not started).  PTXEMU_EXIT_OK, or an exit
 * code with msg (usage) or diags (PTX errors, to render over
 * s->P.ptx_text). */
int dbg_prepare(dbg_session *s, char *msg, size_t len, diag_list *diags);
/* Frees the engine's part (the launch, the prepared case, breakpoints). */
void dbg_engine_fini(dbg_session *s);

/* Starts (or restarts, preparing again) the launch.  0; -1 when preparing
 * failed (*code, msg or diags as dbg_prepare); -2 when the launch was
 * refused (msg). */
int dbg_start(dbg_session *s, int *code, char *msg, size_t len, diag_list *diags);
/* Runs the launch until the next stop or its end, in the mode set (RUN_*),
 * and records what happened in *st.  Focus moves to the stopping lanes;
 * a temporary breakpoint that stopped is deleted. */
void dbg_resume(dbg_session *s, dbg_stop *st);

/* Arms the next resume for the focused lane of w: `step n` (n >= 1),
 * `next`, or `finish` (-1 in the kernel's own frame). */
void dbg_arm_step(dbg_session *s, long n);
void dbg_arm_next(dbg_session *s, const vm_warp *w);
int dbg_arm_finish(dbg_session *s, const vm_warp *w);
void dbg_arm_continue(dbg_session *s);

/* ---- focus ---------------------------------------------------------------- */

/* Focus on CTA lin (keeping warp and lane): DBG_CTA_HERE (in flight, or no
 * launch running), DBG_CTA_FINISHED, or DBG_CTA_PENDING (not started yet;
 * the next resume stops when it starts). */
enum { DBG_CTA_HERE, DBG_CTA_FINISHED, DBG_CTA_PENDING };
int dbg_set_focus_cta(dbg_session *s, uint64_t lin);
void dbg_set_focus_thread(dbg_session *s, int warp, int lane);

/* ---- breakpoints ---------------------------------------------------------- */

/* Resolves LOC (N, file.ptx:N, file.cu:N, LABEL, FUNCTION) into b->pcs: 0,
 * or -1 with a message. */
int dbg_resolve_loc(dbg_session *s, const char *loc, dbg_bp *b, char *msg, size_t len);
/* Adds b (the table takes b->pcs) with the next number; returns it. */
int dbg_bp_add(dbg_session *s, const dbg_bp *b);
void dbg_bp_delete(dbg_session *s, int i);

/* ---- state queries -------------------------------------------------------- */

const char *dbg_base_name(const char *path);
/* The base name of source file f of m, or "?". */
const char *dbg_file_name(const bc_module *m, int f);
void dbg_tid_of(const dbg_session *s, int warp, int lane, uint32_t t[3]);
void dbg_cta_of(const dbg_session *s, uint64_t lin, uint32_t c[3]);
uint32_t dbg_nthreads(const dbg_session *s);
/* The focused CTA, if it is in flight; the focused warp in it. */
vm_cta *dbg_focus_cta(const dbg_session *s);
vm_warp *dbg_focus_warp(const dbg_session *s);
/* Whether CTA lin has finished (it is not in flight but has started). */
int dbg_cta_finished(const dbg_session *s, uint64_t lin);
/* Lanes of w in the same group as lane l: same pc and state. */
uint32_t dbg_group_of(const vm_warp *w, int l);
/* Whether op is a warp collective (the lanes of its mask meet). */
int dbg_is_collective(int op);
/* Threads arrived at barrier id of cta, and the number it waits for. */
void dbg_bar_counts(const dbg_session *s, const vm_cta *cta, int id, uint32_t *arrived, uint32_t *expect);
/* Whether there is thread state to look at: paused, or stopped by a
 * fault or deadlock (a finished launch has only its global memory). */
int dbg_inspectable(const dbg_session *s);
/* n bytes at (space, addr) as lane `lane` of w (NULL: the focused CTA) sees them, or NULL. */
const uint8_t *dbg_mem_at(dbg_session *s, vm_warp *w, int lane, int space, uint64_t addr, uint64_t n);

/* The physical frames of lane `lane` of w, innermost first (at most max). */
int dbg_phys_frames(const dbg_session *s, const vm_warp *w, int lane, dbg_pframe *f, int max);
/* The value of register slot `slot` (times BC_WARP) in physical frame j. */
uint64_t dbg_frame_reg(const dbg_session *s, const vm_warp *w, int lane, const dbg_pframe *f, int nf, int j, uint32_t slot);
/* The frames as backtrace numbers them (at most max). */
int dbg_logical_frames(const dbg_session *s, const dbg_pframe *pf, int npf, dbg_lframe *lf, int max);

#endif

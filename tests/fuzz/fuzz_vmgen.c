/* fuzz_vmgen.c — libFuzzer harness for the VM with always-valid modules: the
 * input bytes choose a kernel body of up to FUZZ_INSNS instructions from a
 * table of instruction templates (integer, float, conversions, loads,
 * stores, vectors and atomics in every space with fuzzed offsets, warp
 * collectives, barriers, branches to fuzzed labels, calls, trap and exit,
 * all optionally predicated) with fuzzed registers and immediates, around a
 * fixed prologue that puts the parameter buffers, the shared arrays, local
 * memory and their generic addresses in registers.  The module is compiled
 * and launched as fuzz_vm.c does (2 CTAs of 64 threads, 256-byte zeroed
 * buffers, 256 bytes of dynamic shared memory, an instruction limit); an
 * input whose size is 3 mod 4 runs under the checker instead (chk_run_launch:
 * 3 schedules of 0.2 s, one host thread, the text report to /dev/null).
 * Text mutation (fuzz_vm) mostly breaks the syntax; this one mostly runs. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ast.h"
#include "bc.h"
#include "builtins.h"
#include "check.h"
#include "diag.h"
#include "ptxemu.h"
#include "mem.h"
#include "vm.h"

enum { FUZZ_INSNS = 64, FUZZ_BUF = 256, FUZZ_TEXT = 1 << 16 };

/* operand letters: r %r0-7 (b32), d %rd0-7, f %f0-7, g %fd0-3, h %h0-3 (b16),
 * p %p0-3, i a small signed immediate, u a shift/bit count 0-31, o a byte
 * offset (multiple of 4, -64..1020), m a member mask, l a label */
static const char *const templates[] = {
    "add.s32 r, r, r", "add.s32 r, r, i", "sub.s32 r, r, r", "mul.lo.s32 r, r, r", "mul.hi.u32 r, r, r",
    "mad.lo.s32 r, r, r, r", "div.s32 r, r, r", "div.u32 r, r, r", "rem.s32 r, r, r", "rem.u32 r, r, i",
    "shl.b32 r, r, u", "shr.s32 r, r, r", "and.b32 r, r, r", "or.b32 r, r, i", "xor.b32 r, r, r", "not.b32 r, r",
    "min.s32 r, r, r", "max.u32 r, r, r", "abs.s32 r, r", "popc.b32 r, r", "clz.b32 r, r", "brev.b32 r, r",
    "bfe.u32 r, r, u, u", "bfi.b32 r, r, r, u, u", "prmt.b32 r, r, r, r", "bfind.u32 r, r", "sad.u32 r, r, r, r",
    "mul.wide.s32 d, r, r", "mul.wide.u32 d, r, i", "add.s64 d, d, d", "add.s64 d, d, i", "sub.s64 d, d, d",
    "mul.lo.s64 d, d, d", "shl.b64 d, d, u", "shr.u64 d, d, u", "cvt.u64.u32 d, r", "cvt.s64.s32 d, r",
    "cvt.u32.u64 r, d", "mov.u32 r, %tid.x", "mov.u32 r, %laneid", "mov.u32 r, %ctaid.x", "mov.u32 r, %warpid",
    "mov.u32 r, %ntid.x", "mov.u32 r, i", "mov.b64 d, {r, r}", "mov.b64 {r, r}, d", "setp.lt.s32 p, r, r",
    "setp.eq.u32 p, r, i", "setp.ne.s64 p, d, d", "setp.gt.f32 p, f, f", "setp.nan.f32 p, f, f",
    "selp.b32 r, r, r, p", "and.pred p, p, p", "not.pred p, p", "set.lt.u32.s32 r, r, r",
    "add.f32 f, f, f", "sub.rz.f32 f, f, f", "mul.rn.f32 f, f, f", "fma.rn.f32 f, f, f, f", "div.rn.f32 f, f, f",
    "div.approx.f32 f, f, f", "sqrt.rn.f32 f, f", "sqrt.approx.f32 f, f", "rcp.rn.f32 f, f", "rsqrt.approx.f32 f, f",
    "ex2.approx.f32 f, f", "lg2.approx.f32 f, f", "sin.approx.f32 f, f", "min.f32 f, f, f", "max.NaN.f32 f, f, f",
    "abs.f32 f, f", "neg.f32 f, f", "cvt.rn.f32.s32 f, r", "cvt.rzi.s32.f32 r, f", "cvt.rni.sat.u32.f32 r, f",
    "mov.b32 f, r", "mov.b32 r, f", "cvt.f64.f32 g, f", "cvt.rn.f32.f64 f, g", "add.f64 g, g, g",
    "fma.rn.f64 g, g, g, g", "div.rn.f64 g, g, g", "cvt.rn.f16.f32 h, f", "cvt.f32.f16 f, h", "add.f16 h, h, h",
    "mul.rn.bf16 h, h, h", "cvt.rn.f32.u64 f, d", "testp.finite.f32 p, f", "copysign.f32 f, f, f",
    "dp4a.s32.u32 r, r, r, r", "testp.subnormal.f64 p, g", "fma.rn.sat.f32 f, f, f, f", "add.rn.ftz.sat.f32 f, f, f",
    "cvt.sat.f32.f32 f, f", "max.f64 g, g, g", "min.f64 g, g, g", "abs.f64 g, g", "neg.f64 g, g",
    "copysign.f64 g, g, g", "cvt.rzi.s64.f64 d, g", "cvt.rzi.u64.f64 d, g", "fma.rn.relu.f16x2 r, r, r, r",
    "tanh.approx.f32 f, f", "tanh.approx.f16 h, h", "tanh.approx.bf16x2 r, r", "ex2.approx.f16x2 r, r",
    "mov.u32 r, %nctaid.x", "mov.u32 r, %lanemask_lt", "cp.async.ca.shared.global [r+o], [d+o], 4",
    "ld.global.u32 r, [d+o]", "ld.global.u8 h, [d+o]", "st.global.u32 [d+o], r", "st.global.u64 [d+o], d",
    "ld.global.v2.u32 {r, r}, [d+o]", "st.global.v4.u32 [d+o], {r, r, r, r}", "ld.global.nc.f32 f, [d+o]",
    "ld.shared.u32 r, [r+o]", "st.shared.u32 [r+o], r", "ld.shared.v2.u64 {d, d}, [r+o]",
    "st.shared.v4.f32 [r+o], {f, f, f, f}", "ld.shared.u16 h, [r+o]", "st.shared.u8 [r+o], h",
    "ld.u32 r, [d+o]", "st.u32 [d+o], r", "ld.f64 g, [d+o]", "st.v2.u32 [d+o], {r, r}", "ld.local.u32 r, [d+o]",
    "st.local.u32 [d+o], r", "ld.volatile.shared.u32 r, [r+o]", "ld.acquire.gpu.u32 r, [d+o]",
    "st.release.gpu.u32 [d+o], r", "ld.param.u64 d, [a]", "ld.const.u32 r, [cv+o]",
    "atom.global.add.u32 r, [d+o], r", "atom.global.cas.b32 r, [d+o], r, r", "atom.global.exch.b64 d, [d+o], d",
    "atom.global.max.s32 r, [d+o], r", "atom.global.add.f32 f, [d+o], f", "atom.shared.add.u32 r, [r+o], r",
    "atom.shared.cas.b64 d, [r+o], d, d", "atom.shared.inc.u32 r, [r+o], r", "atom.add.u32 r, [d+o], r",
    "atom.or.b32 r, [d+o], r", "red.global.add.u32 [d+o], r", "red.shared.min.s32 [r+o], r", "red.add.u64 [d+o], d",
    "shfl.sync.bfly.b32 r, r, u, 31, m", "shfl.sync.idx.b32 r|p, r, r, 31, m", "shfl.sync.up.b32 r, r, u, 0, m",
    "vote.sync.ballot.b32 r, p, m", "vote.sync.any.pred p, p, m", "vote.sync.all.pred p, !p, m",
    "match.any.sync.b32 r, r, m", "match.all.sync.b64 r|p, d, m", "redux.sync.add.u32 r, r, m",
    "redux.sync.max.s32 r, r, m", "activemask.b32 r", "bar.warp.sync m", "bar.sync 0", "bar.sync 1, 64",
    "bar.red.popc.u32 r, 0, p", "barrier.sync.aligned 0", "bar.arrive 2, 64", "membar.cta", "membar.gl",
    "fence.acq_rel.gpu", "elect.sync r|p, m", "bra l", "bra.uni l", "trap", "exit", "ret",
    "mov.u64 d, gv", "mov.u64 d, sm", "mov.u32 r, sm", "mov.u32 r, dyn", "cvta.to.global.u64 d, d",
    "cvta.shared.u64 d, d", "cvta.to.shared.u64 d, d", "cvta.local.u64 d, d", "cvta.const.u64 d, d",
    "isspacep.shared p, d", "isspacep.global p, d", "mov.u32 r, %reserved_smem_offset_begin",
    "mov.u32 r, %dynamic_smem_size", "mov.u32 r, %total_smem_size", "nanosleep.u32 r",
    "{ .param .b32 p0; st.param.b32 [p0], r; .param .b32 r0; call.uni (r0), f1, (p0); ld.param.b32 r, [r0]; }",
    "{ .param .b64 q0; st.param.b64 [q0], d; .param .b64 s0; call.uni (s0), f2, (q0); ld.param.b64 d, [s0]; }",
    "{ .param .b32 p0; st.param.b32 [p0], r; .param .b32 r0; proto: .callprototype (.param .b32 _) _ (.param .b32 _); call (r0), d, (p0), proto; ld.param.b32 r, [r0]; }",
    "mov.u64 d, f1",
};
#define NTEMPLATES ((int)(sizeof templates / sizeof *templates))

static const char prologue[] =
    ".version 9.0\n.target sm_90\n.address_size 64\n"
    ".extern .shared .align 16 .b8 dyn[];\n"
    ".shared .align 16 .b8 sm[256];\n"
    ".global .align 8 .b8 gv[64];\n"
    ".const .align 4 .b32 cv[16] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};\n"
    ".func (.param .b32 r) f1(.param .b32 x)\n{\n\t.reg .b32 %t<2>;\n\tld.param.b32 %t0, [x];\n"
    "\tadd.s32 %t1, %t0, %t0;\n\tst.param.b32 [r], %t1;\n\tret;\n}\n"
    ".func (.param .b64 r) f2(.param .b64 x)\n{\n\t.reg .b64 %u<2>;\n\tld.param.b64 %u0, [x];\n"
    "\tld.u32 %u1, [%u0];\n\tst.param.b64 [r], %u1;\n\tret;\n}\n"
    ".visible .entry k(.param .u64 a, .param .u64 b)\n{\n"
    "\t.reg .b32 %r<8>;\n\t.reg .b64 %rd<8>;\n\t.reg .f32 %f<8>;\n\t.reg .f64 %fd<4>;\n"
    "\t.reg .b16 %h<4>;\n\t.reg .pred %p<4>;\n\t.local .align 8 .b8 loc[64];\n"
    "\tld.param.u64 %rd0, [a];\n\tld.param.u64 %rd1, [b];\n\tmov.u32 %r0, %tid.x;\n"
    "\tshl.b32 %r1, %r0, 2;\n\tmov.u32 %r2, sm;\n\tmov.u32 %r3, dyn;\n\tmov.u64 %rd2, sm;\n"
    "\tcvta.shared.u64 %rd3, %rd2;\n\tmov.u64 %rd4, loc;\n\tcvta.local.u64 %rd5, %rd4;\n"
    "\tcvt.rn.f32.u32 %f0, %r0;\n\tsetp.lt.u32 %p0, %r0, 16;\n";

typedef struct rd { const uint8_t *p; size_t n, i; } rd;
static unsigned byte(rd *r) { return r->i < r->n ? r->p[r->i++] : 0; }

/* Appends one instruction from the template t with operands from r. */
static size_t emit(char *out, size_t cap, const char *t, rd *r, int ninsns)
{
    size_t n = 0;
#define PUT(...) do { int k_ = snprintf(out + n, n < cap ? cap - n : 0, __VA_ARGS__); if (k_ > 0) n += (size_t)k_; } while (0)
    for (; *t; t++) {
        /* operand letters only where they stand alone (not inside words like "add") */
        int alone = (t[1] == 0 || t[1] == ',' || t[1] == ']' || t[1] == '}' || t[1] == '|' || t[1] == '+' || t[1] == ';' ||
                     t[1] == ')') && (t == templates[0] || 1);
        char prev = n ? out[n - 1] : ' ';
        int start = prev == ' ' || prev == '[' || prev == '{' || prev == '|' || prev == '!' || prev == '(' || prev == '+';
        if (alone && start && strchr("rdfghpiuoml", *t)) {
            unsigned b = byte(r);
            switch (*t) {
            case 'r': PUT("%%r%u", b & 7); break;
            case 'd': PUT("%%rd%u", b & 7); break;
            case 'f': PUT("%%f%u", b & 7); break;
            case 'g': PUT("%%fd%u", b & 3); break;
            case 'h': PUT("%%h%u", b & 3); break;
            case 'p': PUT("%%p%u", b & 3); break;
            case 'i': PUT("%d", (int)(int8_t)b); break;
            case 'u': PUT("%u", b & 31); break;
            case 'o': PUT("%d", ((int)b - 16) * 4); break;
            case 'm': PUT("%s", b & 1 ? "-1" : b & 2 ? "0xffff" : "0x55555555"); break;
            case 'l': PUT("$L%u", b % (unsigned)(ninsns + 1)); break;
            }
        } else PUT("%c", *t);
    }
    return n;
#undef PUT
}

static FILE *sink;

static void run(const bc_module *bc, int k, const ptxemu_module *pm, int checked)
{
    const bc_func *f = &bc->funcs[k];
    mem_space mem;
    mem_init(&mem);
    mem.limit = 64u << 20;
    uint64_t *var_addr = NULL;
    char msg[256];
    uint8_t params[64];
    memset(params, 0, sizeof params);
    if (f->param_size <= (int)sizeof params && vm_place_module(bc, &mem, &var_addr, msg, sizeof msg) == 0) {
        for (int i = 0; i < f->nparams; i++) {
            uint64_t a = mem_alloc_bytes(&mem, FUZZ_BUF, f->params[i].name);
            memcpy(params + f->params[i].offset, &a, 8);
        }
        vm_config cfg;
        memset(&cfg, 0, sizeof cfg);
        cfg.grid[0] = 2; cfg.grid[1] = cfg.grid[2] = 1;
        cfg.block[0] = 64; cfg.block[1] = cfg.block[2] = 1;
        cfg.dyn_shared = FUZZ_BUF;
        cfg.params = params;
        cfg.params_size = (size_t)f->param_size;
        cfg.local_size = 1024;
        cfg.insn_limit = 20000;
        cfg.timeout = 0.5;
        cfg.seed = 1;
        cfg.builtins = &rt_builtins_printf;
        if (checked) {
            chk_opts o;
            memset(&o, 0, sizeof o);
            o.schedules = 3;
            o.timeout = 0.2;
            o.jobs = 1;
            chk_result r;
            memset(&r, 0, sizeof r);
            chk_run_launch(pm, k, &cfg, &mem, var_addr, &o, &r);
            if (!sink) sink = fopen("/dev/null", "w");
            chk_write_text(&r, sink, "fuzz");
            chk_result_free(&r);
        } else {
            vm_fault fault;
            uint64_t insns = 0;
            memset(&fault, 0, sizeof fault);
            vm_run(bc, &mem, var_addr, k, &cfg, &fault, &insns);
            free(fault.report);
        }
    }
    free(var_addr);
    mem_destroy(&mem);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static char text[FUZZ_TEXT];
    rd r = { data, size, 0 };
    int ninsns = (int)(size / 4 < FUZZ_INSNS ? size / 4 : FUZZ_INSNS);
    size_t n = strlen(prologue);
    memcpy(text, prologue, n);
    for (int i = 0; i < ninsns && n + 512 < sizeof text; i++) {
        unsigned t = byte(&r), g = byte(&r);
        n += (size_t)snprintf(text + n, sizeof text - n, "$L%d:\n\t", i);
        if ((g & 3) == 1) n += (size_t)snprintf(text + n, sizeof text - n, "@%%p%u ", (g >> 2) & 3);
        else if ((g & 3) == 2) n += (size_t)snprintf(text + n, sizeof text - n, "@!%%p%u ", (g >> 2) & 3);
        n += emit(text + n, sizeof text - n, templates[t % NTEMPLATES], &r, ninsns);
        if (templates[t % NTEMPLATES][0] != '{') text[n++] = ';';
        text[n++] = '\n';
    }
    n += (size_t)snprintf(text + n, sizeof text - n, "$L%d:\n\tret;\n}\n", ninsns);
    diag_list d;
    diag_init(&d);
    ast_module *am = ast_parse("vmgen.ptx", text, n, &d);
    bc_module *bc = am ? bc_compile(am, &d) : NULL;
    if (getenv("PTXEMU_FUZZ_SHOW")) {     /* debugging the generator: the module and its diagnostics */
        fwrite(text, 1, n, stderr);
        diag_render(&d, text, n, stderr);
    }
    if (bc) {
        int k = bc_find_func(bc, "k");
        ptxemu_module pm = { .path = (char *)"vmgen.ptx", .text = text, .len = n, .bc = bc, .ast = am };
        if (k >= 0) run(bc, k, &pm, size % 4 == 3);
        bc_module_free(bc);
    }
    if (am) ast_module_free(am);
    diag_list_free(&d);
    return 0;
}

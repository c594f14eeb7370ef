// Integer edge cases, bit-exact: every thread takes a pair (a, b) from a table of
// 16 interesting values (thread t: a = v[t / 16], b = v[t % 16], c = v[(3a_idx + 5b_idx + 1) % 16])
// and writes K32 32-bit and K64 64-bit results of inline-PTX and plain-CUDA operations.
#include <stdint.h>

#define K32 128
#define K64 56

#define OP2(ins, a, b) ({ uint32_t d_; asm volatile(ins " %0, %1, %2;" : "=r"(d_) : "r"(a), "r"(b)); d_; })
#define OP3(ins, a, b, c) ({ uint32_t d_; asm volatile(ins " %0, %1, %2, %3;" : "=r"(d_) : "r"(a), "r"(b), "r"(c)); d_; })
#define OP1(ins, a) ({ uint32_t d_; asm volatile(ins " %0, %1;" : "=r"(d_) : "r"(a)); d_; })
#define OP2L(ins, a, b) ({ uint64_t d_; asm volatile(ins " %0, %1, %2;" : "=l"(d_) : "l"(a), "l"(b)); d_; })
#define OP2LR(ins, a, b) ({ uint64_t d_; asm volatile(ins " %0, %1, %2;" : "=l"(d_) : "l"(a), "r"(b)); d_; })
#define OP1L(ins, a) ({ uint64_t d_; asm volatile(ins " %0, %1;" : "=l"(d_) : "l"(a)); d_; })
#define OP1LR(ins, a) ({ uint32_t d_; asm volatile(ins " %0, %1;" : "=r"(d_) : "l"(a)); d_; })

extern "C" __global__ void int_edge(const uint32_t *v32, const uint64_t *v64,
                                    uint32_t *out32, uint64_t *out64) {
    int t = threadIdx.x + blockIdx.x * blockDim.x;
    int ia = t / 16, ib = t % 16, ic = (3 * ia + 5 * ib + 1) % 16;
    uint32_t a = v32[ia], b = v32[ib], c = v32[ic];
    uint64_t A = v64[ia], B = v64[ib], C = v64[ic];
    uint32_t *o = out32 + t * K32;
    uint64_t *O = out64 + t * K64;
    int n = 0;

    // division / remainder, including by zero and INT_MIN / -1
    o[n++] = OP2("div.u32", a, b);
    o[n++] = OP2("rem.u32", a, b);
    o[n++] = OP2("div.s32", a, b);
    o[n++] = OP2("rem.s32", a, b);
    // shifts, amounts taken unmasked from the table (>= 32 included)
    o[n++] = OP2("shl.b32", a, b);
    o[n++] = OP2("shr.u32", a, b);
    o[n++] = OP2("shr.s32", a, b);
    o[n++] = OP2("shr.b32", a, b);
    // multiplies
    o[n++] = OP2("mul.hi.u32", a, b);
    o[n++] = OP2("mul.hi.s32", a, b);
    o[n++] = OP2("mul.lo.u32", a, b);
    o[n++] = OP3("mad.hi.u32", a, b, c);
    o[n++] = OP3("mad.hi.s32", a, b, c);
    o[n++] = OP3("mad.lo.s32", a, b, c);
    o[n++] = OP3("mad.hi.sat.s32", a, b, c);
    o[n++] = OP2("mul24.lo.u32", a, b);
    o[n++] = OP2("mul24.hi.u32", a, b);
    o[n++] = OP2("mul24.lo.s32", a, b);
    o[n++] = OP2("mul24.hi.s32", a, b);
    o[n++] = OP3("mad24.lo.s32", a, b, c);
    // saturation
    o[n++] = OP2("add.sat.s32", a, b);
    o[n++] = OP2("sub.sat.s32", a, b);
    // carry chains
    {
        uint32_t lo, hi, x;
        asm volatile("add.cc.u32 %0, %3, %4;\n\taddc.cc.u32 %1, %5, %3;\n\taddc.u32 %2, 0, 0;"
                     : "=r"(lo), "=r"(hi), "=r"(x) : "r"(a), "r"(b), "r"(c));
        o[n++] = lo; o[n++] = hi; o[n++] = x;
        asm volatile("sub.cc.u32 %0, %3, %4;\n\tsubc.cc.u32 %1, %5, %3;\n\tsubc.u32 %2, 0, 0;"
                     : "=r"(lo), "=r"(hi), "=r"(x) : "r"(a), "r"(b), "r"(c));
        o[n++] = lo; o[n++] = hi; o[n++] = x;
        asm volatile("mad.lo.cc.u32 %0, %3, %4, %5;\n\tmadc.hi.cc.u32 %1, %3, %4, %3;\n\taddc.u32 %2, %5, 0;"
                     : "=r"(lo), "=r"(hi), "=r"(x) : "r"(a), "r"(b), "r"(c));
        o[n++] = lo; o[n++] = hi; o[n++] = x;
    }
    // bit field extract / insert: raw operands and operands reduced to 0..39
    uint32_t p = b % 40, l = c % 40;
    o[n++] = OP3("bfe.u32", a, b, c);
    o[n++] = OP3("bfe.s32", a, b, c);
    o[n++] = OP3("bfe.u32", a, p, l);
    o[n++] = OP3("bfe.s32", a, p, l);
    {
        uint32_t d;
        asm volatile("bfi.b32 %0, %1, %2, %3, %4;" : "=r"(d) : "r"(a), "r"(c), "r"(p), "r"(l));
        o[n++] = d;
        asm volatile("bfi.b32 %0, %1, %2, %3, %4;" : "=r"(d) : "r"(a), "r"(c), "r"(b), "r"(c));
        o[n++] = d;
    }
    // prmt, every mode (selector = b)
    o[n++] = OP3("prmt.b32", a, c, b);
    o[n++] = OP3("prmt.b32.f4e", a, c, b);
    o[n++] = OP3("prmt.b32.b4e", a, c, b);
    o[n++] = OP3("prmt.b32.rc8", a, c, b);
    o[n++] = OP3("prmt.b32.ecl", a, c, b);
    o[n++] = OP3("prmt.b32.ecr", a, c, b);
    o[n++] = OP3("prmt.b32.rc16", a, c, b);
    o[n++] = OP3("prmt.b32", a, c, 0x8f3c);   // sign-replicate selectors (bit 3)
    // lop3
#define LOP3(imm) ({ uint32_t d_; asm volatile("lop3.b32 %0, %1, %2, %3, " #imm ";" : "=r"(d_) : "r"(a), "r"(b), "r"(c)); d_; })
    o[n++] = LOP3(0x96);
    o[n++] = LOP3(0xe8);
    o[n++] = LOP3(0xca);
    o[n++] = LOP3(0x01);
    o[n++] = LOP3(0xfe);
    o[n++] = LOP3(0x5a);
    o[n++] = LOP3(0x00);
    o[n++] = LOP3(0xff);
    // funnel shifts (a = lo, c = hi, b = amount)
    o[n++] = OP3("shf.l.wrap.b32", a, c, b);
    o[n++] = OP3("shf.l.clamp.b32", a, c, b);
    o[n++] = OP3("shf.r.wrap.b32", a, c, b);
    o[n++] = OP3("shf.r.clamp.b32", a, c, b);
    // bmsk, fns, szext
    o[n++] = OP2("bmsk.clamp.b32", p, l);
    o[n++] = OP2("bmsk.wrap.b32", p, l);
    o[n++] = OP2("bmsk.clamp.b32", a, b);
    o[n++] = OP2("bmsk.wrap.b32", a, b);
    o[n++] = OP3("fns.b32", a, b & 31, (int)(c % 9) - 4);
    o[n++] = OP3("fns.b32", a, b & 31, (int)(c % 35) - 17);
    o[n++] = OP3("fns.b32", a, b & 31, 1);
    o[n++] = OP2("szext.clamp.s32", a, b);
    o[n++] = OP2("szext.wrap.s32", a, b);
    o[n++] = OP2("szext.clamp.u32", a, p);
    o[n++] = OP2("szext.wrap.u32", a, p);
    // single-operand bit ops
    o[n++] = OP1("brev.b32", a);
    o[n++] = OP1("bfind.u32", a);
    o[n++] = OP1("bfind.s32", a);
    o[n++] = OP1("bfind.shiftamt.u32", a);
    o[n++] = OP1("bfind.shiftamt.s32", a);
    o[n++] = OP1("clz.b32", a);
    o[n++] = OP1("popc.b32", a);
    o[n++] = OP1("cnot.b32", a);
    o[n++] = OP1("not.b32", a);
    o[n++] = OP1("abs.s32", a);
    o[n++] = OP1("neg.s32", a);
    // sad, dp4a, dp2a
    o[n++] = OP3("sad.u32", a, b, c);
    o[n++] = OP3("sad.s32", a, b, c);
    o[n++] = OP3("dp4a.u32.u32", a, b, c);
    o[n++] = OP3("dp4a.s32.s32", a, b, c);
    o[n++] = OP3("dp4a.s32.u32", a, b, c);
    o[n++] = OP3("dp4a.u32.s32", a, b, c);
    o[n++] = OP3("dp2a.lo.u32.u32", a, b, c);
    o[n++] = OP3("dp2a.hi.u32.u32", a, b, c);
    o[n++] = OP3("dp2a.lo.s32.s32", a, b, c);
    o[n++] = OP3("dp2a.hi.s32.u32", a, b, c);
    // min / max
    o[n++] = OP2("min.u32", a, b);
    o[n++] = OP2("max.u32", a, b);
    o[n++] = OP2("min.s32", a, b);
    o[n++] = OP2("max.s32", a, b);
    o[n++] = OP2("min.relu.s32", a, b);
    o[n++] = OP2("max.relu.s32", a, b);
    // 16-bit forms via .b32 containers (packed compare / select style)
    o[n++] = OP2("min.u16x2", a, b);
    o[n++] = OP2("max.s16x2", a, b);
    // setp / selp / slct
    {
        uint32_t d;
        asm volatile("{ .reg .pred q; setp.lt.s32 q, %1, %2; selp.u32 %0, 1, 0, q; }" : "=r"(d) : "r"(a), "r"(b)); o[n++] = d;
        asm volatile("{ .reg .pred q; setp.lo.u32 q, %1, %2; selp.u32 %0, 1, 0, q; }" : "=r"(d) : "r"(a), "r"(b)); o[n++] = d;
        asm volatile("slct.u32.s32 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c)); o[n++] = d;
        asm volatile("{ .reg .pred q, r; setp.eq.u32 q|r, %1, %2; selp.u32 %0, 2, 3, r; }" : "=r"(d) : "r"(a), "r"(b)); o[n++] = d;
    }
    // plain CUDA (the compiler's own lowering of C operators)
    {
        int sa = (int)a, sb = (int)b;
        o[n++] = b ? a / b : 0xdead0001u;
        o[n++] = sb ? (uint32_t)(sa % sb) : 0xdead0002u;
        o[n++] = (uint32_t)(sa >> (b & 31));
        o[n++] = a << (b & 31);
        o[n++] = __umulhi(a, b);
        o[n++] = (uint32_t)__mulhi(sa, sb);
        o[n++] = __byte_perm(a, c, b);
        o[n++] = __funnelshift_l(a, c, b);
        o[n++] = __funnelshift_rc(a, c, b);
        o[n++] = (uint32_t)__sad(sa, sb, c);
        o[n++] = (uint32_t)__dp4a(sa, sb, (int)c);
        o[n++] = (uint32_t)__ffs(sa);
        o[n++] = (uint32_t)__popc(a) + ((uint32_t)__clz(sa) << 8);
        o[n++] = __brev(a);
        o[n++] = (uint32_t)__vabsdiffs4(a, b);
        o[n++] = __vadd2(a, b);
        o[n++] = __vsub4(a, b);
        o[n++] = __vmaxu4(a, b);
        o[n++] = __vcmpgts2(a, b);
        o[n++] = __hadd(sa, sb);
        o[n++] = __urhadd(a, b);
    }
    // ---- 64-bit
    int m = 0;
    O[m++] = OP2L("div.u64", A, B);
    O[m++] = OP2L("rem.u64", A, B);
    O[m++] = OP2L("div.s64", A, B);
    O[m++] = OP2L("rem.s64", A, B);
    O[m++] = OP2LR("shl.b64", A, (uint32_t)B);
    O[m++] = OP2LR("shr.u64", A, (uint32_t)B);
    O[m++] = OP2LR("shr.s64", A, (uint32_t)B);
    O[m++] = OP2LR("shl.b64", A, b);
    O[m++] = OP2LR("shr.s64", A, b);
    O[m++] = OP2L("mul.hi.u64", A, B);
    O[m++] = OP2L("mul.hi.s64", A, B);
    O[m++] = OP2L("mul.lo.u64", A, B);
    {
        uint64_t d;
        asm volatile("mul.wide.u32 %0, %1, %2;" : "=l"(d) : "r"(a), "r"(b)); O[m++] = d;
        asm volatile("mul.wide.s32 %0, %1, %2;" : "=l"(d) : "r"(a), "r"(b)); O[m++] = d;
        asm volatile("mad.wide.u32 %0, %1, %2, %3;" : "=l"(d) : "r"(a), "r"(b), "l"(C)); O[m++] = d;
        asm volatile("mad.wide.s32 %0, %1, %2, %3;" : "=l"(d) : "r"(a), "r"(b), "l"(C)); O[m++] = d;
        asm volatile("mad.hi.u64 %0, %1, %2, %3;" : "=l"(d) : "l"(A), "l"(B), "l"(C)); O[m++] = d;
        asm volatile("mad.hi.s64 %0, %1, %2, %3;" : "=l"(d) : "l"(A), "l"(B), "l"(C)); O[m++] = d;
        asm volatile("mad.lo.s64 %0, %1, %2, %3;" : "=l"(d) : "l"(A), "l"(B), "l"(C)); O[m++] = d;
        uint64_t lo, hi, x;
        asm volatile("add.cc.u64 %0, %3, %4;\n\taddc.cc.u64 %1, %5, %3;\n\taddc.u64 %2, 0, 0;"
                     : "=l"(lo), "=l"(hi), "=l"(x) : "l"(A), "l"(B), "l"(C));
        O[m++] = lo; O[m++] = hi; O[m++] = x;
        asm volatile("sub.cc.u64 %0, %3, %4;\n\tsubc.cc.u64 %1, %5, %3;\n\tsubc.u64 %2, 0, 0;"
                     : "=l"(lo), "=l"(hi), "=l"(x) : "l"(A), "l"(B), "l"(C));
        O[m++] = lo; O[m++] = hi; O[m++] = x;
        uint32_t p64 = (uint32_t)(B % 80), l64 = (uint32_t)(C % 80);
        asm volatile("bfe.u64 %0, %1, %2, %3;" : "=l"(d) : "l"(A), "r"(p64), "r"(l64)); O[m++] = d;
        asm volatile("bfe.s64 %0, %1, %2, %3;" : "=l"(d) : "l"(A), "r"(p64), "r"(l64)); O[m++] = d;
        asm volatile("bfe.u64 %0, %1, %2, %3;" : "=l"(d) : "l"(A), "r"(b), "r"(c)); O[m++] = d;
        asm volatile("bfi.b64 %0, %1, %2, %3, %4;" : "=l"(d) : "l"(A), "l"(C), "r"(p64), "r"(l64)); O[m++] = d;
        O[m++] = OP1L("brev.b64", A);
        O[m++] = OP1LR("bfind.u64", A);
        O[m++] = OP1LR("bfind.s64", A);
        O[m++] = OP1LR("bfind.shiftamt.u64", A);
        O[m++] = OP1LR("clz.b64", A);
        O[m++] = OP1LR("popc.b64", A);
        O[m++] = OP1L("cnot.b64", A);
        O[m++] = OP1L("abs.s64", A);
        O[m++] = OP1L("neg.s64", A);
        O[m++] = OP2L("min.u64", A, B);
        O[m++] = OP2L("max.u64", A, B);
        O[m++] = OP2L("min.s64", A, B);
        O[m++] = OP2L("max.s64", A, B);
        asm volatile("sad.u64 %0, %1, %2, %3;" : "=l"(d) : "l"(A), "l"(B), "l"(C)); O[m++] = d;
        asm volatile("sad.s64 %0, %1, %2, %3;" : "=l"(d) : "l"(A), "l"(B), "l"(C)); O[m++] = d;
        asm volatile("mov.b64 %0, {%1, %2};" : "=l"(d) : "r"(a), "r"(b)); O[m++] = d;
        long long sA = (long long)A, sB = (long long)B;
        O[m++] = B ? A / B : 0xdead000000000001ull;
        O[m++] = sB ? (uint64_t)(sA % sB) : 0xdead000000000002ull;
        O[m++] = __umul64hi(A, B);
        O[m++] = (uint64_t)__mul64hi(sA, sB);
        O[m++] = (uint64_t)__ffsll(sA) | ((uint64_t)__clzll(sA) << 32);
    }
    // record how many slots were used (same for every thread) in the last slots
    o[K32 - 1] = n;
    O[K64 - 1] = m;
}

/* fp_approx.c -- PTX .approx instructions (MUFU-style).  rcp, rsqrt, ex2, lg2,
 * sin, cos, sqrt and tanh .approx.f32 are bit-exact with sm_90 (table interpolation
 * below), and so are the f16/bf16 ex2 and tanh forms (the f32 unit rounded toward
 * zero).  The f64 rcp/rsqrt .approx (MUFU.RCP64H, MUFU.RSQ64H) are the f32 tables cut to
 * 20 fraction bits, and the non-ftz rsqrt.approx.f64 is ptxas's refinement of RSQ64H.
 * div.full and div.approx .f32 are ptxas's MUFU.RCP of the divisor times the dividend. */
#include "fp.h"
#include <math.h>
#include <string.h>
#include <stddef.h>

static inline float b2f(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }
static inline uint32_t f2b(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static inline double b2d(uint64_t u) { double d; memcpy(&d, &u, 8); return d; }
static inline uint64_t d2b(double d) { uint64_t u; memcpy(&u, &d, 8); return u; }

static inline uint32_t ftz32(uint32_t x) { return ((x & 0x7f800000u) == 0) ? (x & 0x80000000u) : x; }
static inline int isnan32(uint32_t x) { return (x & 0x7fffffffu) > 0x7f800000u; }
/* double -> f32 bits, NaN canonical, optional flush of subnormal results */
static inline uint32_t out32(double v, int ftz)
{
    float f = (float)v;
    uint32_t u = f2b(f);
    if (f != f) return FP32_CANON_NAN;
    return ftz ? ftz32(u) : u;
}


/* ---- MUFU table interpolation (bit-exact with sm_90, see tests/fp/README.md)
 * Each function splits the significand into a segment index (the high bits)
 * and an offset x (the low 16 or 17 bits) and evaluates, in integers,
 *     V = D[idx] + B[idx]*x + C[idx]*sq(x)       (then a right shift)
 * where sq() is the hardware's truncated squarer.  This is the structure of
 * NVIDIA's SFU since Tesla (Oberman & Siu, "A high-performance area-efficient
 * multifunction interpolator", ARITH 2005; envytools documents it for G80).
 * The coefficients below were fitted (tests/fp/README.md says how) to exhaustive
 * H200 recordings (tests/fp/gpu_approx_record.cu) so that every recorded
 * output is reproduced; D already holds the rounding constant. */
typedef struct { int64_t d; int32_t b, c; } mufu_seg;
static const mufu_seg mufu_rcp_tab[128] = {
    {0x80000007e7ll, -65534, 1013}, {0x7f01fc47e7ll, -64522, 989}, {0x7e07e0c7e7ll, -63533, 966},
    {0x7d1196a7e7ll, -62567, 945}, {0x7c1f07c7e7ll, -61622, 923}, {0x7b301f07e7ll, -60699, 902},
    {0x7a44c707e6ll, -59797, 883}, {0x795ceb47e7ll, -58914, 863}, {0x78787887e7ll, -58051, 845},
    {0x77975bc7e7ll, -57207, 827}, {0x76b98227e7ll, -56381, 809}, {0x75ded967e7ll, -55572, 791},
    {0x750750a7e7ll, -54781, 774}, {0x7432d687e7ll, -54007, 758}, {0x73615a67e7ll, -53249, 742},
    {0x7292cc47e7ll, -52507, 727}, {0x71c71ca7e7ll, -51780, 711}, {0x70fe3c47e4ll, -51068, 696},
    {0x70381c47e7ll, -50371, 682}, {0x6f74ae47e6ll, -49688, 669}, {0x6eb3e467e7ll, -49019, 656},
    {0x6df5b127e7ll, -48363, 642}, {0x6d3a06e7e7ll, -47721, 631}, {0x6c80d947e7ll, -47091, 618},
    {0x6bca1b27e7ll, -46473, 605}, {0x6b15c0c7e4ll, -45868, 594}, {0x6a63bdc7e6ll, -45274, 582},
    {0x69b406c7e4ll, -44692, 572}, {0x690690c7e6ll, -44121, 561}, {0x685b5027e6ll, -43560, 549},
    {0x67b23aa7e7ll, -43011, 540}, {0x670b4567e7ll, -42471, 529}, {0x666666a7e7ll, -41942, 519},
    {0x65c39427e7ll, -41423, 510}, {0x6522c407e7ll, -40913, 501}, {0x6483ed67e6ll, -40412, 490},
    {0x63e70667e7ll, -39921, 482}, {0x634c0687e7ll, -39439, 474}, {0x62b2e487e7ll, -38965, 465},
    {0x621b9827e7ll, -38500, 457}, {0x618618a7e7ll, -38043, 449}, {0x60f25e27e7ll, -37594, 441},
    {0x606060a7e7ll, -37153, 433}, {0x5fd01847e6ll, -36720, 426}, {0x5f417d47e6ll, -36294, 418},
    {0x5eb48867e4ll, -35876, 412}, {0x5e293247e7ll, -35464, 403}, {0x5d9f73c7e7ll, -35060, 397},
    {0x5d174627e7ll, -34663, 390}, {0x5c90a227e7ll, -34272, 383}, {0x5c0b8187e7ll, -33888, 377},
    {0x5b87de07e7ll, -33511, 371}, {0x5b05b0a7e6ll, -33140, 366}, {0x5a84f387e6ll, -32774, 358},
    {0x5a05a087e7ll, -32415, 353}, {0x5987b1c7e6ll, -32062, 348}, {0x590b21a7e7ll, -31714, 341},
    {0x588fea47e7ll, -31373, 337}, {0x581605c7e6ll, -31036, 331}, {0x579d6f07e7ll, -30705, 326},
    {0x572620e7e7ll, -30379, 320}, {0x56b01607e6ll, -30059, 316}, {0x563b4927e7ll, -29743, 310},
    {0x55c7b527e6ll, -29432, 305}, {0x55555587e7ll, -29127, 302}, {0x54e42587e7ll, -28826, 297},
    {0x54742007e7ll, -28529, 291}, {0x54054087e7ll, -28237, 287}, {0x539782e7e7ll, -27950, 283},
    {0x532ae247e7ll, -27667, 279}, {0x52bf5ac7e6ll, -27388, 274}, {0x5254e7e7e7ll, -27114, 271},
    {0x51eb8567e7ll, -26843, 266}, {0x51832f67e6ll, -26577, 263}, {0x511be1c7e6ll, -26314, 258},
    {0x50b598c7e0ll, -26056, 256}, {0x505050a7e7ll, -25801, 251}, {0x4fec0547e6ll, -25550, 248},
    {0x4f88b347e7ll, -25302, 243}, {0x4f2656c7e6ll, -25058, 240}, {0x4ec4ec87e7ll, -24818, 237},
    {0x4e647107e7ll, -24581, 233}, {0x4e04e0a7e7ll, -24348, 231}, {0x4da63827e7ll, -24117, 226},
    {0x4d487427e7ll, -23890, 223}, {0x4ceb91a7e7ll, -23667, 222}, {0x4c8f8d67e6ll, -23446, 218},
    {0x4c346447e6ll, -23228, 214}, {0x4bda1347e6ll, -23014, 212}, {0x4b809767e6ll, -22802, 208},
    {0x4b27ed67e7ll, -22593, 205}, {0x4ad01307e4ll, -22388, 204}, {0x4a7904e7e7ll, -22184, 199},
    {0x4a22c087e7ll, -21984, 197}, {0x49cd4327e6ll, -21787, 196}, {0x49788a07e6ll, -21592, 193},
    {0x49249287e7ll, -21399, 189}, {0x48d15a27e7ll, -21209, 186}, {0x487ede67e6ll, -21022, 184},
    {0x482d1c67e7ll, -20837, 182}, {0x47dc1247e7ll, -20655, 180}, {0x478bbd27e7ll, -20475, 178},
    {0x473c1ae7e7ll, -20297, 175}, {0x46ed2947e7ll, -20122, 173}, {0x469ee5c7e7ll, -19949, 171},
    {0x46514e27e6ll, -19778, 169}, {0x46046087e7ll, -19609, 166}, {0x45b81a67e7ll, -19443, 165},
    {0x456c79c7e7ll, -19278, 161}, {0x45217c87e4ll, -19116, 160}, {0x44d72087e7ll, -18956, 159},
    {0x448d63e7e7ll, -18797, 155}, {0x44444487e7ll, -18641, 154}, {0x43fbc087e7ll, -18487, 153},
    {0x43b3d5e7e6ll, -18334, 150}, {0x436c8307e7ll, -18184, 149}, {0x4325c587e7ll, -18035, 147},
    {0x42df9be7e7ll, -17888, 145}, {0x429a0487e5ll, -17743, 143}, {0x4254fd07e7ll, -17600, 143},
    {0x42108467e6ll, -17458, 140}, {0x41cc9887e6ll, -17318, 138}, {0x418937a7e7ll, -17180, 137},
    {0x41466027e7ll, -17043, 135}, {0x41041087e7ll, -16908, 133}, {0x40c24727e7ll, -16775, 132},
    {0x40810227e7ll, -16643, 131}, {0x40404067e7ll, -16513, 130},
};
static const mufu_seg mufu_rsq_tab[128] = {
    {0xffffffbffell, -65531, 754}, {0xfe05ebbffcll, -64024, 725}, {0xfc17643fffll, -62575, 698},
    {0xfa33f93fffll, -61179, 672}, {0xf85b427ffell, -59835, 648}, {0xf68cdbbfffll, -58539, 625},
    {0xf4c866bfffll, -57289, 603}, {0xf30d89bfffll, -56083, 582}, {0xf15bef3fffll, -54919, 562},
    {0xefb344fffell, -53794, 543}, {0xee133d7ffcll, -52708, 526}, {0xec7b903fffll, -51657, 508},
    {0xeaebf4ffffll, -50641, 492}, {0xe96429fffell, -49658, 476}, {0xe7e3ed3ffell, -48706, 461},
    {0xe66b027ff8ll, -47784, 446}, {0xe4f92dffffll, -46891, 433}, {0xe38e393ffell, -46026, 420},
    {0xe229ec7ffell, -45186, 407}, {0xe0cc15bffcll, -44372, 395}, {0xdf7482fffell, -43582, 383},
    {0xde2304bfffll, -42815, 372}, {0xdcd76dbfffll, -42071, 362}, {0xdb9192bffcll, -41348, 352},
    {0xda5149bfffll, -40645, 342}, {0xd9166b3ffell, -39962, 332}, {0xd7e0cf3ffell, -39298, 323},
    {0xd6b0517ffcll, -38652, 314}, {0xd584cdffffll, -38023, 305}, {0xd45e227ffcll, -37412, 298},
    {0xd33c2d7ff8ll, -36816, 290}, {0xd21ed07fffll, -36237, 283}, {0xd105ebfffcll, -35672, 275},
    {0xcff1623ffell, -35122, 268}, {0xcee115fffell, -34586, 262}, {0xcdd4ed7fffll, -34063, 255},
    {0xcccccd3ffell, -33553, 248}, {0xcbc89b7ff8ll, -33056, 242}, {0xcac83fffffll, -32571, 236},
    {0xc9cba1bffell, -32098, 231}, {0xc8d2ab7ffcll, -31636, 225}, {0xc7dd44ffffll, -31185, 220},
    {0xc6eb5a3fffll, -30745, 215}, {0xc5fcd5bfffll, -30315, 210}, {0xc511a33fffll, -29895, 205},
    {0xc429aeffffll, -29485, 201}, {0xc344e6fffcll, -29084, 196}, {0xc263377fffll, -28691, 191},
    {0xc1848ffffcll, -28308, 187}, {0xc0a8de3fffll, -27933, 183}, {0xbfd0123ffell, -27566, 179},
    {0xbefa1bfff8ll, -27208, 176}, {0xbe26ebbffdll, -26857, 172}, {0xbd5671bfffll, -26513, 168},
    {0xbc889fbfffll, -26177, 165}, {0xbbbd66fff8ll, -25848, 162}, {0xbaf4ba7fffll, -25525, 158},
    {0xba2e8c3fffll, -25209, 154}, {0xb96acefffcll, -24900, 151}, {0xb8a975bfffll, -24597, 148},
    {0xb7ea747ffcll, -24300, 145}, {0xb72dbe7fffll, -24009, 143}, {0xb67349fffcll, -23724, 140},
    {0xb5bb09bffcll, -23444, 137}, {0xb504f2bfffll, -46337, 533}, {0xb39f18fffcll, -45272, 513},
    {0xb24169ffffll, -44247, 493}, {0xb0eb95bffcll, -43260, 475}, {0xaf9d52fffell, -42310, 459},
    {0xae565b7fffll, -41393, 442}, {0xad166cbffell, -40510, 427}, {0xabdd457fffll, -39657, 412},
    {0xaaaaaafffell, -38834, 398}, {0xa97e623ffell, -38038, 384}, {0xa85835bffell, -37270, 371},
    {0xa737efbfffll, -36527, 359}, {0xa61d5fbfffll, -35809, 348}, {0xa50854ffffll, -35113, 336},
    {0xa3f8a23ff8ll, -34440, 326}, {0xa2ee1dbfffll, -33789, 316}, {0xa1e89b3fffll, -33157, 306},
    {0xa0e7f4bfffll, -32545, 297}, {0x9fec047ff0ll, -31952, 288}, {0x9ef4a4bffcll, -31376, 279},
    {0x9e01b2bfffll, -30817, 271}, {0x9d130e3fffll, -30275, 263}, {0x9c28963fffll, -29749, 256},
    {0x9b422c3fffll, -29237, 248}, {0x9a5fb23ffcll, -28740, 241}, {0x99810bffffll, -28257, 235},
    {0x98a61ebffcll, -27788, 229}, {0x97ced07fffll, -27331, 222}, {0x96fb063fffll, -26887, 217},
    {0x962aa9fffell, -26454, 210}, {0x955da23fffll, -26033, 205}, {0x9493da3fffll, -25623, 199},
    {0x93cd3a3ffcll, -25224, 195}, {0x9309af7fffll, -24835, 190}, {0x9249253ffcll, -24456, 185},
    {0x918b86fffell, -24086, 180}, {0x90d0c2fffell, -23726, 176}, {0x9018c6bffell, -23374, 171},
    {0x8f6380ffffll, -23031, 167}, {0x8eb0e0ffffll, -22697, 163}, {0x8e00d57ffell, -22370, 159},
    {0x8d534fbfffll, -22051, 155}, {0x8ca83fbffcll, -21740, 152}, {0x8bff97bffcll, -21436, 148},
    {0x8b5947ffffll, -21139, 145}, {0x8ab543ffffll, -20849, 142}, {0x8a137e3fffll, -20565, 138},
    {0x8973e83fe0ll, -20288, 136}, {0x88d6773fffll, -20017, 133}, {0x883b1ebff8ll, -19752, 130},
    {0x87a1d2fffcll, -19492, 126}, {0x870a87bfffll, -19239, 124}, {0x867531ffffll, -18991, 122},
    {0x85e1c83ffcll, -18748, 119}, {0x85503dfffell, -18510, 117}, {0x84c08b7fffll, -18277, 114},
    {0x8432a53fffll, -18049, 112}, {0x83a6827ffell, -17826, 110}, {0x831c1a3fffll, -17607, 107},
    {0x8293627ffell, -17393, 105}, {0x820c52ffffll, -17183, 103}, {0x8186e2bfffll, -16977, 101},
    {0x81030a3fffll, -16775, 99}, {0x8080c23ffell, -16578, 97},
};
static const mufu_seg mufu_ex2_tab[64] = {
    {0x40000077e2ll, 22713, 494}, {0x40b26957e2ll, 22960, 501}, {0x4166c3d7e2ll, 23210, 506},
    {0x421d14b7e2ll, 23463, 511}, {0x42d56257e2ll, 23718, 518}, {0x438fb137e2ll, 23977, 521},
    {0x444c0797e2ll, 24238, 527}, {0x450a6b37e2ll, 24502, 532}, {0x45cae197e2ll, 24768, 541},
    {0x468d7037e2ll, 25038, 546}, {0x47521d17e2ll, 25311, 551}, {0x4818eeb7e2ll, 25586, 559},
    {0x48e1ea37e2ll, 25865, 564}, {0x49ad1617e2ll, 26147, 568}, {0x4a7a7877e1ll, 26431, 577},
    {0x4b4a1737e2ll, 26719, 583}, {0x4c1bf8b7e2ll, 27010, 589}, {0x4cf02357e0ll, 27304, 596},
    {0x4dc69d37e2ll, 27602, 600}, {0x4e9f6d57e2ll, 27902, 609}, {0x4f7a9997e2ll, 28206, 615},
    {0x50582917e2ll, 28513, 622}, {0x513821d7e2ll, 28824, 627}, {0x521a8b37e2ll, 29138, 633},
    {0x52ff6bb7e2ll, 29455, 641}, {0x53e6ca37e2ll, 29776, 647}, {0x54d0adb7e2ll, 30100, 655},
    {0x55bd1d57e2ll, 30428, 661}, {0x56ac1fd7e2ll, 30759, 670}, {0x579dbcb7e2ll, 31094, 677},
    {0x5891fb57e2ll, 31432, 686}, {0x5988e277e2ll, 31775, 691}, {0x5a8279f7e2ll, 32121, 699},
    {0x5b7ec977e2ll, 32471, 705}, {0x5c7dd837e2ll, 32824, 715}, {0x5d7fadb7e2ll, 33182, 721},
    {0x5e845237e2ll, 33543, 730}, {0x5f8bcd57e2ll, 33908, 739}, {0x609626f7e2ll, 34277, 748},
    {0x61a366d7e2ll, 34651, 753}, {0x62b39577e2ll, 35028, 763}, {0x63c6bad7e2ll, 35409, 773},
    {0x64dcdf57e2ll, 35795, 779}, {0x65f60af7e2ll, 36185, 787}, {0x67124677e2ll, 36579, 796},
    {0x68319a57e2ll, 36977, 806}, {0x69540f37e2ll, 37380, 813}, {0x6a79adb7e2ll, 37787, 822},
    {0x6ba27ef7e2ll, 38198, 833}, {0x6cce8b57e2ll, 38614, 842}, {0x6dfddc37e2ll, 39035, 849},
    {0x6f307ad7e2ll, 39460, 858}, {0x70667017e2ll, 39889, 870}, {0x719fc557e2ll, 40324, 877},
    {0x72dc83f7e2ll, 40763, 887}, {0x741cb5b7e2ll, 41207, 896}, {0x75606417e2ll, 41655, 909},
    {0x76a79897e2ll, 42109, 917}, {0x77f25d57e2ll, 42568, 925}, {0x7940bc17e2ll, 43031, 938},
    {0x7a92bf17e2ll, 43500, 946}, {0x7be87057e2ll, 43973, 959}, {0x7d41d9f7e2ll, 44452, 969},
    {0x7e9f0697e0ll, 44936, 980},
};
static const mufu_seg mufu_lg2_tab[64] = {
    {0x7344ll, 47272, -727}, {0x16e79a345ll, 46545, -705}, {0x2d75b0344ll, 45840, -685},
    {0x43acea344ll, 45156, -665}, {0x598fe5344ll, 44492, -646}, {0x6f2112345ll, 43847, -627},
    {0x8462cc345ll, 43221, -610}, {0x995753344ll, 42612, -592}, {0xae00db344ll, 42020, -576},
    {0xc26165344ll, 41444, -559}, {0xd67af8344ll, 40884, -544}, {0xea4f79345ll, 40339, -530},
    {0xfde0bc345ll, 39809, -518}, {0x111307f344ll, 39292, -504}, {0x124407f344ll, 38788, -491},
    {0x1371254345ll, 38297, -479}, {0x149a789344ll, 37818, -466}, {0x15c01ab345ll, 37351, -455},
    {0x16e2225344ll, 36896, -445}, {0x1800a5c345ll, 36451, -433}, {0x191bbaf344ll, 36018, -425},
    {0x1a33763344ll, 35594, -414}, {0x1b47ec1344ll, 35180, -404}, {0x1c592fe340ll, 34776, -396},
    {0x1d67542344ll, 34380, -385}, {0x1e726ad344ll, 33994, -377}, {0x1f7a85a340ll, 33616, -368},
    {0x207fb55345ll, 33247, -361}, {0x21820a2344ll, 32886, -354}, {0x2281945344ll, 32532, -346},
    {0x237e62a344ll, 32186, -339}, {0x247883e345ll, 31847, -331}, {0x257006d344ll, 31516, -326},
    {0x2664f90345ll, 31191, -319}, {0x2757685344ll, 30872, -311}, {0x2847617345ll, 30561, -307},
    {0x2934f10345ll, 30255, -300}, {0x2a20236345ll, 29955, -293}, {0x2b0904d344ll, 29662, -289},
    {0x2befa03344ll, 29374, -283}, {0x2cd4014345ll, 29091, -276}, {0x2db6331344ll, 28814, -271},
    {0x2e96400344ll, 28542, -266}, {0x2f74320344ll, 28276, -262}, {0x305013d344ll, 28014, -257},
    {0x3129ef1345ll, 27757, -253}, {0x3201cc9345ll, 27505, -249}, {0x32d7b60345ll, 27257, -244},
    {0x33abb44345ll, 27013, -238}, {0x347dd03344ll, 26774, -234}, {0x354e124344ll, 26540, -232},
    {0x361c826345ll, 26309, -227}, {0x36e9296344ll, 26082, -223}, {0x37b40e7345ll, 25859, -219},
    {0x387d39b340ll, 25640, -216}, {0x3944b21344ll, 25424, -211}, {0x3a0a7ef345ll, 25213, -209},
    {0x3acea7d344ll, 25004, -204}, {0x3b9133a345ll, 24799, -201}, {0x3c52288344ll, 24598, -199},
    {0x3d118dd345ll, 24399, -195}, {0x3dcf693344ll, 24204, -192}, {0x3e8bc15344ll, 24012, -189},
    {0x3f469c4345ll, 23823, -186},
};

/* MUFU.SIN over one quadrant: sin(pi/2 * u / 2^23), V in units of 2^-38 */
static const mufu_seg mufu_sin_tab[64] = {
    {0x0ll, 51474, -28}, {0x19214e000ll, 51460, -96}, {0x323ec8000ll, 51412, -152},
    {0x4b547c000ll, 51336, -220}, {0x645e94000ll, 51226, -274}, {0x7d5934000ll, 51088, -342},
    {0x96407a000ll, 50918, -402}, {0xaf109c000ll, 50716, -458}, {0xc7c5ba000ll, 50486, -524},
    {0xe05c10000ll, 50224, -584}, {0xf8cfc8000ll, 49932, -644}, {0x1111d24000ll, 49610, -704},
    {0x129405e000ll, 49258, -762}, {0x14135ca000ll, 48876, -820}, {0x158f9a2000ll, 48466, -882},
    {0x170884c000ll, 48026, -940}, {0x187de2a000ll, 47556, -994}, {0x19ef796000ll, 47058, -1050},
    {0x1b5d0fe000ll, 46532, -1106}, {0x1cc66e8000ll, 45978, -1162}, {0x1e2b5d4000ll, 45396, -1216},
    {0x1f8ba48000ll, 44788, -1274}, {0x20e70ec000ll, 44152, -1328}, {0x223d66c000ll, 43488, -1376},
    {0x238e760000ll, 42800, -1430}, {0x24da0a8000ll, 42084, -1476}, {0x261fefc000ll, 41344, -1526},
    {0x275ff44000ll, 40580, -1580}, {0x2899e5e000ll, 39790, -1624}, {0x29cd952000ll, 38978, -1678},
    {0x2afad20000ll, 38140, -1718}, {0x2c216e4000ll, 37280, -1762}, {0x2d413ca000ll, 36398, -1808},
    {0x2e5a104000ll, 35494, -1852}, {0x2f6bbe4000ll, 34568, -1892}, {0x30761be000ll, 33622, -1934},
    {0x3179008000ll, 32656, -1976}, {0x327444c000ll, 31668, -2008}, {0x3367c04000ll, 30664, -2050},
    {0x34534f2000ll, 29640, -2086}, {0x3536cc0000ll, 28598, -2118}, {0x361214e000ll, 27538, -2148},
    {0x36e5064000ll, 26464, -2186}, {0x37af812000ll, 25372, -2214}, {0x3871658000ll, 24266, -2246},
    {0x392a960000ll, 23144, -2272}, {0x39daf5c000ll, 22008, -2296}, {0x3a82698000ll, 20860, -2324},
    {0x3b20d7a000ll, 19698, -2344}, {0x3bb6274000ll, 18526, -2370}, {0x3c4241c000ll, 17342, -2392},
    {0x3cc511e000ll, 16146, -2406}, {0x3d3e82c000ll, 14942, -2426}, {0x3dae822000ll, 13728, -2440},
    {0x3e14fda000ll, 12508, -2460}, {0x3e71e78000ll, 11278, -2472}, {0x3ec52fc000ll, 10042, -2484},
    {0x3f0eca0000ll, 8800, -2494}, {0x3f4eab2000ll, 7552, -2500}, {0x3f84c8e000ll, 6302, -2516},
    {0x3fb11b2000ll, 5046, -2520}, {0x3fd39ba000ll, 3786, -2520}, {0x3fec43c000ll, 2526, -2526},
    {0x3ffb10c000ll, 1264, -2530},
};

/* MUFU.SQRT: 128 segments over (exponent parity, fraction) as for RSQ */
static const mufu_seg mufu_sqrt_tab[128] = {
    {0x10000007fffll, 65535, -506}, {0x101fe047ffcll, 65029, -494}, {0x103f81ffffell, 64534, -482},
    {0x105ee697fffll, 64051, -472}, {0x107e0f6fffell, 63578, -461}, {0x109cfdd7ffcll, 63116, -452},
    {0x10bbb30fffell, 62664, -443}, {0x10da3057ffdll, 62221, -434}, {0x10f876d7ffdll, 61787, -424},
    {0x111687affffll, 61363, -417}, {0x113463fffffll, 60947, -408}, {0x11520cd7fffll, 60539, -399},
    {0x116f833fffall, 60139, -391}, {0x118cc827ffell, 59748, -385}, {0x11a9dc97fffll, 59363, -376},
    {0x11c6c16ffffll, 58987, -370}, {0x11e3779ffffll, 58617, -363}, {0x12000007ffall, 58254, -357},
    {0x121c5b77ffell, 57898, -351}, {0x12388ac7ffcll, 57548, -344}, {0x12548ebfffell, 57204, -337},
    {0x12706827ffell, 56867, -332}, {0x128c17bffffll, 56535, -325}, {0x12a79e3fffdll, 56209, -319},
    {0x12c2fc5fffell, 55889, -315}, {0x12de32cfffell, 55574, -309}, {0x12f94237fe0ll, 55264, -304},
    {0x13142b37ffell, 54960, -299}, {0x132eee7fffcll, 54660, -294}, {0x13498c9fffell, 54366, -290},
    {0x13640637ffell, 54076, -285}, {0x137e5bdfffell, 53790, -280}, {0x13988e17ffell, 53510, -277},
    {0x13b29d87fffll, 53233, -272}, {0x13cc8a9fffdll, 52961, -268}, {0x13e655f7fffll, 52693, -265},
    {0x14000007fffll, 52429, -261}, {0x14198957ffell, 52168, -255}, {0x1432f257ff8ll, 51912, -252},
    {0x144c3b87ffell, 51660, -249}, {0x14656567ffell, 51410, -244}, {0x147e705fffell, 51165, -242},
    {0x14975cdffffll, 50923, -238}, {0x14b02b57fffll, 50685, -236}, {0x14c8dc37fffll, 50449, -231},
    {0x14e16fdfffell, 50218, -229}, {0x14f9e6bfffdll, 49989, -226}, {0x1512413ffffll, 49763, -222},
    {0x152a7faffffll, 49541, -221}, {0x1542a27ffffll, 49321, -217}, {0x155aaa07ffcll, 49104, -214},
    {0x1572969fffell, 48890, -211}, {0x158a68afffell, 48678, -207}, {0x15a22077fffll, 48471, -207},
    {0x15b9be67ffcll, 48264, -202}, {0x15d142bffffll, 48061, -200}, {0x15e8add7ffell, 47861, -199},
    {0x16000007ffell, 47662, -194}, {0x16173997ffbll, 47467, -194}, {0x162e5ad7fffll, 47273, -190},
    {0x1645640fffell, 47082, -188}, {0x165c5587ffell, 46894, -187}, {0x16732f97fffll, 46707, -184},
    {0x1689f277fffll, 46523, -182}, {0x16a09e6fffcll, 92680, -714}, {0x16cdb2c7ffell, 91964, -697},
    {0x16fa6ea7ffell, 91266, -684}, {0x1726d41fffell, 90582, -668}, {0x1752e517ffell, 89914, -655},
    {0x177ea367ffell, 89260, -641}, {0x17aa10d7ffcll, 88620, -626}, {0x17d52f27ffell, 87994, -613},
    {0x18000007ffell, 87380, -599}, {0x182a8507ffcll, 86780, -588}, {0x1854bfb7ffell, 86192, -577},
    {0x187eb19fffell, 85616, -567}, {0x18a85c2fffcll, 85050, -554}, {0x18d1c0c7ff0ll, 84496, -544},
    {0x18fae0c7ffell, 83952, -531}, {0x1923bd87ffcll, 83420, -524}, {0x194c5847ff0ll, 82896, -512},
    {0x1974b237ffell, 82384, -505}, {0x199ccc9fff8ll, 81880, -496}, {0x19c4a89fff8ll, 81384, -484},
    {0x19ec4757ffell, 80898, -476}, {0x1a13a9cfffell, 80422, -470}, {0x1a3ad137ffell, 79952, -459},
    {0x1a61be77ffell, 79492, -453}, {0x1a88729fffell, 79038, -443}, {0x1aaeee9fffell, 78594, -439},
    {0x1ad5336fffell, 78156, -431}, {0x1afb41f7ffell, 77726, -425}, {0x1b211b1fffell, 77302, -417},
    {0x1b46bfc7ffcll, 76884, -408}, {0x1b6c30bfffell, 76474, -401}, {0x1b916edfffell, 76072, -399},
    {0x1bb67aefffell, 75674, -391}, {0x1bdb55bfffell, 75282, -383}, {0x1c000007ffell, 74898, -379},
    {0x1c247a8fffell, 74518, -372}, {0x1c48c607ffall, 74146, -370}, {0x1c6ce327ffell, 73778, -364},
    {0x1c90d2a7ffell, 73414, -356}, {0x1cb4951fffell, 73058, -353}, {0x1cd82b47ffell, 72706, -348},
    {0x1cfb95c7ffcll, 72358, -341}, {0x1d1ed527ff0ll, 72016, -336}, {0x1d41ea17ffell, 71678, -330},
    {0x1d64d527ffell, 71346, -327}, {0x1d8796efffall, 71018, -323}, {0x1daa2ff7ffell, 70694, -317},
    {0x1dcca0d7ff8ll, 70376, -316}, {0x1deeea17ffell, 70060, -309}, {0x1e110c3fffcll, 69750, -306},
    {0x1e3307cfffell, 69444, -303}, {0x1e54dd57ffell, 69140, -297}, {0x1e768d3fffell, 68842, -294},
    {0x1e981817ffell, 68548, -293}, {0x1eb97e4fffell, 68256, -287}, {0x1edac05fffcll, 67968, -282},
    {0x1efbdeb7ffell, 67686, -282}, {0x1f1cd9d7ffell, 67404, -275}, {0x1f3db21fffell, 67128, -273},
    {0x1f5e6807ffell, 66854, -269}, {0x1f7efbf7ffcll, 66584, -266}, {0x1f9f6e4fffell, 66318, -264},
    {0x1fbfbf87ffell, 66054, -261}, {0x1fdfeff7ffcll, 65794, -259},
};

/* truncated squarer: about x^2 / 2^19 for a 17-bit x.  The hardware adds,
 * for each set bit i of x, x >> (18 - i): the partial products b_i b_j of
 * weight i + j >= 18, shifted down by 18.  Split x = h * 2^9 + l (l 9 bits):
 * high x high pairs all have weight >= 18 and sum to h^2; low x low pairs
 * never do; each cross pair appears twice (i high, j low and the reverse),
 * and bit a of h with l gives l >> (9 - a).  So the sum is h^2 + 2 * cross,
 * and halved, h^2 / 2 (floored) + cross: 7 steps instead of 17, no branch
 * on the data (equal to the bit loop for all 2^17 inputs). */
static inline int64_t mufu_sq(uint32_t x)
{
    uint32_t h = x >> 9, l = x & 511, cross = 0;
#pragma GCC unroll 7
    for (int a = 1; a < 8; a++) cross += (l >> (9 - a)) & (0u - (h >> a & 1u));
    return (int64_t)((h * h) >> 1) + cross;
}

/* MUFU.RCP for a normal finite input (output: subnormal flushed) */
static uint32_t mufu_rcp(uint32_t a)
{
    uint32_t s = a & 0x80000000u, f = a & 0x7fffff;
    int e = 253 - (int)((a >> 23) & 0xff);
    const mufu_seg *t = &mufu_rcp_tab[f >> 16];
    uint32_t x = f & 0xffff;
    int64_t v = (t->d + (int64_t)t->b * x + t->c * mufu_sq(x << 1)) >> 15;
    if (v >= 0x1000000) { v >>= 1; e++; }
    if (e <= 0) return s;
    return s | (uint32_t)e << 23 | ((uint32_t)v & 0x7fffff);
}

/* MUFU.RSQ for a normal finite positive input */
static uint32_t mufu_rsq(uint32_t a)
{
    int e = (int)((a >> 23) & 0xff) - 127;
    uint32_t f = (a & 0x7fffff) | (uint32_t)(e & 1) << 23;
    e = 126 - (e >> 1); /* arithmetic shift: floor(e/2) */
    if (!f) return (uint32_t)(e + 1) << 23;
    const mufu_seg *t = &mufu_rsq_tab[f >> 17];
    uint32_t x = f & 0x1ffff;
    int64_t v = (t->d + (int64_t)t->b * x + t->c * mufu_sq(x) * 4) >> 16;
    if (v >= 0x1000000) { v >>= 1; e++; }
    if (e <= 0) return 0;
    return (uint32_t)e << 23 | ((uint32_t)v & 0x7fffff);
}

/* MUFU.SQRT for a normal finite positive input (truncated result) */
static uint32_t mufu_sqrt(uint32_t a)
{
    int e = (int)((a >> 23) & 0xff) - 127;
    uint32_t f = (a & 0x7fffff) | (uint32_t)(e & 1) << 23;
    e = 127 + (e >> 1); /* arithmetic shift: floor(e/2) */
    const mufu_seg *t = &mufu_sqrt_tab[f >> 17];
    uint32_t x = f & 0x1ffff;
    int64_t v = (t->d + (int64_t)t->b * x + t->c * mufu_sq(x) * 2) >> 17;
    if (v >= 0x1000000) { v >>= 1; e++; }
    return (uint32_t)e << 23 | ((uint32_t)v & 0x7fffff);
}

/* MUFU.EX2 for a finite input (denormals read as 0; output subnormal flushed).
 * The input becomes a 7.23 fixed-point magnitude, truncated. */
static uint32_t mufu_ex2(uint32_t a)
{
    uint32_t sg = a >> 31, m = (a & 0x7fffff) | 0x800000, fx;
    int be = (int)((a >> 23) & 0xff), sh = be - 127;
    if (be == 0) fx = 0;
    else if (sh >= 7) return sg ? 0 : 0x7f800000u;
    else if (sh >= 0) fx = m << sh;
    else fx = -sh > 31 ? 0 : m >> -sh;
    int I = (int)(fx >> 23);
    uint32_t F = fx & 0x7fffff;
    if (sg) {
        if (F) { I = -I - 1; F = ~F & 0x7fffff; } /* ones' complement of the fraction */
        else I = -I;
    }
    int e = I + 127;
    const mufu_seg *t = &mufu_ex2_tab[F >> 17];
    uint32_t x = F & 0x1ffff;
    int64_t v = (t->d + (int64_t)t->b * x + t->c * mufu_sq(x)) >> 15;
    if (v >= 0x1000000) { v >>= 1; e++; }
    if (e <= 0) return 0;
    if (e >= 255) return 0x7f800000u;
    return (uint32_t)e << 23 | ((uint32_t)v & 0x7fffff);
}

/* MUFU.LG2 for a normal finite positive input: 36-bit fixed-point fraction
 * plus the exponent, ones' complement when negative, truncated to f32 */
static uint32_t mufu_lg2(uint32_t a)
{
    int be = (int)((a >> 23) & 0xff);
    uint32_t f = a & 0x7fffff;
    int64_t res = 0;
    if (f || be != 127) { /* only lg2(1) is exactly 0 */
        const mufu_seg *t = &mufu_lg2_tab[f >> 17];
        uint32_t x = f & 0x1ffff;
        res = (t->d + (int64_t)t->b * x + t->c * mufu_sq(x) * 2) >> 2;
    }
    res += (int64_t)(be - 127) * ((int64_t)1 << 36);
    uint32_t s = 0;
    if (res < 0) { s = 0x80000000u; res = ~res; }
    if (!res) return s;
    int e = 127 + 6;
    while (!(res & ((int64_t)1 << 42))) { res <<= 1; e--; }
    return s | (uint32_t)e << 23 | ((uint32_t)(res >> 19) & 0x7fffff);
}

static inline int finite_nonzero32(uint32_t a)
{
    uint32_t m = a & 0x7fffffffu;
    return m != 0 && m < 0x7f800000u;
}

/* ---- div.approx.f32 and div.full.f32 ------------------------------------------------------
 * ptxas (CUDA 13.0, sm_90) makes each form one MUFU.RCP of the divisor and one FMUL by the
 * dividend; where the unit would lose the divisor, both operands are first multiplied by the
 * same power of two (FMUL, rounded to nearest: exact but for overflow, and for subnormal
 * products of 1/4):
 *   div.approx.ftz.f32  FMUL.FTZ(a, RCP(b))
 *   div.approx.f32      |b| < 2^-126 (zero too; not NaN): a, b *= 2^24;  FMUL(RCP(b), a)
 *   div.full.ftz.f32    |b| > 2^126 (inf too; not NaN): a, b *= 1/4 (FMUL.FTZ);  FMUL.FTZ(RCP(b), a)
 *   div.full.f32        both scalings;  FMUL(RCP(b), a)
 * MUFU.RCP is rcp.approx.ftz.f32 (mufu_rcp: a subnormal divisor reads as +-0, a reciprocal
 * below 2^-126 is +-0).  So div.approx.f32 of |b| > 2^126 is +-0 (NaN for an infinite a), as
 * the PTX manual says.  Bit-exact with the H200 (tests/fp/README.md). */
#define F32_MIN_NORMAL 0x00800000u   /* 2^-126 */
#define F32_TWO126 0x7e800000u       /* 2^126 */
#define F32_INF 0x7f800000u
#define F32_TWO24 0x4b800000u        /* 2^24: the scale of a subnormal divisor */
#define F32_QUARTER 0x3e800000u      /* 1/4: the scale of a divisor above 2^126 */

/* RCP(b * sc) * (a * sc), each product rounded to nearest (sc 0: no scaling) */
static uint32_t div_by_rcp(uint32_t a, uint32_t b, uint32_t sc, int ftz)
{
    if (sc) {
        a = fp32_mul(a, sc, FP_RN, ftz, 0);
        b = fp32_mul(b, sc, FP_RN, ftz, 0);
    }
    return fp32_mul(fp32_rcp_approx(b, 1), a, FP_RN, ftz, 0);
}

uint32_t fp32_div_approx(uint32_t a, uint32_t b, int ftz)
{
    return div_by_rcp(a, b, !ftz && (b & 0x7fffffffu) < F32_MIN_NORMAL ? F32_TWO24 : 0, ftz);
}

uint32_t fp32_div_full(uint32_t a, uint32_t b, int ftz)
{
    uint32_t m = b & 0x7fffffffu;
    uint32_t sc = m > F32_TWO126 && m <= F32_INF ? F32_QUARTER : !ftz && m < F32_MIN_NORMAL ? F32_TWO24 : 0;
    return div_by_rcp(a, b, sc, ftz);
}

uint32_t fp32_rcp_approx(uint32_t a, int ftz)
{
    if (ftz) a = ftz32(a);
    if (!finite_nonzero32(a)) return out32(1.0 / (double)b2f(a), ftz);
    if (ftz) return mufu_rcp(a);
    /* non-ftz: ptxas scales subnormal inputs by 2^24 and huge ones by 1/4 */
    uint32_t m = a & 0x7fffffffu, sc = m < 0x00800000u ? 0x4b800000u : m > 0x7e800000u ? 0x3e800000u : 0;
    if (!sc) return mufu_rcp(a);
    return fp32_mul(mufu_rcp(fp32_mul(a, sc, FP_RN, 0, 0)), sc, FP_RN, 0, 0);
}

uint32_t fp32_sqrt_approx(uint32_t a, int ftz)
{
    if (ftz) a = ftz32(a);
    if (!finite_nonzero32(a) || (a >> 31)) return out32(sqrt((double)b2f(a)), ftz);
    if (a >= 0x00800000u) return mufu_sqrt(a);
    /* non-ftz subnormal: sqrt(x * 2^24) * 2^-12 */
    return fp32_mul(mufu_sqrt(fp32_mul(a, 0x4b800000u, FP_RN, 0, 0)), 0x39800000u, FP_RN, 0, 0);
}

uint32_t fp32_rsqrt_approx(uint32_t a, int ftz)
{
    if (ftz) a = ftz32(a);
    if (!finite_nonzero32(a) || (a >> 31)) return out32(1.0 / sqrt((double)b2f(a)), ftz);
    if (a >= 0x00800000u) return mufu_rsq(a);
    /* non-ftz subnormal: rsqrt(x * 2^24) * 2^12 */
    return fp32_mul(mufu_rsq(fp32_mul(a, 0x4b800000u, FP_RN, 0, 0)), 0x45800000u, FP_RN, 0, 0);
}

uint32_t fp32_ex2_approx(uint32_t a, int ftz)
{
    if (ftz) a = ftz32(a);
    if ((a & 0x7f800000u) == 0x7f800000u) return out32(exp2((double)b2f(a)), ftz);
    if (ftz || !(a > 0xc2fc0000u)) return mufu_ex2(a); /* x >= -126 */
    /* non-ftz, x < -126: ex2(x/2)^2, the square rounded to a subnormal */
    uint32_t h = mufu_ex2(fp32_mul(a, 0x3f000000u, FP_RN, 0, 0));
    return fp32_mul(h, h, FP_RN, 0, 0);
}

uint32_t fp32_lg2_approx(uint32_t a, int ftz)
{
    if (ftz) a = ftz32(a);
    if (!finite_nonzero32(a) || (a >> 31)) return out32(log2((double)b2f(a)), ftz);
    if (a >= 0x00800000u) return mufu_lg2(a);
    /* non-ftz subnormal: lg2(x * 2^24) - 24 */
    return fp32_add(mufu_lg2(fp32_mul(a, 0x4b800000u, FP_RN, 0, 0)), 0xc1c00000u, FP_RN, 0, 0);
}

/* ---- whole warps (the AVX2 copy of the dispatch loop calls these) ----------------------
 * The table interpolation of the MUFU units for 32 lanes, 8 lanes per AVX2 operation: rcp, ex2,
 * rsqrt, sqrt (and the division) throughout, lg2, sin, cos and tanh up to their 64-bit sums (then
 * 4); the segments' coefficients loaded, the squarer's 7 steps on vectors.  Lanes whose input the
 * scalar function treats apart (zero, subnormal, inf, NaN; out-of-range scaling) are redone
 * by it, so every lane gets the scalar function's bits (tests/fp/mufu_check compares them). */
#if defined(__x86_64__)
#include <immintrin.h>

_Static_assert(sizeof(mufu_seg) == 16 && offsetof(mufu_seg, b) == 8 && offsetof(mufu_seg, c) == 12, "mufu_seg layout");

/* ---- 8 lanes per vector ----
 * The inputs, squarer, exponents and results of rcp, ex2, rsqrt and sqrt fit in
 * 32 bits, so their rows keep 8 lanes in the 32-bit elements of one vector; only
 * the sum d + b * x + c * sq needs 64 bits, and is taken for the even and the odd
 * elements apart (vpmuldq reads the even ones).  The sums of lg2, sin, cos and tanh and
 * what follows them need 64 bits (lg2_end4, sin_end4, tanh_end4, for each half); their
 * fronts and squarers take 8 lanes.  The 8 lanes come from 8 slots'
 * low words by one vshufps, so the elements are in the lane order
 * 0 1 4 5 2 3 6 7 ("the row8 order"); every step is per element, and the results go
 * back to the slots by one unpack each way. */

/* mufu_sq of 8 lanes of 17-bit x (h < 2^8, so h * h is one vpmaddwd) */
__attribute__((target("avx2"))) static inline __m256i mufu_sq8(__m256i x)
{
    const __m256i m511 = _mm256_set1_epi32(511);
    __m256i h = _mm256_srli_epi32(x, 9), l = _mm256_and_si256(x, m511);
    __m256i r = _mm256_srli_epi32(_mm256_madd_epi16(h, h), 1);
    const __m256 zero = _mm256_setzero_ps();
    /* bit a of h moved to the sign bit picks l >> (9 - a) or 0 by a blend (a mask took two shifts and
     * an and); l >> (9 - a) is the high half of l * 2^(7 + a), from the multiplier: Zen 1 has one
     * shift unit, which the rest keeps busy (docs/PERFORMANCE.md, step 87) */
#define SQ8_STEP(a) r = _mm256_add_epi32(r, _mm256_castps_si256(_mm256_blendv_ps(zero, \
                            _mm256_castsi256_ps(_mm256_mulhi_epu16(l, _mm256_set1_epi32(1 << (7 + (a))))), \
                            _mm256_castsi256_ps(_mm256_slli_epi32(h, 31 - (a))))))
    SQ8_STEP(1); SQ8_STEP(2); SQ8_STEP(3); SQ8_STEP(4); SQ8_STEP(5); SQ8_STEP(6); SQ8_STEP(7);
#undef SQ8_STEP
    return r;
}

/* d + b * x + c * sq for 8 lanes in 64 bits, segments idx of tab: the even elements' sums in *ve,
 * the odd ones' in *vo */
__attribute__((target("avx2"))) static inline void mufu_sums8(const mufu_seg *tab, __m256i idx, __m256i x, __m256i sq,
                                                              __m256i *ve, __m256i *vo)
{
    uint32_t k[8];
    _mm256_storeu_si256((__m256i *)k, idx);
    const mufu_seg *t[8];
    uint64_t bc[8];                                          /* b and c, one 8-byte load each */
    for (int i = 0; i < 8; i++) { t[i] = &tab[k[i]]; memcpy(&bc[i], &t[i]->b, 8); }
    __m256i de = _mm256_setr_epi64x(t[0]->d, t[2]->d, t[4]->d, t[6]->d);
    __m256i dodd = _mm256_setr_epi64x(t[1]->d, t[3]->d, t[5]->d, t[7]->d);
    __m256i be = _mm256_setr_epi64x((long long)bc[0], (long long)bc[2], (long long)bc[4], (long long)bc[6]);
    __m256i bo = _mm256_setr_epi64x((long long)bc[1], (long long)bc[3], (long long)bc[5], (long long)bc[7]);
    /* the odd elements and the c halves moved down by vpshufd (the shift unit has enough to do) */
#define ODD(v) _mm256_shuffle_epi32(v, _MM_SHUFFLE(3, 3, 1, 1))
    *ve = _mm256_add_epi64(de, _mm256_add_epi64(_mm256_mul_epi32(be, x), _mm256_mul_epi32(ODD(be), sq)));
    *vo = _mm256_add_epi64(dodd, _mm256_add_epi64(_mm256_mul_epi32(bo, ODD(x)), _mm256_mul_epi32(ODD(bo), ODD(sq))));
#undef ODD
}

/* (d + b * x + c * sq) >> sh for 8 lanes, segments idx of tab; the result below 2^32 (as it
 * is for the lanes the caller does not redo) */
__attribute__((target("avx2"))) static inline __m256i mufu_poly8(const mufu_seg *tab, __m256i idx, __m256i x, __m256i sq,
                                                                 int sh)
{
    __m256i ve, vo;
    mufu_sums8(tab, idx, x, sq, &ve, &vo);
    return _mm256_blend_epi32(_mm256_srli_epi64(ve, sh), _mm256_slli_epi64(vo, 32 - sh), 0xaa);   /* vo >> sh in the high words */
}

/* sign s, exponent e and significand v (below 2^31) of 8 lanes: v >= 2^24 takes one more
 * exponent step (v halved); then e <= 0 gives +-0 and e >= 255 infinity (as mufu_rcp and
 * mufu_ex2 end) */
__attribute__((target("avx2"))) static inline __m256i mufu_pack8(__m256i v, __m256i e, __m256i s)
{
    const __m256i top = _mm256_set1_epi32(0xffffff), frac = _mm256_set1_epi32(0x7fffff);
    __m256i ge = _mm256_cmpgt_epi32(v, top);
    v = _mm256_blendv_epi8(v, _mm256_srli_epi32(v, 1), ge);
    e = _mm256_sub_epi32(e, ge);                              /* ge is -1 where it holds */
    __m256i r = _mm256_or_si256(s, _mm256_or_si256(_mm256_slli_epi32(e, 23), _mm256_and_si256(v, frac)));
    r = _mm256_blendv_epi8(r, s, _mm256_cmpgt_epi32(_mm256_set1_epi32(1), e));
    return _mm256_blendv_epi8(r, _mm256_or_si256(s, _mm256_set1_epi32(0x7f800000)), _mm256_cmpgt_epi32(e, _mm256_set1_epi32(254)));
}

/* a > b as unsigned 32-bit elements */
__attribute__((target("avx2"))) static inline __m256i cmpgt_u32(__m256i a, uint32_t b)
{
    const __m256i sign = _mm256_set1_epi32((int)0x80000000u);
    return _mm256_cmpgt_epi32(_mm256_xor_si256(a, sign), _mm256_set1_epi32((int)(b ^ 0x80000000u)));
}

/* One function on 8 lanes (32-bit elements, in the row8 order): the results, and in *bad the lanes
 * the scalar function must redo. */
typedef __m256i (*mufu8_fn)(__m256i va, int ftz, __m256i *bad);

/* 8 slots' low words as 32-bit elements, in the row8 order */
__attribute__((target("avx2"))) static inline __m256i row8_low_words(const uint64_t *a)
{
    return _mm256_castps_si256(_mm256_shuffle_ps(_mm256_loadu_ps((const float *)a), _mm256_loadu_ps((const float *)(a + 4)), 0x88));
}
/* the 8 elements of r (the row8 order) zero-extended into slots d[0..7] */
__attribute__((target("avx2"))) static inline void row8_store_words(uint64_t *d, __m256i r)
{
    const __m256i zero = _mm256_setzero_si256();
    _mm256_storeu_si256((__m256i *)d, _mm256_unpacklo_epi32(r, zero));
    _mm256_storeu_si256((__m256i *)(d + 4), _mm256_unpackhi_epi32(r, zero));
}
/* a movemask of 8 elements in the row8 order as lane bits */
static inline uint32_t row8_order_bits(uint32_t g)
{
    return (g & 0xc3u) | ((g >> 2) & 0x0cu) | ((g << 2) & 0x30u);
}

/* f8 over 32 lanes, then the scalar function for the lanes it leaves; inlined into each user so
 * that f8 is too */
__attribute__((target("avx2"), always_inline)) static inline void mufu_row8(uint64_t *d, const uint64_t *src, int ftz,
                                                                            mufu8_fn f8, uint32_t (*one)(uint32_t, int))
{
    uint64_t a[32];                    /* d may be src: the lanes redone below need their inputs */
    memcpy(a, src, sizeof a);
    uint32_t redo = 0;
    for (int l = 0; l < 32; l += 8) {
        __m256i bad, r = f8(row8_low_words(a + l), ftz, &bad);
        redo |= row8_order_bits((uint32_t)_mm256_movemask_ps(_mm256_castsi256_ps(bad))) << l;
        row8_store_words(d + l, r);
    }
    for (; redo; redo &= redo - 1) {
        int l = __builtin_ctz(redo);
        d[l] = one((uint32_t)a[l], ftz);
    }
}

/* mufu_rcp; zero, subnormal, inf, NaN and (without .ftz) the ranges fp32_rcp_approx scales: bad */
__attribute__((target("avx2"))) static inline __m256i rcp8(__m256i va, int ftz, __m256i *bad)
{
    const __m256i sign = _mm256_set1_epi32((int)0x80000000u), ff = _mm256_set1_epi32(0xff), zero = _mm256_setzero_si256();
    const __m256i frac = _mm256_set1_epi32(0x7fffff), m16 = _mm256_set1_epi32(0xffff), c253 = _mm256_set1_epi32(253);
    const __m256i mmax = _mm256_set1_epi32(ftz ? 0x7f7fffff : 0x7e800000);
    __m256i s = _mm256_and_si256(va, sign), f = _mm256_and_si256(va, frac);
    __m256i ex = _mm256_and_si256(_mm256_srli_epi32(va, 23), ff);
    *bad = _mm256_or_si256(_mm256_cmpeq_epi32(ex, zero), _mm256_cmpgt_epi32(_mm256_andnot_si256(sign, va), mmax));
    __m256i x = _mm256_and_si256(f, m16);
    __m256i v = mufu_poly8(mufu_rcp_tab, _mm256_srli_epi32(f, 16), x, mufu_sq8(_mm256_slli_epi32(x, 1)), 15);
    return mufu_pack8(v, _mm256_sub_epi32(c253, ex), s);
}

/* mufu_ex2; inf, NaN, |x| >= 128 and (without .ftz) x < -126: bad */
__attribute__((target("avx2"))) static inline __m256i ex2_8(__m256i va, int ftz, __m256i *bad)
{
    const __m256i ff = _mm256_set1_epi32(0xff), zero = _mm256_setzero_si256(), frac = _mm256_set1_epi32(0x7fffff);
    const __m256i hid = _mm256_set1_epi32(0x800000), c127 = _mm256_set1_epi32(127), six = _mm256_set1_epi32(6);
    const __m256i m17 = _mm256_set1_epi32(0x1ffff);
    __m256i be = _mm256_and_si256(_mm256_srli_epi32(va, 23), ff), sh = _mm256_sub_epi32(be, c127);
    *bad = _mm256_cmpgt_epi32(sh, six);
    if (!ftz) *bad = _mm256_or_si256(*bad, cmpgt_u32(va, 0xc2fc0000u));
    /* the 7.23 fixed-point magnitude (below 2^31 for the lanes kept): shifts of 32 or more give 0 */
    __m256i m = _mm256_or_si256(_mm256_and_si256(va, frac), hid);
    __m256i up = _mm256_sllv_epi32(m, _mm256_max_epi32(sh, zero));
    __m256i down = _mm256_srlv_epi32(m, _mm256_max_epi32(_mm256_sub_epi32(zero, sh), zero));
    __m256i fx = _mm256_andnot_si256(_mm256_cmpeq_epi32(be, zero), _mm256_blendv_epi8(up, down, _mm256_cmpgt_epi32(zero, sh)));
    __m256i I = _mm256_srli_epi32(fx, 23), F = _mm256_and_si256(fx, frac);
    __m256i sg = _mm256_srai_epi32(va, 31);                                   /* -1 where negative */
    __m256i fnz = _mm256_andnot_si256(_mm256_cmpeq_epi32(F, zero), sg);      /* negative with a fraction */
    I = _mm256_blendv_epi8(I, _mm256_add_epi32(_mm256_sub_epi32(zero, I), fnz), sg);   /* -I, or -I - 1 */
    F = _mm256_xor_si256(F, _mm256_and_si256(fnz, frac));                   /* ones' complement */
    __m256i x = _mm256_and_si256(F, m17);
    __m256i v = mufu_poly8(mufu_ex2_tab, _mm256_srli_epi32(F, 17), x, mufu_sq8(x), 15);
    return mufu_pack8(v, _mm256_add_epi32(I, c127), zero);
}

/* mufu_rsq; zero, subnormal, negative, inf, NaN: bad (.ftz differs only for subnormal inputs) */
__attribute__((target("avx2"))) static inline __m256i rsqrt8(__m256i va, int ftz, __m256i *bad)
{
    (void)ftz;
    const __m256i ff = _mm256_set1_epi32(0xff), zero = _mm256_setzero_si256(), frac = _mm256_set1_epi32(0x7fffff);
    const __m256i one = _mm256_set1_epi32(1), c190 = _mm256_set1_epi32(190), m17 = _mm256_set1_epi32(0x1ffff);
    __m256i ex = _mm256_and_si256(_mm256_srli_epi32(va, 23), ff);
    *bad = _mm256_or_si256(_mm256_cmpeq_epi32(ex, zero), cmpgt_u32(va, 0x7f7fffffu));
    __m256i ex1 = _mm256_add_epi32(ex, one);
    __m256i f = _mm256_or_si256(_mm256_and_si256(va, frac), _mm256_slli_epi32(_mm256_and_si256(ex1, one), 23));
    __m256i e = _mm256_sub_epi32(c190, _mm256_srli_epi32(ex1, 1));
    __m256i x = _mm256_and_si256(f, m17);
    __m256i v = mufu_poly8(mufu_rsq_tab, _mm256_srli_epi32(f, 17), x, _mm256_slli_epi32(mufu_sq8(x), 2), 16);
    __m256i pow4 = _mm256_slli_epi32(_mm256_add_epi32(e, one), 23);        /* f == 0: a power of 4 */
    return _mm256_blendv_epi8(mufu_pack8(v, e, zero), pow4, _mm256_cmpeq_epi32(f, zero));
}

/* mufu_sqrt; zero, subnormal, negative, inf, NaN: bad (as rsqrt8: the same layout of table
 * and input, the result's exponent 63 + (ex + 1) / 2 = 127 + floor((ex - 127) / 2)) */
__attribute__((target("avx2"))) static inline __m256i sqrt8(__m256i va, int ftz, __m256i *bad)
{
    (void)ftz;
    const __m256i ff = _mm256_set1_epi32(0xff), zero = _mm256_setzero_si256(), frac = _mm256_set1_epi32(0x7fffff);
    const __m256i one = _mm256_set1_epi32(1), c63 = _mm256_set1_epi32(63), m17 = _mm256_set1_epi32(0x1ffff);
    __m256i ex = _mm256_and_si256(_mm256_srli_epi32(va, 23), ff);
    *bad = _mm256_or_si256(_mm256_cmpeq_epi32(ex, zero), cmpgt_u32(va, 0x7f7fffffu));
    __m256i ex1 = _mm256_add_epi32(ex, one);
    __m256i f = _mm256_or_si256(_mm256_and_si256(va, frac), _mm256_slli_epi32(_mm256_and_si256(ex1, one), 23));
    __m256i x = _mm256_and_si256(f, m17);
    __m256i v = mufu_poly8(mufu_sqrt_tab, _mm256_srli_epi32(f, 17), x, _mm256_slli_epi32(mufu_sq8(x), 1), 17);
    return mufu_pack8(v, _mm256_add_epi32(c63, _mm256_srli_epi32(ex1, 1)), zero);
}

/* mufu_lg2's end for 4 lanes in 64-bit elements: the table's sum v, the exponent field ex and the
 * mask one of the inputs 1.0 (lg2(1) = 0 exactly); the f32 results in the low words.  The result's
 * leading bit is found by converting it to a double (it is below 2^43, so exactly), AVX2 having
 * no leading-zero count. */
__attribute__((target("avx2"))) static inline __m256i lg2_end4(__m256i v, __m256i ex, __m256i one)
{
    const __m256i zero = _mm256_setzero_si256(), frac = _mm256_set1_epi64x(0x7fffff);
    const __m256i c127 = _mm256_set1_epi64x(127), sign = _mm256_set1_epi64x(0x80000000);
    const __m256i two52 = _mm256_set1_epi64x(0x4330000000000000), c1023 = _mm256_set1_epi64x(1023), c42 = _mm256_set1_epi64x(42);
    __m256i res = _mm256_andnot_si256(one, _mm256_srli_epi64(v, 2));
    res = _mm256_add_epi64(res, _mm256_slli_epi64(_mm256_sub_epi64(ex, c127), 36));   /* + exponent * 2^36 */
    __m256i neg = _mm256_cmpgt_epi64(zero, res);
    __m256i s = _mm256_and_si256(neg, sign);
    res = _mm256_xor_si256(res, neg);                                            /* ones' complement */
    __m256i asd = _mm256_castpd_si256(_mm256_sub_pd(_mm256_castsi256_pd(_mm256_or_si256(res, two52)),
                                                    _mm256_castsi256_pd(two52)));
    __m256i top = _mm256_sub_epi64(_mm256_srli_epi64(asd, 52), c1023);          /* the leading bit of res */
    __m256i norm = _mm256_sllv_epi64(res, _mm256_sub_epi64(c42, top));          /* leading bit at 42 */
    __m256i e = _mm256_add_epi64(top, _mm256_set1_epi64x(127 + 6 - 42));
    __m256i r = _mm256_or_si256(s, _mm256_or_si256(_mm256_slli_epi64(e, 23), _mm256_and_si256(_mm256_srli_epi64(norm, 19), frac)));
    return _mm256_blendv_epi8(r, s, _mm256_cmpeq_epi64(res, zero));             /* 0: +-0 */
}

/* mufu_lg2; zero, subnormal, negative, inf, NaN: bad.  The input's fields and the squarer take 8
 * lanes a vector; the sum and what follows need 64 bits: lg2_end4 for the even and the odd
 * elements. */
__attribute__((target("avx2"))) static inline __m256i lg2_8(__m256i va, int ftz, __m256i *bad)
{
    (void)ftz;
    const __m256i ff = _mm256_set1_epi32(0xff), zero = _mm256_setzero_si256(), frac = _mm256_set1_epi32(0x7fffff);
    const __m256i c127 = _mm256_set1_epi32(127), m17 = _mm256_set1_epi32(0x1ffff), lo = _mm256_set1_epi64x(0xffffffff);
    __m256i ex = _mm256_and_si256(_mm256_srli_epi32(va, 23), ff), f = _mm256_and_si256(va, frac);
    *bad = _mm256_or_si256(_mm256_cmpeq_epi32(ex, zero), cmpgt_u32(va, 0x7f7fffffu));
    __m256i x = _mm256_and_si256(f, m17), ve, vo;
    mufu_sums8(mufu_lg2_tab, _mm256_srli_epi32(f, 17), x, _mm256_slli_epi32(mufu_sq8(x), 1), &ve, &vo);
    __m256i one = _mm256_and_si256(_mm256_cmpeq_epi32(f, zero), _mm256_cmpeq_epi32(ex, c127));
    __m256i re = lg2_end4(ve, _mm256_and_si256(ex, lo), _mm256_shuffle_epi32(one, _MM_SHUFFLE(2, 2, 0, 0)));
    __m256i ro = lg2_end4(vo, _mm256_srli_epi64(ex, 32), _mm256_shuffle_epi32(one, _MM_SHUFFLE(3, 3, 1, 1)));
    return _mm256_blend_epi32(re, _mm256_slli_epi64(ro, 32), 0xaa);
}

__attribute__((target("avx2"))) void fp32_rcp_approx_row(uint64_t *d, const uint64_t *a, int ftz)
{
    mufu_row8(d, a, ftz, rcp8, fp32_rcp_approx);
}

/* fp32_div_full (full) or fp32_div_approx of 8 lanes (the row8 order): MUFU.RCP of b (rcp8 as .ftz)
 * times a, the product exact in doubles and rounded once to f32 (as FMUL).  Bad, for the scalar
 * function to redo: b zero, subnormal, inf or NaN (the scalings and the unit's special cases), with
 * full |b| > 2^126 (scaled by 1/4), a inf or NaN, and with .ftz a zero or subnormal a and nonzero
 * results up to 2^-126 (fp32_mul's tininess rule decides those). */
__attribute__((target("avx2"))) static inline __m256i div8(__m256i va, __m256i vb, int ftz, int full, __m256i *bad)
{
    const __m256i absm = _mm256_set1_epi32(0x7fffffff), zero = _mm256_setzero_si256();
    const __m256i fmax = _mm256_set1_epi32(0x7f7fffff);
    __m256i rbad, r = rcp8(vb, 1, &rbad);
    __m256i b = rbad, ma = _mm256_and_si256(va, absm);
    b = _mm256_or_si256(b, _mm256_cmpgt_epi32(ma, fmax));
    if (full) b = _mm256_or_si256(b, _mm256_cmpgt_epi32(_mm256_and_si256(vb, absm), _mm256_set1_epi32(F32_TWO126)));
    if (ftz) b = _mm256_or_si256(b, _mm256_cmpgt_epi32(_mm256_set1_epi32(F32_MIN_NORMAL), ma));
    __m256 af = _mm256_castsi256_ps(va), rf = _mm256_castsi256_ps(r);
    __m128 qlo = _mm256_cvtpd_ps(_mm256_mul_pd(_mm256_cvtps_pd(_mm256_castps256_ps128(af)), _mm256_cvtps_pd(_mm256_castps256_ps128(rf))));
    __m128 qhi = _mm256_cvtpd_ps(_mm256_mul_pd(_mm256_cvtps_pd(_mm256_extractf128_ps(af, 1)), _mm256_cvtps_pd(_mm256_extractf128_ps(rf, 1))));
    __m256i q = _mm256_castps_si256(_mm256_set_m128(qhi, qlo));
    if (ftz) {
        __m256i mq = _mm256_and_si256(q, absm);
        b = _mm256_or_si256(b, _mm256_andnot_si256(_mm256_cmpeq_epi32(mq, zero),
                                                   _mm256_cmpgt_epi32(_mm256_set1_epi32(F32_MIN_NORMAL + 1), mq)));
    }
    *bad = b;
    return q;
}

/* div8 over 32 lanes, then the scalar function for the lanes it leaves (d may be a or b) */
__attribute__((target("avx2"), always_inline)) static inline void div_row(uint64_t *d, const uint64_t *a, const uint64_t *b,
                                                                          int ftz, int full)
{
    uint64_t sa[32], sb[32];
    memcpy(sa, a, sizeof sa);
    memcpy(sb, b, sizeof sb);
    uint32_t redo = 0;
    for (int l = 0; l < 32; l += 8) {
        __m256i bad, r = div8(row8_low_words(sa + l), row8_low_words(sb + l), ftz, full, &bad);
        redo |= row8_order_bits((uint32_t)_mm256_movemask_ps(_mm256_castsi256_ps(bad))) << l;
        row8_store_words(d + l, r);
    }
    for (; redo; redo &= redo - 1) {
        int l = __builtin_ctz(redo);
        d[l] = full ? fp32_div_full((uint32_t)sa[l], (uint32_t)sb[l], ftz) : fp32_div_approx((uint32_t)sa[l], (uint32_t)sb[l], ftz);
    }
}

__attribute__((target("avx2"))) void fp32_div_approx_row(uint64_t *d, const uint64_t *a, const uint64_t *b, int ftz)
{
    div_row(d, a, b, ftz, 0);
}

__attribute__((target("avx2"))) void fp32_div_full_row(uint64_t *d, const uint64_t *a, const uint64_t *b, int ftz)
{
    div_row(d, a, b, ftz, 1);
}

__attribute__((target("avx2"))) void fp32_ex2_approx_row(uint64_t *d, const uint64_t *a, int ftz)
{
    mufu_row8(d, a, ftz, ex2_8, fp32_ex2_approx);
}

__attribute__((target("avx2"))) void fp32_rsqrt_approx_row(uint64_t *d, const uint64_t *a, int ftz)
{
    mufu_row8(d, a, ftz, rsqrt8, fp32_rsqrt_approx);
}

__attribute__((target("avx2"))) void fp32_sqrt_approx_row(uint64_t *d, const uint64_t *a, int ftz)
{
    mufu_row8(d, a, ftz, sqrt8, fp32_sqrt_approx);
}

__attribute__((target("avx2"))) void fp32_lg2_approx_row(uint64_t *d, const uint64_t *a, int ftz)
{
    mufu_row8(d, a, ftz, lg2_8, fp32_lg2_approx);
}
#endif

/* MUFU.SIN / MUFU.COS.  ptxas emits t = x * f32(1/(2pi)) rounded toward zero
 * (FMUL.RZ), then MUFU.SIN/COS of t in revolutions.  The unit keeps T, the
 * fraction of |t| as 25-bit fixed point (truncated):
 * quadrant q = T >> 23 and u = the low 23 bits, with u ones'-complemented in
 * odd quadrants; sin(pi/2 * u/2^23) comes from the table as 38-bit fixed
 * point and is truncated to f32.  cos(T) = sin(T + quarter revolution). */
static uint32_t mufu_sin_rev(uint32_t T)
{
    uint32_t q = (T >> 23) & 3, u = T & 0x7fffff;
    if (q & 1) u = ~u & 0x7fffff;
    const mufu_seg *t = &mufu_sin_tab[u >> 17];
    uint32_t x = u & 0x1ffff;
    int64_t v = t->d + (int64_t)t->b * x + t->c * mufu_sq(x);
    uint32_t s = q >= 2 ? 0x80000000u : 0;
    if (v <= 0) return s;
    int top = 63 - __builtin_clzll((uint64_t)v);   /* normalise v to [2^38, 2^39) */
    int e = 127 + top - 38;
    v = top >= 38 ? v >> (top - 38) : v << (38 - top);
    return s | (uint32_t)e << 23 | ((uint32_t)(v >> 15) & 0x7fffff);
}

/* T: the fraction of t = RZ(|x| / 2pi) in units of 2^-25 revolution,
 * truncated.  The sign is handled apart: sin(-x) = -sin(x), cos(-x) = cos(x). */
static uint32_t sincos_T(uint32_t a)
{
    a = ftz32(a) & 0x7fffffffu; /* subnormal x gives t = 0 either way */
    /* t = RZ(a * f32(1/2pi)): the double product is exact (24 x 24 bits); rounded
     * to nearest, it is one ulp too far from zero when the rounding went up
     * (t below 2^-126 gives 0 below either way) */
    double p = (double)b2f(a) * (double)b2f(0x3e22f983u);
    uint32_t t = f2b((float)p);
    if ((double)b2f(t) > p) t--;
    int sh = (int)(t >> 23) - 125;
    uint64_t m = (t & 0x7fffff) | 0x800000;
    if (t < 0x00800000u || sh >= 25) return 0;
    if (sh >= 0) return (uint32_t)(m << sh) & 0x1ffffff;
    return sh <= -32 ? 0 : (uint32_t)(m >> -sh);
}

uint32_t fp32_sin_approx(uint32_t a, int ftz)
{
    (void)ftz; /* the result is never subnormal; subnormal inputs give +-0 */
    if ((a & 0x7f800000u) == 0x7f800000u) return FP32_CANON_NAN;
    return mufu_sin_rev(sincos_T(a)) ^ (a & 0x80000000u);
}

uint32_t fp32_cos_approx(uint32_t a, int ftz)
{
    (void)ftz;
    if ((a & 0x7f800000u) == 0x7f800000u) return FP32_CANON_NAN;
    return mufu_sin_rev(sincos_T(a) + 0x800000u);
}

/* MUFU.TANH.  |x| < 2^-8 gives x (subnormals and zeros too, no flush), |x| >= 8
 * gives +-1, NaN the canonical NaN; tanh(-x) = -tanh(x).  In between, each binade
 * [2^e, 2^e+1), e = -8 .. 2, has 2^k segments (k = 0 0 0 1 1 2 2 2 3 4 3): the
 * fraction's top k bits pick the segment and its next 17 bits are x (the rest is
 * ignored), V = D + B*x + C*sq(x) is tanh in units of 2^-Q (Q = 38 - e below 1,
 * 38 on [1, 2) and [4, 8), 39 on [2, 4)) and is truncated to f32.  Fitted to H200
 * recordings of every input in [2^-31, 8) (tests/fp/README.md). */
static const mufu_seg mufu_tanh_tab[51] = {
    {0x4000000000ll, 2097152, -256},   /* [2^-8, 2^-7): 1 */
    {0x3fffc00000ll, 2097024, -768},   /* [2^-7, 2^-6): 1 */
    {0x3ffec00000ll, 2096768, -3328},   /* [2^-6, 2^-5): 1 */
    {0x3ffab00000ll, 1047616, -2624}, {0x5fee100000ll, 1046304, -3520},   /* [2^-5, 2^-4): 2 */
    {0x3feab00000ll, 1044672, -10176}, {0x5fb8300000ll, 1039616, -14208},   /* [2^-4, 2^-3): 2 */
    {0x3fab340000ll, 516256, -8944}, {0x4f5aec0000ll, 511776, -10816}, {0x5ee3f80000ll, 506368, -12640},   /* [2^-3, 2^-2): 4 */
    {0x6e3f400000ll, 500048, -14256},
    {0x3eb2f00000ll, 493088, -33104}, {0x4d7e4c0000ll, 476480, -38592}, {0x5bbd400000ll, 457144, -42976},   /* [2^-2, 2^-1): 4 */
    {0x695ca00000ll, 435608, -46304},
    {0x3b26940000ll, 412568, -98592}, {0x46fd280000ll, 362992, -100608}, {0x514cb40000ll, 312504, -96608},   /* [2^-1, 2^0): 4 */
    {0x5a19c40000ll, 264088, -88688},
    {0x30be120000ll, 109844, -39292}, {0x33cbae0000ll, 90204, -33912}, {0x364a620000ll, 73268, -28576},   /* [2^0, 2^1): 8 */
    {0x384f2d0000ll, 59002, -23692}, {0x39ee080000ll, 47180, -19368}, {0x3b38f10000ll, 37520, -15688},
    {0x3c3f8e0000ll, 29700, -12576}, {0x3d0f1f0000ll, 23432, -10036},
    {0x7b65500000ll, 36874, -15946}, {0x7c66608000ll, 28942, -12590}, {0x7d30028000ll, 22674, -9898},   /* [2^1, 2^2): 16 */
    {0x7dcde68000ll, 17746, -7784}, {0x7e49688000ll, 13870, -6094}, {0x7ea9ea8000ll, 10835, -4776},
    {0x7ef5478000ll, 8457, -3734}, {0x7f30168000ll, 6599, -2920}, {0x7f5df70000ll, 5146, -2278},
    {0x7f81bd0000ll, 4012, -1778}, {0x7f9da00000ll, 3127, -1386}, {0x7fb35c8000ll, 2437, -1082},
    {0x7fc44c0000ll, 1899, -842}, {0x7fd17e8000ll, 1479, -654}, {0x7fdbc68000ll, 1152, -508},
    {0x7fe3c90000ll, 897, -394},
    {0x3ff50c0000ll, 1318, -1752}, {0x3ffbf80000ll, 486, -648}, {0x3ffe840000ll, 178, -232},   /* [2^2, 2^3): 8 */
    {0x3fff740000ll, 66, -88}, {0x3fffcd0000ll, 24, -32}, {0x3fffed0000ll, 10, -16},
    {0x3ffff90000ll, 4, -8}, {0x3ffffd0000ll, 2, -4},
};
static const struct { uint8_t k, first, q; } mufu_tanh_binade[11] = {
    {0, 0, 46}, {0, 1, 45}, {0, 2, 44}, {1, 3, 43}, {1, 5, 42}, {2, 7, 41},
    {2, 11, 40}, {2, 15, 39}, {3, 19, 38}, {4, 27, 39}, {3, 43, 38},
};

uint32_t fp32_tanh_approx(uint32_t a)
{
    uint32_t s = a & 0x80000000u, m = a & 0x7fffffffu;
    if (m > 0x7f800000u) return FP32_CANON_NAN;
    if (m >= 0x41000000u) return s | 0x3f800000u;   /* |x| >= 8, inf */
    if (m < 0x3b800000u) return a;                   /* |x| < 2^-8 */
    int e = (int)(m >> 23) - 127;
    uint32_t f = m & 0x7fffff, k = mufu_tanh_binade[e + 8].k;
    const mufu_seg *t = &mufu_tanh_tab[mufu_tanh_binade[e + 8].first + (f >> (23 - k))];
    uint32_t x = (f >> (6 - k)) & 0x1ffff;
    int64_t v = t->d + (int64_t)t->b * x + t->c * mufu_sq(x);
    int top = 63 - __builtin_clzll((uint64_t)v);   /* v > 0 */
    return s | (uint32_t)(127 + top - mufu_tanh_binade[e + 8].q) << 23 | ((uint32_t)(v >> (top - 23)) & 0x7fffff);
}

/* ---- f64: MUFU.RCP64H and MUFU.RSQ64H ------------------------------------------------
 * rcp.approx.ftz.f64 and rsqrt.approx.ftz.f64 are one MUFU.RCP64H / MUFU.RSQ64H of the
 * operand's high word (the low word is never read) whose result is the high word, the low
 * word being 0 (ptxas, CUDA 13.0).  The unit is the f32 one (mufu_rcp, mufu_rsq): the high
 * word's 20 fraction bits, as an f32 fraction (3 zero bits below), go through the same table
 * and the result's fraction is cut to its top 20 bits; the exponent is worked out apart, as
 * in f64.  Subnormal (and zero) high words read as +-0 and a result below 2^-1022 is +-0.
 * Every high word (all 2^32, both units) matches H200 recordings (tests/fp/README.md). */
#define F64_HI_EXP 0x7ff00000u   /* the exponent field of an f64 high word */
#define F64_HI_FRAC 0x000fffffu  /* its 20 fraction bits */
#define F64_HI_NAN 0x7fffffff00000000ull   /* what both units give for a NaN */

/* the f32 result r's 23 fraction bits cut to an f64 high word's 20, with exponent E */
static uint64_t hi_word(uint32_t s, int E, uint32_t r)
{
    return (uint64_t)(s | (uint32_t)E << 20 | (r & 0x7fffff) >> 3) << 32;
}

/* MUFU.RCP64H: NaN gives F64_HI_NAN, +-0 (and subnormals) +-inf, +-inf +-0 */
uint64_t fp64_rcp_approx_ftz(uint64_t a)
{
    uint32_t h = (uint32_t)(a >> 32), s = h & 0x80000000u, m = h & 0x7fffffffu;
    int e = (int)(m >> 20);
    if (m > F64_HI_EXP) return F64_HI_NAN;
    if (e == 0) return (uint64_t)(s | F64_HI_EXP) << 32;
    if (e == 0x7ff) return (uint64_t)s << 32;
    uint32_t r = mufu_rcp(0x3f800000u | (h & F64_HI_FRAC) << 3);   /* 1/[1, 2): (1/2, 1] */
    int E = 2046 - e + (int)(r >> 23) - 127;    /* 1023 - (e - 1023), less 1 where r < 1 */
    return E <= 0 ? (uint64_t)s << 32 : hi_word(s, E, r);
}

/* MUFU.RSQ64H of high word h: NaN and negatives (-inf too) give F64_HI_NAN, +-0 (and
 * subnormals) +-inf, +inf +0.  The f32 input keeps the exponent's parity: [1, 4), as in
 * mufu_rsq. */
static uint64_t rsq64h(uint32_t h)
{
    uint32_t s = h & 0x80000000u, m = h & 0x7fffffffu;
    int e = (int)(m >> 20) - 1023;
    if (m > F64_HI_EXP) return F64_HI_NAN;
    if (!(m & F64_HI_EXP)) return (uint64_t)(s | F64_HI_EXP) << 32;
    if (s) return F64_HI_NAN;
    if (m == F64_HI_EXP) return 0;
    uint32_t r = mufu_rsq((uint32_t)(127 + (e & 1)) << 23 | (h & F64_HI_FRAC) << 3);  /* (1/2, 1] */
    return hi_word(0, 1023 - (e >> 1) + (int)(r >> 23) - 127, r);                    /* e >> 1: floor */
}

/* rsqrt.approx.f64 without .ftz: ptxas (CUDA 13.0) refines y = MUFU.RSQ64H(x) once,
 *     t = y*y;  d = fma(x, -t, 1);  c = fma(d, 3/8, 1/2);  q = y*d;  y' = fma(c, q, y)
 * (each rounded to nearest), for x with a normal positive high word.  Its slow path:
 * +-0 gives +-inf, a NaN the quieted NaN (x + x), other negatives the default NaN, +inf
 * +0, and a positive subnormal x rsqrt(x * 2^54) * 2^27. */
static uint64_t rsqrt_refined(uint64_t a)
{
    double x = b2d(a), y = b2d(rsq64h((uint32_t)(a >> 32)));
    double d = fma(x, -(y * y), 1.0);
    return d2b(fma(fma(d, 0.375, 0.5), y * d, y));
}

uint64_t fp64_rsqrt_approx(uint64_t a, int ftz)
{
    if (ftz) return rsq64h((uint32_t)(a >> 32));
    uint32_t h = (uint32_t)(a >> 32);
    /* ptxas's test: exponent field 1 .. 0x7fe and sign 0 (unsigned wrap below 1) */
    if (h - 0x00100000u < 0x7fe00000u) return rsqrt_refined(a);
    if (!(a << 1)) return a | 0x7ff0000000000000ull;               /* +-0: +-inf */
    if ((a & 0x7fffffffffffffffull) > 0x7ff0000000000000ull) return a | 0x0008000000000000ull;
    if (a >> 63) return FP64_DEFAULT_NAN;
    if (a == 0x7ff0000000000000ull) return 0;
    /* subnormal: x * 2^54 is exact and normal; so is the result times 2^27 */
    return d2b(b2d(rsqrt_refined(d2b(b2d(a) * 0x1p54))) * 0x1p27);
}

/* The f16 and bf16 forms (MUFU.EX2.F16, .BF16, MUFU.TANH.F16, .BF16) are the f32
 * unit's result (ex2.approx.ftz.f32, tanh.approx.f32 of the exactly widened input)
 * rounded toward zero, except that an f16 ex2 of 2^16 or more is inf; a NaN input
 * gives the canonical NaN 0x7fff (H200, all 65536 inputs of each). */
static int nan16(uint16_t a, int bf) { return (a & 0x7fff) > (bf ? 0x7f80 : 0x7c00); }
static uint16_t f32_to_f16_rz(uint32_t r) { return (uint16_t)fp_cvt_f2f(r, FP_F32, FP_F16, FP_RZ, 0); }
static uint32_t f16_to_f32(uint16_t a) { return (uint32_t)fp_cvt_f2f(a, FP_F16, FP_F32, FP_RN, 0); }

uint16_t fp16_ex2_approx(uint16_t a)
{
    if (nan16(a, 0)) return FP16_CANON_NAN;
    uint32_t r = fp32_ex2_approx(f16_to_f32(a), 1);   /* never negative */
    return r >= 0x47800000u ? 0x7c00 : f32_to_f16_rz(r);
}
uint16_t fp16_tanh_approx(uint16_t a)
{
    return nan16(a, 0) ? FP16_CANON_NAN : f32_to_f16_rz(fp32_tanh_approx(f16_to_f32(a)));
}
/* bf16 is f32's top half: rounding toward zero drops the low half */
uint16_t bf16_ex2_approx(uint16_t a)
{
    return nan16(a, 1) ? FP16_CANON_NAN : (uint16_t)(fp32_ex2_approx((uint32_t)a << 16, 1) >> 16);
}
uint16_t bf16_tanh_approx(uint16_t a)
{
    return nan16(a, 1) ? FP16_CANON_NAN : (uint16_t)(fp32_tanh_approx((uint32_t)a << 16) >> 16);
}

#if defined(__x86_64__)
/* sincos_T of 8 lanes (the row8 order).  The product is taken in doubles, as the scalar
 * function does, 4 lanes at a time; the rest fits in 32 bits (shifts of 32 or more give 0, as
 * the scalar's cases for them do). */
__attribute__((target("avx2"))) static inline __m256i sincos_T8(__m256i va)
{
    const __m256i zero = _mm256_setzero_si256(), absm = _mm256_set1_epi32(0x7fffffff), frac = _mm256_set1_epi32(0x7fffff);
    const __m256i hid = _mm256_set1_epi32(0x800000), c125 = _mm256_set1_epi32(125), c24 = _mm256_set1_epi32(24);
    const __m256d k = _mm256_set1_pd((double)b2f(0x3e22f983u));
    __m256i a = _mm256_and_si256(va, absm);
    a = _mm256_andnot_si256(_mm256_cmpeq_epi32(_mm256_srli_epi32(a, 23), zero), a);   /* ftz */
    __m128i th[2];
    for (int h = 0; h < 2; h++) {
        __m128 ah = h ? _mm256_extractf128_ps(_mm256_castsi256_ps(a), 1) : _mm256_castps256_ps128(_mm256_castsi256_ps(a));
        __m256d p = _mm256_mul_pd(_mm256_cvtps_pd(ah), k);
        __m128 tf = _mm256_cvtpd_ps(p);
        __m256d up = _mm256_cmp_pd(_mm256_cvtps_pd(tf), p, _CMP_GT_OQ);        /* rounded up: RZ is one ulp less */
        __m128 upw = _mm_shuffle_ps(_mm_castpd_ps(_mm256_castpd256_pd128(up)), _mm_castpd_ps(_mm256_extractf128_pd(up, 1)), 0x88);
        th[h] = _mm_add_epi32(_mm_castps_si128(tf), _mm_castps_si128(upw));
    }
    __m256i t = _mm256_inserti128_si256(_mm256_castsi128_si256(th[0]), th[1], 1);
    __m256i sh = _mm256_sub_epi32(_mm256_srli_epi32(t, 23), c125);
    __m256i m = _mm256_or_si256(_mm256_and_si256(t, frac), hid);
    __m256i up = _mm256_and_si256(_mm256_sllv_epi32(m, _mm256_max_epi32(sh, zero)), _mm256_set1_epi32(0x1ffffff));
    __m256i down = _mm256_srlv_epi32(m, _mm256_max_epi32(_mm256_sub_epi32(zero, sh), zero));
    __m256i T = _mm256_blendv_epi8(up, down, _mm256_cmpgt_epi32(zero, sh));
    __m256i none = _mm256_or_si256(_mm256_cmpgt_epi32(hid, t), _mm256_cmpgt_epi32(sh, c24));   /* t < 2^-126, sh >= 25 */
    return _mm256_andnot_si256(none, T);
}

/* mufu_sin_rev's end for 4 lanes in 64-bit elements: the table's sum v, normalised by its
 * leading bit (from a conversion to double, as in lg2_end4); the magnitude's f32 bits in the low
 * words, 0 where v <= 0 */
__attribute__((target("avx2"))) static inline __m256i sin_end4(__m256i v)
{
    const __m256i zero = _mm256_setzero_si256(), frac = _mm256_set1_epi64x(0x7fffff), one = _mm256_set1_epi64x(1);
    const __m256i two52 = _mm256_set1_epi64x(0x4330000000000000), c38 = _mm256_set1_epi64x(38);
    __m256i asd = _mm256_castpd_si256(_mm256_sub_pd(_mm256_castsi256_pd(_mm256_or_si256(v, two52)), _mm256_castsi256_pd(two52)));
    __m256i top = _mm256_sub_epi64(_mm256_srli_epi64(asd, 52), _mm256_set1_epi64x(1023));
    __m256i nv = _mm256_srlv_epi64(_mm256_sllv_epi64(v, _mm256_max_epi32(_mm256_sub_epi64(c38, top), zero)),
                                   _mm256_max_epi32(_mm256_sub_epi64(top, c38), zero));
    __m256i e = _mm256_add_epi64(top, _mm256_set1_epi64x(127 - 38));
    __m256i r = _mm256_or_si256(_mm256_slli_epi64(e, 23), _mm256_and_si256(_mm256_srli_epi64(nv, 15), frac));
    return _mm256_andnot_si256(_mm256_cmpgt_epi64(one, v), r);
}

/* mufu_sin_rev of 8 lanes (the row8 order): the fields and the squarer 8 lanes a vector, the
 * sum and its end 64 bits (sin_end4, for the even and the odd elements) */
__attribute__((target("avx2"))) static inline __m256i mufu_sin_rev8(__m256i T)
{
    const __m256i zero = _mm256_setzero_si256(), frac = _mm256_set1_epi32(0x7fffff), three = _mm256_set1_epi32(3);
    const __m256i one = _mm256_set1_epi32(1), m17 = _mm256_set1_epi32(0x1ffff), sign = _mm256_set1_epi32((int)0x80000000u);
    __m256i q = _mm256_and_si256(_mm256_srli_epi32(T, 23), three), u = _mm256_and_si256(T, frac);
    __m256i odd = _mm256_sub_epi32(zero, _mm256_and_si256(q, one));
    u = _mm256_xor_si256(u, _mm256_and_si256(odd, frac));                       /* q odd: ~u */
    __m256i x = _mm256_and_si256(u, m17), ve, vo;
    mufu_sums8(mufu_sin_tab, _mm256_srli_epi32(u, 17), x, mufu_sq8(x), &ve, &vo);
    __m256i r = _mm256_blend_epi32(sin_end4(ve), _mm256_slli_epi64(sin_end4(vo), 32), 0xaa);
    return _mm256_or_si256(r, _mm256_and_si256(_mm256_cmpgt_epi32(q, one), sign));
}

/* sin and cos: inf and NaN (the canonical NaN) are bad */
__attribute__((target("avx2"))) static inline __m256i sin8(__m256i va, int ftz, __m256i *bad)
{
    (void)ftz;
    const __m256i inf = _mm256_set1_epi32(0x7f800000);
    *bad = _mm256_cmpeq_epi32(_mm256_and_si256(va, inf), inf);
    return _mm256_xor_si256(mufu_sin_rev8(sincos_T8(va)), _mm256_and_si256(va, _mm256_set1_epi32((int)0x80000000u)));
}

__attribute__((target("avx2"))) static inline __m256i cos8(__m256i va, int ftz, __m256i *bad)
{
    (void)ftz;
    const __m256i inf = _mm256_set1_epi32(0x7f800000);
    *bad = _mm256_cmpeq_epi32(_mm256_and_si256(va, inf), inf);
    return mufu_sin_rev8(_mm256_add_epi32(sincos_T8(va), _mm256_set1_epi32(0x800000)));
}

__attribute__((target("avx2"))) void fp32_sin_approx_row(uint64_t *d, const uint64_t *a, int ftz)
{
    mufu_row8(d, a, ftz, sin8, fp32_sin_approx);
}

__attribute__((target("avx2"))) void fp32_cos_approx_row(uint64_t *d, const uint64_t *a, int ftz)
{
    mufu_row8(d, a, ftz, cos8, fp32_cos_approx);
}

/* mufu_tanh_binade packed for two permutes per 4 lanes: 23 - k, 6 - k, first, q in bytes 0 .. 3 */
#define TB(k, first, q) ((uint32_t)(23 - (k)) | (uint32_t)(6 - (k)) << 8 | (uint32_t)(first) << 16 | (uint32_t)(q) << 24)
static const uint32_t mufu_tanh_binade4[16] = {   /* two vectors of 8 for the permutes */
    TB(0, 0, 46), TB(0, 1, 45), TB(0, 2, 44), TB(1, 3, 43), TB(1, 5, 42), TB(2, 7, 41),
    TB(2, 11, 40), TB(2, 15, 39), TB(3, 19, 38), TB(4, 27, 39), TB(3, 43, 38),
};
#undef TB

/* The end of tanh for 4 lanes in 64-bit elements: the table's sum v (below 2^41) and p, the
 * binade's packed bytes (mufu_tanh_binade4); the magnitude's f32 bits in the low words.  The
 * leading bit of v comes from converting it to a double, as in lg2_end4. */
__attribute__((target("avx2"))) static inline __m256i tanh_end4(__m256i v, __m256i p)
{
    const __m256i frac = _mm256_set1_epi64x(0x7fffff), two52 = _mm256_set1_epi64x(0x4330000000000000);
    __m256i asd = _mm256_castpd_si256(_mm256_sub_pd(_mm256_castsi256_pd(_mm256_or_si256(v, two52)), _mm256_castsi256_pd(two52)));
    __m256i top = _mm256_sub_epi64(_mm256_srli_epi64(asd, 52), _mm256_set1_epi64x(1023));
    __m256i e = _mm256_sub_epi64(_mm256_add_epi64(top, _mm256_set1_epi64x(127)), _mm256_srli_epi64(p, 24));
    __m256i nv = _mm256_srlv_epi64(v, _mm256_sub_epi64(top, _mm256_set1_epi64x(23)));
    return _mm256_or_si256(_mm256_slli_epi64(e, 23), _mm256_and_si256(nv, frac));
}

/* fp32_tanh_approx of 8 lanes (the row8 order), none redone: |x| < 2^-8 gives x, |x| >= 8 and
 * inf +-1, NaN the canonical NaN (blended in); other lanes evaluate a clamped binade, so the
 * table loads stay in the tables.  The fields and the squarer take 8 lanes a vector, the sum and
 * its leading bit 64 bits (tanh_end4, for the even and the odd elements). */
__attribute__((target("avx2"))) static inline __m256i tanh8(__m256i va, int ftz, __m256i *bad)
{
    (void)ftz;
    const __m256i zero = _mm256_setzero_si256(), absm = _mm256_set1_epi32(0x7fffffff), frac = _mm256_set1_epi32(0x7fffff);
    const __m256i ff = _mm256_set1_epi32(0xff), m17 = _mm256_set1_epi32(0x1ffff), lo = _mm256_set1_epi64x(0xffffffff);
    __m256i s = _mm256_andnot_si256(absm, va), m = _mm256_and_si256(va, absm), f = _mm256_and_si256(va, frac);
    __m256i bi = _mm256_sub_epi32(_mm256_srli_epi32(m, 23), _mm256_set1_epi32(127 - 8));
    bi = _mm256_min_epi32(_mm256_max_epi32(bi, zero), _mm256_set1_epi32(10));      /* binade e + 8, clamped to 0 .. 10 */
    const __m256i t0 = _mm256_loadu_si256((const __m256i *)(const void *)mufu_tanh_binade4);
    const __m256i t1 = _mm256_loadu_si256((const __m256i *)(const void *)(mufu_tanh_binade4 + 8));
    __m256i p = _mm256_blendv_epi8(_mm256_permutevar8x32_epi32(t0, bi), _mm256_permutevar8x32_epi32(t1, bi),
                                   _mm256_cmpgt_epi32(bi, _mm256_set1_epi32(7)));     /* t1 takes bi & 7 */
    __m256i idx = _mm256_add_epi32(_mm256_srli_epi32(_mm256_and_si256(p, _mm256_set1_epi32(0xff0000)), 16),
                                   _mm256_srlv_epi32(f, _mm256_and_si256(p, ff)));
    __m256i x = _mm256_and_si256(_mm256_srlv_epi32(f, _mm256_and_si256(_mm256_srli_epi32(p, 8), ff)), m17);
    __m256i ve, vo;
    mufu_sums8(mufu_tanh_tab, idx, x, mufu_sq8(x), &ve, &vo);
    __m256i r = _mm256_blend_epi32(tanh_end4(ve, _mm256_and_si256(p, lo)), _mm256_slli_epi64(tanh_end4(vo, _mm256_srli_epi64(p, 32)), 32),
                                   0xaa);
    r = _mm256_or_si256(s, r);
    r = _mm256_blendv_epi8(r, _mm256_or_si256(s, _mm256_set1_epi32(0x3f800000)), _mm256_cmpgt_epi32(m, _mm256_set1_epi32(0x40ffffff)));
    r = _mm256_blendv_epi8(r, _mm256_set1_epi32((int)FP32_CANON_NAN), _mm256_cmpgt_epi32(m, _mm256_set1_epi32(0x7f800000)));
    *bad = zero;
    return _mm256_blendv_epi8(r, va, _mm256_cmpgt_epi32(_mm256_set1_epi32(0x3b800000), m));
}

static uint32_t tanh_one(uint32_t a, int ftz)
{
    (void)ftz;
    return fp32_tanh_approx(a);
}

__attribute__((target("avx2"))) void fp32_tanh_approx8(uint32_t *d, const uint32_t *a)
{
    __m256i bad;                       /* tanh8 leaves no lane to redo; each element on its own */
    _mm256_storeu_si256((__m256i *)d, tanh8(_mm256_loadu_si256((const __m256i *)a), 0, &bad));
}

__attribute__((target("avx2"))) void fp32_tanh_approx_row(uint64_t *d, const uint64_t *a, int ftz)
{
    mufu_row8(d, a, ftz, tanh8, tanh_one);
}
#endif

#!/usr/bin/env python3
"""tests/check/precision/gen_cases.py — writes in.bin and one case folder per kernel of
precision.cu from CLASSES (the single list precision.sh and the docs table follow).
usage: python3 tests/check/precision/gen_cases.py"""
import os, struct

HERE = os.path.dirname(os.path.abspath(__file__))
# (class, what it is, bug kinds (None: no bug twin), grid, block)
CLASSES = [
    ("shared_in_warp", "race on shared memory between lanes of one warp", "race", 1, 32),
    ("shared_between_warps", "race on shared memory between warps (__syncwarp is not enough)", "race", 1, 64),
    ("global_in_block", "race on global memory between threads of a block", "race", 1, 64),
    ("global_between_blocks", "race on global memory between blocks", "race", 2, 32),
    ("barrier_divergent", "__syncthreads in both arms of a branch that splits warps", "barrier|deadlock", 1, 64),
    ("lockstep_reduce", "lock-step assumption: warp-synchronous reduction without __syncwarp", "race", 1, 64),
    ("flag_no_fence", "flag protocol between warps without __threadfence", "race", 1, 64),
    ("counter_rmw", "non-atomic read-modify-write of a counter", "race|schedule", 1, 64),
    ("atomic_order", "atomics whose order decides the result (last atomicExch wins)", "schedule", 1, 64),
    ("lock_no_fence", "spin lock from atomics released without a fence", "race", 1, 64),
    ("syncwarp_partial", "__syncwarp(mask) does not order lanes outside the mask", "race", 1, 32),
    ("syncwarp_mask_absent", "__syncwarp mask naming lanes that skip it (they exit: the data is unordered)",
     "race|mask|deadlock", 1, 32),
    ("loop_early_exit", "full-mask shuffle in a loop some lanes leave early", "mask|deadlock|uninit", 1, 32),
    ("activemask_bitpack", "__activemask() as the mask of a ballot that packs bits", "schedule", 1, 32),
    ("coalesced_group", "coalesced_threads(): a group of whichever lanes are together", None, 1, 64),
    ("aggregated_atomic", "warp-aggregated atomics over match_any(__activemask())", None, 1, 64),
    ("uninit_used", "shared memory nobody wrote, used (stored) vs loaded and discarded", "uninit", 1, 32),
    ("uninit_branch", "local array element never written deciding a branch", "uninit", 1, 32),
    ("out_of_bounds", "store past the end of a buffer", "memory", 1, 64),
    ("assert_lockstep", "assert that holds only in lock-step (fails when lanes split)", "race|schedule", 1, 32),
    ("named_barrier", "consumer reads before waiting on the producer's bar.arrive", "race", 1, 64),
]

def main():
    with open(os.path.join(HERE, "in.bin"), "wb") as f:
        f.write(struct.pack("<256i", *[i % 7 - 2 for i in range(256)]))
    for name, what, kinds, grid, block in CLASSES:
        for bug in (True, False):
            if bug and kinds is None: continue
            k = ("bug_" if bug else "ok_") + name
            d = os.path.join(HERE, "cases", k)
            os.makedirs(d, exist_ok=True)
            with open(os.path.join(d, "case.txt"), "w") as f:
                f.write(f"# precision: {what} ({'the defect' if bug else 'the correct twin'}); "
                        "source: tests/check/precision/precision.cu\n")
                f.write(f"ptx ../../precision.ptx\nkernel {k}\ngrid {grid}\nblock {block}\n")
                f.write("buffer in file ../../in.bin\nbuffer out zero 4096\nparam ptr in\nparam ptr out\n")
                f.write(f"expect-check {kinds if bug else 'clean'}\n")

if __name__ == "__main__":
    main()

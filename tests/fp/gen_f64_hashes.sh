#!/bin/sh
# gen_f64_hashes.sh HASHES.TXT > f64_hashes.inc: the C arrays of mufu_check.c's f64 check from
# the hashes.txt that gpu_f64_record.cu writes (lines "<op> <lo> <first high word> <hash>" and
# "<op> random <hash>").  Sets: 0..2 are ops 0..2 with lo 1; 3 is op 2 with lo 0 (the .ftz ops'
# lo 0 hashes equal their lo 1 hashes on the H200; mufu_check --all checks that too).
[ -r "$1" ] || { echo "usage: $0 hashes.txt > f64_hashes.inc" >&2; exit 2; }
cat <<'HDR'
/* f64_hashes.inc -- generated from gpu_f64_record.cu's hashes.txt (H200, driver 580.159.04,
 * CUDA 13.0; recorded twice, identical) by gen_f64_hashes.sh.
 * f64_binade_hash[set][b]: FNV-1a 64 (f64_fnv) of the 64-bit results for the high words
 * b << 20 .. (b << 20) + 2^20 - 1 in order.  set 0: rcp.approx.ftz.f64, 1: rsqrt.approx.ftz.f64,
 * 2: rsqrt.approx.f64, each with low word f64_low(high word); 3: rsqrt.approx.f64 with low word 0
 * (the .ftz forms' hashes with low word 0 equal sets 0 and 1).  f64_random_hash[op]: the same
 * over f64_input(0 .. F64_N_RANDOM - 1), ops in the order of sets 0 .. 2. */
HDR
awk 'function set(k, lo) { return (k == 2 && lo == 0) ? 3 : (lo == 1 ? k : -1) }
  $2 == "random" { r[$1] = $3; next }
  { s = set($1, $2); if (s >= 0) h[s, n[s]++] = $4 }
  END {
    print "static const uint64_t f64_binade_hash[4][4096] = {"
    for (s = 0; s < 4; s++) {
      if (n[s] != 4096) { print "gen_f64_hashes.sh: set " s " has " n[s] " hashes" > "/dev/stderr"; exit 1 }
      print "{"; line = ""
      for (b = 0; b < 4096; b++) { line = line "0x" h[s, b] "ull,"; if (b % 4 == 3) { print line; line = "" } else line = line " " }
      print "},"
    }
    print "};"
    print "static const uint64_t f64_random_hash[3] = {0x" r[0] "ull, 0x" r[1] "ull, 0x" r[2] "ull};"
  }' "$1"

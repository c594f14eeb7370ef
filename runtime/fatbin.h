/* fatbin.h — the PTX inside an nvcc fat binary: the `.nv_fatbin` images that
 * `__cudaRegisterFatBinary` and `cuModuleLoadFatBinary` receive.
 *
 * Ownership: fb_* functions only read the caller's image; fb_extract_ptx
 * returns a malloc'd copy of the chosen PTX (the caller frees it).
 *
 * Layout (little-endian, as nvcc writes it):
 *   wrapper  { u32 magic 0x466243B1; u32 version (1 or 2); u64 image; u64 other; }
 *   image    { u32 magic 0xBA55ED50; u16 version 1; u16 header_size; u64 files_size; }
 *   files_size bytes of entries, each
 *            { u16 kind (1 PTX, 2 ELF); u16 version 0x101; u32 header_size;
 *              u32 padded_size; u32 -; u32 payload_size; u32 -; u32 -;
 *              u32 sm (e.g. 90); u32 -; u32 -; u64 flags; u64 -; u64 uncompressed_size }
 *   followed by its payload (padded_size bytes from the end of its header).
 *   flags 0x2000: payload LZ4-compressed (block format); 0x8000: zstd
 *   (CUDA 13 compresses PTX by default).  A fat binary may be followed by
 *   others (one per translation unit, 8-byte aligned) in the same section.
 */
#ifndef PTXEMU_FATBIN_H
#define PTXEMU_FATBIN_H

#include <stddef.h>
#include <stdint.h>

#define FB_WRAPPER_MAGIC 0x466243B1u
#define FB_IMAGE_MAGIC   0xBA55ED50u
#define FB_MAX_SM        90          /* the newest PTX target ptxemu runs */

enum {
    FB_OK = 0,
    FB_NOT_FATBIN,       /* no fat binary magic */
    FB_NO_PTX,           /* only machine code (or PTX for newer targets): msg says what to add */
    FB_BAD               /* malformed, or a payload that does not decompress */
};

/* The image a wrapper or image pointer designates, or NULL. */
const uint8_t *fb_image(const void *p);
/* Total bytes of the image at `img` (its header and entries). */
uint64_t fb_image_size(const uint8_t *img);

/* Picks the PTX entry with the highest sm not above FB_MAX_SM in the image
 * (a wrapper or an image) and returns its text, NUL-terminated and
 * decompressed, in *ptx (malloc'd), with *sm set.  `avail` bounds the bytes
 * readable at p (0: trust the headers).  Otherwise returns FB_* with msg. */
int fb_extract_ptx(const void *p, size_t avail, char **ptx, size_t *len, int *sm, char *msg, size_t msglen);

/* LZ4 block decompression: returns the bytes written, or -1. */
long fb_lz4_decompress(const uint8_t *src, size_t n, uint8_t *dst, size_t cap);

#endif

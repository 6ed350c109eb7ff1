/*
 * photoedit_presence.h — the presence filters' small-image steps and texture
 * version 3 streamed (photoedit_presence.c).
 * Error convention as photoedit_shim.h: NULL (or -1) with the reason in
 * libvips' error buffer.
 */
#ifndef PHOTOEDIT_PRESENCE_H
#define PHOTOEDIT_PRESENCE_H

#include <vips/vips.h>

/* Texture version 3 streamed (photoedit_presence.c): the same pixels as
 * pe_block_means(in, block, 1) → pe_self_guided_coefficients(that, sigma,
 * eps) → pe_local_contrast(in, those, block, amount, limit, mid_tones), the
 * reduced copy and its coefficients made row by row as the pass reaches them:
 * `in` is read top to bottom once ahead of the pass (no random access).
 * `block` ≥ 2, `sigma` (reduced pixels) ≤ 64. NULL with the libvips error set. */
VipsImage *pe_self_guided_local_contrast(VipsImage *in, int block, double sigma, double eps, double amount, double limit,
                                         int mid_tones);

/* photoedit_presence.c: the same numbers as libvips' `gaussblur` (precision
 * float, `min_ampl`) of a float image of any bands, and as `rank` index 0
 * (the minimum of a `size`×`size` window, at most the image's smaller side)
 * of a one-band float image; computed in memory without regions (faster on
 * the presence filters' reduced copies). New images in memory, or NULL with
 * the libvips error set. */
VipsImage *pe_gauss_blur(VipsImage *in, double sigma, double min_ampl);
VipsImage *pe_min_filter(VipsImage *in, int size);

#endif

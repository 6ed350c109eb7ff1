/*
 * photoedit_presence_passes.h — the presence filters' passes (photoedit_presence_passes.c):
 * clarity, texture and dehaze version 2, and the guided filter of a
 * reduced copy.
 * Error convention as photoedit_shim.h: NULL (or -1) with the reason in
 * libvips' error buffer.
 */
#ifndef PHOTOEDIT_PRESENCE_PASSES_H
#define PHOTOEDIT_PRESENCE_PASSES_H

#include <vips/vips.h>

/* The presence filters' passes (version 2). `in`: 3-band float linear RGB.
 * pe_block_means: a reduced copy in memory, ceil(size / block), each pixel
 * the mean of its block (partial blocks at the right and bottom edges: of
 * their pixels) — of R, G, B, or (`luminance`) of Rec. 709 Y, then signed
 * ^(1/2.2). `coefficients`: 2-band float (a, b) of a guided filter at that
 * reduced size (made into memory here), interpolated bilinearly between the
 * block centres. pe_local_contrast: clarity and texture (L = Y^(1/2.2);
 * L + amount · w · bounded(L − (a·L + b)); RGB follows by the tone filters'
 * ratio); pe_dehaze: t = max(a·L + b, t0), J = max((I − A) / t + A, 0).
 * New references, or NULL with the libvips error set. */
VipsImage *pe_block_means(VipsImage *in, int block, int luminance);
VipsImage *pe_local_contrast(VipsImage *in, VipsImage *coefficients, int block, double amount, double limit, int mid_tones);
VipsImage *pe_dehaze(VipsImage *in, VipsImage *coefficients, int block, const double *airlight, double t0);

/* Texture version 3: the guided filter of a one-band float image by itself
 * (window: a gaussian of `sigma` ≤ 64, edges repeated), its two coefficients
 * (a, b) as a new 2-band float image in memory, in one call; NULL with the
 * libvips error set. */
VipsImage *pe_self_guided_coefficients(VipsImage *in, double sigma, double eps);

#endif

/*
 * photoedit_reduce.h — the reducing pass that makes an edit's preview while
 * its render streams (photoedit_reduce.c).
 * Error convention as photoedit_shim.h: NULL (or -1) with the reason in
 * libvips' error buffer.
 */
#ifndef PHOTOEDIT_REDUCE_H
#define PHOTOEDIT_REDUCE_H

#include <vips/vips.h>

/*
 * pe_reducing_pass: `in` (8-bit, 1–4 bands) handed on unchanged, each region
 * also added into the pixels of a `width` × `height` area average of it
 * (photoedit_reduce.c; 1 to 60 source pixels per output pixel along each
 * side). pe_reduction_of: once every pixel of the pass was read exactly once
 * (an encoder wrote it), that average, in memory; NULL otherwise.
 */
VipsImage *pe_reducing_pass(VipsImage *in, int width, int height);
VipsImage *pe_reduction_of(VipsImage *pass);

#endif

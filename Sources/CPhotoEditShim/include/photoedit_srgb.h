/*
 * photoedit_srgb.h — scRGB to 8-bit sRGB by a table built from libvips' own
 * curve (photoedit_srgb.c).
 * Error convention as photoedit_shim.h: NULL (or -1) with the reason in
 * libvips' error buffer.
 */
#ifndef PHOTOEDIT_SRGB_H
#define PHOTOEDIT_SRGB_H

#include <vips/vips.h>

/* scRGB (3-band float, linear) to 8-bit sRGB: the same bytes as libvips'
 * scRGB2sRGB, by a table built from libvips' own curve
 * (photoedit_srgb.c). A new reference, or NULL with the libvips error set
 * (then use libvips' conversion). */
VipsImage *pe_scrgb_to_srgb8(VipsImage *in);

/* The table's 256 thresholds (the smallest float reaching each level; 0
 * for level 0), for tests; -1 if the table was refused. */
int pe_srgb8_thresholds(float *thresholds);

#endif

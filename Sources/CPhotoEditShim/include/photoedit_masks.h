/*
 * photoedit_masks.h — local corrections' masks and blend (photoedit_masks.c).
 * Error convention as photoedit_shim.h: NULL (or -1) with the reason in
 * libvips' error buffer.
 */
#ifndef PHOTOEDIT_MASKS_H
#define PHOTOEDIT_MASKS_H

#include <vips/vips.h>

/* A local correction's blend in one pass (photoedit_masks.c): out = in +
 * mask · (adjusted − in), or with `adjusted` NULL, in + mask · (matrix · in)
 * (`matrix`: 3×3 row-major, M − I), over the box of `mask` placed at
 * (left, top) inside `in`; the rest of `in` unchanged. `in`, `adjusted`:
 * 3-band float; `mask`: 1-band float; `adjusted` the mask's size. A new
 * reference, or NULL with the libvips error set. */
VipsImage *pe_masked_blend(VipsImage *in, VipsImage *adjusted, VipsImage *mask, int left, int top, const double *matrix);

/* A linear gradient's or a radial's mask, width×height, 1-band float,
 * evaluated per pixel centre (x + ½, y + ½) in one generated pass.
 * kind 0 (linear), params a, b, c: smoothstep(clamp(a·x + b·y + c)).
 * kind 1 (radial), params ua, ub, uc, va, vb, vc, n, feather, inside:
 * u, v the planes (ua·x + ub·y + uc, …), ρ = (|u|ⁿ + |v|ⁿ)^(1/n),
 * m = smoothstep(clamp((1 − ρ) / feather)), 1 − m when inside is 0.
 * A new reference, or NULL with the libvips error set. */
VipsImage *pe_mask_shape(int width, int height, int kind, const double *params);

/* CIE L* divided by 100 of 3-band float linear RGB with sRGB primaries
 * (scRGB, D65), one band, in one pass: what a luminance range mask
 * measures, for previews. A new reference, or NULL with the libvips error
 * set. */
VipsImage *pe_range_lightness(VipsImage *in);

#endif

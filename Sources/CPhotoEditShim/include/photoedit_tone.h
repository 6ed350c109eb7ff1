/*
 * photoedit_tone.h — the luminance tone filters in one pass (photoedit_tone.c).
 * Error convention as photoedit_shim.h: NULL (or -1) with the reason in
 * libvips' error buffer.
 */
#ifndef PHOTOEDIT_TONE_H
#define PHOTOEDIT_TONE_H

#include <vips/vips.h>

/* photoedit_tone.c: a luminance tone filter on 3-band float linear RGB in
 * one pass, the same bits as its libvips graph (Filters/Tone/Contrast.swift,
 * ToneGroup.swift). kind: PE_TONE_CONTRAST (amount: contrast's amount,
 * version 2), or highlights, shadows, whites, blacks (amount: the weight's
 * factor, k·a or 0.25·a). luminance: the Rec. 709 row. fast (previews):
 * powf instead of pow, within a float ulp or so, not the same bits. A new
 * reference, or NULL with the libvips error set. */
enum { PE_TONE_CONTRAST = 0, PE_TONE_HIGHLIGHTS = 1, PE_TONE_SHADOWS = 2, PE_TONE_WHITES = 3, PE_TONE_BLACKS = 4 };
VipsImage *pe_tone_luminance(VipsImage *in, int kind, double amount, const double *luminance, int fast);

#endif

/*
 * photoedit_presence_common.h — internal to CPhotoEditShim (not exported to
 * Swift: it is not under include/): what photoedit_presence_passes.c and
 * photoedit_presence.c share — inline float helpers, and the two functions
 * of photoedit_presence_passes.c that photoedit_presence.c's streamed
 * texture builds on (pe_gauss_kernel, pe_local_contrast_prepared). The
 * dependency goes one way: photoedit_presence.c uses
 * photoedit_presence_passes.c, never the reverse.
 * Everything here computes in float with multiplies and adds never fused,
 * so every caller (and every target_clones variant) gets the same bits.
 */
#ifndef PHOTOEDIT_PRESENCE_COMMON_H
#define PHOTOEDIT_PRESENCE_COMMON_H

#include <vips/vips.h>
#include <float.h>
#include <math.h>
#include <string.h>

/* Compiled three times (AVX-512, AVX2 and the baseline), chosen when the
 * program loads; with multiplies and adds never fused, all give the same bits. */
#if defined(__x86_64__) && defined(__clang__)
#define PE_CLONES __attribute__((target_clones("avx512f", "avx2", "default")))
#else
#define PE_CLONES
#endif

/* sign(x) · |x|^e as 2^(e · log2 |x|), by polynomials (relative error about
 * 1e-6), branch-free so that the compiler vectorises the loops that use it;
 * |x| below FLT_MIN gives 0. log2: the exponent, plus 2·atanh(t)/ln 2 of the
 * mantissa m ∈ [√½, √2), t = (m − 1)/(m + 1); exp2: 2^round(z) from the
 * exponent bits times a degree-6 polynomial of the rest, |rest| ≤ ½. */
static inline float pe_pow(float x, float e) {
#pragma STDC FP_CONTRACT OFF  /* no fused multiply-add where the clone has one (AVX-512): the same bits everywhere */
    float m = fabsf(x);
    guint32 bits;
    memcpy(&bits, &m, sizeof bits);
    int exponent = (int) (bits >> 23) - 127;
    guint32 mantissa_bits = (bits & 0x007FFFFFu) | 0x3F800000u;
    float mantissa;
    memcpy(&mantissa, &mantissa_bits, sizeof mantissa);
    int high = mantissa > 1.41421356f;
    mantissa = high ? mantissa * 0.5f : mantissa;
    exponent += high;
    float t = (mantissa - 1) / (mantissa + 1), t2 = t * t;
    float log2m = t * (2.88539008f + t2 * (0.961796694f + t2 * (0.577078016f + t2 * 0.412198583f)));
    float z = e * ((float) exponent + log2m);
    z = z < -126 ? -126 : z > 127 ? 127 : z;
    float n = (float) (int) (z + 128.5f) - 128, f = z - n;  /* n = round(z); z + 128.5 > 0, so the cast floors */
    float p = 1 + f * (0.693147181f + f * (0.240226507f + f * (0.0555041087f + f * (0.00961812911f
              + f * (0.00133335581f + f * 0.000154035304f)))));
    guint32 scale_bits = (guint32) ((int) n + 127) << 23;
    float scale;
    memcpy(&scale, &scale_bits, sizeof scale);
    float y = m >= FLT_MIN ? p * scale : 0;
    return x < 0 ? -y : y;
}

/* Reduced copies add each value as a fixed-point integer (2^-24 steps,
 * clamped to ±2^15), so the sums are exact whatever order the pixels come
 * in: the reduced copy is the same on every run and machine. */
#define PE_FIXED 16777216.0f  /* 2^24 */

static inline gint64 pe_fixed(float v) {
    v = v < -32768.0f ? -32768.0f : v > 32768.0f ? 32768.0f : v;
    return (gint64) (v * PE_FIXED);  /* exact: a power-of-two scale; the cast drops what is below 2^-24 */
}

/* Rec. 709 luminance of linear R, G, B, as the reduced copies sum it. */
static inline float pe_luminance(const float *p) {
#pragma STDC FP_CONTRACT OFF
    return 0.2126f * p[0] + 0.7152f * p[1] + 0.0722f * p[2];
}

/* One row's values as fixed-point integers added into `acc` (n values a
 * pixel: R, G, B, or Y): `count` pixels from `p`. Where every value is
 * below 127 in magnitude its fixed-point form fits 32 bits, and the loop
 * (a conversion and a widening add per value) vectorises; else pe_fixed
 * value by value. The same integers either way. */
PE_CLONES
static inline void pe_blocks_row(const float *restrict p, int count, int n, gint64 *restrict acc, float *restrict y) {
#pragma STDC FP_CONTRACT OFF
    const float *v = p;
    int values = count * 3;
    if (n == 1) {
        for (int i = 0; i < count; i++) y[i] = pe_luminance(p + 3 * i);
        v = y;
        values = count;
    }
    int outside = 0;  /* any value at or beyond 127 in magnitude, or NaN */
    for (int i = 0; i < values; i++) outside |= !(fabsf(v[i]) < 127.0f);
    if (!outside) {
        for (int i = 0; i < values; i++) acc[i] += (gint32) (v[i] * PE_FIXED);
    } else {
        for (int i = 0; i < values; i++) acc[i] += pe_fixed(v[i]);
    }
}

/* A normalised gaussian window of `sigma`, sampled at integers out to the
 * last tap above 1 % of the centre (at most `max_radius`): 2·radius + 1
 * weights; returns the radius. */
int pe_gauss_kernel(double sigma, float *weights, int max_radius);

/* One row of w floats blurred by the 2·radius + 1 `weights`, the edges
 * repeated: out[x] = 0, then + weights[t] · row[clamp(x + t − radius)] for
 * t = 0, 1, … in float. `pad`: w + 2·radius floats of scratch. */
static inline void pe_blur_row(const float *restrict row, float *restrict out, int w, const float *weights, int radius,
                               float *restrict pad) {
#pragma STDC FP_CONTRACT OFF
    for (int i = 0; i < radius; i++) { pad[i] = row[0]; pad[radius + w + i] = row[w - 1]; }
    memcpy(pad + radius, row, sizeof(float) * w);
    for (int x = 0; x < w; x++) out[x] = 0;
    for (int t = 0; t <= 2 * radius; t++) {
        const float weight = weights[t], *src = pad + t;
        for (int x = 0; x < w; x++) out[x] += weight * src[x];
    }
}

/* One output row of a blur down columns: out[x] = 0, then + weights[t] ·
 * rows[t][x] for t = 0 … 2·radius in float; rows[t] is the source row
 * y + t − radius, the caller repeating the edge rows. */
static inline void pe_blur_column(const float *const *rows, float *restrict out, int w, const float *weights, int radius) {
#pragma STDC FP_CONTRACT OFF
    for (int x = 0; x < w; x++) out[x] = 0;
    for (int t = 0; t <= 2 * radius; t++) {
        const float weight = weights[t], *restrict src = rows[t];
        for (int x = 0; x < w; x++) out[x] += weight * src[x];
    }
}

/* The guided filter's coefficients from the window means of L and L²:
 * a = var / (var + eps), b = m1 − a·m1, var = m2 − m1²; a replaces m1, b m2. */
static inline void pe_self_guided_ab(float *restrict m1, float *restrict m2, size_t n, float eps) {
#pragma STDC FP_CONTRACT OFF
    for (size_t i = 0; i < n; i++) {
        float mean = m1[i], variance = m2[i] - mean * mean;
        float a = variance / (variance + eps);
        m1[i] = a;
        m2[i] = mean - a * mean;
    }
}

/* Called by the full-size presence pass before it reads coefficient rows:
 * make rows 0 … rows − 1 of the coefficient image ready, reading the input
 * through `ir` (the calling thread's region on the pass's input) if needed.
 * 0, or −1 with the libvips error set. */
typedef int (*pe_coefficients_prepare)(void *state, VipsRegion *ir, int rows);

/* pe_local_contrast (photoedit_presence_passes.c) whose coefficient image is filled
 * while the pass runs: `prepare` is called with `state` before each region. */
VipsImage *pe_local_contrast_prepared(VipsImage *in, VipsImage *coefficients, int block, double amount, double limit,
                                      int mid_tones, pe_coefficients_prepare prepare, void *state);

#endif

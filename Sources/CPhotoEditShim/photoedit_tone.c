/*
 * photoedit_tone.c — the luminance tone filters (contrast v2, highlights,
 * shadows, whites, blacks) in one libvips pass each.
 *
 * Each filter was written as a graph of two to three dozen libvips point
 * operations (recomb, abs, pow, sign, multiply, linear, relational,
 * ifthenelse, divide, add, subtract): on a 1440 px preview they cost about
 * 100 ms of CPU each, most of it in the operations' own buffers and loops
 * rather than in the arithmetic, and in a streamed 24 MP render every
 * operation holds a strip buffer per thread. Here every pixel goes through
 * the same operations in the same order with the same roundings — each
 * intermediate image's value stored as a float, the constants converted as
 * libvips converts them (linear's to float, relational's to the image's
 * format, pow's kept double), pow from the same libm — so the output is the
 * same bits (ToneFusionTests compares them with the graph, which stays the
 * filters' reference). Previews may ask `fast`: powf instead of pow, within
 * a float ulp or so, not the same bits (as previews' masks). Only the branch of contrast's select that is kept is
 * computed (the value is the same).
 *
 * The graph's operations, for reference (f() = rounded to float):
 *   recomb 1×3:        y = f(Σ m[i]·(double) p[i])                 (double sum, in order)
 *   signedPower(x, e): f(pow((double) |x|, e)) · sign(x)           (sign −1, 0, 1)
 *   linear(x, a, b):   f(a)·x + f(b)                                (float)
 *   clampedAtZero(x):  f(0.5)·(x + |x|) + 0
 *   divide(a, b):      b == 0 ? 0 : a / b                           (float)
 *   relational_const:  x < f(c)
 */
#include "photoedit_tone.h"
#include <math.h>

#pragma STDC FP_CONTRACT OFF

typedef struct {
    VipsImage *in;   /* referenced until the output closes */
    int kind;        /* PE_TONE_* */
    double amount;   /* contrast: k = 2^(amount/100); the others: the weight's factor (k·a or 0.25·a) */
    double lum[3];   /* Rec. 709 luminance row */
    int fast;        /* previews: powf (to a float ulp), not the graph's bits */
} pe_tone;

/* math2_const pow on a float: in double, stored as float (not
 * photoedit_presence_common.h's polynomial pe_pow). `fast`
 * (previews): powf, ~2.5× quicker here, within a float ulp or so (the
 * exponent rounded to float too). */
static inline float pe_tone_pow(float x, double e, int fast) {
    double left = (double) x;
    if (left == 0.0 && e < 0.0) return 0.0f;
    return fast ? powf(x, (float) e) : (float) pow(left, e);
}

/* signedPower: |x|^e (pow of abs) times sign(x) (a char −1, 0 or 1, cast to float). */
static inline float pe_signed_power(float x, double e, int fast) {
    float magnitude = pe_tone_pow(fabsf(x), e, fast);
    float sign = x > 0 ? 1.0f : x < 0 ? -1.0f : 0.0f;
    return magnitude * sign;
}

/* linear with one constant each: float a·x + b. */
static inline float pe_linear(float x, double a, double b) {
    return (float) a * x + (float) b;
}

/* clampedAtZero: linear(x + |x|, 0.5, 0). */
static inline float pe_clamped_at_zero(float x) {
    return pe_linear(x + fabsf(x), 0.5, 0);
}

/* clamped01 = clamped(0, 1): linear(linear(x, 1, −0)⁺ − linear(x, 1, −1)⁺, 1, 0). */
static inline float pe_clamped01(float x) {
    float above = pe_clamped_at_zero(pe_linear(x, 1, -0.0));
    float over = pe_clamped_at_zero(pe_linear(x, 1, -1));
    return pe_linear(above - over, 1, 0);
}

/* tonePower(x, 3): (x · x) · x. */
static inline float pe_cube(float x) {
    float square = x * x;
    return square * x;
}

/* The perceptual luminance's new value, L' = L + amount · weight(clamp(L)) (toneAddWeighted). */
static inline float pe_tone_add_weighted(int kind, float l, double amount) {
    float c = pe_clamped01(l);
    float w;
    switch (kind) {
    case PE_TONE_HIGHLIGHTS: w = pe_cube(c) * pe_linear(c, -1, 1); break;        /* c³ · (1 − c) */
    case PE_TONE_SHADOWS: w = c * pe_cube(pe_linear(c, -1, 1)); break;           /* c · (1 − c)³ */
    case PE_TONE_WHITES: w = pe_cube(c); break;                                   /* c³ */
    default: w = pe_cube(pe_linear(c, -1, 1)); break;                             /* (1 − c)³ */
    }
    return l + pe_linear(w, amount, 0);
}

static int pe_tone_generate(VipsRegion *out, void *seq, void *a, void *b, gboolean *stop) {
    (void) a; (void) stop;
    VipsRegion *ir = (VipsRegion *) seq;
    const pe_tone *s = (const pe_tone *) b;
    const VipsRect *r = &out->valid;
    if (vips_region_prepare(ir, r)) return -1;
    const double m0 = s->lum[0], m1 = s->lum[1], m2 = s->lum[2];
    const double gamma = 1 / 2.2;
    /* Contrast's curve: k and middle grey in the encoding (as Contrast.swift computes them). */
    const double k = pow(2.0, s->amount / 100);
    const double mid = pow(0.18, gamma);
    const float midf = (float) mid;
    const float tiny = (float) 1e-9;
    const int fast = s->fast;
    for (int y = r->top; y < VIPS_RECT_BOTTOM(r); y++) {
        const float *p = (const float *) VIPS_REGION_ADDR(ir, r->left, y);
        float *o = (float *) VIPS_REGION_ADDR(out, r->left, y);
        for (int i = 0; i < r->width; i++, p += 3, o += 3) {
            double t = 0.0;
            t += m0 * p[0];
            t += m1 * p[1];
            t += m2 * p[2];
            float lum = (float) t;
            if (s->kind == PE_TONE_CONTRAST) {
                float v = pe_signed_power(lum, gamma, fast);
                float kept;
                if (v < midf) {
                    kept = pe_linear(pe_signed_power(pe_linear(v, 1 / mid, 0), k, fast), mid, 0);
                } else {
                    kept = pe_linear(pe_signed_power(pe_linear(v, -1 / (1 - mid), 1 / (1 - mid)), k, fast), -(1 - mid), 1);
                }
                float curved = pe_signed_power(kept, 1 / gamma, fast);
                float ratio;
                if (lum > tiny) ratio = lum == 0 ? 0 : curved / lum;
                else ratio = pe_linear(lum, 0, 1);
                o[0] = p[0] * ratio;
                o[1] = p[1] * ratio;
                o[2] = p[2] * ratio;
            } else {
                /* toneMapLuminance: Y' = (map(Y^(1/2.2)))^2.2, r = (Y' + ε) / (max(Y, 0) + ε), RGB' = RGB·r + (Y' − Y·r). */
                float l = pe_signed_power(lum, 1 / 2.2, fast);
                float mapped = pe_signed_power(pe_tone_add_weighted(s->kind, l, s->amount), 2.2, fast);
                float numerator = pe_linear(mapped, 1, 0.004);
                float denominator = pe_linear(pe_clamped_at_zero(lum), 1, 0.004);
                float ratio = denominator == 0 ? 0 : numerator / denominator;
                float grey = mapped - lum * ratio;
                o[0] = p[0] * ratio + grey;
                o[1] = p[1] * ratio + grey;
                o[2] = p[2] * ratio + grey;
            }
        }
    }
    return 0;
}

static void pe_tone_close(VipsImage *image, pe_tone *s) {
    (void) image;
    g_object_unref(s->in);
    g_free(s);
}

VipsImage *pe_tone_luminance(VipsImage *in, int kind, double amount, const double *luminance, int fast) {
    if (in->Bands != 3 || in->BandFmt != VIPS_FORMAT_FLOAT || kind < PE_TONE_CONTRAST || kind > PE_TONE_BLACKS || !luminance) {
        vips_error("photoedit", "tone: expected 3-band float RGB and a known tone filter");
        return NULL;
    }
    pe_tone *s = g_new0(pe_tone, 1);
    s->in = in;
    g_object_ref(in);
    s->kind = kind;
    s->amount = amount;
    s->fast = fast;
    for (int i = 0; i < 3; i++) s->lum[i] = luminance[i];
    VipsImage *out = vips_image_new();
    g_signal_connect(out, "postclose", G_CALLBACK(pe_tone_close), s);
    if (vips_image_pipelinev(out, VIPS_DEMAND_STYLE_THINSTRIP, in, NULL) ||
        vips_image_generate(out, vips_start_one, pe_tone_generate, vips_stop_one, in, s)) {
        g_object_unref(out);
        return NULL;
    }
    return out;
}

/*
 * photoedit_srgb.c — linear float RGB (scRGB) to 8-bit sRGB, by table.
 *
 * Every render ends with this conversion, and libvips' own (scRGB2sRGB)
 * costs ~10 ns a pixel: a call per pixel into vips_col_scRGB2sRGB_8, which
 * checks, clips, interpolates its curve and rounds, channel by channel. At
 * 24 MP that is ~0.3 s of CPU, a third of a simple edit.
 *
 * Its result for one channel depends on that channel alone (but a NaN in
 * any channel makes the pixel black) and never decreases as the value
 * grows. So it is a staircase: 255 thresholds, the smallest float
 * reaching each level. They are found here by bisection over the floats'
 * bit patterns, asking libvips' own function, so this pass gives libvips'
 * bytes by construction (a test compares it with libvips over a million
 * values, the thresholds and their neighbours).
 *
 * The lookup: a float's top 16 bits (sign, exponent and 7 bits of
 * mantissa) name one of 65536 buckets; each holds the level at its start
 * and where in the bucket (its low 16 bits) at most one threshold lies
 * (the curve rises less than one level across any bucket; checked while
 * building — if not, the table is refused and the caller uses libvips'
 * conversion). Negative buckets are 0, those from 2.0 up (and +∞) 255; a
 * value costs one load, a compare and an add.
 */
#include "photoedit_srgb.h"

#include <string.h>

/* Bucket entry: the level at the bucket's start in bits 24–31, and in bits
 * 0–16 the low 16 bits of the threshold to the next level inside it
 * (0x10000: none). */
static guint32 pe_srgb_buckets[65536];
static guint32 pe_srgb_thresholds[256];  /* bits of the smallest non-negative float with level ≥ k */

static inline guint32 pe_float_bits(float f) {
    guint32 u;
    memcpy(&u, &f, sizeof u);
    return u;
}

static inline float pe_bits_float(guint32 u) {
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

/* libvips' level for one channel (the other two at 0). */
static int pe_vips_level(float v) {
    int r = 0, g = 0, b = 0;
    vips_col_scRGB2sRGB_8(v, 0.0f, 0.0f, &r, &g, &b, NULL);
    return r;
}

static gpointer pe_srgb_build(gpointer unused) {
    (void) unused;
    guint32 *thresholds = pe_srgb_thresholds;
    guint32 top = pe_float_bits(2.0f);
    if (pe_vips_level(0.0f) != 0 || pe_vips_level(2.0f) != 255) return GINT_TO_POINTER(-1);
    thresholds[0] = 0;
    for (int k = 1; k < 256; k++) {
        guint32 lo = 0, hi = top;  /* level(lo) < k ≤ level(hi) */
        while (hi - lo > 1) {
            guint32 mid = lo + (hi - lo) / 2;
            if (pe_vips_level(pe_bits_float(mid)) >= k) hi = mid;
            else lo = mid;
        }
        thresholds[k] = hi;
        /* A staircase: the float just below reaches a lower level, and the
         * thresholds rise. */
        if (pe_vips_level(pe_bits_float(hi - 1)) >= k || thresholds[k] < thresholds[k - 1]) return GINT_TO_POINTER(-1);
    }
    int k = 0;  /* the level at the start of the current bucket */
    for (guint32 i = 0; i < 65536; i++) {
        guint32 start = i << 16, end = start + 0xFFFFu;
        guint32 step = 0x10000u;
        if (start >= 0x80000000u) {
            k = 0;  /* negative (and −0, −∞): 0 */
        } else {
            while (k < 255 && thresholds[k + 1] <= start) k++;
            if (k < 255 && thresholds[k + 1] <= end) {
                if (k + 1 < 255 && thresholds[k + 2] <= end) return GINT_TO_POINTER(-1);  /* two steps in a bucket */
                step = thresholds[k + 1] & 0xFFFFu;
            }
        }
        pe_srgb_buckets[i] = ((guint32) k << 24) | step;
    }
    return GINT_TO_POINTER(1);
}

static gboolean pe_srgb_table(void) {
    static GOnce once = G_ONCE_INIT;
    return GPOINTER_TO_INT(g_once(&once, pe_srgb_build, NULL)) == 1;
}

static inline unsigned char pe_srgb_level(guint32 u) {
    guint32 e = pe_srgb_buckets[u >> 16];
    return (unsigned char) ((e >> 24) + ((u & 0xFFFFu) >= (e & 0x1FFFFu)));
}

/* Integer operations only, so each of these is compiled three times
 * (AVX-512, AVX2 and the baseline: sixteen or eight values at a time,
 * table entries gathered) and every build gives the same bytes. */
#if defined(__x86_64__) && defined(__clang__)
#define PE_SRGB_CLONES __attribute__((target_clones("avx512f", "avx2", "default")))
#else
#define PE_SRGB_CLONES
#endif

/* Whether any of the n values is a NaN. */
PE_SRGB_CLONES
static int pe_srgb_any_nan(const float *restrict p, int n) {
    int any = 0;
    for (int i = 0; i < n; i++) any |= (pe_float_bits(p[i]) & 0x7FFFFFFFu) > 0x7F800000u;
    return any;
}

/* The levels of n values, none a NaN. */
PE_SRGB_CLONES
static void pe_srgb_levels(const float *restrict p, unsigned char *restrict q, int n) {
    for (int i = 0; i < n; i++) q[i] = pe_srgb_level(pe_float_bits(p[i]));
}

static int pe_srgb_generate(VipsRegion *out, void *seq, void *a, void *b, gboolean *stop) {
    (void) a; (void) b; (void) stop;
    VipsRegion *ir = (VipsRegion *) seq;
    const VipsRect *r = &out->valid;
    if (vips_region_prepare(ir, r)) return -1;
    for (int y = 0; y < r->height; y++) {
        const float *p = (const float *) VIPS_REGION_ADDR(ir, r->left, r->top + y);
        unsigned char *q = (unsigned char *) VIPS_REGION_ADDR(out, r->left, r->top + y);
        if (G_LIKELY(!pe_srgb_any_nan(p, 3 * r->width))) {
            pe_srgb_levels(p, q, 3 * r->width);
            continue;
        }
        for (int x = 0; x < r->width; x++, p += 3, q += 3) {
            /* A NaN anywhere in the pixel: black, as libvips (8.14) does;
             * infinities clip like any value. */
            guint32 u0 = pe_float_bits(p[0]), u1 = pe_float_bits(p[1]), u2 = pe_float_bits(p[2]);
            if (((u0 & 0x7FFFFFFFu) > 0x7F800000u) | ((u1 & 0x7FFFFFFFu) > 0x7F800000u) | ((u2 & 0x7FFFFFFFu) > 0x7F800000u)) {
                q[0] = q[1] = q[2] = 0;
                continue;
            }
            q[0] = pe_srgb_level(u0);
            q[1] = pe_srgb_level(u1);
            q[2] = pe_srgb_level(u2);
        }
    }
    return 0;
}

static void pe_srgb_close(VipsImage *image, VipsImage *in) {
    (void) image;
    g_object_unref(in);
}

VipsImage *pe_scrgb_to_srgb8(VipsImage *in) {
    if (in->BandFmt != VIPS_FORMAT_FLOAT || in->Bands != 3 || in->Coding != VIPS_CODING_NONE) {
        vips_error("photoedit", "scRGB to sRGB: expected a 3-band float image");
        return NULL;
    }
    if (!pe_srgb_table()) {
        vips_error("photoedit", "scRGB to sRGB: libvips' curve is not a staircase this table can hold");
        return NULL;
    }
    VipsImage *out = vips_image_new();
    /* The input lives as long as the output reads it. */
    g_object_ref(in);
    g_signal_connect(out, "postclose", G_CALLBACK(pe_srgb_close), in);
    if (vips_image_pipelinev(out, VIPS_DEMAND_STYLE_THINSTRIP, in, NULL)) {
        g_object_unref(out);
        return NULL;
    }
    out->BandFmt = VIPS_FORMAT_UCHAR;
    out->Type = VIPS_INTERPRETATION_sRGB;
    if (vips_image_generate(out, vips_start_one, pe_srgb_generate, vips_stop_one, in, NULL)) {
        g_object_unref(out);
        return NULL;
    }
    return out;
}

int pe_srgb8_thresholds(float *thresholds) {
    if (!pe_srgb_table()) return -1;
    for (int k = 0; k < 256; k++) thresholds[k] = pe_bits_float(pe_srgb_thresholds[k]);
    return 0;
}

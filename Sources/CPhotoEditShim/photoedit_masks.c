/*
 * photoedit_masks.c — the blend of a local correction (issue 25) in one
 * libvips pass: out = in + mask · change, where change is (adjusted − in)
 * or a 3×3 matrix product (M − I) · in, over a box of the image (the rest
 * copied). It replaces libvips' subtract (or recomb), multiply, embed and
 * add: one region per thread instead of four, the same arithmetic in the
 * same order (float subtract, float multiply, float add; the matrix summed
 * in double as recomb does), so the same bits. Where the mask is 0 the
 * adjusted image is not computed at all and the input is copied (the same
 * value as in + 0 · change, but for the sign of a zero).
 */
#include "photoedit_masks.h"
#include <math.h>
#include <string.h>

typedef struct {
    VipsImage *in;       /* 3-band float, the whole image */
    VipsImage *adjusted; /* 3-band float, the box (NULL: the matrix) */
    VipsImage *mask;     /* 1-band float, the box */
    VipsRect box;        /* where adjusted and mask lie in `in` */
    double m[9];         /* M − I, row-major (matrix form) */
} pe_masked;

typedef struct {
    VipsRegion *in, *adjusted, *mask;
} pe_masked_seq;

static void *pe_masked_start(VipsImage *out, void *a, void *b) {
    (void) out; (void) b;
    pe_masked *s = (pe_masked *) a;
    pe_masked_seq *q = g_new0(pe_masked_seq, 1);
    q->in = vips_region_new(s->in);
    q->mask = vips_region_new(s->mask);
    if (s->adjusted) q->adjusted = vips_region_new(s->adjusted);
    return q;
}

static int pe_masked_stop(void *seq, void *a, void *b) {
    (void) a; (void) b;
    pe_masked_seq *q = (pe_masked_seq *) seq;
    VIPS_UNREF(q->in);
    VIPS_UNREF(q->mask);
    VIPS_UNREF(q->adjusted);
    g_free(q);
    return 0;
}

static int pe_masked_generate(VipsRegion *out, void *seq, void *a, void *b, gboolean *stop) {
#pragma STDC FP_CONTRACT OFF
    (void) b; (void) stop;
    pe_masked_seq *q = (pe_masked_seq *) seq;
    const pe_masked *s = (const pe_masked *) a;
    const VipsRect *r = &out->valid;
    if (vips_region_prepare(q->in, r)) return -1;
    VipsRect inside;
    vips_rect_intersectrect(r, &s->box, &inside);
    if (vips_rect_isempty(&inside)) {
        /* Nothing of the box here: the input as it is. */
        return vips_region_region(out, q->in, r, r->left, r->top);
    }
    VipsRect local = { inside.left - s->box.left, inside.top - s->box.top, inside.width, inside.height };
    if (vips_region_prepare(q->mask, &local)) return -1;
    /* The adjusted image is computed only over the mask's non-zero pixels
     * here (their bounding rectangle): a radial's corners, the empty part of
     * a brush stroke's box cost nothing. Where the mask is 0 the input is
     * copied, as in + 0 · change gives it. */
    VipsRect need = { 0, 0, 0, 0 };
    if (q->adjusted) {
        int x0 = local.width, x1 = -1, y0 = -1, y1 = -1;
        for (int y = 0; y < local.height; y++) {
            const float *k = (const float *) VIPS_REGION_ADDR(q->mask, local.left, local.top + y);
            int first = 0, last = local.width - 1;
            while (first <= last && k[first] == 0) first++;
            if (first > last) continue;
            while (k[last] == 0) last--;
            if (y0 < 0) y0 = y;
            y1 = y;
            if (first < x0) x0 = first;
            if (last > x1) x1 = last;
        }
        if (y0 >= 0) {
            need = (VipsRect) { local.left + x0, local.top + y0, x1 - x0 + 1, y1 - y0 + 1 };
            if (vips_region_prepare(q->adjusted, &need)) return -1;
        }
    }
    const double *m = s->m;
    for (int y = r->top; y < VIPS_RECT_BOTTOM(r); y++) {
        const float *p = (const float *) VIPS_REGION_ADDR(q->in, r->left, y);
        float *o = (float *) VIPS_REGION_ADDR(out, r->left, y);
        if (y < inside.top || y >= VIPS_RECT_BOTTOM(&inside)) {
            memcpy(o, p, sizeof(float) * 3 * (size_t) r->width);
            continue;
        }
        int before = inside.left - r->left, after = VIPS_RECT_RIGHT(r) - VIPS_RECT_RIGHT(&inside);
        memcpy(o, p, sizeof(float) * 3 * (size_t) before);
        memcpy(o + 3 * (VIPS_RECT_RIGHT(&inside) - r->left), p + 3 * (VIPS_RECT_RIGHT(&inside) - r->left), sizeof(float) * 3 * (size_t) after);
        const float *k = (const float *) VIPS_REGION_ADDR(q->mask, local.left, y - s->box.top);
        p += 3 * before;
        o += 3 * before;
        if (q->adjusted) {
            /* `need` (box coordinates): the part of this row whose mask may be non-zero. */
            int ny = y - s->box.top;
            if (vips_rect_isempty(&need) || ny < need.top || ny >= VIPS_RECT_BOTTOM(&need)) {
                memcpy(o, p, sizeof(float) * 3 * (size_t) inside.width);
                continue;
            }
            int from = need.left - local.left, to = VIPS_RECT_RIGHT(&need) - local.left;
            memcpy(o, p, sizeof(float) * 3 * (size_t) from);
            memcpy(o + 3 * to, p + 3 * to, sizeof(float) * 3 * (size_t) (inside.width - to));
            const float *t = (const float *) VIPS_REGION_ADDR(q->adjusted, need.left, ny);
            for (int i = from; i < to; i++) {
                if (k[i] == 0) {
                    memcpy(o + 3 * i, p + 3 * i, sizeof(float) * 3);
                    continue;
                }
                for (int c = 0; c < 3; c++) {
                    float d = t[3 * (i - from) + c] - p[3 * i + c];
                    float w = d * k[i];
                    o[3 * i + c] = p[3 * i + c] + w;
                }
            }
        } else {
            for (int i = 0; i < inside.width; i++) {
                for (int c = 0; c < 3; c++) {
                    double sum = m[3 * c] * p[3 * i] + m[3 * c + 1] * p[3 * i + 1] + m[3 * c + 2] * p[3 * i + 2];
                    float w = (float) sum * k[i];
                    o[3 * i + c] = p[3 * i + c] + w;
                }
            }
        }
    }
    return 0;
}

static void pe_masked_close(VipsImage *image, pe_masked *s) {
    (void) image;
    VIPS_UNREF(s->in);
    VIPS_UNREF(s->adjusted);
    VIPS_UNREF(s->mask);
    g_free(s);
}

VipsImage *pe_masked_blend(VipsImage *in, VipsImage *adjusted, VipsImage *mask, int left, int top, const double *matrix) {
    VipsRect whole = { 0, 0, in->Xsize, in->Ysize }, box = { left, top, mask->Xsize, mask->Ysize };
    VipsRect clipped;
    vips_rect_intersectrect(&whole, &box, &clipped);
    if (in->Bands != 3 || in->BandFmt != VIPS_FORMAT_FLOAT || mask->Bands != 1 || mask->BandFmt != VIPS_FORMAT_FLOAT ||
        !vips_rect_equalsrect(&clipped, &box) ||
        (adjusted && (adjusted->Bands != 3 || adjusted->BandFmt != VIPS_FORMAT_FLOAT ||
                      adjusted->Xsize != mask->Xsize || adjusted->Ysize != mask->Ysize)) ||
        (!adjusted && !matrix)) {
        vips_error("photoedit", "masked blend: expected 3-band float RGB, a 1-band float mask inside it, and a 3-band float adjusted box of the mask's size or a matrix");
        return NULL;
    }
    pe_masked *s = g_new0(pe_masked, 1);
    s->in = in;
    s->adjusted = adjusted;
    s->mask = mask;
    s->box = box;
    if (matrix) memcpy(s->m, matrix, sizeof(s->m));
    g_object_ref(in);
    g_object_ref(mask);
    if (adjusted) g_object_ref(adjusted);
    VipsImage *out = vips_image_new();
    g_signal_connect(out, "postclose", G_CALLBACK(pe_masked_close), s);
    VipsImage *inputs[4] = { in, mask, adjusted, NULL };
    /* Small tiles, not strips: from here on the render asks 128×128 tiles
     * instead of full-width strips of 16 lines, so every operation of the
     * chain, of each correction's mask and adjusted image holds a tile
     * buffer per thread, not a strip (a 6000 px wide strip of float RGB is
     * 1.1 MB). A 24 MP render with four corrections peaked at ~45 MB more
     * than without them, now ~10 MB (docs/benchmarks.md). Point
     * operations and resizes give the same values whatever the tiling. */
    if (vips_image_pipeline_array(out, VIPS_DEMAND_STYLE_SMALLTILE, inputs) ||
        vips_image_generate(out, pe_masked_start, pe_masked_generate, pe_masked_stop, s, NULL)) {
        g_object_unref(out);
        return NULL;
    }
    return out;
}

/*
 * A gradient's or a radial's mask evaluated per pixel in one pass (previews):
 * the same function of pixel centres as the libvips graph of Mask.swift
 * (planes, power, clamp, smoothstep), computed in double, without its dozen
 * intermediate images. Not bit-identical to that graph, so full-size
 * renders keep the graph.
 */
typedef struct {
    int kind;        /* 0 linear, 1 radial */
    double p[9];     /* see pe_mask_shape */
} pe_shape;

static inline double pe_smooth01(double t) {
    t = t < 0 ? 0 : t > 1 ? 1 : t;
    return t * t * (3 - 2 * t);
}

static int pe_shape_generate(VipsRegion *out, void *seq, void *a, void *b, gboolean *stop) {
    (void) seq; (void) b; (void) stop;
    const pe_shape *s = (const pe_shape *) a;
    const VipsRect *r = &out->valid;
    const double *p = s->p;
    for (int y = r->top; y < VIPS_RECT_BOTTOM(r); y++) {
        float *o = (float *) VIPS_REGION_ADDR(out, r->left, y);
        double py = y + 0.5;
        if (s->kind == 0) {
            double row = p[1] * py + p[2];
            for (int i = 0; i < r->width; i++) o[i] = (float) pe_smooth01(p[0] * (r->left + i + 0.5) + row);
        } else {
            double urow = p[1] * py + p[2], vrow = p[4] * py + p[5];
            double n = p[6], inv = 1 / p[7];
            int inside = p[8] != 0;
            for (int i = 0; i < r->width; i++) {
                double px = r->left + i + 0.5;
                double u = p[0] * px + urow, v = p[3] * px + vrow;
                double rho = n == 2 ? sqrt(u * u + v * v) : pow(pow(fabs(u), n) + pow(fabs(v), n), 1 / n);
                double m = pe_smooth01((1 - rho) * inv);
                o[i] = (float) (inside ? m : 1 - m);
            }
        }
    }
    return 0;
}

static void pe_shape_close(VipsImage *image, pe_shape *s) {
    (void) image;
    g_free(s);
}

VipsImage *pe_mask_shape(int width, int height, int kind, const double *params) {
    if (width < 1 || height < 1 || (kind != 0 && kind != 1) || !params) {
        vips_error("photoedit", "mask shape: expected a size of at least 1×1 and a linear or radial shape");
        return NULL;
    }
    pe_shape *s = g_new0(pe_shape, 1);
    s->kind = kind;
    memcpy(s->p, params, sizeof(double) * (kind == 0 ? 3 : 9));
    VipsImage *out = vips_image_new();
    g_signal_connect(out, "postclose", G_CALLBACK(pe_shape_close), s);
    vips_image_init_fields(out, width, height, 1, VIPS_FORMAT_FLOAT, VIPS_CODING_NONE, VIPS_INTERPRETATION_B_W, 1.0, 1.0);
    if (vips_image_pipelinev(out, VIPS_DEMAND_STYLE_ANY, NULL) ||
        vips_image_generate(out, NULL, pe_shape_generate, NULL, s, NULL)) {
        g_object_unref(out);
        return NULL;
    }
    return out;
}

/*
 * What a luminance range mask measures, for previews: CIE L* of linear
 * sRGB-primaries RGB (scRGB, D65), divided by 100, in one pass, where
 * libvips' colourspace chain (scRGB → XYZ → Lab) computes the whole Lab
 * image (three cube roots) to keep one band. The same formula (libvips'
 * sRGB luminance row and D65 white), to float rounding. (A colour range
 * keeps libvips' LCh: a per-pixel atan2 and three cube roots in double
 * were measured slower than its tables.)
 */
static int pe_lightness_generate(VipsRegion *out, void *seq, void *a, void *b, gboolean *stop) {
    (void) a; (void) b; (void) stop;
    VipsRegion *ir = (VipsRegion *) seq;
    const VipsRect *r = &out->valid;
    if (vips_region_prepare(ir, r)) return -1;
    for (int y = r->top; y < VIPS_RECT_BOTTOM(r); y++) {
        const float *p = (const float *) VIPS_REGION_ADDR(ir, r->left, y);
        float *o = (float *) VIPS_REGION_ADDR(out, r->left, y);
        for (int i = 0; i < r->width; i++) {
            double Y = 0.2126 * p[3 * i] + 0.7152 * p[3 * i + 1] + 0.0722 * p[3 * i + 2];
            double f = Y > 0.008856 ? cbrt(Y) : 7.787 * Y + 16.0 / 116.0;
            o[i] = (float) ((116 * f - 16) / 100);
        }
    }
    return 0;
}

static void pe_lightness_close(VipsImage *image, VipsImage *in) {
    (void) image;
    g_object_unref(in);
}

VipsImage *pe_range_lightness(VipsImage *in) {
    if (in->Bands != 3 || in->BandFmt != VIPS_FORMAT_FLOAT) {
        vips_error("photoedit", "range source: expected 3-band float RGB");
        return NULL;
    }
    VipsImage *out = vips_image_new();
    g_object_ref(in);
    g_signal_connect(out, "postclose", G_CALLBACK(pe_lightness_close), in);
    if (vips_image_pipelinev(out, VIPS_DEMAND_STYLE_THINSTRIP, in, NULL)) {
        g_object_unref(out);
        return NULL;
    }
    out->Bands = 1;
    out->Type = VIPS_INTERPRETATION_B_W;
    if (vips_image_generate(out, vips_start_one, pe_lightness_generate, vips_stop_one, in, NULL)) {
        g_object_unref(out);
        return NULL;
    }
    return out;
}

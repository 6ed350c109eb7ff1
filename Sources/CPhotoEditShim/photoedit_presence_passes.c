/*
 * photoedit_presence_passes.c — the presence filters' libvips passes
 * (include/photoedit_presence_passes.h): block means, the fused full-size
 * pass of clarity, texture and dehaze, and the guided filter's coefficients
 * on a reduced copy. photoedit_presence.c builds its streamed texture on
 * pe_local_contrast_prepared and pe_gauss_kernel from here
 * (photoedit_presence_common.h); nothing here uses photoedit_presence.c.
 */
#include "photoedit_presence_passes.h"
#include "photoedit_presence_common.h"
#include <string.h>
#include <math.h>
#include <float.h>

/* ---- The presence filters' passes (clarity, texture, dehaze version 2) ----
 * Each full-size part is one libvips generate (or sink) function instead of
 * some forty arithmetic operations: the reduced luminance is one pass of
 * block sums; the guided filter's coefficients (a, b), made by libvips on
 * that reduced copy, are interpolated bilinearly here and applied with the
 * rest of the filter's per-pixel arithmetic, in float, strip by strip. */

/* -- Reduced copies: block means of R, G, B or of Y (then ^(1/2.2)) --
 * Each value is added as a fixed-point integer (`pe_fixed`), so the sums are
 * exact whatever order libvips' threads deliver the regions in. */

typedef struct {
    int block, width, height;  /* block side; the reduced size */
    int bands;                 /* 3: R, G, B; 1: Y */
    gint64 *sums;
    GMutex lock;
} pe_blocks;

static int pe_blocks_add(VipsRegion *region, void *seq, void *a, void *b, gboolean *stop) {
    (void) seq; (void) b; (void) stop;
    pe_blocks *s = (pe_blocks *) a;
    const VipsRect *r = &region->valid;
    int k = s->block, n = s->bands;
    int bx0 = r->left / k, bx1 = (VIPS_RECT_RIGHT(r) - 1) / k, by0 = r->top / k, by1 = (VIPS_RECT_BOTTOM(r) - 1) / k;
    int nx = bx1 - bx0 + 1, ny = by1 - by0 + 1;
    gint64 *local = g_new0(gint64, (size_t) nx * ny * n);
    /* Per row of blocks: the rows' values summed column by column (one
     * integer per value of a row), then each block's columns summed. The
     * sums are integers, so their order changes nothing. */
    size_t values = (size_t) r->width * n;
    gint64 *acc = g_new(gint64, values);
    float *luminance = n == 1 ? g_new(float, r->width) : NULL;
    for (int j = by0; j <= by1; j++) {
        int y0 = MAX(j * k, r->top), y1 = MIN((j + 1) * k, VIPS_RECT_BOTTOM(r));
        memset(acc, 0, sizeof(gint64) * values);
        for (int y = y0; y < y1; y++)
            pe_blocks_row((const float *) VIPS_REGION_ADDR(region, r->left, y), r->width, n, acc, luminance);
        gint64 *cell = local + (size_t) (j - by0) * nx * n;
        for (int x = r->left; x < VIPS_RECT_RIGHT(r); cell += n) {
            int end = MIN((x / k + 1) * k, VIPS_RECT_RIGHT(r));
            for (; x < end; x++)
                for (int c = 0; c < n; c++) cell[c] += acc[(size_t) (x - r->left) * n + c];
        }
    }
    g_free(acc);
    g_free(luminance);
    g_mutex_lock(&s->lock);
    for (int j = 0; j < ny; j++)
        for (int i = 0; i < nx * n; i++) s->sums[((size_t) (by0 + j) * s->width + bx0) * n + i] += local[(size_t) j * nx * n + i];
    g_mutex_unlock(&s->lock);
    g_free(local);
    return 0;
}

VipsImage *pe_block_means(VipsImage *in, int block, int luminance) {
    if (in->Bands != 3 || in->BandFmt != VIPS_FORMAT_FLOAT || block < 1) {
        vips_error("photoedit", "block means: expected 3-band float RGB and a block of at least 1");
        return NULL;
    }
    int n = luminance ? 1 : 3;
    pe_blocks s = { .block = block, .width = (in->Xsize + block - 1) / block, .height = (in->Ysize + block - 1) / block, .bands = n };
    size_t count = (size_t) s.width * s.height * n;
    s.sums = g_try_new0(gint64, count);
    float *means = g_try_new(float, count);
    if (!s.sums || !means) {
        g_free(s.sums);
        g_free(means);
        vips_error("photoedit", "out of memory for the reduced copy");
        return NULL;
    }
    g_mutex_init(&s.lock);
    int failed = vips_sink(in, NULL, pe_blocks_add, NULL, &s, NULL);
    g_mutex_clear(&s.lock);
    VipsImage *out = NULL;
    if (!failed) {
        for (int j = 0; j < s.height; j++) {
            int rows = MIN(block, in->Ysize - j * block);
            for (int i = 0; i < s.width; i++) {
                int columns = MIN(block, in->Xsize - i * block);
                for (int c = 0; c < n; c++) {
                    size_t at = ((size_t) j * s.width + i) * n + c;
                    means[at] = (float) ((double) s.sums[at] / PE_FIXED / ((double) rows * columns));
                }
            }
        }
        /* Apart, so that this loop is vectorised (the same values). */
        if (luminance)
            for (size_t k = 0; k < count; k++) means[k] = pe_pow(means[k], 1 / 2.2f);
        out = vips_image_new_from_memory_copy(means, sizeof(float) * count, s.width, s.height, n, VIPS_FORMAT_FLOAT);
    }
    g_free(s.sums);
    g_free(means);
    return out;
}

/* -- The full-size pass -- */

typedef struct {
    VipsImage *in;           /* 3-band float linear RGB */
    VipsImage *coefficients; /* 2-band float (a, b), in memory */
    int block;               /* full-size pixels per reduced pixel */
    int *x0;                 /* per output column: the reduced column left of it, */
    float *wx;               /* and the weight of the one right of it */
    int mode;                /* 0 local contrast, 1 dehaze */
    float amount, limit;     /* local contrast */
    int mid_tones;
    float airlight[3], t0;   /* dehaze */
    pe_coefficients_prepare prepare;  /* if set, called before the coefficients are read */
    void *prepare_state;
} pe_presence;

/* The coefficients of one output row, interpolated vertically between the
 * reduced rows around it (the edge held): `row` gets a, b for every reduced column. */
static void pe_coefficient_row(const pe_presence *s, int y, float *row) {
#pragma STDC FP_CONTRACT OFF
    const VipsImage *c = s->coefficients;
    double v = (y + 0.5) / s->block - 0.5;
    v = v < 0 ? 0 : v > c->Ysize - 1 ? c->Ysize - 1 : v;
    int y0 = (int) v, y1 = y0 + 1 < c->Ysize ? y0 + 1 : y0;
    float wy = (float) (v - y0);
    const float *row0 = (const float *) VIPS_IMAGE_ADDR(c, 0, y0), *row1 = (const float *) VIPS_IMAGE_ADDR(c, 0, y1);
    for (int i = 0; i < 2 * c->Xsize; i++) row[i] = row0[i] + (row1[i] - row0[i]) * wy;
    /* One more column, a copy of the last: the right neighbour of the last centre. */
    row[2 * c->Xsize] = row[2 * c->Xsize - 2];
    row[2 * c->Xsize + 1] = row[2 * c->Xsize - 1];
}

/* Compiled three times (AVX-512, AVX2 and the baseline), chosen when the
 * program loads: sixteen or eight pixels at a time where the processor can
 * (AVX-512's 32 registers also spare the AVX2 build's reloads of constants).
 * Multiplies and adds are never fused and no operation is approximated, so
 * all give the same bits. */
#if defined(__x86_64__) && defined(__clang__)
__attribute__((target_clones("avx512f", "avx2", "default")))
#endif
static int pe_presence_generate(VipsRegion *out, void *seq, void *a, void *b, gboolean *stop) {
#pragma STDC FP_CONTRACT OFF
    (void) a; (void) stop;
    VipsRegion *ir = (VipsRegion *) seq;
    const pe_presence *s = (const pe_presence *) b;
    const VipsRect *r = &out->valid;
    if (s->prepare) {
        /* The last coefficient row pe_coefficient_row reads for this region. */
        int ch = s->coefficients->Ysize;
        double v = (VIPS_RECT_BOTTOM(r) - 0.5) / s->block - 0.5;
        v = v < 0 ? 0 : v > ch - 1 ? ch - 1 : v;
        int last = (int) v + 1 < ch ? (int) v + 1 : (int) v;
        if (s->prepare(s->prepare_state, ir, last + 1)) return -1;
    }
    if (vips_region_prepare(ir, r)) return -1;
    size_t reduced = 2 * (size_t) s->coefficients->Xsize + 2;
    float *row = g_new(float, reduced + 2 * (size_t) r->width);
    float *ca = row + reduced, *cb = ca + r->width;
    const int *x0 = s->x0 + r->left;
    const float *wx = s->wx + r->left;
    const float e = 0.004f, amount = s->amount, limit = s->limit, mid = s->mid_tones ? 1 : 0, t0 = s->t0;
    const float air0 = s->airlight[0], air1 = s->airlight[1], air2 = s->airlight[2];
    for (int y = r->top; y < VIPS_RECT_BOTTOM(r); y++) {
        pe_coefficient_row(s, y, row);
        for (int i = 0; i < r->width; i++) {
            const float *c0 = row + 2 * x0[i];
            ca[i] = c0[0] + (c0[2] - c0[0]) * wx[i];
            cb[i] = c0[1] + (c0[3] - c0[1]) * wx[i];
        }
        const float *p = (const float *) VIPS_REGION_ADDR(ir, r->left, y);
        float *q = (float *) VIPS_REGION_ADDR(out, r->left, y);
        if (s->mode == 0) {
            for (int i = 0; i < r->width; i++) {
                float red = p[3 * i], green = p[3 * i + 1], blue = p[3 * i + 2];
                float yl = 0.2126f * red + 0.7152f * green + 0.0722f * blue;
                /* L' = L + amount · w · d / (1 + |d| / limit), d = L − (a·L + b) */
                float l = pe_pow(yl, 1 / 2.2f);
                float base = ca[i] * l + cb[i];
                float d = l - base;
                d = d * limit / (limit + fabsf(d));
                float t = 2 * (base < 0 ? 0 : base > 1 ? 1 : base) - 1;
                float t2 = t * t;
                d *= 1 - mid * t2 * t2;
                float mapped = pe_pow(l + amount * d, 2.2f);
                float ratio = (mapped + e) / ((yl < 0 ? 0 : yl) + e);
                float grey = mapped - yl * ratio;
                q[3 * i] = red * ratio + grey;
                q[3 * i + 1] = green * ratio + grey;
                q[3 * i + 2] = blue * ratio + grey;
            }
        } else {
            for (int i = 0; i < r->width; i++) {
                float red = p[3 * i], green = p[3 * i + 1], blue = p[3 * i + 2];
                /* t = max(a·L + b, t0), L the perceptual luminance (0 below 0); J = max((I − A) / t + A, 0) */
                float yl = 0.2126f * red + 0.7152f * green + 0.0722f * blue;
                float l = pe_pow(yl < 0 ? 0 : yl, 1 / 2.2f);
                float t = ca[i] * l + cb[i];
                float inverse = 1 / (t < t0 ? t0 : t);
                float j0 = (red - air0) * inverse + air0, j1 = (green - air1) * inverse + air1, j2 = (blue - air2) * inverse + air2;
                q[3 * i] = j0 > 0 ? j0 : 0;
                q[3 * i + 1] = j1 > 0 ? j1 : 0;
                q[3 * i + 2] = j2 > 0 ? j2 : 0;
            }
        }
    }
    g_free(row);
    return 0;
}

static void pe_presence_close(VipsImage *image, pe_presence *s) {
    (void) image;
    g_object_unref(s->in);
    g_object_unref(s->coefficients);
    g_free(s->x0);
    g_free(s->wx);
    g_free(s);
}

static VipsImage *pe_presence_image(pe_presence *s, VipsImage *in, VipsImage *coefficients, int block) {
    if (in->Bands != 3 || in->BandFmt != VIPS_FORMAT_FLOAT || coefficients->Bands != 2 || coefficients->BandFmt != VIPS_FORMAT_FLOAT ||
        block < 1 || coefficients->Xsize != (in->Xsize + block - 1) / block || coefficients->Ysize != (in->Ysize + block - 1) / block) {
        vips_error("photoedit", "presence: expected 3-band float RGB and 2-band float coefficients of its size / block");
        g_free(s);
        return NULL;
    }
    if (!s->prepare && vips_image_wio_input(coefficients)) {
        g_free(s);
        return NULL;
    }
    s->block = block;
    s->x0 = g_new(int, in->Xsize);
    s->wx = g_new(float, in->Xsize);
    for (int x = 0; x < in->Xsize; x++) {
        double u = (x + 0.5) / block - 0.5;
        u = u < 0 ? 0 : u > coefficients->Xsize - 1 ? coefficients->Xsize - 1 : u;
        s->x0[x] = (int) u;
        s->wx[x] = (float) (u - (int) u);
    }
    s->in = in;
    s->coefficients = coefficients;
    g_object_ref(in);
    g_object_ref(coefficients);
    VipsImage *out = vips_image_new();
    g_signal_connect(out, "postclose", G_CALLBACK(pe_presence_close), s);
    if (vips_image_pipelinev(out, VIPS_DEMAND_STYLE_THINSTRIP, in, NULL) ||
        vips_image_generate(out, vips_start_one, pe_presence_generate, vips_stop_one, in, s)) {
        g_object_unref(out);
        return NULL;
    }
    return out;
}

VipsImage *pe_local_contrast_prepared(VipsImage *in, VipsImage *coefficients, int block, double amount, double limit,
                                      int mid_tones, pe_coefficients_prepare prepare, void *state) {
    pe_presence *s = g_new0(pe_presence, 1);
    s->mode = 0;
    s->amount = (float) amount;
    s->limit = (float) limit;
    s->mid_tones = mid_tones;
    s->prepare = prepare;
    s->prepare_state = state;
    return pe_presence_image(s, in, coefficients, block);
}

VipsImage *pe_local_contrast(VipsImage *in, VipsImage *coefficients, int block, double amount, double limit, int mid_tones) {
    return pe_local_contrast_prepared(in, coefficients, block, amount, limit, mid_tones, NULL, NULL);
}

VipsImage *pe_dehaze(VipsImage *in, VipsImage *coefficients, int block, const double *airlight, double t0) {
    pe_presence *s = g_new0(pe_presence, 1);
    s->mode = 1;
    for (int k = 0; k < 3; k++) s->airlight[k] = (float) airlight[k];
    s->t0 = (float) t0;
    return pe_presence_image(s, in, coefficients, block);
}

/* -- The guided filter of an image by itself, at the reduced size (texture version 3) --
 * One band float L (in memory) → two bands float (a, b): m1, m2 = the gaussian
 * window means of L and L², var = m2 − m1², a = var / (var + eps),
 * b = m1 − a·m1, then a and b averaged over the same window. The window: a
 * gaussian of `sigma`, sampled at integers out to the last tap above 1 % of
 * the centre (as libvips' gaussmat with min_ampl 0.01) and normalised; the
 * edges repeat the edge pixel. Separable, rows then columns, on plain float
 * arrays the compiler vectorises: one call instead of some fifteen libvips
 * operations and two convolutions on images. Deterministic (no threads). */

int pe_gauss_kernel(double sigma, float *weights, int max_radius) {
    int radius = (int) floor(sigma * sqrt(2 * log(100.0)));
    radius = radius < 0 ? 0 : radius > max_radius ? max_radius : radius;
    double sum = 0;
    for (int k = -radius; k <= radius; k++) sum += exp(-(double) k * k / (2 * sigma * sigma));
    for (int k = -radius; k <= radius; k++) weights[k + radius] = (float) (exp(-(double) k * k / (2 * sigma * sigma)) / sum);
    return radius;
}

/* `bands` planes of w×h floats blurred in place, rows then columns
 * (`scratch`: w×h floats, `pad`: w + 2·radius floats). */
static void pe_blur_planes(float *planes, int bands, int w, int h, const float *k, int radius, float *scratch, float *pad) {
    const float *rows[2 * 256 + 1];
    for (int c = 0; c < bands; c++) {
        float *plane = planes + (size_t) c * w * h;
        for (int y = 0; y < h; y++) pe_blur_row(plane + (size_t) y * w, scratch + (size_t) y * w, w, k, radius, pad);
        for (int y = 0; y < h; y++) {
            for (int t = 0; t <= 2 * radius; t++) {
                int yy = y + t - radius;
                rows[t] = scratch + (size_t) (yy < 0 ? 0 : yy >= h ? h - 1 : yy) * w;
            }
            pe_blur_column(rows, plane + (size_t) y * w, w, k, radius);
        }
    }
}

VipsImage *pe_self_guided_coefficients(VipsImage *in, double sigma, double eps) {
    if (in->Bands != 1 || in->BandFmt != VIPS_FORMAT_FLOAT || !(sigma > 0) || sigma > 64) {
        vips_error("photoedit", "self-guided coefficients: expected one float band and a sigma of 0…64");
        return NULL;
    }
    if (vips_image_wio_input(in)) return NULL;
    int w = in->Xsize, h = in->Ysize;
    size_t n = (size_t) w * h;
    float kernel[2 * 256 + 1];
    int radius = pe_gauss_kernel(sigma, kernel, 256);
    float *planes = g_try_new(float, 2 * n), *scratch = g_try_new(float, n), *pad = g_try_new(float, (size_t) w + 2 * radius);
    float *ab = g_try_new(float, 2 * n);
    if (!planes || !scratch || !pad || !ab) {
        g_free(planes); g_free(scratch); g_free(pad); g_free(ab);
        vips_error("photoedit", "out of memory for the guided filter");
        return NULL;
    }
    for (int y = 0; y < h; y++) {
        const float *p = (const float *) VIPS_IMAGE_ADDR(in, 0, y);
        float *l = planes + (size_t) y * w, *l2 = planes + n + (size_t) y * w;
        for (int x = 0; x < w; x++) { l[x] = p[x]; l2[x] = p[x] * p[x]; }
    }
    pe_blur_planes(planes, 2, w, h, kernel, radius, scratch, pad);
    pe_self_guided_ab(planes, planes + n, n, (float) eps);
    pe_blur_planes(planes, 2, w, h, kernel, radius, scratch, pad);
    for (size_t i = 0; i < n; i++) { ab[2 * i] = planes[i]; ab[2 * i + 1] = planes[n + i]; }
    VipsImage *out = vips_image_new_from_memory_copy(ab, sizeof(float) * 2 * n, w, h, 2, VIPS_FORMAT_FLOAT);
    g_free(planes); g_free(scratch); g_free(pad); g_free(ab);
    return out;
}

/*
 * photoedit_presence.c — the small-image steps of the presence filters
 * (issue 26's cost goal) as plain loops instead of libvips operations, with
 * the same numbers libvips gives (the loops compiled for AVX-512, AVX2 and
 * the baseline, `PE_CLONES`, the same bits in each):
 *
 * pe_gauss_blur: libvips' `gaussblur` with precision float (gaussmat's
 * separable mask, then convsep: a horizontal and a vertical convf, the edges
 * repeated, each output the double sum of coefficient · pixel in mask order,
 * stored as float). The same mask, the same products summed in the same
 * order, so the same bits; on a whole image in memory, without regions,
 * so the compiler vectorises across pixels instead of libvips' one pixel
 * at a time.
 *
 * pe_min_filter: libvips' `rank` with index 0 (the minimum of a square
 * window, edges repeated) as a minimum over rows then over columns: a
 * minimum is exact, so the result is the same whatever the order.
 */
#include "photoedit_presence.h"
#include "photoedit_presence_common.h"

#include <math.h>
#include <string.h>

#pragma STDC FP_CONTRACT OFF  /* everywhere in this file: the same bits in every clone */

/* gaussmat's separable mask (precision float): the taps out to the last one
 * whose value is at least `min_ampl`, each exp(−x² / 2σ²) divided by their
 * sum (convf bakes the scale into the mask). Returns the radius, or −1 when
 * libvips would refuse the mask. */
static int pe_gaussmat(double sigma, double min_ampl, double **taps) {
    double sig2 = 2. * sigma * sigma;
    double limit = 8 * sigma;
    int max_x = (int) (limit < 0 ? 0 : limit > 5000 ? 5000 : limit);
    int x;
    for (x = 0; x < max_x; x++) {
        double v = exp(-((double) (x * x)) / sig2);
        if (v < min_ampl) break;
    }
    if (x >= 5000) return -1;
    int width = 2 * (x - 1 > 0 ? x - 1 : 0) + 1, radius = width / 2;
    double *t = g_new(double, width), sum = 0;
    for (int k = 0; k < width; k++) {
        int xo = k - radius;
        double distance = xo * xo;
        t[k] = exp(-distance / sig2);
        sum += t[k];
    }
    if (sum == 0) sum = 1;
    for (int k = 0; k < width; k++) t[k] /= sum;
    *taps = t;
    return radius;
}

/* One band's plane (w×h floats), blurred along rows into `out`: each
 * output's sum still adds its taps in mask order, tap by tap over the row
 * (so the loop over pixels vectorises); `sums` w doubles. */
PE_CLONES
static void pe_blur_rows(const float *in, float *out, int w, int h, const double *t, int radius, float *pad, double *sums) {
#pragma STDC FP_CONTRACT OFF
    int n = 2 * radius + 1;
    for (int y = 0; y < h; y++) {
        const float *row = in + (size_t) y * w;
        for (int i = 0; i < radius; i++) { pad[i] = row[0]; pad[radius + w + i] = row[w - 1]; }
        memcpy(pad + radius, row, sizeof(float) * w);
        for (int x = 0; x < w; x++) sums[x] = 0;
        for (int i = 0; i < n; i++) {
            const double ti = t[i];
            const float *p = pad + i;
            for (int x = 0; x < w; x++) sums[x] += ti * p[x];
        }
        float *q = out + (size_t) y * w;
        for (int x = 0; x < w; x++) q[x] = (float) sums[x];
    }
}

/* Along columns, output rows y0 … y1 − 1 of h: row pointers with the edge rows repeated; `sums` w doubles. */
PE_CLONES
static void pe_blur_columns(const float *in, float *out, int w, int h, int y0, int y1, const double *t, int radius, double *sums) {
#pragma STDC FP_CONTRACT OFF
    int n = 2 * radius + 1;
    for (int y = y0; y < y1; y++) {
        for (int x = 0; x < w; x++) sums[x] = 0;
        for (int i = 0; i < n; i++) {
            int yy = y + i - radius;
            yy = yy < 0 ? 0 : yy >= h ? h - 1 : yy;
            const float *p = in + (size_t) yy * w;
            const double ti = t[i];
            for (int x = 0; x < w; x++) sums[x] += ti * p[x];
        }
        float *q = out + (size_t) y * w;
        for (int x = 0; x < w; x++) q[x] = (float) sums[x];
    }
}

/* pe_gauss_blur's work on one band, split by rows between two threads
 * (each output row computed as by one thread: the same bits). */
typedef struct {
    const float *plane;
    float *across, *out;
    int w, h, y0, y1, radius;
    const double *t;
    float *pad;
    double *sums;
    int columns;  /* 0: along rows, 1: along columns */
} pe_blur_part;

static void pe_blur_part_run(pe_blur_part *p) {
    if (p->columns) pe_blur_columns(p->across, p->out, p->w, p->h, p->y0, p->y1, p->t, p->radius, p->sums);
    else pe_blur_rows(p->plane + (size_t) p->y0 * p->w, p->across + (size_t) p->y0 * p->w, p->w, p->y1 - p->y0, p->t, p->radius, p->pad, p->sums);
}

static gpointer pe_blur_part_thread(gpointer data) {
    pe_blur_part_run((pe_blur_part *) data);
    return NULL;
}

/* Both halves, the second on a thread of its own when there is enough work
 * (and a thread can be had), else in turn. */
static void pe_blur_halves(pe_blur_part parts[2], int threaded) {
    GThread *thread = threaded ? g_thread_try_new("pe-blur", pe_blur_part_thread, &parts[1], NULL) : NULL;
    pe_blur_part_run(&parts[0]);
    if (thread) g_thread_join(thread);
    else pe_blur_part_run(&parts[1]);
}

VipsImage *pe_gauss_blur(VipsImage *in, double sigma, double min_ampl) {
    if (in->BandFmt != VIPS_FORMAT_FLOAT || in->Coding != VIPS_CODING_NONE || !(sigma >= 0.01) || sigma > 1000) {
        vips_error("photoedit", "gauss blur: expected a float image and a sigma of 0.01…1000");
        return NULL;
    }
    if (vips_image_wio_input(in)) return NULL;
    double *t = NULL;
    int radius = pe_gaussmat(sigma, min_ampl, &t);
    if (radius < 0) {
        vips_error("photoedit", "gauss blur: mask too large");
        return NULL;
    }
    int w = in->Xsize, h = in->Ysize, bands = in->Bands;
    size_t n = (size_t) w * h;
    float *plane = g_try_new(float, n), *across = g_try_new(float, n), *blurred = g_try_new(float, n);
    float *pad = g_try_new(float, 2 * ((size_t) w + 2 * radius));
    double *sums = g_try_new(double, 2 * (size_t) w);
    float *result = g_try_new(float, n * bands);
    if (!plane || !across || !blurred || !pad || !sums || !result) {
        g_free(plane); g_free(across); g_free(blurred); g_free(pad); g_free(sums); g_free(result); g_free(t);
        vips_error("photoedit", "out of memory for the blur");
        return NULL;
    }
    /* Two threads from about a million multiply-adds a pass (the guided
     * filters' reduced copies of large photos). */
    int threaded = h >= 2 && (double) n * (2 * radius + 1) >= 1e6;
    pe_blur_part parts[2];
    for (int i = 0; i < 2; i++)
        parts[i] = (pe_blur_part) { .plane = plane, .across = across, .out = blurred, .w = w, .h = h, .y0 = i ? h / 2 : 0, .y1 = i ? h : h / 2,
                                    .radius = radius, .t = t, .pad = pad + i * ((size_t) w + 2 * radius), .sums = sums + (size_t) i * w };
    for (int c = 0; c < bands; c++) {
        for (int y = 0; y < h; y++) {
            const float *p = (const float *) VIPS_IMAGE_ADDR(in, 0, y);
            float *row = plane + (size_t) y * w;
            for (int x = 0; x < w; x++) row[x] = p[x * bands + c];
        }
        parts[0].columns = parts[1].columns = 0;
        pe_blur_halves(parts, threaded);
        parts[0].columns = parts[1].columns = 1;
        pe_blur_halves(parts, threaded);
        for (size_t k = 0; k < n; k++) result[k * bands + c] = blurred[k];
    }
    VipsImage *out = vips_image_new_from_memory_copy(result, sizeof(float) * n * bands, w, h, bands, VIPS_FORMAT_FLOAT);
    g_free(plane); g_free(across); g_free(blurred); g_free(pad); g_free(sums); g_free(result); g_free(t);
    return out;
}

VipsImage *pe_min_filter(VipsImage *in, int size) {
    if (in->BandFmt != VIPS_FORMAT_FLOAT || in->Bands != 1 || in->Coding != VIPS_CODING_NONE || size < 1 || size > 1001) {
        vips_error("photoedit", "minimum filter: expected one float band and a window of 1…1001");
        return NULL;
    }
    if (vips_image_wio_input(in)) return NULL;
    int w = in->Xsize, h = in->Ysize, r = size / 2;
    size_t n = (size_t) w * h;
    float *across = g_try_new(float, n), *result = g_try_new(float, n);
    if (!across || !result) {
        g_free(across); g_free(result);
        vips_error("photoedit", "out of memory for the minimum filter");
        return NULL;
    }
    /* The window of libvips' rank is [x − r, x − r + size − 1] (the embed
     * puts size / 2 pixels before), clamped to the image. */
    int before = r, after = size - 1 - r;
    for (int y = 0; y < h; y++) {
        const float *p = (const float *) VIPS_IMAGE_ADDR(in, 0, y);
        float *q = across + (size_t) y * w;
        for (int x = 0; x < w; x++) {
            int x0 = x - before < 0 ? 0 : x - before, x1 = x + after >= w ? w - 1 : x + after;
            float m = p[x0];
            for (int k = x0 + 1; k <= x1; k++) m = p[k] < m ? p[k] : m;
            q[x] = m;
        }
    }
    for (int y = 0; y < h; y++) {
        int y0 = y - before < 0 ? 0 : y - before, y1 = y + after >= h ? h - 1 : y + after;
        float *q = result + (size_t) y * w;
        memcpy(q, across + (size_t) y0 * w, sizeof(float) * w);
        for (int k = y0 + 1; k <= y1; k++) {
            const float *p = across + (size_t) k * w;
            for (int x = 0; x < w; x++) q[x] = p[x] < q[x] ? p[x] : q[x];
        }
    }
    VipsImage *out = vips_image_new_from_memory_copy(result, sizeof(float) * n, w, h, 1, VIPS_FORMAT_FLOAT);
    g_free(across); g_free(result);
    return out;
}

/* -- Texture's guided filter, streamed (pe_self_guided_local_contrast) --
 * The same numbers as pe_block_means (luminance) → pe_self_guided_coefficients
 * → pe_local_contrast, made as the full-size pass asks for them instead of
 * before it: the reduced luminance, its blurs and the coefficients a, b are
 * computed row by row, top to bottom, by whichever pass thread first needs
 * a coefficient row not made yet (under a lock; each row the same arithmetic
 * in the same order as the one-call version, so the same bits). Reading the
 * input once top to bottom ahead of the pass (about 2·radius reduced rows
 * ahead), it needs no random access: a JPEG is decoded while it is
 * processed, never held whole in memory. The blurs between rows keep only
 * the rows their window needs (rings); the coefficients (2 floats per reduced
 * pixel) stay for the pass to interpolate. */

#define PE_STREAM_GROUP 8  /* reduced rows per read of the input */

typedef struct {
    GMutex lock;
    int failed;
    int block, width, height;   /* full-size pixels per reduced pixel; the full size */
    int w, h;                   /* the reduced size */
    float kernel[2 * 256 + 1];
    int radius;
    float eps;
    int ring;                   /* rows in each ring */
    float *l, *l2;              /* ring: the reduced L and L², blurred along rows */
    float *a, *b;               /* ring: a and b, blurred along rows */
    float *ab;                  /* the coefficients, h rows of w pairs (the coefficient image's memory) */
    float *m1, *m2, *pad;       /* scratch: a row each; w + 2·radius */
    gint64 *sums;               /* w */
    gint64 *column_sums;        /* width: one row of blocks' luminances summed down each column */
    float *luminance;           /* width: scratch */
    int lines, means, done;     /* rows made: the reduced L (blurred along rows), a and b (along rows), the coefficients */
} pe_guided_stream;

static void pe_guided_stream_free(VipsImage *image, pe_guided_stream *s) {
    (void) image;
    g_mutex_clear(&s->lock);
    g_free(s->l); g_free(s->l2); g_free(s->a); g_free(s->b); g_free(s->ab);
    g_free(s->m1); g_free(s->m2); g_free(s->pad); g_free(s->sums); g_free(s->column_sums); g_free(s->luminance);
    g_free(s);
}

static inline float *pe_ring_row(const pe_guided_stream *s, float *ring, int y) {
    return ring + (size_t) (y % s->ring) * s->w;
}

/* Row y of two rings blurred down their columns (the edge rows repeated) into m1 and m2. */
static void pe_ring_columns(pe_guided_stream *s, float *first, float *second, int y) {
    const float *rows[2][2 * 256 + 1];
    for (int t = 0; t <= 2 * s->radius; t++) {
        int yy = y + t - s->radius;
        yy = yy < 0 ? 0 : yy >= s->h ? s->h - 1 : yy;
        rows[0][t] = pe_ring_row(s, first, yy);
        rows[1][t] = pe_ring_row(s, second, yy);
    }
    pe_blur_column(rows[0], s->m1, s->w, s->kernel, s->radius);
    pe_blur_column(rows[1], s->m2, s->w, s->kernel, s->radius);
}

/* The next PE_STREAM_GROUP rows (fewer at the bottom) of the reduced L, L²,
 * blurred along rows: block means of Y (pe_block_means' sums and division),
 * ^(1/2.2), squared. */
PE_CLONES
static int pe_guided_stream_lines(pe_guided_stream *s, VipsRegion *ir) {
    int j0 = s->lines, j1 = MIN(j0 + PE_STREAM_GROUP, s->h), k = s->block;
    VipsRect area = { 0, j0 * k, s->width, MIN(j1 * k, s->height) - j0 * k };
    if (vips_region_prepare(ir, &area)) return -1;
    for (int j = j0; j < j1; j++) {
        int rows = MIN(k, s->height - j * k);
        /* The rows' luminances summed column by column, then each block's columns. */
        memset(s->column_sums, 0, sizeof(gint64) * s->width);
        for (int y = j * k; y < j * k + rows; y++)
            pe_blocks_row((const float *) VIPS_REGION_ADDR(ir, 0, y), s->width, 1, s->column_sums, s->luminance);
        for (int i = 0, x = 0; i < s->w; i++) {
            int end = MIN(x + k, s->width);
            gint64 sum = 0;
            for (; x < end; x++) sum += s->column_sums[x];
            s->sums[i] = sum;
        }
        for (int i = 0; i < s->w; i++) {
            int columns = MIN(k, s->width - i * k);
            s->m1[i] = (float) ((double) s->sums[i] / PE_FIXED / ((double) rows * columns));
        }
        for (int i = 0; i < s->w; i++) s->m1[i] = pe_pow(s->m1[i], 1 / 2.2f);
        for (int i = 0; i < s->w; i++) s->m2[i] = s->m1[i] * s->m1[i];
        pe_blur_row(s->m1, pe_ring_row(s, s->l, j), s->w, s->kernel, s->radius, s->pad);
        pe_blur_row(s->m2, pe_ring_row(s, s->l2, j), s->w, s->kernel, s->radius, s->pad);
    }
    s->lines = j1;
    return 0;
}

/* The next row of a, b blurred along rows: the window means of L and L²
 * (down the columns of the first ring), a, b. */
PE_CLONES
static void pe_guided_stream_means(pe_guided_stream *s) {
    int y = s->means;
    pe_ring_columns(s, s->l, s->l2, y);
    pe_self_guided_ab(s->m1, s->m2, s->w, s->eps);
    pe_blur_row(s->m1, pe_ring_row(s, s->a, y), s->w, s->kernel, s->radius, s->pad);
    pe_blur_row(s->m2, pe_ring_row(s, s->b, y), s->w, s->kernel, s->radius, s->pad);
    s->means = y + 1;
}

/* The next coefficient row: a, b down the columns of the second ring, interleaved. */
PE_CLONES
static void pe_guided_stream_coefficients(pe_guided_stream *s) {
    int y = s->done;
    pe_ring_columns(s, s->a, s->b, y);
    float *out = s->ab + (size_t) y * 2 * s->w;
    for (int i = 0; i < s->w; i++) { out[2 * i] = s->m1[i]; out[2 * i + 1] = s->m2[i]; }
    s->done = y + 1;
}

/* pe_coefficients_prepare: the coefficient rows up to `rows`, and every row
 * they need first. A row of a, b needs the L rows of its window (radius
 * below it); a coefficient row, the a, b rows of its window. The rings hold
 * 2·radius + PE_STREAM_GROUP + 1 rows: what the next row's window reads
 * plus one group read ahead. */
static int pe_guided_stream_prepare(void *state, VipsRegion *ir, int rows) {
    pe_guided_stream *s = (pe_guided_stream *) state;
    g_mutex_lock(&s->lock);
    int failed = s->failed;
    while (!failed && s->done < rows) {
        int means = MIN(s->done + s->radius, s->h - 1) + 1;
        while (!failed && s->means < means) {
            if (s->lines < MIN(s->means + s->radius, s->h - 1) + 1) failed = pe_guided_stream_lines(s, ir);
            else pe_guided_stream_means(s);
        }
        if (!failed) pe_guided_stream_coefficients(s);
    }
    s->failed = failed;
    g_mutex_unlock(&s->lock);
    return failed;
}

VipsImage *pe_self_guided_local_contrast(VipsImage *in, int block, double sigma, double eps, double amount, double limit, int mid_tones) {
    if (in->Bands != 3 || in->BandFmt != VIPS_FORMAT_FLOAT || in->Coding != VIPS_CODING_NONE || block < 2 || !(sigma > 0) || sigma > 64) {
        vips_error("photoedit", "self-guided local contrast: expected 3-band float RGB, a block of at least 2 and a sigma of 0…64");
        return NULL;
    }
    pe_guided_stream *s = g_new0(pe_guided_stream, 1);
    g_mutex_init(&s->lock);
    s->block = block;
    s->width = in->Xsize;
    s->height = in->Ysize;
    s->w = (in->Xsize + block - 1) / block;
    s->h = (in->Ysize + block - 1) / block;
    s->radius = pe_gauss_kernel(sigma, s->kernel, 256);
    s->eps = (float) eps;
    s->ring = 2 * s->radius + PE_STREAM_GROUP + 1;
    size_t ring = (size_t) s->ring * s->w;
    s->l = g_try_new(float, ring);
    s->l2 = g_try_new(float, ring);
    s->a = g_try_new(float, ring);
    s->b = g_try_new(float, ring);
    s->ab = g_try_new(float, (size_t) 2 * s->w * s->h);
    s->m1 = g_try_new(float, s->w);
    s->m2 = g_try_new(float, s->w);
    s->pad = g_try_new(float, (size_t) s->w + 2 * s->radius);
    s->sums = g_try_new(gint64, s->w);
    s->column_sums = g_try_new(gint64, s->width);
    s->luminance = g_try_new(float, s->width);
    if (!s->l || !s->l2 || !s->a || !s->b || !s->ab || !s->m1 || !s->m2 || !s->pad || !s->sums || !s->column_sums || !s->luminance) {
        pe_guided_stream_free(NULL, s);
        vips_error("photoedit", "out of memory for the guided filter");
        return NULL;
    }
    /* The coefficient image wraps s->ab (filled by the pass); it frees the stream when it closes. */
    VipsImage *coefficients = vips_image_new_from_memory(s->ab, sizeof(float) * 2 * s->w * s->h, s->w, s->h, 2, VIPS_FORMAT_FLOAT);
    if (!coefficients) {
        pe_guided_stream_free(NULL, s);
        return NULL;
    }
    g_signal_connect(coefficients, "postclose", G_CALLBACK(pe_guided_stream_free), s);
    VipsImage *out = pe_local_contrast_prepared(in, coefficients, block, amount, limit, mid_tones, pe_guided_stream_prepare, s);
    g_object_unref(coefficients);
    return out;
}

/*
 * photoedit_denoise.c — profiled noise reduction (see photoedit_denoise.h).
 *
 * 1. Variance stabilisation, per channel (generalised Anscombe transform
 *    for variance a·x + b): t = 2/a · (sqrt(a·x + c) − sqrt(c)), c = 3/8·a² + b,
 *    computed as 2x / (sqrt(a·x + c) + sqrt(c)), which stays exact as a → 0
 *    (t = x / sqrt(b), the Gaussian case). Below 0 the transform continues
 *    with its slope at 0. The noise of t has unit variance at every level.
 * 2. An orthonormal luminance / colour-difference basis (Y = Σ/√3,
 *    U = (R − B)/√2, V = (R − 2G + B)/√6) keeps the noise unit and white.
 * 3. Each plane is split into à-trous B3-spline wavelet scales; the detail
 *    coefficients w of scale j are shrunk by a locally adaptive Wiener
 *    gain: E the mean of w² in a window around the pixel, s² = max(0,
 *    E − σ_j²) the signal's variance (σ_j the noise of unit white noise at
 *    that scale), w · s² / (s² + λ_j² σ_j²), λ_j = gain · strength · f_j with
 *    f_j the detail and contrast settings (λ = 1: least squares). The
 *    finest scale's σ is corrected by a measure on the image (below).
 * 4. The planes are recombined and the transform inverted (algebraic
 *    inverse x = sqrt(c)·t + a·t²/4).
 * On a reduced image (settings.scale < 1) the full size's finest
 * log2(1/scale) scales, below its pixels, are skipped (pe_denoise_rgb).
 *
 * Speed: each scale is one pass over row bands (blur rows kept in a ring,
 * the local energy's rows computed with them), then the shrinkage; the
 * inner loops have no branches or index reflection but at the borders.
 */
#include "photoedit_denoise.h"

#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#define PE_DN_MAX_LEVELS 6
/* Standard deviation of each à-trous B3-spline detail scale for unit white noise (2D). */
static const double pe_dn_level_sigma[PE_DN_MAX_LEVELS] = { 0.8907, 0.2007, 0.0856, 0.0413, 0.0205, 0.0103 };
/* Luminance scales shrunk, and λ at strength 1 (luminance, colour). */
#define PE_DN_LUMA_LEVELS 5
#define PE_DN_LUMA_GAIN 3.0
#define PE_DN_CHROMA_GAIN 3.0
/* The finest scale's noise is measured on the image (a RAW's demosaicing
 * and colour matrix correlate the noise in space and across channels, so
 * the white-noise σ_j is off there): sqrt(10th percentile of the local
 * energy) over its value for white noise of σ_j, kept within 0.5…1.5 of
 * the model's. */
#define PE_DN_MEASURED 1
#define PE_DN_FLOOR 0.5
#define PE_DN_CAP 1.5
/* sqrt(10th percentile of the local energy) / σ_j for white noise, per scale
 * (measured on 900 × 600 pixels of unit gaussian noise). */
static const double pe_dn_low_white[PE_DN_MAX_LEVELS] = { 0.802, 0.741, 0.670, 0.597, 0.503, 0.43 };

/* ---- row-parallel passes ---- */

typedef void (*pe_dn_rows_fn)(void *ctx, int y0, int y1);

typedef struct {
    pe_dn_rows_fn fn;
    void *ctx;
    int y0, y1;
} pe_dn_job;

static void *pe_dn_run(void *p) {
    pe_dn_job *job = p;
    job->fn(job->ctx, job->y0, job->y1);
    return NULL;
}

static void pe_dn_parallel(int rows, int threads, pe_dn_rows_fn fn, void *ctx) {
    if (threads < 2 || rows < 64) { fn(ctx, 0, rows); return; }
    if (threads > 16) threads = 16;
    pthread_t ids[16];
    pe_dn_job jobs[16];
    int started[16] = { 0 };
    for (int i = 0; i < threads; i++) {
        jobs[i] = (pe_dn_job){ fn, ctx, (int)((long)rows * i / threads), (int)((long)rows * (i + 1) / threads) };
    }
    for (int i = 1; i < threads; i++) started[i] = pthread_create(&ids[i], NULL, pe_dn_run, &jobs[i]) == 0;
    pe_dn_run(&jobs[0]);
    for (int i = 1; i < threads; i++) {
        if (started[i]) pthread_join(ids[i], NULL); else pe_dn_run(&jobs[i]);
    }
}

/* Reflects an index into [0, n). */
static inline int pe_dn_reflect(int i, int n) {
    if (n == 1) return 0;
    int period = 2 * (n - 1);
    i %= period;
    if (i < 0) i += period;
    return i < n ? i : period - i;
}

/* ---- transform and colour basis ---- */

typedef struct {
    float *rgb;
    float *plane[3];
    int width;
    double a[3], sc[3];  /* a and sqrt(c) per channel */
} pe_dn_basis;

static void pe_dn_forward_rows(void *p, int y0, int y1) {
    pe_dn_basis *k = p;
    const double r3 = 1 / sqrt(3.0), r2 = 1 / sqrt(2.0), r6 = 1 / sqrt(6.0);
    for (long i = (long)y0 * k->width; i < (long)y1 * k->width; i++) {
        double t[3];
        for (int c = 0; c < 3; c++) {
            double x = k->rgb[3 * i + c];
            double u = k->a[c] * x + k->sc[c] * k->sc[c];
            t[c] = x <= 0 || u <= 0 ? x / k->sc[c] : 2 * x / (sqrt(u) + k->sc[c]);
        }
        k->plane[0][i] = (float)((t[0] + t[1] + t[2]) * r3);
        k->plane[1][i] = (float)((t[0] - t[2]) * r2);
        k->plane[2][i] = (float)((t[0] - 2 * t[1] + t[2]) * r6);
    }
}

static void pe_dn_inverse_rows(void *p, int y0, int y1) {
    pe_dn_basis *k = p;
    const double r3 = 1 / sqrt(3.0), r2 = 1 / sqrt(2.0), r6 = 1 / sqrt(6.0);
    for (long i = (long)y0 * k->width; i < (long)y1 * k->width; i++) {
        double y = k->plane[0][i] * r3, u = k->plane[1][i] * r2, v = k->plane[2][i] * r6;
        double t[3] = { y + u + v, y - 2 * v, y - u + v };
        for (int c = 0; c < 3; c++) {
            double x = t[c] <= 0 ? k->sc[c] * t[c] : k->sc[c] * t[c] + k->a[c] * t[c] * t[c] / 4;
            k->rgb[3 * i + c] = (float)x;
        }
    }
}

/* ---- à-trous wavelet shrinkage of one plane ---- */

/* One B3-spline row blur with holes of d pixels, reflected at the ends. */
static void pe_dn_blur_row(const float *row, float *o, int w, int d) {
    /* Columns [lo, hi) have all four neighbours inside the row. */
    const int lo = 2 * d < w ? 2 * d : w, hi = w - 2 * d > lo ? w - 2 * d : lo;
    for (int x = 0; x < w; x++) {
        if (x == lo) {
            for (; x < hi; x++) {
                o[x] = (row[x - 2 * d] + row[x + 2 * d] + 4 * (row[x - d] + row[x + d]) + 6 * row[x]) * (1.0f / 16);
            }
            if (x >= w) break;
        }
        float s = row[pe_dn_reflect(x - 2 * d, w)] + row[pe_dn_reflect(x + 2 * d, w)]
            + 4 * (row[pe_dn_reflect(x - d, w)] + row[pe_dn_reflect(x + d, w)]) + 6 * row[x];
        o[x] = s * (1.0f / 16);
    }
}

/* The horizontal part of the local energy of a scale's detail
 * coefficients w = fine − coarse in one row: the mean of w² over 2r + 1
 * pixels (a running sum; `pad` holds w + 2r + 2 floats). The vertical part
 * is fused with the shrinkage (pe_dn_shrink_rows). */
static void pe_dn_energy_row(const float *f, const float *c, float *o, int w, int r, float *pad) {
    const float scale = 1.0f / (2 * r + 1);
    /* The squares at [r, r + w), reflected into r + 1 cells each side. */
    float *sq = pad + r;
    for (int x = 0; x < w; x++) {
        float v = f[x] - c[x];
        sq[x] = v * v;
    }
    for (int x = -r; x < 0; x++) sq[x] = sq[pe_dn_reflect(x, w)];
    for (int x = w; x <= w + r; x++) sq[x] = sq[pe_dn_reflect(x, w)];
    double sum = 0;
    for (int x = -r; x <= r; x++) sum += sq[x];
    for (int x = 0; x < w; x++) {
        o[x] = (float)(sum * scale);
        sum += sq[x + r + 1] - sq[x - r];
    }
}

/* One scale in one pass over row bands: the separable à-trous blur of
 * `fine` into `coarse` (the rows' horizontal blurs kept in a ring of 4d + 1
 * rows, each computed once per band), and, when `energy` is set, the
 * horizontal local energy of fine − coarse into it. */
typedef struct {
    const float *fine;
    float *coarse, *energy;
    int width, height, hole, radius;
    int failed;  /* set (atomically) when a band's memory ran out */
} pe_dn_scale;

static void pe_dn_scale_rows(void *p, int y0, int y1) {
    pe_dn_scale *k = p;
    const int w = k->width, h = k->height, d = k->hole, r = k->radius, slots = 4 * d + 1;
    float *ring = malloc(sizeof(float) * ((size_t)slots * w + (size_t)w + 2 * (size_t)r + 2));
    int *tag = malloc(sizeof(int) * (size_t)slots);
    if (!ring || !tag) {
        free(ring); free(tag);
        __atomic_store_n(&k->failed, 1, __ATOMIC_RELAXED);
        return;
    }
    float *pad = ring + (size_t)slots * w;
    for (int i = 0; i < slots; i++) tag[i] = -1;
    for (int y = y0; y < y1; y++) {
        /* The rows a blur needs are at most 4d + 1 consecutive ones (also
         * when reflected), so row i's slot i mod (4d + 1) is its own. */
        const float *at[5];
        for (int t = 0; t < 5; t++) {
            int i = pe_dn_reflect(y + (t - 2) * d, h), slot = i % slots;
            float *row = ring + (size_t)slot * w;
            if (tag[slot] != i) {
                pe_dn_blur_row(k->fine + (long)i * w, row, w, d);
                tag[slot] = i;
            }
            at[t] = row;
        }
        float *o = k->coarse + (long)y * w;
        for (int x = 0; x < w; x++) o[x] = (at[0][x] + at[4][x] + 4 * (at[1][x] + at[3][x]) + 6 * at[2][x]) * (1.0f / 16);
        if (k->energy) pe_dn_energy_row(k->fine + (long)y * w, o, k->energy + (long)y * w, w, r, pad);
    }
    free(ring);
    free(tag);
}

/* Locally adaptive Wiener shrinkage of one scale: with E the local mean of
 * w², the signal's variance is s² = max(0, E − σ²) and w is scaled by
 * s² / (s² + (λσ)²) (λ = 1: the minimum mean-square error estimate). E is
 * the vertical box of `rows` (see pe_dn_energy_rows), slid down each band. */
typedef struct {
    const float *fine, *coarse, *rows;
    float *sum;
    int width, height, radius;
    float noise2;   /* σ² of this scale */
    float lambda2;  /* (λσ)² */
    int first, keep;
} pe_dn_shrink;

static inline void pe_dn_shrink_row(const pe_dn_shrink *k, int y, const double *column, float scale) {
    const long at = (long)y * k->width;
    const float *restrict f = k->fine + at, *restrict c = k->coarse + at;
    float *restrict out = k->sum + at;
    const int n = k->width;
    const float noise2 = k->noise2, lambda2 = k->lambda2;
    /* Branches hoisted out of the loops, which the compiler vectorises. */
    if (k->keep) {
        if (k->first) for (int x = 0; x < n; x++) out[x] = f[x] - c[x];
        else for (int x = 0; x < n; x++) out[x] += f[x] - c[x];
        return;
    }
    if (k->first) {
        for (int x = 0; x < n; x++) {
            float s2 = (float)(column[x] * scale) - noise2;
            float g = s2 / (s2 + lambda2);
            out[x] = s2 <= 0 ? 0 : (f[x] - c[x]) * g;
        }
    } else {
        for (int x = 0; x < n; x++) {
            float s2 = (float)(column[x] * scale) - noise2;
            float g = s2 / (s2 + lambda2);
            out[x] += s2 <= 0 ? 0 : (f[x] - c[x]) * g;
        }
    }
}

static void pe_dn_shrink_rows(void *p, int y0, int y1) {
    pe_dn_shrink *k = p;
    const int w = k->width, h = k->height, r = k->radius;
    const float scale = 1.0f / (2 * r + 1);
    double *column = calloc((size_t)w, sizeof(double));
    if (!column) {
        double *one = malloc(sizeof(double) * (size_t)w);
        for (int y = y0; y < y1; y++) {
            if (!k->keep && one) {
                for (int x = 0; x < w; x++) {
                    double s = 0;
                    for (int d = -r; d <= r; d++) s += k->rows[(long)pe_dn_reflect(y + d, h) * w + x];
                    one[x] = s;
                }
            }
            pe_dn_shrink fallback = *k;
            if (!one) fallback.keep = 1;
            pe_dn_shrink_row(&fallback, y, one, scale);
        }
        free(one);
        return;
    }
    if (!k->keep) {
        for (int d = -r; d <= r; d++) {
            const float *row = k->rows + (long)pe_dn_reflect(y0 + d, h) * w;
            for (int x = 0; x < w; x++) column[x] += row[x];
        }
    }
    for (int y = y0; y < y1; y++) {
        pe_dn_shrink_row(k, y, column, scale);
        if (k->keep) continue;
        const float *add = k->rows + (long)pe_dn_reflect(y + r + 1, h) * w;
        const float *sub = k->rows + (long)pe_dn_reflect(y - r, h) * w;
        for (int x = 0; x < w; x++) column[x] += add[x] - sub[x];
    }
    free(column);
}

typedef struct {
    float *plane;
    const float *coarse;
    int width;
} pe_dn_add;

static void pe_dn_add_rows(void *p, int y0, int y1) {
    pe_dn_add *k = p;
    for (long i = (long)y0 * k->width; i < (long)y1 * k->width; i++) k->plane[i] += k->coarse[i];
}

/* The radius of the window the local energy of scale j is measured in:
 * wider at coarser scales, whose coefficients are correlated over 2^j pixels. */
static int pe_dn_window(int j) {
    static const int radius[PE_DN_MAX_LEVELS] = { 2, 3, 5, 8, 12, 16 };
    return radius[j];
}

/* The k-th smallest of n floats (reorders them; Hoare's selection). */
static float pe_dn_select(float *v, size_t n, size_t k) {
    size_t lo = 0, hi = n - 1;
    while (lo < hi) {
        float pivot = v[lo + (hi - lo) / 2];
        size_t i = lo, j = hi;
        while (i <= j) {
            while (v[i] < pivot) i++;
            while (v[j] > pivot) j--;
            if (i <= j) {
                float t = v[i]; v[i] = v[j]; v[j] = t;
                i++;
                if (j == 0) break;
                j--;
            }
        }
        if (k <= j) hi = j;
        else if (k >= i) lo = i;
        else return v[k];
    }
    return v[k];
}

/* The 10th percentile of the local energy E over an even sample of at most
 * 2^16 pixels, E from the horizontal boxes `rows` (radius r). */
static double pe_dn_low_energy(const float *rows, int width, int height, int r) {
    size_t n = (size_t)width * height, step = n / 65536 + 1, count = (n + step - 1) / step;
    float *sample = malloc(sizeof(float) * count);
    if (!sample) return -1;
    for (size_t i = 0; i < count; i++) {
        size_t at = i * step;
        int y = (int)(at / (size_t)width), x = (int)(at % (size_t)width);
        double s = 0;
        for (int d = -r; d <= r; d++) s += rows[(long)pe_dn_reflect(y + d, height) * width + x];
        sample[i] = (float)(s / (2 * r + 1));
    }
    double low = pe_dn_select(sample, count, count / 10);
    free(sample);
    return low;
}

/* Shrinks `plane` in place: `levels` scales with noise σ_j (unit input
 * noise) and strengths λ_j. Work: 3 planes (cur, next, tmp). Returns 0,
 * or -1 when memory ran out (`plane` is then partly shrunk). */
static int pe_dn_wavelet(float *plane, float *cur, float *next, float *tmp, int width, int height,
                          const double *lambda, int levels, int threads) {
    memcpy(cur, plane, sizeof(float) * (size_t)width * height);
    for (int j = 0; j < levels; j++) {
        const int radius = pe_dn_window(j);
        double sigma = pe_dn_level_sigma[j];
        pe_dn_scale scale = { cur, next, lambda[j] > 0 ? tmp : NULL, width, height, 1 << j, radius, 0 };
        pe_dn_parallel(height, threads, pe_dn_scale_rows, &scale);
        if (scale.failed) return -1;
        if (lambda[j] > 0) {
            if (j < PE_DN_MEASURED) {
                double low = pe_dn_low_energy(tmp, width, height, radius);
                double r = low > 0 ? sqrt(low) / (pe_dn_low_white[j] * sigma) : 1;
                sigma *= r < PE_DN_FLOOR ? PE_DN_FLOOR : r > PE_DN_CAP ? PE_DN_CAP : r;
            }
        }
        /* Strength 0 at a scale keeps its details whole. */
        pe_dn_shrink s = { cur, next, tmp, plane, width, height, radius, (float)(sigma * sigma),
                           (float)(lambda[j] * lambda[j] * sigma * sigma), j == 0, !(lambda[j] > 0) };
        pe_dn_parallel(height, threads, pe_dn_shrink_rows, &s);
        float *swap = cur; cur = next; next = swap;
    }
    pe_dn_add add = { plane, cur, width };
    pe_dn_parallel(height, threads, pe_dn_add_rows, &add);
    return 0;
}

static double pe_dn_clamp(double v, double lo, double hi) {
    return !(v >= lo) ? lo : v > hi ? hi : v;
}

int pe_denoise_rgb(float *rgb, int width, int height, const pe_denoise_settings *s) {
    if (!rgb || !s || width < 1 || height < 1 || (long)width * height > 400L * 1000 * 1000) return -1;
    double luma = pe_dn_clamp(s->luma, 0, 1.5), chroma = pe_dn_clamp(s->chroma, 0, 1.5);
    if (luma == 0 && chroma == 0) return 0;
    int threads = s->threads < 1 ? 1 : s->threads > 16 ? 16 : s->threads;
    size_t n = (size_t)width * height;
    float *memory = malloc(sizeof(float) * n * 6);
    if (!memory) return -1;
    pe_dn_basis basis = { rgb, { memory, memory + n, memory + 2 * n }, width, { 0 }, { 0 } };
    for (int c = 0; c < 3; c++) {
        double a = pe_dn_clamp(s->a[c], 0, 1), b = pe_dn_clamp(s->b[c], 0, 1);
        basis.a[c] = a;
        basis.sc[c] = sqrt(fmax(0.375 * a * a + b, 1e-14));
    }
    pe_dn_parallel(height, threads, pe_dn_forward_rows, &basis);
    float *cur = memory + 3 * n, *next = memory + 4 * n, *tmp = memory + 5 * n;

    double lambda[PE_DN_MAX_LEVELS];
    int failed = 0;
    /* A reduced image (a preview): the full-size render's finest `drop`
     * scales fall below its pixels (reduced away with their noise, which
     * the model's variance × scale² accounts for), so its scale j is the
     * full size's scale j + drop and takes that scale's strength; scales
     * coarser than the full size's last are left alone, as there. */
    double scale = s->scale > 0 && s->scale < 1 ? pe_dn_clamp(s->scale, 1e-6, 1) : 1;
    int drop = (int)lround(-log2(scale));
    if (luma > 0) {
        /* Detail 0.5 is neutral; more spares the two finest scales, less
         * smooths them harder. Contrast spares the coarser scales. */
        double detail = pe_dn_clamp(s->luma_detail, 0, 1), contrast = pe_dn_clamp(s->luma_contrast, 0, 1);
        for (int j = 0; j < PE_DN_LUMA_LEVELS; j++) {
            double f = j == 0 ? 1 + 1.2 * (0.5 - detail) : j == 1 ? 1 + 0.6 * (0.5 - detail) : 1 - 0.8 * contrast;
            lambda[j] = PE_DN_LUMA_GAIN * luma * f;
        }
        if (PE_DN_LUMA_LEVELS > drop) {
            failed |= pe_dn_wavelet(basis.plane[0], cur, next, tmp, width, height, lambda + drop,
                                    PE_DN_LUMA_LEVELS - drop, threads);
        }
    }
    if (chroma > 0) {
        double detail = pe_dn_clamp(s->chroma_detail, 0, 1), smooth = pe_dn_clamp(s->chroma_smoothness, 0, 1);
        int levels = 3 + (int)lround(3 * smooth);
        for (int j = 0; j < levels; j++) {
            double f = j == 0 ? 1 + 1.2 * (0.5 - detail) : j == 1 ? 1 + 0.6 * (0.5 - detail) : 1;
            lambda[j] = PE_DN_CHROMA_GAIN * chroma * f;
        }
        for (int p = 1; p < 3 && !failed && levels > drop; p++) {
            failed |= pe_dn_wavelet(basis.plane[p], cur, next, tmp, width, height, lambda + drop,
                                    levels - drop, threads);
        }
    }
    if (failed) {   /* `rgb` is untouched until here */
        free(memory);
        return -1;
    }
    pe_dn_parallel(height, threads, pe_dn_inverse_rows, &basis);
    free(memory);
    return 0;
}

typedef struct { float *rgb; long width; const double *m; } pe_dn_matrix;

static void pe_dn_matrix_rows(void *ctx, int y0, int y1) {
    const pe_dn_matrix *k = ctx;
    const double *m = k->m;
    for (long i = (long)y0 * k->width; i < (long)y1 * k->width; i++) {
        float *p = k->rgb + 3 * i;
        double r = p[0], g = p[1], b = p[2];
        for (int c = 0; c < 3; c++) {
            double v = m[3 * c] * r + m[3 * c + 1] * g + m[3 * c + 2] * b;
            p[c] = (float)(v < 0 ? 0 : v > 1 ? 1 : v);
        }
    }
}

void pe_denoise_matrix(float *rgb, long n, const double matrix[9], int threads) {
    if (!rgb || n < 1) return;
    /* Rows of 4096 pixels, the last one partial. */
    long width = 4096, rows = (n + width - 1) / width, whole = n / width;
    pe_dn_matrix k = { rgb, width, matrix };
    if (whole > 0) pe_dn_parallel((int)whole, threads < 1 ? 1 : threads > 16 ? 16 : threads, pe_dn_matrix_rows, &k);
    if (rows > whole) {
        pe_dn_matrix tail = { rgb + 3 * whole * width, n - whole * width, matrix };
        pe_dn_matrix_rows(&tail, 0, 1);
    }
}

/* ---- estimation from flat blocks ---- */

#define PE_DN_BLOCK 16

typedef struct { double mean, variance; } pe_dn_sample;

static int pe_dn_by_mean(const void *l, const void *r) {
    double a = ((const pe_dn_sample *)l)->mean, b = ((const pe_dn_sample *)r)->mean;
    return a < b ? -1 : a > b;
}

static int pe_dn_by_variance(const void *l, const void *r) {
    double a = ((const pe_dn_sample *)l)->variance, b = ((const pe_dn_sample *)r)->variance;
    return a < b ? -1 : a > b;
}

int pe_denoise_estimate(const float *rgb, int width, int height, double a[3], double b[3]) {
    for (int c = 0; c < 3; c++) a[c] = b[c] = 0;
    if (!rgb || width < 3 * PE_DN_BLOCK || height < 3 * PE_DN_BLOCK) return 0;
    int bx = (width - 2) / PE_DN_BLOCK, by = (height - 2) / PE_DN_BLOCK;
    /* At most ~40 000 blocks, spread evenly. */
    int step = 1;
    while ((long)(bx / step) * (by / step) > 40000) step++;
    long capacity = (long)(bx / step + 1) * (by / step + 1);
    pe_dn_sample *samples = malloc(sizeof(pe_dn_sample) * capacity);
    if (!samples) return 0;
    int used = 0;
    for (int c = 0; c < 3; c++) {
        long count = 0;
        for (int j = 0; j < by; j += step) {
            for (int i = 0; i < bx; i += step) {
                int x0 = 1 + i * PE_DN_BLOCK, y0 = 1 + j * PE_DN_BLOCK;
                double sum = 0, rs = 0, rss = 0;
                int clipped = 0;
                for (int y = y0; y < y0 + PE_DN_BLOCK; y++) {
                    const float *row = rgb + ((long)y * width) * 3 + c;
                    for (int x = x0; x < x0 + PE_DN_BLOCK; x++) {
                        double v = row[3 * x];
                        if (v >= 0.995 || v <= -0.5) clipped = 1;
                        double r = v - 0.25 * (row[3 * (x - 1)] + row[3 * (x + 1)] + row[3 * (x - width)] + row[3 * (x + width)]);
                        sum += v; rs += r; rss += r * r;
                    }
                }
                if (clipped) continue;
                double m = sum / (PE_DN_BLOCK * PE_DN_BLOCK);
                if (m < 0.001 || m > 0.95) continue;
                double n = PE_DN_BLOCK * PE_DN_BLOCK;
                /* A residual x − mean of 4 neighbours has 1.25 × the variance of white noise. */
                samples[count++] = (pe_dn_sample){ m, (rss - rs * rs / n) / (n - 1) / 1.25 };
            }
        }
        if (count < 32) continue;
        qsort(samples, count, sizeof(pe_dn_sample), pe_dn_by_mean);
        int groups = (int)(count / 64);
        if (groups > 16) groups = 16;
        if (groups < 1) groups = 1;
        double sw = 0, sm = 0, sv = 0, smm = 0, smv = 0;
        double means[16], vars[16];
        for (int g = 0; g < groups; g++) {
            long from = count * g / groups, to = count * (g + 1) / groups;
            pe_dn_sample *group = samples + from;
            long size = to - from;
            double mean = 0;
            for (long k = 0; k < size; k++) mean += group[k].mean;
            mean /= size;
            qsort(group, size, sizeof(pe_dn_sample), pe_dn_by_variance);
            /* The 10th percentile of flat blocks' variance is ~0.88 of the noise's. */
            double v = group[size / 10].variance / 0.88;
            means[g] = mean; vars[g] = v;
            sw += 1; sm += mean; sv += v; smm += mean * mean; smv += mean * v;
        }
        double det = sw * smm - sm * sm;
        double fa = det > 1e-18 ? (sw * smv - sm * sv) / det : 0;
        double fb = det > 1e-18 ? (sv - fa * sm) / sw : sv / sw;
        if (fa < 0) { fa = 0; fb = sv / sw; }
        if (fb < 0) {
            fb = 0;
            double num = 0, den = 0;
            for (int g = 0; g < groups; g++) { num += means[g] * vars[g]; den += means[g] * means[g]; }
            fa = den > 0 ? num / den : 0;
        }
        a[c] = fa; b[c] = fb;
        if (count > used) used = (int)count;
    }
    free(samples);
    return used;
}

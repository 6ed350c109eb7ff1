/*
 * photoedit_presence.c — the small-image steps of the presence filters
 * (issue 26's cost goal) as plain loops instead of libvips operations, with
 * the same numbers libvips gives:
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
#include "photoedit_shim.h"

#include <math.h>
#include <string.h>

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

/* Along columns: row pointers with the edge rows repeated; `sums` w doubles. */
static void pe_blur_columns(const float *in, float *out, int w, int h, const double *t, int radius, double *sums) {
#pragma STDC FP_CONTRACT OFF
    int n = 2 * radius + 1;
    for (int y = 0; y < h; y++) {
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
    float *plane = g_try_new(float, n), *across = g_try_new(float, n), *pad = g_try_new(float, (size_t) w + 2 * radius);
    double *sums = g_try_new(double, w);
    float *result = g_try_new(float, n * bands);
    if (!plane || !across || !pad || !sums || !result) {
        g_free(plane); g_free(across); g_free(pad); g_free(sums); g_free(result); g_free(t);
        vips_error("photoedit", "out of memory for the blur");
        return NULL;
    }
    for (int c = 0; c < bands; c++) {
        for (int y = 0; y < h; y++) {
            const float *p = (const float *) VIPS_IMAGE_ADDR(in, 0, y);
            float *row = plane + (size_t) y * w;
            for (int x = 0; x < w; x++) row[x] = p[x * bands + c];
        }
        pe_blur_rows(plane, across, w, h, t, radius, pad, sums);
        pe_blur_columns(across, plane, w, h, t, radius, sums);
        for (size_t k = 0; k < n; k++) result[k * bands + c] = plane[k];
    }
    VipsImage *out = vips_image_new_from_memory_copy(result, sizeof(float) * n * bands, w, h, bands, VIPS_FORMAT_FLOAT);
    g_free(plane); g_free(across); g_free(pad); g_free(sums); g_free(result); g_free(t);
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

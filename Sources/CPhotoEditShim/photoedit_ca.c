/*
 * photoedit_ca.c — lateral chromatic aberration measured on a photo.
 *
 * Each colour channel of a lens with lateral CA is the green image
 * magnified a little about the optical centre (taken as the image centre).
 * On perceptual (square-root) planes, high-passed by a 7 × 7 box so flat
 * colour differences drop out, the channel c is fitted at edge pixels
 * (strong green gradient, away from the centre, nothing clipped) as
 *     c ≈ a · G + b · D,   D = (x − cx) ∂G/∂x + (y − cy) ∂G/∂y,
 * the first-order expansion of a · G((1 + b/a) · (x − c)): least squares
 * give a and b, the magnification is 1 + b/a. Three rounds: the channel is
 * resampled (bilinear) with the magnification found so far and the
 * remainder fitted again.
 */
#include "photoedit_ca.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define PE_CA_BOX 3          /* the high-pass box's radius (7 × 7) */
#define PE_CA_ROUNDS 3
#define PE_CA_LIMIT 0.01     /* at most ±1 % magnification */
#define PE_CA_MIN_EDGES 500

/* v − mean of its (2r+1)² box (clamped to the image), by a summed-area table. */
static void high_pass(const float *v, int w, int h, double *sat, float *out) {
    for (int y = 0; y <= h; y++) sat[(size_t) y * (w + 1)] = 0;
    for (int x = 0; x <= w; x++) sat[x] = 0;
    for (int y = 0; y < h; y++) {
        double row = 0;
        for (int x = 0; x < w; x++) {
            row += v[(size_t) y * w + x];
            sat[(size_t) (y + 1) * (w + 1) + x + 1] = sat[(size_t) y * (w + 1) + x + 1] + row;
        }
    }
    for (int y = 0; y < h; y++) {
        int y0 = y - PE_CA_BOX < 0 ? 0 : y - PE_CA_BOX, y1 = y + PE_CA_BOX + 1 > h ? h : y + PE_CA_BOX + 1;
        for (int x = 0; x < w; x++) {
            int x0 = x - PE_CA_BOX < 0 ? 0 : x - PE_CA_BOX, x1 = x + PE_CA_BOX + 1 > w ? w : x + PE_CA_BOX + 1;
            double sum = sat[(size_t) y1 * (w + 1) + x1] - sat[(size_t) y0 * (w + 1) + x1]
                       - sat[(size_t) y1 * (w + 1) + x0] + sat[(size_t) y0 * (w + 1) + x0];
            out[(size_t) y * w + x] = (float) (v[(size_t) y * w + x] - sum / ((double) (x1 - x0) * (y1 - y0)));
        }
    }
}

/* The source position of output coordinate `v` (image side `n`, centre `c`)
 * magnified by `k`, clamped to the image: its lower pixel, the next one
 * (edges repeated) and the fraction between them. */
static void source_position(int v, int n, double c, double k, int *i0, int *i1, double *f) {
    double s = c + (v - c) / k;
    if (s < 0) s = 0;
    if (s > n - 1) s = n - 1;
    *i0 = (int) s;
    *i1 = *i0 + 1 < n ? *i0 + 1 : *i0;
    *f = s - *i0;
}

/* `plane` magnified by `k` about (cx, cy): out(x) = plane(c + (x − c) / k), bilinear, edges repeated. */
static void magnified(const float *plane, int w, int h, double cx, double cy, double k, float *out) {
    for (int y = 0; y < h; y++) {
        int y0, y1;
        double fy;
        source_position(y, h, cy, k, &y0, &y1, &fy);
        for (int x = 0; x < w; x++) {
            int x0, x1;
            double fx;
            source_position(x, w, cx, k, &x0, &x1, &fx);
            double top = plane[(size_t) y0 * w + x0] * (1 - fx) + plane[(size_t) y0 * w + x1] * fx;
            double bottom = plane[(size_t) y1 * w + x0] * (1 - fx) + plane[(size_t) y1 * w + x1] * fx;
            out[(size_t) y * w + x] = (float) (top * (1 - fy) + bottom * fy);
        }
    }
}

int pe_measure_lateral_ca(const float *rgb, int width, int height, double *red, double *blue) {
    if (!rgb || !red || !blue || width < 16 || height < 16 || (size_t) width * height > 16000000) return -1;
    *red = 1;
    *blue = 1;
    int w = width, h = height;
    size_t n = (size_t) w * h;
    float *planes = malloc(3 * n * sizeof(float)), *hp = malloc(n * sizeof(float)), *g = malloc(n * sizeof(float));
    float *dg = malloc(n * sizeof(float)), *work = malloc(n * sizeof(float));
    unsigned char *use = malloc(n);
    double *sat = malloc((size_t) (w + 1) * (h + 1) * sizeof(double));
    int edges = 0;
    if (!planes || !hp || !g || !dg || !work || !use || !sat) {
        edges = -1;
        goto done;
    }
    /* Perceptual planes; pixels with a clipped channel are not used. */
    memset(use, 1, n);
    for (size_t i = 0; i < n; i++) {
        for (int c = 0; c < 3; c++) {
            float v = rgb[3 * i + c];
            if (!(v < 0.97f)) use[i] = 0;
            planes[c * n + i] = v > 0 ? sqrtf(v) : 0;
        }
    }
    double cx = (w - 1) / 2.0, cy = (h - 1) / 2.0, rmax = sqrt(cx * cx + cy * cy);
    high_pass(planes + n, w, h, sat, g);
    /* The radial derivative of green, and the edge pixels: outside a quarter
     * of the radius, gradient above the 90th percentile (and above 0.01). */
    float *magnitude = work;
    int count = 0;
    for (int y = 1; y < h - 1; y++) {
        for (int x = 1; x < w - 1; x++) {
            size_t i = (size_t) y * w + x;
            double gx = (g[i + 1] - g[i - 1]) / 2, gy = (g[i + w] - g[i - w]) / 2;
            dg[i] = (float) ((x - cx) * gx + (y - cy) * gy);
            double r = sqrt((x - cx) * (x - cx) + (y - cy) * (y - cy));
            magnitude[i] = (float) sqrt(gx * gx + gy * gy);
            if (r < 0.25 * rmax || !use[i]) magnitude[i] = 0;
            if (magnitude[i] > 0) count++;
        }
    }
    for (int x = 0; x < w; x++) { magnitude[x] = 0; magnitude[(size_t) (h - 1) * w + x] = 0; }
    for (int y = 0; y < h; y++) { magnitude[(size_t) y * w] = 0; magnitude[(size_t) y * w + w - 1] = 0; }
    /* The 90th percentile of the non-zero magnitudes, by a histogram on 0…1. */
    enum { BINS = 4096 };
    static const double top = 1.0;
    int histogram[BINS] = {0};
    for (size_t i = 0; i < n; i++) {
        if (magnitude[i] > 0) {
            int b = (int) (magnitude[i] / top * (BINS - 1));
            histogram[b < BINS ? b : BINS - 1]++;
        }
    }
    double threshold = 0.01;
    int seen = 0;
    for (int b = BINS - 1; b >= 0; b--) {
        seen += histogram[b];
        if (seen >= count / 10) {
            double t = (double) b / (BINS - 1) * top;
            if (t > threshold) threshold = t;
            break;
        }
    }
    for (size_t i = 0; i < n; i++) {
        use[i] = magnitude[i] > threshold;
        if (use[i]) edges++;
    }
    if (edges < PE_CA_MIN_EDGES) {
        edges = 0;
        goto done;
    }
    for (int channel = 0; channel < 3; channel += 2) {
        double k = 1;
        for (int round = 0; round < PE_CA_ROUNDS; round++) {
            magnified(planes + channel * n, w, h, cx, cy, k, work);
            high_pass(work, w, h, sat, hp);
            /* Least squares of hp ≈ a·g + b·dg over the edge pixels. */
            double sgg = 0, sgd = 0, sdd = 0, scg = 0, scd = 0;
            for (size_t i = 0; i < n; i++) {
                if (!use[i]) continue;
                sgg += (double) g[i] * g[i];
                sgd += (double) g[i] * dg[i];
                sdd += (double) dg[i] * dg[i];
                scg += (double) hp[i] * g[i];
                scd += (double) hp[i] * dg[i];
            }
            double det = sgg * sdd - sgd * sgd;
            if (!(fabs(det) > 1e-12 * sgg * sdd)) break;
            double a = (scg * sdd - scd * sgd) / det, b = (sgg * scd - sgd * scg) / det;
            if (!(a > 0.05)) break;  /* the channel does not follow green's edges */
            double step = 1 + b / a;
            k *= step;
            if (k < 1 - PE_CA_LIMIT) k = 1 - PE_CA_LIMIT;
            if (k > 1 + PE_CA_LIMIT) k = 1 + PE_CA_LIMIT;
            if (fabs(step - 1) < 1e-6) break;
        }
        *(channel == 0 ? red : blue) = k;
    }
done:
    free(planes); free(hp); free(g); free(dg); free(work); free(use); free(sat);
    return edges;
}

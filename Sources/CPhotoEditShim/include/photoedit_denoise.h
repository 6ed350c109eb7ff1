/*
 * photoedit_denoise.h — profiled noise reduction on a float RGB buffer
 * (the `denoise` filter, issue 39).
 *
 * Noise model: Poisson–Gaussian, per channel c, variance(x) = a[c]·x + b[c]
 * with x the linear value (1 = white): darktable's noise profiles.
 * pe_denoise_rgb stabilises the variance (generalised Anscombe transform),
 * decorrelates luminance and two colour-difference planes, shrinks their
 * à-trous (B3 spline) wavelet details by a locally adaptive Wiener gain
 * against the noise of each scale, and transforms back. On a reduced image
 * (`scale` < 1) the full size's finest scales, below its pixels, are skipped.
 * Each pass runs in row bands on `threads` threads; the result depends on
 * their number only by float rounding (running sums start at each band).
 */
#ifndef PHOTOEDIT_DENOISE_H
#define PHOTOEDIT_DENOISE_H

typedef struct {
    double a[3], b[3];          /* noise model of the buffer's values, per channel (a, b >= 0) */
    double luma;                /* 0…1.5: luminance strength (0.5: least squares) */
    double luma_detail;         /* 0…1: spares the finest luminance scale */
    double luma_contrast;       /* 0…1: spares the medium and coarse luminance scales */
    double chroma;              /* 0…1.5: colour strength */
    double chroma_detail;       /* 0…1: spares the finest colour scale */
    double chroma_smoothness;   /* 0…1: how coarse the colour noise removed may be (more scales) */
    double scale;               /* the image's scale against the full-size photo (a preview: < 1;
                                   0 means 1): its wavelet scales follow the full size's, so a
                                   preview looks like the full render reduced (see the .c) */
    int threads;                /* 1…16 */
} pe_denoise_settings;

/* Denoises `rgb` (width × height pixels, 3 interleaved floats each) in place.
 * Returns 0, or -1 when memory runs out or a size or setting is out of range
 * (the buffer is then unchanged). */
int pe_denoise_rgb(float *rgb, int width, int height, const pe_denoise_settings *settings);

/* Multiplies each of the n pixels of `rgb` (3 interleaved floats) by the
 * row-major 3x3 `matrix` and clips the result to 0…1 (a RAW's camera RGB
 * to the working space, as libraw's 16-bit output clips it). */
void pe_denoise_matrix(float *rgb, long n, const double matrix[9], int threads);

/* Estimates the noise model of `rgb` from its flattest blocks: per channel,
 * the residual variance of 16 × 16 blocks is binned by the blocks' mean; the
 * low percentile of each bin is taken as the noise there, and var = a·x + b
 * fitted to the bins (a, b >= 0). Returns the number of blocks used (0 when
 * the image is too small to say: a and b are then 0). */
int pe_denoise_estimate(const float *rgb, int width, int height, double a[3], double b[3]);

#endif

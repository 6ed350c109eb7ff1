/*
 * photoedit_ca.h — lateral chromatic aberration measured on a photo
 * (photoedit_ca.c), for the `ca` filter's automatic mode.
 */
#ifndef PHOTOEDIT_CA_H
#define PHOTOEDIT_CA_H

/*
 * pe_measure_lateral_ca: `rgb` is `width` × `height` interleaved linear RGB
 * floats. Finds the magnification of red and of blue about the image
 * centre that best aligns their edges with green's (the correction of
 * lateral chromatic aberration): writes them to `red` and `blue` (1 =
 * already aligned; each within 0.99…1.01) and returns the number of edge
 * pixels the estimate used
 * (0: too few edges, both left at 1). -1 when the arguments are unusable.
 */
int pe_measure_lateral_ca(const float *rgb, int width, int height, double *red, double *blue);

#endif

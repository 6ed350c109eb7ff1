#ifndef PHOTOEDIT_EXPORT_H
#define PHOTOEDIT_EXPORT_H

#include <vips/vips.h>

/* Parses the image's "exif-data" blob into libvips' "exif-ifdN-…" fields,
 * as a loader does, so that a save writes that blob (libvips rebuilds the
 * EXIF it saves from those fields). Returns 0 on success. */
int pe_exif_parse(VipsImage *image);

/* Extended attributes of a file (the export record of an exported file):
 * setxattr(2) / getxattr(2), which Swift does not import on Linux.
 * Return 0 / the value's length on success, -1 on failure. */
int pe_set_xattr(const char *path, const char *name, const char *value);
long pe_get_xattr(const char *path, const char *name, char *buffer, unsigned long size);

#endif

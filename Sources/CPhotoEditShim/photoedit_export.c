#include "photoedit_export.h"

#include <string.h>
#include <sys/xattr.h>

/* libvips' own parser (libvips/foreign/exif.c), exported by libvips.so but
 * not declared in its public headers. */
extern int vips__exif_parse(VipsImage *image);

int pe_exif_parse(VipsImage *image) {
    return vips__exif_parse(image);
}

int pe_set_xattr(const char *path, const char *name, const char *value) {
    return setxattr(path, name, value, strlen(value), 0);
}

long pe_get_xattr(const char *path, const char *name, char *buffer, unsigned long size) {
    return (long)getxattr(path, name, buffer, size);
}

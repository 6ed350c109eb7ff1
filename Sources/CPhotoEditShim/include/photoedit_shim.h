/*
 * photoedit_shim.h — non-variadic C entry points for Swift.
 *
 * Swift cannot call C variadic functions (vips_image_new_from_file(path, NULL),
 * vips_call(...), ...). Every libvips operation is reached instead through the
 * generic operation API: create the operation by name, set each argument as a
 * GObject property, build it through the operation cache, read its outputs.
 * These helpers do the GValue work, which Swift cannot express cleanly.
 *
 * Error convention: functions returning int return 0 on success and -1 on
 * failure, with the reason appended to libvips' error buffer; functions
 * returning pointers return NULL on failure.
 *
 * This header declares photoedit_shim.c (libvips' generic operation calls,
 * image fields, libraw, SQLite, file writeback). Every other C file of the
 * target has its own header beside this one (photoedit_masks.h,
 * photoedit_presence.h, photoedit_presence_passes.h, photoedit_reduce.h,
 * photoedit_srgb.h, photoedit_tone.h); Swift sees them all through
 * `import CPhotoEditShim`.
 */
#ifndef PHOTOEDIT_SHIM_H
#define PHOTOEDIT_SHIM_H

#include <stddef.h>
#include <vips/vips.h>

/* Start libvips once per process (idempotent, thread-safe). */
int pe_vips_init(const char *argv0);
/* Fixes glibc's mmap threshold at `bytes` (mallopt M_MMAP_THRESHOLD), which
   also stops glibc from raising it after each free of a large block. */
int pe_set_mmap_threshold(int bytes);
/* Loads libvips' optional format modules (deferred at start-up; see the
 * .c file), once; returns when they are loaded. */
void pe_vips_load_modules(void);
/* Whether the modules are loaded (or were never deferred). */
int pe_vips_modules_loaded(void);

/* Take (copy and clear) libvips' error buffer. Free the result with g_free. */
char *pe_error_take(void);

/* Generic operation call. */
VipsOperation *pe_operation_new(const char *name);
int pe_set_image(VipsOperation *op, const char *name, VipsImage *image);
int pe_set_images(VipsOperation *op, const char *name, VipsImage **images, int n);
/* Sets an int, double, boolean or unsigned property from a double. */
int pe_set_number(VipsOperation *op, const char *name, double value);
/* Sets a string property, or an enum / flags property from its nick. */
int pe_set_string(VipsOperation *op, const char *name, const char *value);
int pe_set_doubles(VipsOperation *op, const char *name, const double *values, int n);
/* Builds through the operation cache; on success *op is replaced by the built
 * operation. On failure the outputs are released and -1 returned; the caller
 * still owns *op and must release it with pe_operation_finish. */
int pe_operation_build(VipsOperation **op);
/* Output image, as a new reference (NULL if absent). */
VipsImage *pe_get_image(VipsOperation *op, const char *name);
double pe_get_number(VipsOperation *op, const char *name);
/* Copies up to `max` values of an array-of-double output; returns the count. */
int pe_get_doubles(VipsOperation *op, const char *name, double *out, int max);
/* Releases the outputs and the operation. */
void pe_operation_finish(VipsOperation *op);
/* Is `name` an argument of operation `operation_name`? */
int pe_operation_has_argument(const char *operation_name, const char *name);

/* Image helpers. */
int pe_image_get_string(VipsImage *image, const char *name, char **out);  /* g_free *out */
int pe_image_has_field(VipsImage *image, const char *name);
int pe_image_get_int(VipsImage *image, const char *name, int *out);
int pe_image_get_blob(VipsImage *image, const char *name, const void **data, size_t *length);
/* Copies the image (cheap, shares pixels) so metadata can be changed safely. */
VipsImage *pe_image_copy(VipsImage *image);
void pe_image_set_blob(VipsImage *image, const char *name, const void *data, size_t length);
void pe_image_set_int(VipsImage *image, const char *name, int value);
void pe_image_set_string(VipsImage *image, const char *name, const char *value);
int pe_image_remove(VipsImage *image, const char *name);
/* A byte buffer argument (e.g. jpegload_buffer's "buffer"); libvips copies the bytes. */
int pe_set_blob(VipsOperation *op, const char *name, const void *data, size_t length);
/* A byte buffer output (e.g. jpegsave_buffer's "buffer"), copied into *data (g_free). */
int pe_get_blob(VipsOperation *op, const char *name, void **data, size_t *length);

/* NULL-terminated list of field names; free with g_strfreev. */
char **pe_image_fields(VipsImage *image);

/* A built-in ICC profile ("srgb", "p3", "cmyk"), copied into *data (g_free). */
int pe_profile_builtin(const char *name, void **data, size_t *length);

/* ---- libraw (libraw_r: thread-safe, one handle per decode) ---- */

/* What a RAW file says about itself. Strings are NUL-terminated copies. */
typedef struct {
    char make[64];
    char model[64];
    char lens[128];
    float iso;
    float shutter;      /* seconds */
    float aperture;     /* f-number */
    float focal_length; /* mm */
    long long timestamp; /* seconds since 1970, 0 if unknown */
    int flip;           /* libraw's flip: 0 none, 3 180°, 5 90° CCW, 6 90° CW */
    int width;          /* developed size, before flip */
    int height;
    int is_dng;
    int colors;         /* colours of the sensor (3 for RGB Bayer / linear) */
    float rgb_cam[3][4];/* white-balanced camera RGB -> linear sRGB (libraw's rgb_cam) */
    float pre_mul[4];   /* daylight multipliers */
} pe_raw_info;

/* Development settings (see docs: the engine's choices). */
typedef struct {
    int half_size;        /* 1: half-size decode (fast previews) */
    int quality;          /* demosaic: 0 linear, 1 VNG, 2 PPG, 3 AHD, 11 DHT, 12 AAHD */
    int highlight;        /* 0 clip, 1 unclip, 2 blend, 3..9 rebuild */
    int use_camera_wb;    /* 1: as shot */
    int use_auto_wb;      /* 1: auto */
    float user_mul[4];    /* custom multipliers (all 0: unused) */
    int user_black;       /* -1: from the file */
    int user_sat;         /* -1: from the file */
    float exp_shift;      /* linear exposure before demosaic (1 = none) */
    float exp_preserve;   /* 0..1: keep highlights when exp_shift > 1 */
    float denoise;        /* wavelet denoise threshold (0 = off) */
    int camera_rgb;       /* 1: camera RGB out (white-balanced, no colour matrix; libraw's output_color 0) */
} pe_raw_settings;

/* Reads the metadata of a RAW file (no decoding). Returns 0, or a libraw
 * error code (message via pe_raw_strerror). */
int pe_raw_identify(const char *path, pe_raw_info *info);
/* Develops a RAW file to 16-bit linear RGB with sRGB primaries (no gamma, no
 * auto-brightening), in two steps so libvips can start on another thread
 * while libraw works: pe_raw_process runs libraw only (no libvips call) and
 * sets *handle; pe_raw_wrap (libvips started) makes *out, a 4-band libvips
 * image over libraw's own buffer (no copy; RGB in bands 0-2), not yet turned:
 * apply *flip (libraw's: bit 4 transpose, bit 2 flip rows, bit 1 flip
 * columns, the flips first). pe_raw_wrap owns the handle from then on, even
 * when it fails; it is closed when the image closes. pe_raw_discard closes a
 * handle that is not wrapped. Both return 0, or a libraw error code (-1 from
 * pe_raw_wrap: the reason is in libvips' error buffer). */
int pe_raw_process(const char *path, const pe_raw_settings *settings, void **handle);
int pe_raw_wrap(void *handle, VipsImage **out, int *flip);
/* The colour data of a processed handle: the white balance multipliers
 * libraw applied (R, G, B, as it normalised them: the least is 1 when
 * highlights are clipped) and its camera RGB -> sRGB matrix (row-major 3x3). */
void pe_raw_colour(void *handle, float multipliers[3], float matrix[9]);
void pe_raw_discard(void *handle);
/* The neutral development as 8-bit sRGB through a table, the way libraw's own
 * writer applies its output curve: a 3-band uchar libvips image whose pixels
 * are made on demand, each value v of the processed 16-bit RGB through lut[v]
 * (65536 entries, copied), in whichever libvips worker asks for them, so the
 * table runs on every core while the writer writes, with no 8-bit copy of the
 * whole image. Owns the handle from then on, even when it fails (NULL, the
 * reason in libvips' error buffer); it is closed when the image closes. Sets
 * *flip as pe_raw_wrap does (the image is not yet turned). */
VipsImage *pe_raw_srgb8_image(void *handle, const unsigned char *lut, int *flip);
/* The embedded preview of a RAW, when it is a JPEG whose longer side is at
 * least min_size: decoded with libvips, shrunk on load to fit target x target
 * (target 0: full size), in memory. Returns 0 and sets *out and *flip (libraw's
 * flip, to apply); 1 when there is no such preview; else a libraw error code,
 * or -1 with the reason in libvips' error buffer. */
int pe_raw_preview(const char *path, int min_size, int target, VipsImage **out, int *flip);
const char *pe_raw_strerror(int code);

/* SQLite (the catalog). sqlite3_db_config is variadic too. */
struct sqlite3;
/* Tells SQLite not to checkpoint the WAL when `db` closes
 * (SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE). Returns SQLite's result code. */
int pe_sqlite_no_checkpoint_on_close(struct sqlite3 *db);

/* Starts writing a file's data to disk without waiting for it (Linux
 * sync_file_range), so a later fsync finds most of it written. 0, or -1
 * with errno set. */
int pe_start_writeback(const char *path);

/* `in` computed whole into a new memory image by the calling thread alone,
 * strip by strip from the top (vips_region_prepare; no threadpool worker
 * is asked for anything), with its fields and metadata. NULL on failure. */
VipsImage *pe_materialize_here(VipsImage *in);

/* Threads (pthread_setname_np is a GNU extension Swift's Glibc module
 * does not show). Names the calling thread (the kernel keeps 15 bytes);
 * 0 or an errno value. */
int pe_thread_set_name(const char *name);
/* The calling thread's name into `out` (`size` bytes, at least 16). */
int pe_thread_name(char *out, size_t size);

#endif

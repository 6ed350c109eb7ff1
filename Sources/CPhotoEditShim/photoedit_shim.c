#define _GNU_SOURCE /* dladdr, sync_file_range */
#include "photoedit_shim.h"
#include <string.h>
#include <math.h>
#include <float.h>
#include <dlfcn.h>
#include <malloc.h>
#include <fcntl.h>
#include <unistd.h>
#include <gmodule.h>
#include <libraw/libraw.h>
#include <sqlite3.h>
#include <pthread.h>

static GOnce pe_init_once = G_ONCE_INIT;

/* libvips reports recoverable problems as GLib warnings on stderr; the
 * engine turns the ones that matter into errors (fail_on), so keep the CLI's
 * stderr to its own one-line messages unless PHOTOEDIT_DEBUG is set. */
static void pe_quiet_log(const gchar *domain, GLogLevelFlags level, const gchar *message, gpointer data) {
    (void) domain; (void) level; (void) message; (void) data;
}

/* libvips' optional formats (HEIF/AVIF, JPEG XL, PDF, ImageMagick's,
 * OpenSlide) are modules it loads at start-up from <libdir>/vips-modules-M.N:
 * linking them and their libraries costs every process 60-120 ms, most of
 * the start-up of a command that reads a JPEG or develops a RAW. The engine
 * defers them: while libvips starts, VIPSHOME (where libvips looks for its
 * libdir) names a folder without modules, unless the user set VIPSHOME;
 * pe_vips_load_modules() loads them on first need. */
static gboolean pe_modules_deferred = FALSE;
static GOnce pe_modules_once = G_ONCE_INIT;
static gint pe_modules_loaded = 0;
#define PE_NO_MODULES "/nonexistent/photoedit-vips-modules-deferred"

static gpointer pe_init_func(gpointer data) {
    const char *argv0 = (const char *) data;
    if (!g_getenv("PHOTOEDIT_DEBUG"))
        g_log_set_handler("VIPS", G_LOG_LEVEL_WARNING | G_LOG_LEVEL_MESSAGE | G_LOG_LEVEL_INFO, pe_quiet_log, NULL);
    gboolean defer = g_getenv("VIPSHOME") == NULL;
    if (defer)
        g_setenv("VIPSHOME", PE_NO_MODULES, TRUE);
    int failed = VIPS_INIT(argv0 ? argv0 : "photoedit");
    if (defer) {
        /* Child processes guess libvips' home as usual. */
        g_unsetenv("VIPSHOME");
        pe_modules_deferred = TRUE;
    }
    return GINT_TO_POINTER(failed ? -1 : 1);
}

static gpointer pe_modules_func(gpointer data) {
    (void) data;
    Dl_info info;
    if (!pe_modules_deferred || !dladdr((void *) vips_init, &info) || !info.dli_fname)
        return GINT_TO_POINTER(1);
    /* The modules of the libvips in use: beside the library file. */
    char *libdir = g_path_get_dirname(info.dli_fname);
    char *dir = g_strdup_printf("%s/vips-modules-%d.%d", libdir, VIPS_MAJOR_VERSION, VIPS_MINOR_VERSION);
    GDir *folder = g_dir_open(dir, 0, NULL);
    if (folder) {
        const char *name;
        while ((name = g_dir_read_name(folder))) {
            if (!g_str_has_suffix(name, "." G_MODULE_SUFFIX))
                continue;
            char *path = g_build_filename(dir, name, NULL);
            /* Opening runs the module's g_module_check_init, which
             * registers its operations and keeps it resident. One that
             * does not load is skipped, as libvips does. */
            if (!g_module_open(path, G_MODULE_BIND_LAZY))
                g_log("VIPS", G_LOG_LEVEL_WARNING, "unable to load %s: %s", path, g_module_error());
            g_free(path);
        }
        g_dir_close(folder);
    }
    g_free(dir);
    g_free(libdir);
    return GINT_TO_POINTER(2);
}

void pe_vips_load_modules(void) {
    g_once(&pe_modules_once, pe_modules_func, NULL);
    g_atomic_int_set(&pe_modules_loaded, 1);
}

int pe_vips_modules_loaded(void) {
    return !pe_modules_deferred || g_atomic_int_get(&pe_modules_loaded);
}

int pe_vips_init(const char *argv0) {
    gpointer r = g_once(&pe_init_once, pe_init_func, (gpointer) argv0);
    return GPOINTER_TO_INT(r) == 1 ? 0 : -1;
}

int pe_set_mmap_threshold(int bytes) {
    return mallopt(M_MMAP_THRESHOLD, bytes);
}

char *pe_error_take(void) {
    char *copy = vips_error_buffer_copy();
    return copy;
}

VipsOperation *pe_operation_new(const char *name) {
    return vips_operation_new(name);
}

static GParamSpec *pe_find(VipsOperation *op, const char *name) {
    GParamSpec *pspec = g_object_class_find_property(G_OBJECT_GET_CLASS(op), name);
    if (!pspec)
        vips_error("photoedit", "operation %s has no argument \"%s\"",
                   VIPS_OBJECT_GET_CLASS(op)->nickname, name);
    return pspec;
}

int pe_set_image(VipsOperation *op, const char *name, VipsImage *image) {
    if (!pe_find(op, name)) return -1;
    GValue v = G_VALUE_INIT;
    g_value_init(&v, VIPS_TYPE_IMAGE);
    g_value_set_object(&v, image);
    g_object_set_property(G_OBJECT(op), name, &v);
    g_value_unset(&v);
    return 0;
}

int pe_set_images(VipsOperation *op, const char *name, VipsImage **images, int n) {
    if (!pe_find(op, name)) return -1;
    GValue v = G_VALUE_INIT;
    g_value_init(&v, VIPS_TYPE_ARRAY_IMAGE);
    vips_value_set_array_image(&v, n);
    VipsImage **array = vips_value_get_array_image(&v, NULL);
    for (int i = 0; i < n; i++) {
        array[i] = images[i];
        g_object_ref(images[i]);
    }
    g_object_set_property(G_OBJECT(op), name, &v);
    g_value_unset(&v);
    return 0;
}

int pe_set_number(VipsOperation *op, const char *name, double value) {
    GParamSpec *pspec = pe_find(op, name);
    if (!pspec) return -1;
    GType type = G_PARAM_SPEC_VALUE_TYPE(pspec);
    GValue v = G_VALUE_INIT;
    g_value_init(&v, type);
    if (type == G_TYPE_DOUBLE) g_value_set_double(&v, value);
    else if (type == G_TYPE_INT) g_value_set_int(&v, (int) value);
    else if (type == G_TYPE_UINT64) g_value_set_uint64(&v, (guint64) value);
    else if (type == G_TYPE_BOOLEAN) g_value_set_boolean(&v, value != 0);
    else {
        g_value_unset(&v);
        vips_error("photoedit", "argument \"%s\" is not numeric", name);
        return -1;
    }
    g_object_set_property(G_OBJECT(op), name, &v);
    g_value_unset(&v);
    return 0;
}

int pe_set_string(VipsOperation *op, const char *name, const char *value) {
    GParamSpec *pspec = pe_find(op, name);
    if (!pspec) return -1;
    GType type = G_PARAM_SPEC_VALUE_TYPE(pspec);
    GValue v = G_VALUE_INIT;
    if (G_IS_PARAM_SPEC_ENUM(pspec)) {
        int e = vips_enum_from_nick("photoedit", type, value);
        if (e < 0) return -1;
        g_value_init(&v, type);
        g_value_set_enum(&v, e);
    } else if (G_IS_PARAM_SPEC_FLAGS(pspec)) {
        int f = vips_flags_from_nick("photoedit", type, value);
        if (f < 0) return -1;
        g_value_init(&v, type);
        g_value_set_flags(&v, f);
    } else if (type == G_TYPE_STRING) {
        g_value_init(&v, G_TYPE_STRING);
        g_value_set_string(&v, value);
    } else {
        vips_error("photoedit", "argument \"%s\" is not a string or enum", name);
        return -1;
    }
    g_object_set_property(G_OBJECT(op), name, &v);
    g_value_unset(&v);
    return 0;
}

int pe_set_doubles(VipsOperation *op, const char *name, const double *values, int n) {
    if (!pe_find(op, name)) return -1;
    GValue v = G_VALUE_INIT;
    g_value_init(&v, VIPS_TYPE_ARRAY_DOUBLE);
    vips_value_set_array_double(&v, values, n);
    g_object_set_property(G_OBJECT(op), name, &v);
    g_value_unset(&v);
    return 0;
}

/* Builds the operation (through libvips' cache). On failure the outputs a
 * loader may already have set (webpload sets "out" before it fails) are
 * released once, by pe_operation_finish: releasing them here too unreffed
 * them twice (GLib-GObject-CRITICAL g_object_unref on a damaged WebP). */
int pe_operation_build(VipsOperation **op) {
    return vips_cache_operation_buildp(op) ? -1 : 0;
}

VipsImage *pe_get_image(VipsOperation *op, const char *name) {
    if (!pe_find(op, name)) return NULL;
    GValue v = G_VALUE_INIT;
    g_value_init(&v, VIPS_TYPE_IMAGE);
    g_object_get_property(G_OBJECT(op), name, &v);
    VipsImage *image = (VipsImage *) g_value_dup_object(&v);
    g_value_unset(&v);
    return image;
}

double pe_get_number(VipsOperation *op, const char *name) {
    GParamSpec *pspec = pe_find(op, name);
    if (!pspec) return 0;
    GType type = G_PARAM_SPEC_VALUE_TYPE(pspec);
    GValue v = G_VALUE_INIT;
    g_value_init(&v, type);
    g_object_get_property(G_OBJECT(op), name, &v);
    double r = 0;
    if (type == G_TYPE_DOUBLE) r = g_value_get_double(&v);
    else if (type == G_TYPE_INT) r = g_value_get_int(&v);
    else if (type == G_TYPE_BOOLEAN) r = g_value_get_boolean(&v);
    g_value_unset(&v);
    return r;
}

int pe_get_doubles(VipsOperation *op, const char *name, double *out, int max) {
    if (!pe_find(op, name)) return -1;
    GValue v = G_VALUE_INIT;
    g_value_init(&v, VIPS_TYPE_ARRAY_DOUBLE);
    g_object_get_property(G_OBJECT(op), name, &v);
    int n = 0;
    double *values = vips_value_get_array_double(&v, &n);
    int count = n < max ? n : max;
    for (int i = 0; i < count; i++) out[i] = values[i];
    g_value_unset(&v);
    return count;
}

void pe_operation_finish(VipsOperation *op) {
    if (!op) return;
    vips_object_unref_outputs(VIPS_OBJECT(op));
    g_object_unref(op);
}

int pe_operation_has_argument(const char *operation_name, const char *name) {
    VipsOperation *op = vips_operation_new(operation_name);
    if (!op) { vips_error_clear(); return 0; }
    int has = g_object_class_find_property(G_OBJECT_GET_CLASS(op), name) != NULL;
    g_object_unref(op);
    return has;
}

int pe_image_get_string(VipsImage *image, const char *name, char **out) {
    return vips_image_get_as_string(image, name, out);
}

int pe_image_has_field(VipsImage *image, const char *name) {
    return vips_image_get_typeof(image, name) != 0;
}

int pe_image_get_int(VipsImage *image, const char *name, int *out) {
    return vips_image_get_int(image, name, out);
}

int pe_image_get_blob(VipsImage *image, const char *name, const void **data, size_t *length) {
    return vips_image_get_blob(image, name, data, length);
}

VipsImage *pe_image_copy(VipsImage *image) {
    VipsImage *out = NULL;
    if (vips_copy(image, &out, NULL)) return NULL;
    return out;
}

void pe_image_set_blob(VipsImage *image, const char *name, const void *data, size_t length) {
    vips_image_set_blob_copy(image, name, data, length);
}

void pe_image_set_int(VipsImage *image, const char *name, int value) {
    vips_image_set_int(image, name, value);
}

void pe_image_set_string(VipsImage *image, const char *name, const char *value) {
    vips_image_set_string(image, name, value);
}

int pe_image_remove(VipsImage *image, const char *name) {
    return vips_image_remove(image, name) ? 1 : 0;
}

char **pe_image_fields(VipsImage *image) {
    return vips_image_get_fields(image);
}

int pe_profile_builtin(const char *name, void **data, size_t *length) {
    VipsBlob *blob = NULL;
    if (vips_profile_load(name, &blob, NULL)) return -1;
    size_t n = 0;
    const void *p = vips_blob_get(blob, &n);
    *data = g_memdup2(p, n);
    *length = n;
    vips_area_unref(VIPS_AREA(blob));
    return 0;
}

/* ---- libraw ---- */

static void pe_copy(char *dst, size_t size, const char *src) {
    size_t i = 0;
    for (; src && src[i] && i + 1 < size; i++) dst[i] = src[i];
    dst[i] = 0;
}

/* libraw prints data errors to stderr by default; the engine reports them
 * itself, as one line, from the return code. */
static void pe_raw_quiet(void *data, const char *file, const int offset) {
    (void) data; (void) file; (void) offset;
}

int pe_raw_identify(const char *path, pe_raw_info *info) {
    libraw_data_t *raw = libraw_init(0);
    if (!raw) return LIBRAW_UNSUFFICIENT_MEMORY;
    libraw_set_dataerror_handler(raw, pe_raw_quiet, NULL);
    int r = libraw_open_file(raw, path);
    if (r == LIBRAW_SUCCESS) {
        memset(info, 0, sizeof(*info));
        pe_copy(info->make, sizeof info->make, raw->idata.make);
        pe_copy(info->model, sizeof info->model, raw->idata.model);
        pe_copy(info->lens, sizeof info->lens, raw->lens.Lens);
        info->iso = raw->other.iso_speed;
        info->shutter = raw->other.shutter;
        info->aperture = raw->other.aperture;
        info->focal_length = raw->other.focal_len;
        info->timestamp = (long long) raw->other.timestamp;
        info->flip = raw->sizes.flip;
        info->width = raw->sizes.width;
        info->height = raw->sizes.height;
        info->is_dng = raw->idata.dng_version != 0;
        info->colors = raw->idata.colors;
        for (int i = 0; i < 4; i++) {
            for (int j = 0; j < 3; j++) info->rgb_cam[j][i] = raw->color.rgb_cam[j][i];
            info->pre_mul[i] = raw->color.pre_mul[i];
        }
        if (raw->idata.raw_count == 0 && !raw->idata.dng_version) r = LIBRAW_FILE_UNSUPPORTED;
    }
    libraw_close(raw);
    return r;
}

static void pe_raw_close_handle(VipsImage *image, void *raw) {
    (void) image;
    libraw_close((libraw_data_t *) raw);
}

int pe_raw_process(const char *path, const pe_raw_settings *s, void **handle) {
    *handle = NULL;
    libraw_data_t *raw = libraw_init(0);
    if (!raw) return LIBRAW_UNSUFFICIENT_MEMORY;
    libraw_set_dataerror_handler(raw, pe_raw_quiet, NULL);
    libraw_output_params_t *p = &raw->params;
    p->output_bps = 16;
    p->gamm[0] = 1.0; p->gamm[1] = 1.0;      /* linear */
    p->no_auto_bright = 1;
    p->output_color = s->camera_rgb ? 0 : 1;  /* sRGB primaries (our working space), or camera RGB */
    p->adjust_maximum_thr = 0.0f;             /* keep the file's white level */
    p->use_camera_matrix = 1;
    p->half_size = s->half_size;
    p->user_qual = s->quality;
    p->highlight = s->highlight;
    p->use_camera_wb = s->use_camera_wb;
    p->use_auto_wb = s->use_auto_wb;
    for (int i = 0; i < 4; i++) p->user_mul[i] = s->user_mul[i];
    p->user_black = s->user_black;
    p->user_sat = s->user_sat;
    p->threshold = s->denoise;
    if (s->exp_shift != 1.0f) { p->exp_correc = 1; p->exp_shift = s->exp_shift; p->exp_preser = s->exp_preserve; }
    int r = libraw_open_file(raw, path);
    if (r == LIBRAW_SUCCESS) r = libraw_unpack(raw);
    if (r == LIBRAW_SUCCESS) r = libraw_dcraw_process(raw);
    if (r == LIBRAW_SUCCESS && (!raw->image || raw->idata.colors < 3)) r = LIBRAW_DATA_ERROR;
    if (r != LIBRAW_SUCCESS) {
        libraw_close(raw);
        return r;
    }
    *handle = raw;
    return 0;
}

void pe_raw_colour(void *handle, float multipliers[3], float matrix[9]) {
    const libraw_data_t *raw = (const libraw_data_t *) handle;
    for (int i = 0; i < 3; i++) {
        multipliers[i] = raw->color.pre_mul[i];
        for (int j = 0; j < 3; j++) matrix[i * 3 + j] = raw->color.rgb_cam[i][j];
    }
}

int pe_raw_wrap(void *handle, VipsImage **out, int *flip) {
    libraw_data_t *raw = (libraw_data_t *) handle;
    /* libraw's processed image: iwidth x iheight pixels of 4 ushorts, RGB in
     * the first three, not yet turned by the camera's flip. With linear
     * 16-bit output and no auto-brightening, libraw's output curve is the
     * identity, so these are exactly the values libraw_dcraw_make_mem_image
     * would copy out. libvips reads them where they are; the libraw handle
     * lives until the image closes. */
    size_t bytes = (size_t) raw->sizes.iwidth * raw->sizes.iheight * 4 * sizeof(unsigned short);
    VipsImage *image = vips_image_new_from_memory(raw->image, bytes, raw->sizes.iwidth, raw->sizes.iheight, 4,
                                                  VIPS_FORMAT_USHORT);
    if (!image) {
        libraw_close(raw);
        return -1;
    }
    g_signal_connect(image, "postclose", G_CALLBACK(pe_raw_close_handle), raw);
    *out = image;
    *flip = raw->sizes.flip;
    return 0;
}

typedef struct {
    libraw_data_t *raw;
    unsigned char lut[65536];
} pe_raw_srgb8;

static int pe_raw_srgb8_generate(VipsRegion *out, void *seq, void *a, void *b, gboolean *stop) {
    (void) seq; (void) b; (void) stop;
    const pe_raw_srgb8 *s = (const pe_raw_srgb8 *) a;
    const VipsRect *r = &out->valid;
    size_t width = (size_t) s->raw->sizes.iwidth;
    for (int y = r->top; y < VIPS_RECT_BOTTOM(r); y++) {
        const unsigned short (*in)[4] = (const unsigned short (*)[4]) s->raw->image + (size_t) y * width + r->left;
        VipsPel *q = VIPS_REGION_ADDR(out, r->left, y);
        for (int x = 0; x < r->width; x++) {
            q[0] = s->lut[in[x][0]];
            q[1] = s->lut[in[x][1]];
            q[2] = s->lut[in[x][2]];
            q += 3;
        }
    }
    return 0;
}

static void pe_raw_srgb8_close(VipsImage *image, pe_raw_srgb8 *s) {
    (void) image;
    libraw_close(s->raw);
    g_free(s);
}

VipsImage *pe_raw_srgb8_image(void *handle, const unsigned char *lut, int *flip) {
    libraw_data_t *raw = (libraw_data_t *) handle;
    pe_raw_srgb8 *s = g_try_new(pe_raw_srgb8, 1);
    if (!s) {
        libraw_close(raw);
        vips_error("photoedit", "out of memory for the sRGB table");
        return NULL;
    }
    s->raw = raw;
    memcpy(s->lut, lut, sizeof s->lut);
    *flip = raw->sizes.flip;
    VipsImage *image = vips_image_new();
    g_signal_connect(image, "postclose", G_CALLBACK(pe_raw_srgb8_close), s);
    vips_image_init_fields(image, raw->sizes.iwidth, raw->sizes.iheight, 3, VIPS_FORMAT_UCHAR, VIPS_CODING_NONE,
                           VIPS_INTERPRETATION_sRGB, 1.0, 1.0);
    if (vips_image_pipelinev(image, VIPS_DEMAND_STYLE_THINSTRIP, NULL) ||
        vips_image_generate(image, NULL, pe_raw_srgb8_generate, NULL, s, NULL)) {
        g_object_unref(image);
        return NULL;
    }
    return image;
}

void pe_raw_discard(void *handle) {
    if (handle) libraw_close((libraw_data_t *) handle);
}

int pe_raw_preview(const char *path, int min_size, int target, VipsImage **out, int *flip) {
    libraw_data_t *raw = libraw_init(0);
    if (!raw) return LIBRAW_UNSUFFICIENT_MEMORY;
    libraw_set_dataerror_handler(raw, pe_raw_quiet, NULL);
    int r = libraw_open_file(raw, path);
    if (r == LIBRAW_SUCCESS) {
        int longer = raw->thumbnail.twidth > raw->thumbnail.theight ? raw->thumbnail.twidth : raw->thumbnail.theight;
        if (longer < min_size) r = 1;
    }
    if (r == LIBRAW_SUCCESS) {
        r = libraw_unpack_thumb(raw);  /* also sets tformat */
        if (r == LIBRAW_NO_THUMBNAIL || r == LIBRAW_UNSUPPORTED_THUMBNAIL) r = 1;
        else if (r == LIBRAW_SUCCESS && raw->thumbnail.tformat != LIBRAW_THUMBNAIL_JPEG) r = 1;
    }
    libraw_processed_image_t *thumb = NULL;
    if (r == LIBRAW_SUCCESS) thumb = libraw_dcraw_make_mem_thumb(raw, &r);
    if (r == LIBRAW_SUCCESS && thumb && thumb->type == LIBRAW_IMAGE_JPEG) {
        VipsImage *loaded = NULL;
        int failed = target > 0
            ? vips_thumbnail_buffer(thumb->data, thumb->data_size, &loaded, target, "height", target,
                                    "size", VIPS_SIZE_DOWN, "no_rotate", TRUE, NULL)
            : vips_jpegload_buffer(thumb->data, thumb->data_size, &loaded, NULL);
        /* Decode now, while libraw's buffer is alive. */
        VipsImage *memory = failed ? NULL : vips_image_copy_memory(loaded);
        if (loaded) g_object_unref(loaded);
        if (memory) {
            *out = memory;
            *flip = raw->sizes.flip;
        } else {
            r = -1;
        }
    } else if (r == LIBRAW_SUCCESS) {
        r = 1;
    }
    if (thumb) libraw_dcraw_clear_mem(thumb);
    libraw_close(raw);
    return r;
}

const char *pe_raw_strerror(int code) {
    return libraw_strerror(code);
}

int pe_set_blob(VipsOperation *op, const char *name, const void *data, size_t length) {
    if (!pe_find(op, name)) return -1;
    VipsBlob *blob = vips_blob_copy(data, length);
    if (!blob) return -1;
    GValue v = G_VALUE_INIT;
    g_value_init(&v, VIPS_TYPE_BLOB);
    g_value_set_boxed(&v, blob);
    g_object_set_property(G_OBJECT(op), name, &v);
    g_value_unset(&v);
    vips_area_unref(VIPS_AREA(blob));
    return 0;
}

int pe_get_blob(VipsOperation *op, const char *name, void **data, size_t *length) {
    if (!pe_find(op, name)) return -1;
    GValue v = G_VALUE_INIT;
    g_value_init(&v, VIPS_TYPE_BLOB);
    g_object_get_property(G_OBJECT(op), name, &v);
    VipsBlob *blob = (VipsBlob *) g_value_get_boxed(&v);
    int status = -1;
    if (blob) {
        size_t n = 0;
        const void *bytes = vips_blob_get(blob, &n);
        *data = g_malloc(n > 0 ? n : 1);
        if (n > 0) memcpy(*data, bytes, n);
        *length = n;
        status = 0;
    }
    g_value_unset(&v);
    return status;
}

/* ---- SQLite ---------------------------------------------------------- */

int pe_sqlite_no_checkpoint_on_close(struct sqlite3 *db) {
    return sqlite3_db_config(db, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 1, (int *)NULL);
}

int pe_start_writeback(const char *path) {
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return -1;
    int result = sync_file_range(fd, 0, 0, SYNC_FILE_RANGE_WRITE);
    close(fd);
    return result;
}

int pe_thread_set_name(const char *name) {
    char shortened[16];
    strncpy(shortened, name, sizeof shortened - 1);
    shortened[sizeof shortened - 1] = 0;
    return pthread_setname_np(pthread_self(), shortened);
}

int pe_thread_name(char *out, size_t size) {
    return pthread_getname_np(pthread_self(), out, size);
}

VipsImage *pe_materialize_here(VipsImage *in) {
    VipsImage *out = vips_image_new_memory();
    /* Fields and metadata from `in`, as vips_image_write does. */
    if (vips_image_pipelinev(out, VIPS_DEMAND_STYLE_THINSTRIP, in, NULL)) {
        g_object_unref(out);
        return NULL;
    }
    VipsRegion *region = vips_region_new(in);
    if (!region) {
        g_object_unref(out);
        return NULL;
    }
    const int strip = 64;
    for (int top = 0; top < in->Ysize; top += strip) {
        VipsRect rows = { 0, top, in->Xsize, VIPS_MIN(strip, in->Ysize - top) };
        int failed = vips_region_prepare(region, &rows);
        for (int y = rows.top; !failed && y < VIPS_RECT_BOTTOM(&rows); y++) {
            failed = vips_image_write_line(out, y, VIPS_REGION_ADDR(region, 0, y));
        }
        if (failed) {
            g_object_unref(region);
            g_object_unref(out);
            return NULL;
        }
    }
    g_object_unref(region);
    return out;
}

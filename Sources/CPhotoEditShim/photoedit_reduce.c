/*
 * photoedit_reduce.c — a pass-through that reduces what it passes on.
 *
 * An edit writes its render as a JPEG and needs a 1440 px preview of it.
 * Computing the render into memory first (to resize it afterwards) keeps
 * 72 MB of a 24 MP render and stops the encoder from overlapping the
 * pipeline; decoding the JPEG again costs ~0.2 s. Instead the encoder
 * reads the render through this pass, which hands every region on
 * untouched (no copy) and adds its pixels into block × block sums on the
 * way: once the file is written, the block means are the render reduced
 * by `block`, a few MB, from which the preview is resized.
 *
 * Sums are integers, so the order libvips' threads deliver regions in does
 * not matter. The reduction is only given out if every pixel passed through
 * exactly once (the encoder asked for each once): anything else is refused.
 */
#include "photoedit_shim.h"

typedef struct {
    VipsImage *in;
    int block, width, height, bands;  /* block side; the reduced size; bands */
    guint32 *sums;                    /* width × height × bands */
    gint64 passed;                    /* pixels handed on (under lock) */
    GMutex lock;
} pe_reduction;

static int pe_reduction_generate(VipsRegion *out, void *seq, void *a, void *b, gboolean *stop) {
    (void) a; (void) stop;
    VipsRegion *ir = (VipsRegion *) seq;
    pe_reduction *s = (pe_reduction *) b;
    const VipsRect *r = &out->valid;
    if (vips_region_prepare(ir, r) || vips_region_region(out, ir, r, r->left, r->top)) return -1;
    int k = s->block, n = s->bands;
    int bx0 = r->left / k, bx1 = (VIPS_RECT_RIGHT(r) - 1) / k, by0 = r->top / k, by1 = (VIPS_RECT_BOTTOM(r) - 1) / k;
    int nx = bx1 - bx0 + 1, ny = by1 - by0 + 1;
    guint32 *local = g_try_new0(guint32, (size_t) nx * ny * n);
    if (!local) {
        vips_error("photoedit", "out of memory for the reduction");
        return -1;
    }
    for (int y = r->top; y < VIPS_RECT_BOTTOM(r); y++) {
        const unsigned char *p = (const unsigned char *) VIPS_REGION_ADDR(ir, r->left, y);
        guint32 *row = local + (size_t) (y / k - by0) * nx * n;
        int x = r->left;
        while (x < VIPS_RECT_RIGHT(r)) {
            /* The pixels of this row in block x / k, added band by band. */
            int end = MIN(VIPS_RECT_RIGHT(r), (x / k + 1) * k);
            guint32 *cell = row + (size_t) (x / k - bx0) * n;
            for (; x < end; x++)
                for (int c = 0; c < n; c++) cell[c] += *p++;
        }
    }
    g_mutex_lock(&s->lock);
    for (int j = 0; j < ny; j++) {
        guint32 *to = s->sums + ((size_t) (by0 + j) * s->width + bx0) * n;
        const guint32 *from = local + (size_t) j * nx * n;
        for (int i = 0; i < nx * n; i++) to[i] += from[i];
    }
    s->passed += (gint64) r->width * r->height;
    g_mutex_unlock(&s->lock);
    g_free(local);
    return 0;
}

static void pe_reduction_close(VipsImage *image, pe_reduction *s) {
    (void) image;
    VIPS_UNREF(s->in);
    g_mutex_clear(&s->lock);
    g_free(s->sums);
    g_free(s);
}

VipsImage *pe_reducing_pass(VipsImage *in, int block) {
    if (in->BandFmt != VIPS_FORMAT_UCHAR || in->Bands < 1 || in->Bands > 4 || block < 1 || block > 64) {
        vips_error("photoedit", "reducing pass: expected an 8-bit image of 1 to 4 bands and a block of 1 to 64");
        return NULL;
    }
    pe_reduction *s = g_new0(pe_reduction, 1);
    s->block = block;
    s->bands = in->Bands;
    s->width = (in->Xsize + block - 1) / block;
    s->height = (in->Ysize + block - 1) / block;
    s->sums = g_try_new0(guint32, (size_t) s->width * s->height * s->bands);
    if (!s->sums) {
        g_free(s);
        vips_error("photoedit", "out of memory for the reduction");
        return NULL;
    }
    g_mutex_init(&s->lock);
    s->in = in;
    g_object_ref(in);
    VipsImage *out = vips_image_new();
    g_signal_connect(out, "postclose", G_CALLBACK(pe_reduction_close), s);
    g_object_set_data(G_OBJECT(out), "pe-reduction", s);
    if (vips_image_pipelinev(out, VIPS_DEMAND_STYLE_THINSTRIP, in, NULL) ||
        vips_image_generate(out, vips_start_one, pe_reduction_generate, vips_stop_one, in, s)) {
        g_object_unref(out);
        return NULL;
    }
    return out;
}

VipsImage *pe_reduction_of(VipsImage *pass) {
    pe_reduction *s = (pe_reduction *) g_object_get_data(G_OBJECT(pass), "pe-reduction");
    if (!s) {
        vips_error("photoedit", "reduction: not a reducing pass");
        return NULL;
    }
    g_mutex_lock(&s->lock);
    gint64 passed = s->passed;
    g_mutex_unlock(&s->lock);
    if (passed != (gint64) s->in->Xsize * s->in->Ysize) {
        vips_error("photoedit", "reduction: %" G_GINT64_FORMAT " pixels passed through, not each of the %d × %d once",
                   passed, s->in->Xsize, s->in->Ysize);
        return NULL;
    }
    int k = s->block, n = s->bands;
    size_t count = (size_t) s->width * s->height * n;
    unsigned char *means = g_try_new(unsigned char, count);
    if (!means) {
        vips_error("photoedit", "out of memory for the reduction");
        return NULL;
    }
    for (int j = 0; j < s->height; j++) {
        guint32 rows = (guint32) MIN(k, s->in->Ysize - j * k);
        for (int i = 0; i < s->width; i++) {
            guint32 area = rows * (guint32) MIN(k, s->in->Xsize - i * k);
            for (int c = 0; c < n; c++) {
                size_t at = ((size_t) j * s->width + i) * n + c;
                means[at] = (unsigned char) ((s->sums[at] + area / 2) / area);
            }
        }
    }
    VipsImage *out = vips_image_new_from_memory_copy(means, count, s->width, s->height, n, VIPS_FORMAT_UCHAR);
    g_free(means);
    if (out) out->Type = s->in->Type;
    return out;
}

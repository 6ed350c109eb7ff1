/*
 * photoedit_reduce.c — a pass-through that reduces what it passes on.
 *
 * An edit writes its render as a JPEG and needs a 1440 px preview of it.
 * Computing the render into memory first (to resize it afterwards) keeps
 * 72 MB of a 24 MP render and stops the encoder from overlapping the
 * pipeline; decoding the JPEG again costs ~0.2 s. Instead the encoder
 * reads the render through this pass, which hands every region on
 * untouched (no copy) and adds its pixels into the preview's pixels on the
 * way, each weighted by the part of it that falls inside (an area average,
 * as OpenCV's INTER_AREA): once the file is written, the preview is there.
 *
 * Weights are integers (1/64 of a pixel), so the sums are the same whatever
 * order libvips' threads deliver regions in. The reduction is only given
 * out if every pixel passed through exactly once (the encoder asked for
 * each once): anything else is refused.
 */
#include "photoedit_reduce.h"

#include <sys/mman.h>

#define PE_UNIT 64  /* weight of a whole source pixel along one axis */

typedef struct {
    int to, weight;  /* the output index a source index starts in, and its weight there (the rest to to + 1) */
} pe_span;

typedef struct {
    VipsImage *in;
    int width, height, bands;  /* the reduced size */
    pe_span *columns, *rows;   /* per source column / row */
    guint32 *column_total, *row_total;  /* per output column / row: the weights it received */
    guint32 *sums;             /* width × height × bands (pe_sums_new) */
    size_t sums_bytes;
    gint64 passed;             /* pixels handed on (under lock) */
    GMutex lock;
} pe_reduction;

/* Source index i of n covers [i, i + 1); output index j of m covers
 * [j·n/m, (j + 1)·n/m). In integer units of 1/(PE_UNIT·m) of a source
 * pixel, exactly. n ≥ m, so a source index touches one or two outputs. */
static void pe_spans(int n, int m, pe_span *spans, guint32 *totals) {
    for (int j = 0; j < m; j++) totals[j] = 0;
    for (int i = 0; i < n; i++) {
        gint64 start = (gint64) i * m, end = start + m;  /* in 1/m source pixels, scaled by n: output j starts at j·n */
        int j = (int) (start / n);
        gint64 boundary = (gint64) (j + 1) * n;
        int weight = end <= boundary ? PE_UNIT : (int) (((boundary - start) * PE_UNIT + m / 2) / m);
        spans[i].to = j;
        spans[i].weight = weight;
        totals[j] += (guint32) weight;
        if (weight < PE_UNIT && j + 1 < m) totals[j + 1] += (guint32) (PE_UNIT - weight);
    }
}

/* One source row, columns [left, right), reduced along x into `line`
 * (output columns x0…): whole pixels summed per output column and added
 * once, a pixel split between two columns weighted into both. `n` is a
 * constant at each call, so the band loops unroll. */
static inline __attribute__((always_inline)) void pe_reduce_row(const unsigned char *restrict p, const pe_span *restrict columns,
                                                                int left, int right, int x0, int width, guint32 *restrict line,
                                                                const int n) {
    guint32 run[4] = { 0, 0, 0, 0 };
    int column = columns[left].to;
    for (int x = left; x < right; x++, p += n) {
        const pe_span c = columns[x];
        if (c.to != column) {
            guint32 *cell = line + (size_t) (column - x0) * n;
            for (int k = 0; k < n; k++) cell[k] += run[k] * PE_UNIT, run[k] = 0;
            column = c.to;
        }
        if (c.weight == PE_UNIT) {
            for (int k = 0; k < n; k++) run[k] += p[k];
        } else {
            guint32 w = (guint32) c.weight, rest = PE_UNIT - w;
            guint32 *cell = line + (size_t) (c.to - x0) * n;
            for (int k = 0; k < n; k++) cell[k] += p[k] * w;
            if (c.to + 1 < width)
                for (int k = 0; k < n; k++) cell[n + k] += p[k] * rest;
        }
    }
    guint32 *last = line + (size_t) (column - x0) * n;
    for (int k = 0; k < n; k++) last[k] += run[k] * PE_UNIT;
}

/* A thread's sequence: its input region and its sums, kept from one
 * region to the next (a new allocation per region costs page faults). */
typedef struct {
    VipsRegion *ir;
    guint32 *local, *line;
    size_t local_size, line_size;  /* in guint32s */
} pe_reduction_seq;

static void *pe_reduction_start(VipsImage *out, void *a, void *b) {
    (void) out; (void) b;
    pe_reduction_seq *seq = g_new0(pe_reduction_seq, 1);
    if (!(seq->ir = vips_region_new((VipsImage *) a))) {
        g_free(seq);
        return NULL;
    }
    return seq;
}

static int pe_reduction_stop(void *sequence, void *a, void *b) {
    (void) a; (void) b;
    pe_reduction_seq *seq = (pe_reduction_seq *) sequence;
    VIPS_UNREF(seq->ir);
    g_free(seq->local);
    g_free(seq->line);
    g_free(seq);
    return 0;
}

/* `*buffer` holding at least `size` guint32s (grown, never shrunk). */
static guint32 *pe_reduction_buffer(guint32 **buffer, size_t *capacity, size_t size) {
    if (*capacity < size) {
        g_free(*buffer);
        *buffer = g_try_new(guint32, size);
        *capacity = *buffer ? size : 0;
    }
    return *buffer;
}

static int pe_reduction_generate(VipsRegion *out, void *sequence, void *a, void *b, gboolean *stop) {
    (void) a; (void) stop;
    pe_reduction_seq *seq = (pe_reduction_seq *) sequence;
    VipsRegion *ir = seq->ir;
    pe_reduction *s = (pe_reduction *) b;
    const VipsRect *r = &out->valid;
    if (vips_region_prepare(ir, r) || vips_region_region(out, ir, r, r->left, r->top)) return -1;
    int n = s->bands;
    int x0 = s->columns[r->left].to, x1 = MIN(s->width - 1, s->columns[VIPS_RECT_RIGHT(r) - 1].to + 1);
    int y0 = s->rows[r->top].to, y1 = MIN(s->height - 1, s->rows[VIPS_RECT_BOTTOM(r) - 1].to + 1);
    int nx = x1 - x0 + 1, ny = y1 - y0 + 1;
    size_t cells = (size_t) nx * n;
    guint32 *local = pe_reduction_buffer(&seq->local, &seq->local_size, cells * ny);
    guint32 *line = pe_reduction_buffer(&seq->line, &seq->line_size, cells);
    if (!local || !line) {
        vips_error("photoedit", "out of memory for the reduction");
        return -1;
    }
    memset(local, 0, sizeof(guint32) * cells * ny);
    for (int y = r->top; y < VIPS_RECT_BOTTOM(r); y++) {
        /* The row reduced horizontally (weights along x), then added into
         * its one or two output rows with the row's weights. */
        memset(line, 0, sizeof(guint32) * cells);
        const unsigned char *p = (const unsigned char *) VIPS_REGION_ADDR(ir, r->left, y);
        switch (n) {
        case 1: pe_reduce_row(p, s->columns, r->left, VIPS_RECT_RIGHT(r), x0, s->width, line, 1); break;
        case 2: pe_reduce_row(p, s->columns, r->left, VIPS_RECT_RIGHT(r), x0, s->width, line, 2); break;
        case 3: pe_reduce_row(p, s->columns, r->left, VIPS_RECT_RIGHT(r), x0, s->width, line, 3); break;
        default: pe_reduce_row(p, s->columns, r->left, VIPS_RECT_RIGHT(r), x0, s->width, line, 4); break;
        }
        const pe_span v = s->rows[y];
        guint32 *restrict to = local + (size_t) (v.to - y0) * cells;
        const guint32 w = (guint32) v.weight;
        for (size_t i = 0; i < cells; i++) to[i] += line[i] * w;
        if (v.weight < PE_UNIT && v.to + 1 < s->height) {
            guint32 *restrict next = to + cells;
            const guint32 rest = PE_UNIT - w;
            for (size_t i = 0; i < cells; i++) next[i] += line[i] * rest;
        }
    }
    g_mutex_lock(&s->lock);
    for (int j = 0; j < ny; j++) {
        guint32 *restrict to = s->sums + ((size_t) (y0 + j) * s->width + x0) * n;
        const guint32 *restrict from = local + (size_t) j * cells;
        for (size_t i = 0; i < cells; i++) to[i] += from[i];
    }
    s->passed += (gint64) r->width * r->height;
    g_mutex_unlock(&s->lock);
    return 0;
}

/* The sums, zeroed, in memory mapped for them: ~17 MB for a 1440 px
 * preview. Asked for in huge pages where the kernel gives them on request
 * (transparent huge pages, "madvise"): the workers' first writes then fault
 * a few 2 MB pages in, not thousands of 4 KB ones (each twice: read as the
 * zero page, then copied on write). */
static guint32 *pe_sums_new(size_t bytes) {
    void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) return NULL;
#ifdef MADV_HUGEPAGE
    (void) madvise(p, bytes, MADV_HUGEPAGE);
#endif
    return (guint32 *) p;
}

static void pe_reduction_close(VipsImage *image, pe_reduction *s) {
    (void) image;
    VIPS_UNREF(s->in);
    g_mutex_clear(&s->lock);
    g_free(s->columns);
    g_free(s->rows);
    g_free(s->column_total);
    g_free(s->row_total);
    if (s->sums) munmap(s->sums, s->sums_bytes);
    g_free(s);
}

VipsImage *pe_reducing_pass(VipsImage *in, int width, int height) {
    /* Up to 60 source pixels per output pixel along each axis: a sum then
     * stays under 2^32 (61² · 64² · 255). */
    if (in->BandFmt != VIPS_FORMAT_UCHAR || in->Bands < 1 || in->Bands > 4 || width < 1 || height < 1 ||
        width > in->Xsize || height > in->Ysize || in->Xsize > 60 * width || in->Ysize > 60 * height) {
        vips_error("photoedit", "reducing pass: expected an 8-bit image of 1 to 4 bands, reduced by 1 to 60 along each side");
        return NULL;
    }
    pe_reduction *s = g_new0(pe_reduction, 1);
    s->width = width;
    s->height = height;
    s->bands = in->Bands;
    s->columns = g_try_new(pe_span, in->Xsize);
    s->rows = g_try_new(pe_span, in->Ysize);
    s->column_total = g_try_new(guint32, width);
    s->row_total = g_try_new(guint32, height);
    s->sums_bytes = sizeof(guint32) * (size_t) width * height * s->bands;
    s->sums = pe_sums_new(s->sums_bytes);
    g_mutex_init(&s->lock);
    s->in = in;
    g_object_ref(in);
    VipsImage *out = vips_image_new();
    g_signal_connect(out, "postclose", G_CALLBACK(pe_reduction_close), s);
    if (!s->columns || !s->rows || !s->column_total || !s->row_total || !s->sums) {
        g_object_unref(out);
        vips_error("photoedit", "out of memory for the reduction");
        return NULL;
    }
    pe_spans(in->Xsize, width, s->columns, s->column_total);
    pe_spans(in->Ysize, height, s->rows, s->row_total);
    g_object_set_data(G_OBJECT(out), "pe-reduction", s);
    if (vips_image_pipelinev(out, VIPS_DEMAND_STYLE_THINSTRIP, in, NULL) ||
        vips_image_generate(out, pe_reduction_start, pe_reduction_generate, pe_reduction_stop, in, s)) {
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
    int n = s->bands;
    size_t count = (size_t) s->width * s->height * n;
    unsigned char *means = g_try_new(unsigned char, count);
    if (!means) {
        vips_error("photoedit", "out of memory for the reduction");
        return NULL;
    }
    /* The rounded mean (sum + area/2) / area, by multiplying with the
     * area's reciprocal: the true quotient is an integer or at least
     * 1/area (> 6e-8) below the next one, while the product is within
     * 1e-13 of it, so adding 1e-9 before taking the integer part gives the
     * exact integer division's result without a division per sample. */
    double *inverse_column = g_try_new(double, s->width);
    if (!inverse_column) {
        g_free(means);
        vips_error("photoedit", "out of memory for the reduction");
        return NULL;
    }
    for (int i = 0; i < s->width; i++) inverse_column[i] = 1.0 / s->column_total[i];
    for (int j = 0; j < s->height; j++) {
        const double inverse_row = 1.0 / s->row_total[j];
        for (int i = 0; i < s->width; i++) {
            const guint64 half = ((guint64) s->row_total[j] * s->column_total[i]) / 2;
            const double inverse = inverse_row * inverse_column[i];
            for (int c = 0; c < n; c++) {
                size_t at = ((size_t) j * s->width + i) * n + c;
                means[at] = (unsigned char) ((double) (s->sums[at] + half) * inverse + 1e-9);
            }
        }
    }
    g_free(inverse_column);
    VipsImage *out = vips_image_new_from_memory_copy(means, count, s->width, s->height, n, VIPS_FORMAT_UCHAR);
    g_free(means);
    if (out) out->Type = s->in->Type;
    return out;
}

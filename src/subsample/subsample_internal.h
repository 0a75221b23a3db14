/* tilerast subsample stage (include/tilerast/subsample.h has the rules).
 * Consumes: a pass's bin grid, each bin's fragment area per view and the
 * bin offset.  Produces: where each bin is stored in a subsampled image and
 * the metadata sampling reads (for now the layout; storing, aprons and
 * sampling follow). */
#ifndef TILERAST_SUBSAMPLE_INTERNAL_H
#define TILERAST_SUBSAMPLE_INTERNAL_H

#include "internal.h"
#include "tilerast/subsample.h"

/* Bytes of scratch tr__subsampled_layout needs for n bins. */
size_t tr__subsampled_scratch_bytes(size_t n);

/* tr_compute_subsampled_layout on a descriptor already checked, with the
 * caller's scratch (tr__subsampled_scratch_bytes(bins_x * bins_y)). */
void tr__subsampled_layout(const tr_subsampled_layout_desc *d, void *scratch, tr_subsampled_header *header,
                           tr_subsampled_bin *bins);

#endif

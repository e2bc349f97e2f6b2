// Zobrist keys of a stone's images under the 12 board symmetries, for
// summing a position's 12 image hashes in one pass (symmetry reduction).
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "model/common/hex.h"

namespace loom {

/// The keys of a stone's 12 images under the board symmetries, one row of
/// 12 a (site, colour) with keys laid out as [site * colours + colour]:
/// row[k] = keys[map_site(k, site) * colours + colour]. A position's 12
/// image hashes are then summed in one pass over its stones
/// (transformed_hashes, read by the solvers' Canonicalizer) instead of 12
/// passes with a site lookup each; the hashes are the same.
class ImageKeys {
 public:
  using Hashes = std::array<uint64_t, kNumSymmetries>;

  ImageKeys(const HexGeometry& g, const std::vector<uint64_t>& keys, int colours)
      : colours_(colours), rows_(static_cast<size_t>(g.slots()) * colours) {
    for (int site = 0; site < g.slots(); ++site) {
      if (!g.is_site(site)) continue;
      for (int c = 0; c < colours; ++c)
        for (int k = 0; k < kNumSymmetries; ++k)
          rows_[static_cast<size_t>(site) * colours + c][k] =
              keys[static_cast<size_t>(g.map_site(k, site)) * colours + c];
    }
  }
  /// Adds (xor) the images of a stone of `colour` on `site` to h.
  void add(Hashes& h, int site, int colour) const {
    const Hashes& row = rows_[static_cast<size_t>(site) * colours_ + colour];
    for (int k = 0; k < kNumSymmetries; ++k) h[k] ^= row[k];
  }

 private:
  int colours_;
  std::vector<Hashes> rows_;
};

}  // namespace loom

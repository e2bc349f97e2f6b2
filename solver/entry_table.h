// The exact-key transposition tables of the boolean searches (the compact
// alpha-beta, df-pn) and of the superko search: buckets of a few 8- or 16-byte entries on huge
// pages, which searches on several threads may share. Each search keeps
// its own replacement rule; this holds the storage, the bucket of a key and
// whole-entry reads and writes.
#pragma once

#include <algorithm>
#include <atomic>
#include <bit>
#include <cstdint>
#include <cstring>
#include <stdexcept>

#include "solver/huge_pages.h"
#include "solver/whole16.h"

namespace loom::solver {

/// Buckets of a search table of `bytes` in buckets of `bucket_bytes`: a
/// power of two, at least one, and at most the power of two from `keys`
/// (the positions the index can name) up, so that a table on a small board
/// holds no more than its positions can fill (side 2: 2 * 3^7 keys, 256 KB
/// of 8-byte entries in 4-way buckets instead of the --table-mb default).
inline uint64_t table_buckets(uint64_t bytes, uint64_t bucket_bytes, uint64_t keys) {
  const uint64_t fit = std::bit_floor(std::max<uint64_t>(bytes / bucket_bytes, 1));
  return std::min(fit, std::bit_ceil(std::max<uint64_t>(keys, 1)));
}

/// The layout tag of a saved table (EntryTable::write, read): the search
/// (a letter), its key width, its entry size and the version of its
/// entries' encoding (bumped when their fields change, so that an old
/// table is read past, not used).
constexpr uint64_t table_layout(char search, uint64_t key_bytes, uint64_t entry_bytes,
                                uint64_t version) {
  return (uint64_t(static_cast<unsigned char>(search)) << 56) | (version << 16) | (key_bytes << 8) |
         entry_bytes;
}

/// The head of a saved table (EntryTable::write): its layout tag and shape,
/// read and checked; bytes() is the size of the entries that follow.
struct SavedTableHead {
  uint64_t layout = 0, buckets = 0, ways = 0, entry_bytes = 0;
  uint64_t bytes() const { return buckets * ways * entry_bytes; }
};
template <class Reader>
SavedTableHead read_table_head(Reader& rd) {
  SavedTableHead h;
  h.layout = rd.u64();
  h.buckets = rd.u64(uint64_t{1} << 40, "the table's bucket count");
  h.ways = rd.u64(64, "the table's bucket width");
  h.entry_bytes = rd.u64(64, "the table's entry size");
  if (h.buckets == 0 || (h.buckets & (h.buckets - 1)) != 0) rd.corrupt("the table's bucket count");
  return h;
}

/// A table of buckets of kWays entries (Entry: 8 or 16 bytes, aligned to
/// its size, trivially copyable; Entry{} marks an empty slot), addressed
/// by a hash of the key. Searches on several threads can share one where shareable():
/// every entry is then read and written whole, so that a probe never sees
/// half of another thread's entry.
template <class Entry, int kWays>
class EntryTable {
  static_assert(sizeof(Entry) == 8 || sizeof(Entry) == 16);
  static_assert(alignof(Entry) == sizeof(Entry));

 public:
  /// Can searches on several threads share one table? 8-byte entries are
  /// one atomic word; 16-byte ones one aligned SSE access, whole on Intel
  /// and AMD processors with AVX (solver/whole16.h).
  static bool shareable() { return sizeof(Entry) == 8 || whole16_atomic(); }

  /// A table of its own: as many buckets as `bytes` holds (a power of
  /// two), no more than `keys` keys can fill.
  EntryTable(uint64_t bytes, uint64_t keys) {
    const uint64_t buckets = table_buckets(bytes, sizeof(Entry) * kWays, keys);
    mask_ = buckets - 1;
    own_.assign(buckets * kWays, Entry{});
    tab_ = own_.data();
  }
  struct Share {};
  /// The table `owner` allocated, for a search on another thread (owner
  /// must outlive it; only where shareable()).
  EntryTable(const EntryTable& owner, Share) : tab_(owner.tab_), mask_(owner.mask_) {
    if (!shareable()) throw std::logic_error("a table of these entries cannot be shared");
  }
  EntryTable(const EntryTable&) = delete;
  EntryTable& operator=(const EntryTable&) = delete;

  /// The first entry of the key's bucket.
  Entry* bucket(uint64_t key) const {
    const uint64_t h = (key + 1) * 0x9e3779b97f4a7c15ull;
    return &tab_[((h >> 29) & mask_) * kWays];
  }
  /// The first entry of bucket `index` modulo the bucket count (for a
  /// search with its own hash of the key).
  Entry* bucket_at(uint64_t index) const { return &tab_[(index & mask_) * kWays]; }
  /// An entry read whole (8 bytes: one relaxed atomic load, a plain load
  /// on x86-64; 16 bytes: one aligned SSE load).
  static Entry read(Entry& x) {
    if constexpr (sizeof(Entry) == 8)
      return std::atomic_ref<Entry>(x).load(std::memory_order_relaxed);
    else
      return load16(x);
  }
  static void write(Entry& x, const Entry& e) {
    if constexpr (sizeof(Entry) == 8)
      std::atomic_ref<Entry>(x).store(e, std::memory_order_relaxed);
    else
      store16(x, e);
  }

  /// Entries in use in the table this one allocated (every search sharing
  /// it included): those that are not Entry{}. Not while searches run.
  uint64_t occupied() const {
    const Entry empty{};
    uint64_t n = 0;
    for (const Entry& e : own_) n += std::memcmp(&e, &empty, sizeof(Entry)) != 0;
    return n;
  }
  /// Bytes this table allocated (0 if it shares another's).
  uint64_t bytes() const { return own_.size() * sizeof(Entry); }

  /// The whole table (the search's `layout` tag, its shape, then its
  /// entries) to a checkpoint writer (solver/checkpoint.h). Not while
  /// searches write to it.
  template <class Writer>
  void write(Writer& w, uint64_t layout) const {
    w.u64(layout);
    w.u64(mask_ + 1);
    w.u64(kWays);
    w.u64(sizeof(Entry));
    w.bytes(tab_, (mask_ + 1) * kWays * sizeof(Entry));
  }
  /// A table write() wrote, into this one if it has the same layout tag
  /// (the search, its key and entry encoding and their version) and shape
  /// (true); else read past it (false: the table is left as it was). Every
  /// entry of these tables is a key with what was proved about it, so a
  /// table saved by any run of the same job may be loaded.
  template <class Reader>
  bool read(Reader& rd, uint64_t layout) {
    const SavedTableHead h = read_table_head(rd);
    if (h.layout != layout || h.buckets != mask_ + 1 || h.ways != kWays ||
        h.entry_bytes != sizeof(Entry)) {
      rd.skip(h.bytes());
      return false;
    }
    rd.bytes(tab_, h.bytes());
    return true;
  }

 private:
  HugeVector<Entry> own_;  ///< on huge pages: every probe is a cache miss
  Entry* tab_ = nullptr;   ///< own_, or the table shared with another search
  uint64_t mask_ = 0;
};

}  // namespace loom::solver

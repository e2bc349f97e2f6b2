// An allocator for the solvers' large tables (transposition tables, dense
// counters) that asks the kernel for transparent huge pages. Every probe of
// a 512 MB table is a cache miss, and with 4 KiB pages also a TLB miss and a
// page walk; with 2 MiB pages the walk mostly stays in the TLB (measured on
// the compact alpha-beta in bench_solver; docs/solver.md). Linux's default
// THP mode "madvise" gives huge pages only to memory marked so before it is
// first touched, hence an allocator: the block is aligned to 2 MiB and marked
// (madvise MADV_HUGEPAGE) before the container value-initialises it. Blocks
// under 4 MiB, and systems without THP, get ordinary memory; the contents
// and the program's results are the same either way.
#pragma once

#include <sys/mman.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <new>
#include <vector>

namespace loom::solver {

/// `bytes` of memory aligned to 64 bytes, to be released with std::free;
/// blocks of 4 MiB and more are aligned to 2 MiB and marked for huge pages
/// before anything touches them.
inline void* huge_alloc(size_t bytes) {
  constexpr size_t kHuge = size_t{2} << 20, kMin = size_t{4} << 20;
  const size_t align = bytes >= kMin ? kHuge : 64;
  const size_t rounded = (std::max<size_t>(bytes, 1) + align - 1) / align * align;
  void* p = std::aligned_alloc(align, rounded);
  if (!p) throw std::bad_alloc();
#ifdef MADV_HUGEPAGE
  if (bytes >= kMin) ::madvise(p, rounded, MADV_HUGEPAGE);  // advice: failure leaves 4 KiB pages
#endif
  return p;
}

template <class T>
struct HugePageAllocator {
  using value_type = T;
  HugePageAllocator() = default;
  template <class U>
  HugePageAllocator(const HugePageAllocator<U>&) {}
  T* allocate(size_t n) {
    if (n > SIZE_MAX / sizeof(T)) throw std::bad_alloc();
    return static_cast<T*>(huge_alloc(n * sizeof(T)));
  }
  void deallocate(T* p, size_t) { std::free(p); }
  template <class U>
  bool operator==(const HugePageAllocator<U>&) const {
    return true;
  }
};

/// A vector whose large buffers sit on huge pages.
template <class T>
using HugeVector = std::vector<T, HugePageAllocator<T>>;

}  // namespace loom::solver

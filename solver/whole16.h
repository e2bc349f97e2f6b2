// Whole reads and writes of 16-byte table entries that several search
// threads share (the compact method's side-4 entries, df-pn's, superko's).
//
// A shared table is sound only if a probe never sees half of one entry and
// half of another: each entry is an exact proof about its own key. 8-byte
// entries are one atomic word. For 16 bytes, Intel and AMD guarantee that
// an aligned 16-byte SSE load or store (MOVDQA) is carried out atomically
// on every processor that reports AVX (Intel SDM vol. 3A, section 9.1.1;
// AMD64 APM vol. 2, section 7.3.2 "Access Atomicity", both since 2021);
// GCC's libatomic (PR 104688) and LLVM (pull request 74275) implement
// 16-byte atomic loads and stores this way, and like libatomic this file
// trusts it only on Intel and AMD processors (other makers of processors
// with AVX have not documented it). Elsewhere whole16_atomic() is false and
// the callers give each thread its own table.
#pragma once

#include <bit>
#include <type_traits>

#if defined(__x86_64__)
#include <cpuid.h>
#include <emmintrin.h>
#endif

namespace loom::solver {

/// Are aligned 16-byte loads and stores single-copy atomic on this
/// processor (an Intel or AMD x86-64 processor with AVX)?
inline bool whole16_atomic() {
#if defined(__x86_64__)
  static const bool whole = [] {
    unsigned max = 0, ebx = 0, ecx = 0, edx = 0;
    if (!__get_cpuid(0, &max, &ebx, &ecx, &edx)) return false;
    const bool intel =
        ebx == signature_INTEL_ebx && ecx == signature_INTEL_ecx && edx == signature_INTEL_edx;
    const bool amd =
        ebx == signature_AMD_ebx && ecx == signature_AMD_ecx && edx == signature_AMD_edx;
    return (intel || amd) && __builtin_cpu_supports("avx");
  }();
  return whole;
#else
  return false;
#endif
}

/// One 16-byte entry read by a single aligned instruction (whole where
/// whole16_atomic() holds). The asm is opaque to the compiler, which can
/// then neither split the access nor merge it with another.
template <class E>
E load16(const E& x) {
  static_assert(sizeof(E) == 16 && alignof(E) >= 16 && std::is_trivially_copyable_v<E>);
#if defined(__x86_64__)
  __m128i v;
  asm volatile("movdqa %1, %0" : "=x"(v) : "m"(x));
  return std::bit_cast<E>(v);
#else
  return x;
#endif
}

/// One 16-byte entry written by a single aligned instruction.
template <class E>
void store16(E& x, const E& e) {
  static_assert(sizeof(E) == 16 && alignof(E) >= 16 && std::is_trivially_copyable_v<E>);
#if defined(__x86_64__)
  const __m128i v = std::bit_cast<__m128i>(e);
  asm volatile("movdqa %1, %0" : "=m"(x) : "x"(v));
#else
  x = e;
#endif
}

}  // namespace loom::solver

// Element loads and stores on storage buffers viewed as 32-bit words, for elements of 1, 2, 4 or
// 8 bytes. Working on words means no 8/16-bit storage feature is needed on any device. A sub-word
// store is a compare-and-swap loop: neighbouring bytes of the same word may belong to elements
// written by other invocations at the same time, and a plain read-modify-write would lose them.
//
//   DEFINE_ELEMENT_LOAD(Src, src_words)   // uvec2 LoadSrc(uint element, uint bytes)
//   DEFINE_ELEMENT_STORE(Dst, dst_words)  // void StoreDst(uint element, uint bytes, uvec2 bits)
// An element's bits come as uvec2(low word, high word); the high word is 0 below 8 bytes.

#define DEFINE_ELEMENT_LOAD(Suffix, words)                                        \
  uvec2 Load##Suffix(uint element, uint bytes) {                                  \
    if (bytes == 8u) return uvec2(words[2u * element], words[2u * element + 1u]); \
    if (bytes == 4u) return uvec2(words[element], 0u);                            \
    uint byte_offset = element * bytes;                                           \
    uint bits = words[byte_offset >> 2u] >> ((byte_offset & 3u) * 8u);           \
    return uvec2(bits & (bytes == 2u ? 0xFFFFu : 0xFFu), 0u);                     \
  }

#define DEFINE_ELEMENT_STORE(Suffix, words)                                       \
  void Store##Suffix(uint element, uint bytes, uvec2 value) {                     \
    if (bytes == 8u) {                                                            \
      words[2u * element] = value.x;                                              \
      words[2u * element + 1u] = value.y;                                         \
      return;                                                                     \
    }                                                                             \
    if (bytes == 4u) {                                                            \
      words[element] = value.x;                                                   \
      return;                                                                     \
    }                                                                             \
    uint byte_offset = element * bytes;                                           \
    uint word = byte_offset >> 2u;                                                \
    uint shift = (byte_offset & 3u) * 8u;                                         \
    uint mask = (bytes == 2u ? 0xFFFFu : 0xFFu) << shift;                         \
    uint bits = (value.x << shift) & mask;                                        \
    uint expected = words[word];                                                  \
    for (;;) {                                                                    \
      uint seen = atomicCompSwap(words[word], expected, (expected & ~mask) | bits); \
      if (seen == expected) break;                                                \
      expected = seen;                                                            \
    }                                                                             \
  }

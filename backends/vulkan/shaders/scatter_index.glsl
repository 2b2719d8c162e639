// The index side of ScatterND, shared by scatter_nd.comp and scatter_reduce.comp: include it after
// the push-constant block `p` (count, slice, tuple, first_dim, rank, index_words, index_bits,
// index_signed, sizes, strides) and the `index_words` buffer.

// The tuple's j-th coordinate wrapped into [0, size); false when it is out of range.
bool ResolveCoordinate(uint t, uint j, uint size, out uint coordinate) {
  uint w = (t * p.tuple + j) * p.index_words;
  uint low = index_words[w];
  uint high = p.index_words == 2u ? index_words[w + 1u] : 0u;
  if (p.index_signed != 0u && p.index_bits < 64u) {
    // Sign-extend to 64 bits (high word all ones for a negative value).
    int value = bitfieldExtract(int(low), 0, int(p.index_bits));
    low = uint(value);
    high = value < 0 ? 0xFFFFFFFFu : 0u;
  }
  coordinate = low;
  if (high == 0u) return low < size;
  if (p.index_signed == 0u || high != 0xFFFFFFFFu || low < 0x80000000u) return false;
  uint magnitude = 0u - low;  // -value, in [1, 2^31]
  coordinate = size - magnitude;
  return magnitude <= size;
}

// The output element that element s of tuple t's slice goes to; false when the tuple is out of
// range.
bool Target(uint t, uint s, out uint element) {
  element = 0u;
  for (uint j = 0u; j < p.tuple; ++j) {
    uint d = p.first_dim + j;
    uint coordinate;
    if (!ResolveCoordinate(t, j, p.sizes[d], coordinate)) return false;
    element += coordinate * p.strides[d];
  }
  for (uint d = p.rank; d-- > p.first_dim + p.tuple;) {
    element += (s % p.sizes[d]) * p.strides[d];
    s /= p.sizes[d];
  }
  return true;
}

#pragma once
// Tuned form: packed_twice: 16-byte packs on a GPU.
template <class Space>
void packed_twice(const Space& exec) {}

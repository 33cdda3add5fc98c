#pragma once
// fixture: the document's kernels
// Tuned form: packed_twice: 16-byte packs on a GPU.
template <class Space>
void packed_twice(const Space& exec) {}
void plain_twice() {}

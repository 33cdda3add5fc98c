#pragma once
// Tuned form: packed_thrice: renamed since.
template <class Space>
void packed_twice(const Space& exec) {}

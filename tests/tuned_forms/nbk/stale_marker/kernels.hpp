#pragma once
// fixture: the document's kernels

void plain_twice() {}

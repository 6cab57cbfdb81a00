#pragma once
// Reads many files of a Source on several threads, each with its own Reader
// (libgit2 handles are not shared between threads).
#include <functional>

#include "onramp/source/source.h"

namespace onramp::source {

// Calls work(reader, i) for every i in [0, count) on up to `threads` threads
// (0: all cores). The first exception stops the other threads and is
// rethrown here once they have finished.
void for_each_parallel(const Source& src, size_t count, unsigned threads,
                       const std::function<void(Reader&, size_t)>& work);

}  // namespace onramp::source

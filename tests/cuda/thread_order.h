// A test oracle for the kernel race rule: a kernel's block code rewritten so that the threads
// of each barrier-free run of lane loops execute one after the other, each running its part of
// every loop of the run before the next thread starts (thread-major order), forward or
// backward. That is one of the orders a GPU may run the threads in; when the race rule holds,
// the rewritten proc computes exactly what the kernel computes in the interpreter's loop-major
// order. Runs interrupted by anything but lane loops (a barrier, a seq loop, an if) end there.
#pragma once

#include <exocpp/exocpp.h>

namespace exocpp::cuda_test {

// `p` with every kernel's barrier-free runs of lane loops in thread-major order (threads
// 0, 1, ... or, `backward`, the last thread first). Warp-level statements (directly in a
// cuda_warps body) run once per warp, on its first thread's turn.
Proc thread_major(const Proc& p, bool backward);

}  // namespace exocpp::cuda_test

// Exo's examples/avx2_matmul/x86_matmul.py, ported line by line: a 6x16 rank-K update of C
// scheduled "output stationary" into AVX2 registers (C in twelve vectors, a row of B in two, an
// element of A broadcast into one) with the x86 library's instructions.
#pragma once

#include "exo_ports.h"

namespace exo_ports {

// `original` is rank_k_reduce_6x16 as Exo's source writes it; `scheduled` is
// rank_k_reduce_6x16_scheduled after every step of the ported schedule.
Port x86_matmul();

}  // namespace exo_ports

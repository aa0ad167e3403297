// Exo's apps/x86/conv/conv.py, ported line by line: a direct 2-D convolution with bias and ReLU
// (NHWC input, weights [in_channel, ky, kx, out_channel]) specialized to fixed sizes and scheduled
// onto AVX-512 registers: 5 x 64 output tiles held in twenty registers, a weight vector loaded
// and an input element broadcast per step, one fmadd per register.
#pragma once

#include <cstdint>
#include <map>
#include <string>

#include "exo_ports.h"

namespace exo_ports {

// `original` is conv as Exo's source writes it (sizes free); `scheduled` is conv_specialized
// after every step of the ported do_specialization, with the sizes fixed by partial_eval.
Port conv();

// The sizes `scheduled` is specialized to, by `original`'s argument names (what compare_procs
// needs to run `original` on the same shapes).
std::map<std::string, int64_t> conv_sizes();

}  // namespace exo_ports

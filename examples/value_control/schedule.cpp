// The schedules of the value-dependent kernels (value_control_schedule.h).
#include <map>
#include <mutex>

#include "kernels_exo_text.h"
#include "value_control_schedule.h"

namespace value_control {

using namespace exocpp;

Proc plain(const std::string& name) {
  static const Module m = parse_module(EXOCPP_VALUE_CONTROL_EXO_TEXT, {}, "kernels.exo");
  return m.proc(name);
}

Proc scheduled(const std::string& name) {
  // Scheduling is deterministic: each kernel is scheduled once per process (bs_sgemm's steps,
  // validated in the tests, take seconds).
  static std::mutex mu;
  static std::map<std::string, Proc> done;
  std::lock_guard<std::mutex> lock(mu);
  auto it = done.find(name);
  if (it == done.end()) it = done.emplace(name, schedule(name)).first;
  return it->second;
}

Proc schedule(const std::string& name) {
  Proc p = plain(name);
  if (name == "bs_sgemm") return schedule_block_sparse(p);
  if (name == "spmv_s" || name == "spmv_d") return schedule_spmv(p, name == "spmv_d");
  return p;
}

}  // namespace value_control

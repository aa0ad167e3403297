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

Proc to_register(Proc p, const std::vector<Cursor>& es, const std::string& name, int width) {
  p = bind_expr(p, std::vector<CursorLike>(es.begin(), es.end()), name);
  p = expand_dim(p, name, std::to_string(width), "ll");
  p = lift_alloc(p, name);
  return fission(p, p.find(name + "[_] = _").after());
}

Proc schedule(const std::string& name) {
  Proc p = plain(name);
  if (name == "bs_sgemm") return schedule_block_sparse(p);
  if (name == "isamax" || name == "idamax") return schedule_iamax(p, name == "idamax");
  if (name == "snrm2" || name == "dnrm2") return schedule_nrm2(p, name == "dnrm2");
  if (name == "spmv_s" || name == "spmv_d") return schedule_spmv(p, name == "spmv_d");
  return p;
}

}  // namespace value_control

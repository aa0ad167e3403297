// Wrappers and plain-C++ meanings of the x86 instructions: see x86_harness.h.
#include "x86_harness.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <regex>
#include <sstream>
#include <stdexcept>

namespace exocpp::x86_test {
namespace {

bool strip_prefix(std::string& s, const std::string& p) {
  if (s.rfind(p, 0) != 0) return false;
  s = s.substr(p.size());
  return true;
}
bool strip_suffix(std::string& s, const std::string& x) {
  if (s.size() < x.size() || s.compare(s.size() - x.size(), x.size(), x) != 0) return false;
  s = s.substr(0, s.size() - x.size());
  return true;
}

bool in_registers(const FnArg& a) { return a.mem == "AVX512" || a.mem == "AVX2"; }

// The argument an instruction writes: every instruction names it dst, C or out.
bool is_destination(const std::string& name) {
  return name == "dst" || name == "C" || name == "out";
}

}  // namespace

InstrMeaning meaning_of(const std::string& instr_name) {
  InstrMeaning m;
  std::string s = instr_name;
  int bits = 0;
  if (strip_prefix(s, "mm512_"))
    bits = 512;
  else if (strip_prefix(s, "mm256_"))
    bits = 256;
  else if (strip_prefix(s, "mm_"))
    bits = 128;
  else
    throw std::invalid_argument("no mm512_/mm256_/mm_ prefix: " + instr_name);
  bool broadcast_operand = strip_suffix(s, "_broadcast");
  if (strip_suffix(s, "_ps") || strip_suffix(s, "_ss"))
    m.elem = ScalarKind::F32;
  else if (strip_suffix(s, "_pd") || strip_suffix(s, "_sd"))
    m.elem = ScalarKind::F64;
  else if (strip_suffix(s, "_epi32"))
    m.elem = ScalarKind::I32;
  else
    throw std::invalid_argument("no _ps/_pd/_ss/_sd/_epi32 suffix: " + instr_name);
  m.width = bits / (m.elem == ScalarKind::F64 ? 64 : 32);
  if (strip_prefix(s, "maskz_"))
    m.masked = m.zero = true;
  else if (strip_prefix(s, "mask_"))
    m.masked = true;
  if (s == "broadcast") s = "set1";
  static const std::vector<std::string> ops = {"setzero", "loadu",    "storeu", "set1",
                                               "fmadd",   "add",      "mul",    "max",
                                               "relu",    "prefetch", "dpbusd", "dpbf16"};
  if (std::find(ops.begin(), ops.end(), s) == ops.end())
    throw std::invalid_argument("unknown operation '" + s + "' in " + instr_name);
  if (broadcast_operand && s != "fmadd" && s != "dpbusd" && s != "dpbf16")
    throw std::invalid_argument("_broadcast on an operation other than fmadd or a dot product: " +
                                instr_name);
  m.op = s;
  return m;
}

Wrapped wrap(const Proc& instr) {
  const InstrMeaning m = meaning_of(instr.name());
  const std::string sfx = m.elem == ScalarKind::F32   ? "ps"
                          : m.elem == ScalarKind::F64 ? "pd"
                                                      : "epi32";
  std::ostringstream sig, pre, call, post;
  std::map<std::string, std::string> renames;  // register argument -> its wrapper buffer
  call << "    " << instr.name() << "(";
  for (size_t i = 0; i < instr.args().size(); ++i) {
    const FnArg& a = instr.args()[i];
    const std::string& n = a.name.name();
    sig << (i ? ", " : "") << n << ": ";
    call << (i ? ", " : "");
    if (a.type.is_control()) {
      sig << to_string(a.type);
      call << n;
      continue;
    }
    sig << to_string(a.type.base) << "[";
    for (size_t d = 0; d < a.type.shape.size(); ++d)
      sig << (d ? ", " : "") << to_string(a.type.shape[d]);
    sig << "] @ DRAM";
    if (!in_registers(a)) {
      call << n;
      continue;
    }
    const std::string bank = a.mem == "AVX512" ? "mm512" : "mm256";
    pre << "    " << n << "_reg: " << to_string(a.type.base) << "[" << m.width << "] @ " << a.mem
        << "\n    " << bank << "_loadu_" << sfx << "(" << n << "_reg, " << n << ")\n";
    call << n << "_reg";
    renames[n] = n + "_reg";
    post << "    " << bank << "_storeu_" << sfx << "(" << n << ", " << n << "_reg)\n";
  }
  call << ")\n";
  auto source = [&](const std::string& name, const std::string& middle) {
    std::ostringstream src;
    src << "def " << name << "(" << sig.str() << "):\n";
    for (const Expr& pred : instr.preds()) {
      std::string text = to_string(pred);
      if (text.find("stride(") == std::string::npos) src << "    assert " << text << "\n";
    }
    src << pre.str() << middle << post.str();
    return src.str();
  };
  // The body in place of the call: the instruction's text with each register argument renamed
  // (whole words only) to the wrapper's register buffer.
  std::string body = to_string(instr.body(), 1);
  for (const auto& [from, to] : renames)
    body = std::regex_replace(body, std::regex("\\b" + from + "\\b"), to);

  Wrapped w{instr,
            {},
            source("wrap_" + instr.name(), call.str()),
            {},
            source("plain_" + instr.name(), body)};
  ParseOptions opts;
  opts.procs = {instr};  // a test's own instruction shadows the library's of that name
  for (const Proc& p : x86::library().procs)
    if (p.name() != instr.name()) opts.procs.push_back(p);
  w.wrapper =
      parse_module(w.source, opts, "wrap_" + instr.name() + ".exo").proc("wrap_" + instr.name());
  // Plain code touching registers is what replace removes; the type checker would refuse it.
  opts.typecheck = false;
  w.plain = parse_module(w.plain_source, opts, "plain_" + instr.name() + ".exo")
                .proc("plain_" + instr.name());
  return w;
}

void apply_reference(const std::string& instr_name, std::map<std::string, ArgValue>& args) {
  const InstrMeaning m = meaning_of(instr_name);
  if (m.op == "prefetch") return;
  Buffer* dst = nullptr;
  std::vector<Buffer*> ins;
  int64_t n = m.width;
  for (auto& [name, v] : args) {
    Buffer* b = std::get_if<Buffer>(&v);
    if (b && is_destination(name))
      dst = b;
    else if (b)
      ins.push_back(b);
    else if (name == "N")
      n = std::get<int64_t>(v);
  }
  // std::map orders the inputs by name; the instructions' inputs (A, B / a, b / src1, src2 /
  // x, y) are named in the order they are applied, which sorting keeps.
  if (!dst) throw std::invalid_argument(instr_name + " has no dst / C / out argument");
  const Buffer before = dst->deep_copy();
  auto in = [&](size_t k, int64_t i) {
    const Buffer& b = *ins.at(k);
    return b.shape() == std::vector<int64_t>{1} ? b.get({0}) : b.get({i});
  };
  for (int64_t i = 0; i < m.width && i < dst->shape()[0]; ++i) {
    if (m.masked && i >= n) {
      if (m.zero) dst->set({i}, 0.0);
      continue;
    }
    double old = before.get({i}), v = 0.0;
    if (m.op == "setzero")
      v = 0.0;
    else if (m.op == "loadu" || m.op == "storeu" || m.op == "set1")
      v = in(0, i);
    else if (m.op == "fmadd")
      v = old + in(0, i) * in(1, i);
    else if (m.op == "add")
      v = in(0, i) + in(1, i);
    else if (m.op == "mul")
      v = in(0, i) * in(1, i);
    else if (m.op == "max")
      v = in(0, i) > in(1, i) ? in(0, i) : in(1, i);
    else if (m.op == "relu")
      v = in(0, i) > 0 ? in(0, i) : 0.0;
    else if (m.op == "dpbusd") {
      // old + the dot product of a[0:4] (unsigned bytes) with b[i, 0:4] (signed bytes), wrapped
      // to 32 bits as the hardware does.
      const Buffer &a = *ins.at(0), &b = *ins.at(1);
      int64_t sum = static_cast<int64_t>(old);
      for (int64_t t = 0; t < 4; ++t)
        sum += static_cast<int64_t>(a.get({t})) * static_cast<int64_t>(b.get({i, t}));
      v = static_cast<double>(static_cast<int32_t>(static_cast<uint32_t>(sum)));
    } else if (m.op == "dpbf16") {
      // old + a[1] * b[i, 1], then + a[0] * b[i, 0], as vdpbf16ps: each product exact, each sum
      // rounded to f32.
      const Buffer &a = *ins.at(0), &b = *ins.at(1);
      float acc = static_cast<float>(old);
      for (int64_t t = 1; t >= 0; --t)
        acc = static_cast<float>(static_cast<double>(acc) + a.get({t}) * b.get({i, t}));
      v = acc;
    }
    dst->set({i}, v);
  }
}

std::vector<std::map<std::string, int64_t>> size_cases(const Proc& instr) {
  const InstrMeaning m = meaning_of(instr.name());
  if (!m.masked) return {{}};
  std::vector<std::map<std::string, int64_t>> out;
  for (int64_t n = 1; n <= m.width; ++n) out.push_back({{"N", n}});
  return out;
}

std::string check_against_reference(const Proc& instr, const std::map<std::string, int64_t>& sizes,
                                    uint64_t seed) {
  Wrapped w = wrap(instr);
  std::vector<ArgValue> args = random_args(w.wrapper, sizes, seed);
  std::vector<ArgValue> expected = deep_copy(args);
  interpret(w.wrapper, args);
  std::map<std::string, ArgValue> named = by_name(w.wrapper, expected);
  apply_reference(instr.name(), named);
  std::string diff = compare_args(w.wrapper, args, expected);
  return diff.empty() ? "" : diff + "\nwrapper:\n" + w.source;
}

SchedulingError refusal(const Proc& p, const std::string& block, const Proc& instr) {
  try {
    Proc q = replace(p, block, instr);
    ADD_FAILURE() << "expected replace to refuse, got\n" << q;
  } catch (const SchedulingError& e) {
    return e;
  }
  return SchedulingError("", {}, "");
}

}  // namespace exocpp::x86_test

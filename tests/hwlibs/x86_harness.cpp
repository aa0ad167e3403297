// Wrappers and plain-C++ meanings of the x86 instructions: see x86_harness.h.
#include "x86_harness.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
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

int bits_of(ScalarKind k) {
  switch (k) {
    case ScalarKind::F64:
      return 64;
    case ScalarKind::UI16:
      return 16;
    case ScalarKind::I8:
    case ScalarKind::UI8:
      return 8;
    default:
      return 32;
  }
}

// The loadu/storeu suffix of a register of `k`: the wrapper moves every register operand
// between DRAM and the register with the library's own loads and stores.
std::string move_suffix(ScalarKind k) {
  switch (k) {
    case ScalarKind::F32:
      return "ps";
    case ScalarKind::F64:
      return "pd";
    case ScalarKind::UI16:
      return "epi16";
    case ScalarKind::UI8:
      return "epi8";
    default:
      return "epi32";
  }
}

// `v` wrapped to the integer type `k` (two's complement for the signed ones).
double wrap_to(ScalarKind k, int64_t v) {
  const auto u = static_cast<uint64_t>(v);
  switch (k) {
    case ScalarKind::I8:
      return static_cast<int8_t>(static_cast<uint8_t>(u));
    case ScalarKind::UI8:
      return static_cast<uint8_t>(u);
    case ScalarKind::UI16:
      return static_cast<uint16_t>(u);
    default:
      return static_cast<int32_t>(static_cast<uint32_t>(u));
  }
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
  else if (strip_suffix(s, "_epi16") || strip_suffix(s, "_epu16"))
    m.elem = ScalarKind::UI16;  // the core has no i16: 16-bit lanes are ui16
  else if (strip_suffix(s, "_epi8") || strip_suffix(s, "_epu8"))
    m.elem = ScalarKind::UI8;  // 8-bit lanes are ui8, like the 16-bit ones
  else
    throw std::invalid_argument("no _ps/_pd/_ss/_sd/_epi32/_epi16/_epu16/_epi8/_epu8 suffix: " +
                                instr_name);
  m.src_elem = m.elem;
  // A conversion names its source type first: cvtepu16_epi32, cvtepi32_epi16, cvtusepi32_epi16,
  // cvtepu8_epi16, cvtepi16_epi8, cvtps_pd.
  if (strip_prefix(s, "cvtus")) {
    m.op = "cvtus";
    s = "cvt" + s;
  }
  if (strip_prefix(s, "cvtepu16")) {
    m.src_elem = ScalarKind::UI16;
    s = "cvt";
  } else if (strip_prefix(s, "cvtepi32")) {
    m.src_elem = ScalarKind::I32;
    s = "cvt";
  } else if (strip_prefix(s, "cvtepu8")) {
    m.src_elem = ScalarKind::UI8;
    s = "cvt";
  } else if (strip_prefix(s, "cvtepi16")) {
    m.src_elem = ScalarKind::UI16;
    s = "cvt";
  } else if (strip_prefix(s, "cvtps")) {
    m.src_elem = ScalarKind::F32;
    s = "cvt";
  }
  m.width = bits / std::max(bits_of(m.elem), bits_of(m.src_elem));
  // A shift by a constant names its count: srli1, slli8.
  for (const char* shift : {"srli", "slli"}) {
    std::string count = s;
    if (strip_prefix(count, shift) && !count.empty() &&
        count.find_first_not_of("0123456789") == std::string::npos) {
      m.shift = std::stoi(count);
      s = shift;
    }
  }
  if (strip_prefix(s, "maskz_"))
    m.masked = m.zero = true;
  else if (strip_prefix(s, "mask_"))
    m.masked = true;
  if (s == "broadcast" || s == "set1_scalar") s = "set1";
  static const std::vector<std::string> ops = {
      "setzero",      "loadu",     "storeu",     "set1",      "fmadd",         "add",
      "sub",          "mul",       "mullo",      "mulhi",     "avg",           "min",
      "max",          "relu",      "cvt",        "srli",      "slli",          "adds",
      "subs",         "prefetch",  "dpbusd",     "dpbf16",    "div3",          "reduce_add_wide",
      "fma",          "select_gt", "max_update", "add_if_gt", "reduce_argmax", "argmax_update",
      "argmax_merge", "abs",       "reduce_add", "i32gather"};
  if (std::find(ops.begin(), ops.end(), s) == ops.end())
    throw std::invalid_argument("unknown operation '" + s + "' in " + instr_name);
  if (broadcast_operand && s != "fmadd" && s != "dpbusd" && s != "dpbf16")
    throw std::invalid_argument("_broadcast on an operation other than fmadd or a dot product: " +
                                instr_name);
  if (m.op != "cvtus") m.op = s;
  return m;
}

Wrapped wrap(const Proc& instr) {
  const InstrMeaning m = meaning_of(instr.name());
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
    sig << to_string(a.type.base);
    if (!a.type.is_scalar()) {
      sig << "[";
      for (size_t d = 0; d < a.type.shape.size(); ++d)
        sig << (d ? ", " : "") << to_string(a.type.shape[d]);
      sig << "]";
    }
    sig << " @ DRAM";
    if (a.range)  // an index argument keeps its range (the wrapper's entry check draws it)
      sig << " in range(" << to_string(a.range->lo) << ", " << to_string(a.range->hi) << ")";
    if (!in_registers(a)) {
      call << n;
      continue;
    }
    const std::string bank = a.mem == "AVX512" ? "mm512" : "mm256";
    const std::string sfx = move_suffix(a.type.base);
    const int lanes = (a.mem == "AVX512" ? 512 : 256) / bits_of(a.type.base);
    pre << "    " << n << "_reg: " << to_string(a.type.base) << "[" << lanes << "] @ " << a.mem
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
  if (m.op == "reduce_argmax") {  // (best, idx) folded with each lane (v[i], vi[i])
    Buffer &best = std::get<Buffer>(args.at("best")), &idx = std::get<Buffer>(args.at("idx"));
    const Buffer &v = std::get<Buffer>(args.at("v")), &vi = std::get<Buffer>(args.at("vi"));
    for (int64_t i = 0; i < m.width; ++i) {
      if (v.get({i}) > best.get({}) || (v.get({i}) == best.get({}) && vi.get({i}) < idx.get({}))) {
        best.set({}, v.get({i}));
        idx.set({}, vi.get({i}));
      }
    }
    return;
  }
  if (m.op == "i32gather") {  // lane i: src[idx[i]]
    Buffer& dst = std::get<Buffer>(args.at("dst"));
    const Buffer &src = std::get<Buffer>(args.at("src")), &idx = std::get<Buffer>(args.at("idx"));
    for (int64_t i = 0; i < m.width; ++i)
      dst.set({i}, src.get({static_cast<int64_t>(idx.get({i}))}));
    return;
  }
  if (m.op == "reduce_add") {  // the lanes added into the scalar dst in order, each sum rounded
    Buffer& dst = std::get<Buffer>(args.at("dst"));
    const Buffer& src = std::get<Buffer>(args.at("src"));
    for (int64_t i = 0; i < m.width; ++i)
      dst.set({}, round_to_kind(m.elem, dst.get({}) + src.get({i})));
    return;
  }
  if (m.op == "argmax_merge") {  // lane i: (best[i], at[i]) = (v[i], vi[i]) when better
    Buffer &best = std::get<Buffer>(args.at("best")), &at = std::get<Buffer>(args.at("at"));
    const Buffer &v = std::get<Buffer>(args.at("v")), &vi = std::get<Buffer>(args.at("vi"));
    for (int64_t i = 0; i < m.width; ++i)
      if (v.get({i}) > best.get({i}) ||
          (v.get({i}) == best.get({i}) && vi.get({i}) < at.get({i}))) {
        best.set({i}, v.get({i}));
        at.set({i}, vi.get({i}));
      }
    return;
  }
  if (m.op == "argmax_update") {  // lane i: (best[i], at[i]) = (v[i], base + i) when v[i] wins
    Buffer &best = std::get<Buffer>(args.at("best")), &at = std::get<Buffer>(args.at("at"));
    const Buffer& v = std::get<Buffer>(args.at("v"));
    const int64_t base = std::get<int64_t>(args.at("base"));
    for (int64_t i = 0; i < m.width; ++i)
      if (v.get({i}) > best.get({i})) {
        best.set({i}, v.get({i}));
        at.set({i}, wrap_to(ScalarKind::I32, base + i));
      }
    return;
  }
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
    if (b.shape().empty()) return b.get({});  // a scalar variable, broadcast
    return b.shape() == std::vector<int64_t>{1} ? b.get({0}) : b.get({i});
  };
  for (int64_t i = 0; i < m.width && i < dst->shape()[0]; ++i) {
    if (m.masked && i >= n) {
      if (m.zero) dst->set({i}, 0.0);
      continue;
    }
    double old = before.get({i}), v = 0.0;
    if (is_int_precision(m.elem) && m.op != "dpbusd") {
      // Exact integer arithmetic in 64 bits, then wrapped to the destination's width, as the
      // hardware computes each lane.
      const auto a = static_cast<int64_t>(in(0, i));
      const auto b = ins.size() > 1 ? static_cast<int64_t>(in(1, i)) : 0;
      int64_t r = 0;
      if (m.op == "loadu" || m.op == "storeu" || m.op == "set1" || m.op == "cvt")
        r = a;
      else if (m.op == "add")
        r = a + b;
      else if (m.op == "sub")
        r = a - b;
      else if (m.op == "mullo")
        r = a * b;
      else if (m.op == "mulhi")  // unsigned operands: the high half of the 32-bit product
        r = static_cast<int64_t>((static_cast<uint64_t>(a) * static_cast<uint64_t>(b)) >> 16);
      else if (m.op == "adds")  // unsigned saturation
        r = std::min<int64_t>(a + b, m.elem == ScalarKind::UI8 ? 0xFF : 0xFFFF);
      else if (m.op == "subs")
        r = std::max<int64_t>(a - b, 0);
      else if (m.op == "srli")
        r = a >> m.shift;
      else if (m.op == "slli")
        r = a << m.shift;
      else if (m.op == "avg")
        r = (a + b + 1) >> 1;
      else if (m.op == "div3")
        r = a / 3;
      else if (m.op == "min")
        r = std::min(a, b);
      else if (m.op == "max")
        r = std::max(a, b);
      else if (m.op == "cvtus")  // the lane read as unsigned 32-bit, saturated to 16 bits
        r = std::min<uint64_t>(static_cast<uint32_t>(a), 0xFFFF);
      else
        throw std::invalid_argument("no integer reference for " + instr_name);
      dst->set({i}, wrap_to(m.elem, r));
      continue;
    }
    if (m.op == "setzero")
      v = 0.0;
    else if (m.op == "loadu" || m.op == "storeu" || m.op == "set1" || m.op == "cvt")
      v = in(0, i);
    else if (m.op == "fmadd")
      v = old + in(0, i) * in(1, i);
    else if (m.op == "reduce_add_wide")
      v = old + in(0, i);
    else if (m.op == "fma")  // one rounding, in the lane's precision
      v = m.elem == ScalarKind::F32
              ? std::fmaf(static_cast<float>(in(0, i)), static_cast<float>(in(1, i)),
                          static_cast<float>(old))
              : std::fma(in(0, i), in(1, i), old);
    else if (m.op == "add")
      v = in(0, i) + in(1, i);
    else if (m.op == "sub")
      v = in(0, i) - in(1, i);
    else if (m.op == "mul")
      v = in(0, i) * in(1, i);
    else if (m.op == "max")
      v = in(0, i) > in(1, i) ? in(0, i) : in(1, i);
    else if (m.op == "min")
      v = in(0, i) < in(1, i) ? in(0, i) : in(1, i);
    else if (m.op == "relu")
      v = in(0, i) > 0 ? in(0, i) : 0.0;
    else if (m.op == "abs")
      v = std::fabs(in(0, i));
    else if (m.op == "select_gt")  // dst = a > b ? x : y (inputs a, b, x, y by name)
      v = in(0, i) > in(1, i) ? in(2, i) : in(3, i);
    else if (m.op == "max_update")  // dst = v > dst ? v : dst
      v = in(0, i) > old ? in(0, i) : old;
    else if (m.op == "add_if_gt")  // dst += x where a > b
      v = in(0, i) > in(1, i) ? old + in(2, i) : old;
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

std::vector<ArgValue> limit_args(const Proc& wrapper, const std::map<std::string, int64_t>& sizes,
                                 uint64_t seed) {
  std::vector<ArgValue> args = random_args(wrapper, sizes, seed);
  std::mt19937_64 rng(seed);
  for (size_t i = 0; i < args.size(); ++i) {
    ArgValue& v = args[i];
    Buffer* b = std::get_if<Buffer>(&v);
    // An index argument's values stay in its range (random_args draws them there).
    if (!b || !is_int_precision(b->kind()) || wrapper.args()[i].range) continue;
    const ScalarKind k = b->kind();
    const auto [lo, hi] = int_precision_limits(k);
    const std::vector<int64_t> edges = {
        0,   1,   2,   -1,    -2,    lo,    lo + 1, hi,     hi - 1, hi / 2, hi / 2 + 1, 127,
        128, 255, 256, 32767, 32768, 65535, 65536,  -32768, -65536, 3,      43691};
    std::uniform_int_distribution<int64_t> any(lo, hi);
    std::uniform_int_distribution<size_t> pick(0, edges.size() - 1);
    for (int64_t e = 0; e < b->num_elements(); ++e) {
      int64_t x = any(rng);
      if (rng() % 2) {
        x = edges[pick(rng)];
        if (x < lo || x > hi) x = hi;  // an edge outside this type's range: its maximum
      }
      b->set_flat(e, static_cast<double>(x));
    }
  }
  return args;
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
  std::vector<ArgValue> args = limit_args(w.wrapper, sizes, seed);
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
  return SchedulingError("", reason::kTargetNoMatch, {}, "");
}

}  // namespace exocpp::x86_test

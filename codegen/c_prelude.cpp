// The integer helpers of the emitted prelude: 32-bit wrap-around arithmetic through uint32_t,
// defined division, and float-to-integer conversion by truncation and wrap-around, written
// without <math.h> so the library needs no -lm for them.
#include "codegen/c_prelude.h"

#include <vector>

namespace exocpp::codegen {
namespace {

struct Helper {
  const char* name;
  std::vector<const char*> deps;
  const char* text;
};

// In dependency order: a helper only calls helpers listed before it.
const std::vector<Helper>& helpers() {
  static const std::vector<Helper> h = {
      {"exo_i32_of",
       {},
       "// The int32_t with bit pattern u (u - 2^32 for u >= 2^31), without an out-of-range "
       "conversion.\n"
       "static inline int32_t exo_i32_of(uint32_t u) {\n"
       "    return u <= 0x7fffffffu ? (int32_t)u : (int32_t)(u - 0x80000000u) - 0x7fffffff - 1;\n"
       "}\n"},
      {"exo_i8_of",
       {},
       "static inline int8_t exo_i8_of(uint32_t u) {\n"
       "    u &= 0xffu;\n"
       "    return (int8_t)(u <= 0x7fu ? (int)u : (int)u - 256);\n"
       "}\n"},
      {"exo_ui8_of",
       {},
       "static inline uint8_t exo_ui8_of(uint32_t u) { return (uint8_t)(u & 0xffu); }\n"},
      {"exo_ui16_of",
       {},
       "static inline uint16_t exo_ui16_of(uint32_t u) { return (uint16_t)(u & 0xffffu); }\n"},
      {"exo_f2u32",
       {},
       "// A float truncated toward zero, modulo 2^32 (NaN and infinities give 0): exocpp's "
       "conversion\n"
       "// of a float to an integer precision, defined for every value.\n"
       "static inline uint32_t exo_f2u32(double x) {\n"
       "    if (!(x - x == 0.0)) return 0u;\n"
       "    if (x > -9.2e18 && x < 9.2e18) return (uint32_t)(uint64_t)(int64_t)x;\n"
       "    double y = x * (1.0 / 4294967296.0);  /* exact; x mod 2^32 is frac(y) * 2^32 */\n"
       "    if (!(y > -9.2e18 && y < 9.2e18)) return 0u;  /* x is a multiple of 2^32 */\n"
       "    return (uint32_t)(uint64_t)(int64_t)((y - (double)(int64_t)y) * 4294967296.0);\n"
       "}\n"},
      {"exo_add_i32",
       {"exo_i32_of"},
       "// Integer data arithmetic: operands promoted to int32_t, results modulo 2^32 (no signed\n"
       "// overflow), `/` truncating toward zero, `/` and `%` by 0 giving 0.\n"
       "static inline int32_t exo_add_i32(int32_t a, int32_t b) {\n"
       "    return exo_i32_of((uint32_t)a + (uint32_t)b);\n"
       "}\n"},
      {"exo_sub_i32",
       {"exo_i32_of"},
       "static inline int32_t exo_sub_i32(int32_t a, int32_t b) {\n"
       "    return exo_i32_of((uint32_t)a - (uint32_t)b);\n"
       "}\n"},
      {"exo_mul_i32",
       {"exo_i32_of"},
       "static inline int32_t exo_mul_i32(int32_t a, int32_t b) {\n"
       "    return exo_i32_of((uint32_t)a * (uint32_t)b);\n"
       "}\n"},
      {"exo_neg_i32",
       {"exo_i32_of"},
       "static inline int32_t exo_neg_i32(int32_t a) { return exo_i32_of(0u - (uint32_t)a); }\n"},
      {"exo_abs_u32",
       {},
       "// |a| as an unsigned magnitude (2^31 for INT32_MIN). `/` and `%` divide magnitudes so\n"
       "// that no compiler can rewrite (-a) / b as -(a / b), which is wrong for a = INT32_MIN\n"
       "// (GCC 12 does, even with -fwrapv).\n"
       "static inline uint32_t exo_abs_u32(int32_t a) { return a < 0 ? 0u - (uint32_t)a : "
       "(uint32_t)a; }\n"},
      {"exo_div_i32",
       {"exo_i32_of", "exo_abs_u32"},
       "static inline int32_t exo_div_i32(int32_t a, int32_t b) {\n"
       "    if (b == 0) return 0;\n"
       "    uint32_t q = exo_abs_u32(a) / exo_abs_u32(b);\n"
       "    return exo_i32_of((a < 0) != (b < 0) ? 0u - q : q);\n"
       "}\n"},
      {"exo_mod_i32",
       {"exo_i32_of", "exo_abs_u32"},
       "static inline int32_t exo_mod_i32(int32_t a, int32_t b) {\n"
       "    if (b == 0) return 0;\n"
       "    uint32_t r = exo_abs_u32(a) % exo_abs_u32(b);\n"
       "    return exo_i32_of(a < 0 ? 0u - r : r);\n"
       "}\n"},
  };
  return h;
}

const char* narrow_helper(ScalarKind to) {
  switch (to) {
    case ScalarKind::I8:
      return "exo_i8_of";
    case ScalarKind::UI8:
      return "exo_ui8_of";
    case ScalarKind::UI16:
      return "exo_ui16_of";
    case ScalarKind::I32:
      return "exo_i32_of";
    default:
      break;
  }
  throw InternalError("int_conversion to a non-integer precision");
}

}  // namespace

std::string int_binop(BinOpKind op, const std::string& a, const std::string& b,
                      std::set<std::string>& used) {
  std::string name;
  switch (op) {
    case BinOpKind::Add:
      name = "exo_add_i32";
      break;
    case BinOpKind::Sub:
      name = "exo_sub_i32";
      break;
    case BinOpKind::Mul:
      name = "exo_mul_i32";
      break;
    case BinOpKind::Div:
      name = "exo_div_i32";
      break;
    case BinOpKind::Mod:
      name = "exo_mod_i32";
      break;
    case BinOpKind::Lt:
    case BinOpKind::Le:
    case BinOpKind::Gt:
    case BinOpKind::Ge:
    case BinOpKind::Eq:
    case BinOpKind::And:
    case BinOpKind::Or:
      throw InternalError("int_binop of a comparison");
  }
  used.insert(name);
  return name + "(" + a + ", " + b + ")";
}

std::string int_neg(const std::string& a, std::set<std::string>& used) {
  used.insert("exo_neg_i32");
  return "exo_neg_i32(" + a + ")";
}

std::string int_conversion(const std::string& text, ScalarKind from, ScalarKind to,
                           std::set<std::string>& used) {
  if (is_float(from) || from == ScalarKind::R) {
    used.insert("exo_f2u32");
    used.insert(narrow_helper(to));
    return std::string(narrow_helper(to)) + "(exo_f2u32((double)(" + text + ")))";
  }
  // From an integer: exact when the target holds every value of the source. Integer literals
  // (control kinds) fit the precision they meet: the type checker refuses them otherwise.
  bool fits = from == to || !is_data(from) || to == ScalarKind::I32 ||
              (to == ScalarKind::UI16 && from == ScalarKind::UI8);
  if (fits) return text;
  used.insert(narrow_helper(to));
  return std::string(narrow_helper(to)) + "((uint32_t)(" + text + "))";
}

std::string prelude_helpers(const std::set<std::string>& used) {
  std::set<std::string> all = used;
  // Close over dependencies (a helper's deps are listed before it, so walk backwards).
  const std::vector<Helper>& h = helpers();
  for (size_t i = h.size(); i-- > 0;)
    if (all.count(h[i].name))
      for (const char* d : h[i].deps) all.insert(d);
  std::string out;
  for (const Helper& x : h)
    if (all.count(x.name)) out += x.text;
  return out;
}

}  // namespace exocpp::codegen

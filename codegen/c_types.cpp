// C names of exocpp's types, window structs and literals.
#include "codegen/c_types.h"

#include <cctype>
#include <cmath>
#include <cstdio>
#include <set>

#include "core/interpreter.h"

namespace exocpp::codegen {

std::string c_type(ScalarKind k) {
  switch (k) {
    case ScalarKind::R:
      return "float";
    case ScalarKind::F16:
      return "exo_f16";
    case ScalarKind::BF16:
      return "exo_bf16";
    case ScalarKind::F32:
      return "float";
    case ScalarKind::F64:
      return "double";
    case ScalarKind::I8:
      return "int8_t";
    case ScalarKind::UI8:
      return "uint8_t";
    case ScalarKind::UI16:
      return "uint16_t";
    case ScalarKind::I32:
      return "int32_t";
    case ScalarKind::Bool:
      return "bool";
    case ScalarKind::Int:
    case ScalarKind::Index:
    case ScalarKind::Size:
    case ScalarKind::Stride:
      return "int_fast32_t";
    case ScalarKind::Error:
      break;
  }
  throw InternalError("c_type of an ill-typed value");
}

std::string type_suffix(ScalarKind k) { return k == ScalarKind::R ? "f32" : to_string(k); }

std::string window_struct_name(int rank, ScalarKind k, bool const_data) {
  return "struct exo_win_" + std::to_string(rank) + type_suffix(k) + (const_data ? "c" : "");
}

std::string window_struct_def(int rank, ScalarKind k, bool const_data) {
  std::string tag = "exo_win_" + std::to_string(rank) + type_suffix(k) + (const_data ? "c" : "");
  std::string guard =
      "EXOCPP_WIN_" + std::to_string(rank) + type_suffix(k) + (const_data ? "C" : "");
  for (char& c : guard) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return "#ifndef " + guard + "\n#define " + guard + "\nstruct " + tag + " {\n    " +
         (const_data ? "const " : "") + c_type(k) +
         " *const data;\n    const int_fast32_t strides[" + std::to_string(rank) +
         "];\n};\n#endif\n";
}

std::string float_literal(double v, ScalarKind k) {
  if (std::isnan(v)) return "(" + c_type(k) + ")NAN";
  if (std::isinf(v)) return std::string(v < 0 ? "-" : "") + "(" + c_type(k) + ")INFINITY";
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  std::string s = buf;
  // The shortest spelling that reads back as the same double.
  for (int prec = 1; prec <= 17; ++prec) {
    std::snprintf(buf, sizeof buf, "%.*g", prec, v);
    if (std::strtod(buf, nullptr) == v) {
      s = buf;
      break;
    }
  }
  if (s.find_first_of(".eEn") == std::string::npos) s += ".0";
  switch (k) {
    case ScalarKind::R:
    case ScalarKind::F32:
      // A float literal rounds the decimal once, as the interpreter rounds the double once.
      if (static_cast<double>(static_cast<float>(v)) == v) return s + "f";
      return "(float)" + s;
    case ScalarKind::F64:
      return s;
    case ScalarKind::F16:
      // Spelled as the float it rounds to (exact), so that no compiler's double-to-half
      // conversion rounds the decimal twice.
      return "(exo_f16)" + float_literal(round_to_kind(ScalarKind::F16, v), ScalarKind::F32);
    case ScalarKind::BF16:
      // bf16 values are computed on as floats: the literal is spelled as the float it rounds to.
      return float_literal(round_to_kind(ScalarKind::BF16, v), ScalarKind::F32);
    default:
      return "(" + c_type(k) + ")" + s;
  }
}

std::string from_double(const std::string& d, ScalarKind k) {
  switch (k) {
    case ScalarKind::F64:
      return "(double)(" + d + ")";
    case ScalarKind::BF16:
      return "exo_bf16_to_float(exo_bf16_from_double(" + d + "))";
    case ScalarKind::F16:
      // One rounding: gcc's _Float16 and clang's __fp16 (fptrunc double to half) both convert
      // a double directly, never through float.
      return "(exo_f16)(" + d + ")";
    default:
      return "(float)(" + d + ")";
  }
}

std::string f16_typedef() {
  return "#ifndef EXOCPP_F16\n#define EXOCPP_F16\n"
         "// Half precision: _Float16 where the compiler has it, else clang's storage type __fp16\n"
         "// (arithmetic on it is done in float and rounded back at each cast, as _Float16's is).\n"
         "#if defined(__clang__) && !defined(__FLT16_MAX__)\ntypedef __fp16 exo_f16;\n#else\n"
         "typedef _Float16 exo_f16;\n#endif\n#endif\n";
}

std::string bf16_support() {
  return "#ifndef EXOCPP_BF16\n#define EXOCPP_BF16\n#include <string.h>\n"
         "// bfloat16: the upper 16 bits of an IEEE f32.\n"
         "typedef struct exo_bf16 {\n    uint16_t bits;\n} exo_bf16;\n"
         "static inline float exo_bf16_to_float(exo_bf16 h) {\n"
         "    uint32_t u = (uint32_t)h.bits << 16;\n    float f;\n"
         "    memcpy(&f, &u, sizeof f);\n    return f;\n}\n"
         "// Round to nearest even; NaN stays a (quiet) NaN.\n"
         "static inline exo_bf16 exo_bf16_from_float(float f) {\n"
         "    uint32_t u;\n    memcpy(&u, &f, sizeof u);\n    exo_bf16 h;\n"
         "    if ((u & 0x7fffffffu) > 0x7f800000u)\n        h.bits = (uint16_t)((u >> 16) | "
         "0x40u);\n"
         "    else\n        h.bits = (uint16_t)((u + 0x7fffu + ((u >> 16) & 1u)) >> 16);\n"
         "    return h;\n}\n"
         "// One rounding from double: to f32 rounding to odd (the low bit records inexactness), "
         "then\n"
         "// to nearest even, which is exact rounding as f32 has two bits more than bf16 needs.\n"
         "static inline exo_bf16 exo_bf16_from_double(double d) {\n"
         "    float f = (float)d;\n"
         "    if (d == d && (double)f != d) {\n"
         "        uint32_t u;\n        memcpy(&u, &f, sizeof u);\n"
         "        if ((u & 1u) == 0)\n"
         "            u = ((u >> 31) ? -(double)f > -d : (double)f > d) ? u - 1u : u + 1u;\n"
         "        memcpy(&f, &u, sizeof f);\n    }\n"
         "    return exo_bf16_from_float(f);\n}\n"
         "static inline float exo_bf16_round(float f) {\n"
         "    return exo_bf16_to_float(exo_bf16_from_float(f));\n}\n"
         "#endif\n";
}

bool is_c_keyword(const std::string& s) {
  static const std::set<std::string> kw = {
      "auto", "break", "case", "char", "const", "continue", "default", "do", "double", "else",
      "enum", "extern", "float", "for", "goto", "if", "inline", "int", "long", "register",
      "restrict", "return", "short", "signed", "sizeof", "static", "struct", "switch", "typedef",
      "union", "unsigned", "void", "volatile", "while", "_Bool", "_Complex", "_Imaginary", "bool",
      "true", "false", "NULL", "asm", "typeof", "_Float16", "main",
      // C11 and C23 keywords and their <stdalign.h>/<stdnoreturn.h>/... spellings.
      "alignas", "alignof", "noreturn", "static_assert", "thread_local", "constexpr", "nullptr",
      "typeof_unqual", "complex", "imaginary",
      // C++ keywords: the header declares the parameters by name and is included from C++.
      "and", "and_eq", "bitand", "bitor", "catch", "char8_t", "char16_t", "char32_t", "class",
      "compl", "concept", "const_cast", "consteval", "constinit", "co_await", "co_return",
      "co_yield", "decltype", "delete", "dynamic_cast", "explicit", "export", "friend", "mutable",
      "namespace", "new", "noexcept", "not", "not_eq", "operator", "or", "or_eq", "private",
      "protected", "public", "reinterpret_cast", "requires", "static_cast", "template", "this",
      "throw", "try", "typeid", "typename", "using", "virtual", "wchar_t", "xor", "xor_eq",
      // Names the emitted code itself uses (besides the exo_ and EXOCPP_ prefixes).
      "ctxt", "ctx", "args"};
  return kw.count(s) > 0;
}

bool is_c_header_name(const std::string& s) {
  // Macros and identifiers of the headers emitted C includes (<stdbool.h>, <stdint.h>, and
  // those memories, externs and hardware libraries ask for: <stdlib.h>, <stdio.h>, <string.h>,
  // <math.h>, <assert.h>, <errno.h>, <limits.h>, <float.h>, <stddef.h>, <omp.h>, intrinsics).
  static const std::set<std::string> names = {"__bool_true_false_are_defined",
                                              "NULL",
                                              "offsetof",
                                              "EXIT_SUCCESS",
                                              "EXIT_FAILURE",
                                              "RAND_MAX",
                                              "MB_CUR_MAX",
                                              "malloc",
                                              "free",
                                              "EOF",
                                              "BUFSIZ",
                                              "FILENAME_MAX",
                                              "FOPEN_MAX",
                                              "L_tmpnam",
                                              "SEEK_CUR",
                                              "SEEK_END",
                                              "SEEK_SET",
                                              "TMP_MAX",
                                              "stdin",
                                              "stdout",
                                              "stderr",
                                              "FILE",
                                              "remove",
                                              "rename",
                                              "tmpfile",
                                              "tmpnam",
                                              "setbuf",
                                              "setvbuf",
                                              "fseek",
                                              "ftell",
                                              "rewind",
                                              "fgetpos",
                                              "fsetpos",
                                              "clearerr",
                                              "feof",
                                              "ferror",
                                              "perror",
                                              "ungetc",
                                              "gets",
                                              "errno",
                                              "assert",
                                              "NDEBUG",
                                              "HUGE_VAL",
                                              "HUGE_VALF",
                                              "HUGE_VALL",
                                              "INFINITY",
                                              "NAN",
                                              "MATH_ERRNO",
                                              "MATH_ERREXCEPT",
                                              "math_errhandling",
                                              "fpclassify",
                                              "isfinite",
                                              "isinf",
                                              "isnan",
                                              "isnormal",
                                              "signbit",
                                              "isgreater",
                                              "isgreaterequal",
                                              "isless",
                                              "islessequal",
                                              "islessgreater",
                                              "isunordered",
                                              "fmod",
                                              "CHAR_BIT",
                                              "SCHAR_MIN",
                                              "SCHAR_MAX",
                                              "UCHAR_MAX",
                                              "CHAR_MIN",
                                              "CHAR_MAX",
                                              "MB_LEN_MAX",
                                              "SHRT_MIN",
                                              "SHRT_MAX",
                                              "USHRT_MAX",
                                              "INT_MIN",
                                              "INT_MAX",
                                              "UINT_MAX",
                                              "LONG_MIN",
                                              "LONG_MAX",
                                              "ULONG_MAX",
                                              "LLONG_MIN",
                                              "LLONG_MAX",
                                              "ULLONG_MAX",
                                              "SIZE_MAX",
                                              "PTRDIFF_MIN",
                                              "PTRDIFF_MAX",
                                              "WCHAR_MIN",
                                              "WCHAR_MAX",
                                              "WINT_MIN",
                                              "WINT_MAX",
                                              "SIG_ATOMIC_MIN",
                                              "SIG_ATOMIC_MAX",
                                              "DECIMAL_DIG",
                                              "unix",
                                              "linux",
                                              "i386",
                                              "EDOM",
                                              "ERANGE",
                                              "EILSEQ",
                                              "ENOMEM",
                                              "EINVAL"};
  if (names.count(s)) return true;
  auto starts = [&](const char* p) { return s.rfind(p, 0) == 0; };
  auto ends = [&](const char* p) {
    std::string q = p;
    return s.size() >= q.size() && s.compare(s.size() - q.size(), q.size(), q) == 0;
  };
  // Reserved for the implementation: any leading underscore (file scope), `*_t` typedefs
  // (int32_t, size_t, ...; POSIX reserves them all), and the macro families of <stdint.h>,
  // <float.h>, <math.h> and <omp.h>.
  if (starts("_") || ends("_t")) return true;
  if ((starts("INT") || starts("UINT")) && (ends("_MIN") || ends("_MAX") || ends("_C")))
    return true;
  if (starts("FLT_") || starts("DBL_") || starts("LDBL_") || starts("FP_") || starts("M_") ||
      starts("omp_"))
    return true;
  if (starts("exo_") || starts("EXOCPP_") || starts("exocpp_")) return true;
  // <math.h>'s float and long double versions of its functions (sinf, sinl, ...).
  if (s.size() > 1 && (ends("f") || ends("l")) && is_c_library_function(s.substr(0, s.size() - 1)))
    return true;
  return false;
}

std::string c_name_clash(const std::string& s) {
  if (is_c_keyword(s)) return "a C or C++ keyword (or a name the emitted code uses)";
  if (is_c_library_function(s)) return "a function of the C standard library";
  if (is_c_header_name(s))
    return "a macro or identifier of the C headers the emitted code includes, or reserved for "
           "them";
  return "";
}

bool is_c_library_function(const std::string& s) {
  static const std::set<std::string> fns = {
      // <string.h>
      "memcpy", "memmove", "memset", "memcmp", "memchr", "strlen", "strcpy", "strncpy", "strcat",
      "strncat", "strcmp", "strncmp", "strchr", "strrchr", "strstr", "strspn", "strcspn", "strpbrk",
      "strtok", "strerror",
      // <stdlib.h>
      "abs", "labs", "llabs", "div", "ldiv", "lldiv", "atoi", "atol", "atoll", "atof", "strtol",
      "strtoll", "strtoul", "strtoull", "strtod", "strtof", "calloc", "realloc", "exit", "_Exit",
      "abort", "qsort", "bsearch", "rand", "srand", "getenv", "system", "atexit",
      // <stdio.h>
      "printf", "fprintf", "sprintf", "snprintf", "vprintf", "vfprintf", "vsprintf", "vsnprintf",
      "scanf", "fscanf", "sscanf", "puts", "putchar", "fputs", "fputc", "putc", "getchar", "fgets",
      "fgetc", "getc", "fopen", "fclose", "fread", "fwrite", "fflush",
      // <math.h>, double and float versions
      "acos", "asin", "atan", "atan2", "cos", "sin", "tan", "cosh", "sinh", "tanh", "acosh",
      "asinh", "atanh", "exp", "exp2", "expm1", "log", "log10", "log2", "log1p", "logb", "frexp",
      "ldexp", "modf", "scalbn", "pow", "sqrt", "cbrt", "hypot", "erf", "erfc", "tgamma", "lgamma",
      "ceil", "floor", "trunc", "round", "lround", "llround", "rint", "lrint", "llrint",
      "nearbyint", "remainder", "remquo", "copysign", "nan", "nextafter", "fdim", "fmax", "fmin",
      "fma", "fabs", "ilogb", "acosf", "asinf", "atanf", "atan2f", "cosf", "sinf", "tanf", "coshf",
      "sinhf", "tanhf", "expf", "exp2f", "logf", "log10f", "log2f", "powf", "sqrtf", "cbrtf",
      "hypotf", "ceilf", "floorf", "truncf", "roundf", "rintf", "copysignf", "fdimf", "fmaxf",
      "fminf", "fmaf", "fabsf"};
  return fns.count(s) > 0;
}

bool is_c_identifier(const std::string& s) {
  if (s.empty() || std::isdigit(static_cast<unsigned char>(s[0]))) return false;
  for (char c : s)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') return false;
  return true;
}

}  // namespace exocpp::codegen

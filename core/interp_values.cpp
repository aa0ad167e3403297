// The interpreter's values: precision rounding, Buffer (tensors and aliasing windows), config
// state, and the comparisons tests use to check two runs agree.
#include <cmath>
#include <cstdio>
#include <limits>
#include <ostream>
#include <sstream>

#include "core/interpreter.h"

namespace exocpp {

// ---- rounding --------------------------------------------------------------------------------

namespace {

// `x` rounded to nearest-even in a binary format with `fraction_bits` stored significand bits
// and normal exponents down to `min_exp` (subnormals below), overflowing to infinity from
// `overflow_at` (the midpoint between the largest finite value and the next power of two).
double round_to_binary(double x, int fraction_bits, int min_exp, double overflow_at) {
  if (std::isnan(x) || std::isinf(x)) return x;
  double a = std::fabs(x);
  if (a >= overflow_at) return std::copysign(std::numeric_limits<double>::infinity(), x);
  int e = 0;
  std::frexp(a, &e);  // a = m * 2^e with m in [0.5, 1): a's binade starts at 2^(e-1)
  int exp = std::max(e - 1, min_exp);  // below 2^min_exp the spacing stays that of subnormals
  double quantum = std::ldexp(1.0, exp - fraction_bits);
  return std::copysign(std::nearbyint(a / quantum) * quantum, x);
}

// IEEE half: 10 fraction bits, exponents down to -14, largest finite 65504.
double round_to_half(double x) { return round_to_binary(x, 10, -14, 65520.0); }

// bfloat16: 7 fraction bits and f32's exponents (down to -126); the largest finite value is
// (2 - 2^-7) * 2^127, so values from (2 - 2^-8) * 2^127 round to infinity.
double round_to_bfloat16(double x) {
  return round_to_binary(x, 7, -126, std::ldexp(2.0 - 1.0 / 256, 127));
}

// Truncate toward zero, then wrap into a `bits`-wide two's-complement (or unsigned) integer.
double wrap_int(double x, int bits, bool is_signed) {
  if (!std::isfinite(x)) return 0.0;
  double m = std::ldexp(1.0, bits);
  double r = std::fmod(std::trunc(x), m);  // exact, in (-m, m)
  if (r < 0) r += m;
  if (is_signed && r >= m / 2) r -= m;
  return r + 0.0;  // no negative zero
}

std::string fmt_double(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.9g", v);
  return buf;
}

std::string index_string(const std::vector<int64_t>& idx) {
  std::string s = "[";
  for (size_t i = 0; i < idx.size(); ++i) s += (i ? ", " : "") + std::to_string(idx[i]);
  return s + "]";
}

}  // namespace

double round_to_kind(ScalarKind k, double v) {
  switch (k) {
    case ScalarKind::F16:
      return round_to_half(v);
    case ScalarKind::BF16:
      return round_to_bfloat16(v);
    case ScalarKind::F32:
      return static_cast<double>(static_cast<float>(v));
    case ScalarKind::I8:
      return wrap_int(v, 8, true);
    case ScalarKind::UI8:
      return wrap_int(v, 8, false);
    case ScalarKind::UI16:
      return wrap_int(v, 16, false);
    case ScalarKind::I32:
      return wrap_int(v, 32, true);
    case ScalarKind::R:
    case ScalarKind::F64:
    case ScalarKind::Bool:
    case ScalarKind::Int:
    case ScalarKind::Index:
    case ScalarKind::Size:
    case ScalarKind::Stride:
    case ScalarKind::Error:
      return v;
  }
  return v;
}

std::string shape_string(const std::vector<int64_t>& shape) { return index_string(shape); }

// ---- Buffer ----------------------------------------------------------------------------------

Buffer::Buffer(ScalarKind kind, std::vector<int64_t> shape, double fill)
    : kind_(kind), shape_(std::move(shape)) {
  int64_t n = 1;
  for (int64_t d : shape_) {
    if (d < 0)
      throw InterpError({},
                        "a buffer cannot have a negative extent: shape " + shape_string(shape_));
    if (d > 0 && n > (int64_t(1) << 40) / d)
      throw InterpError({},
                        "a buffer of shape " + shape_string(shape_) + " is too large to allocate");
    n *= d;
  }
  strides_.assign(shape_.size(), 1);
  for (int d = rank() - 2; d >= 0; --d) strides_[d] = strides_[d + 1] * shape_[d + 1];
  storage_ =
      std::make_shared<std::vector<double>>(static_cast<size_t>(n), round_to_kind(kind, fill));
}

Buffer Buffer::from_values(ScalarKind kind, std::vector<int64_t> shape,
                           const std::vector<double>& values) {
  Buffer b(kind, std::move(shape));
  if (static_cast<int64_t>(values.size()) != b.num_elements())
    throw InterpError({}, "Buffer::from_values: " + std::to_string(values.size()) +
                              " values for shape " + shape_string(b.shape_) + " (" +
                              std::to_string(b.num_elements()) + " elements)");
  for (size_t i = 0; i < values.size(); ++i) (*b.storage_)[i] = round_to_kind(kind, values[i]);
  return b;
}

int64_t Buffer::num_elements() const {
  int64_t n = 1;
  for (int64_t d : shape_) n *= d;
  return n;
}

bool Buffer::is_dense() const {
  int64_t expect = 1;
  for (int d = rank() - 1; d >= 0; --d) {
    if (shape_[d] != 1 && strides_[d] != expect) return false;
    expect *= shape_[d];
  }
  return true;
}

int64_t Buffer::position(const std::vector<int64_t>& idx) const {
  if (!defined()) throw InterpError({}, "access to an undefined Buffer");
  bool ok = static_cast<int>(idx.size()) == rank();
  for (size_t d = 0; ok && d < idx.size(); ++d) ok = idx[d] >= 0 && idx[d] < shape_[d];
  if (!ok)
    throw InterpError({}, "index " + index_string(idx) + " is out of range for a buffer of shape " +
                              shape_string(shape_));
  int64_t pos = offset_;
  for (size_t d = 0; d < idx.size(); ++d) pos += idx[d] * strides_[d];
  return pos;
}

double Buffer::get(const std::vector<int64_t>& idx) const { return raw(position(idx)); }
void Buffer::set(const std::vector<int64_t>& idx, double v) { raw_set(position(idx), v); }

std::vector<int64_t> Buffer::unflatten(int64_t i) const {
  std::vector<int64_t> idx(shape_.size());
  for (int d = rank() - 1; d >= 0; --d) {
    idx[d] = shape_[d] == 0 ? 0 : i % shape_[d];
    if (shape_[d] != 0) i /= shape_[d];
  }
  return idx;
}

double Buffer::flat(int64_t i) const { return get(unflatten(i)); }
void Buffer::set_flat(int64_t i, double v) { set(unflatten(i), v); }

std::vector<double> Buffer::to_vector() const {
  std::vector<double> out;
  int64_t n = num_elements();
  out.reserve(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) out.push_back(flat(i));
  return out;
}

Buffer Buffer::deep_copy() const {
  if (!defined()) return Buffer();
  return from_values(kind_, shape_, to_vector());
}

Buffer Buffer::window(const std::vector<Slice>& idx) const {
  if (static_cast<int>(idx.size()) > rank())
    throw InterpError({}, "a window with " + std::to_string(idx.size()) +
                              " indices of a buffer of rank " + std::to_string(rank()));
  Buffer w;
  w.kind_ = kind_;
  w.storage_ = storage_;
  w.offset_ = offset_;
  for (int d = 0; d < rank(); ++d) {
    if (d >= static_cast<int>(idx.size())) {
      w.shape_.push_back(shape_[d]);
      w.strides_.push_back(strides_[d]);
      continue;
    }
    const Slice& s = idx[d];
    bool ok = s.is_interval ? (0 <= s.lo && s.lo <= s.hi && s.hi <= shape_[d])
                            : (0 <= s.lo && s.lo < shape_[d]);
    if (!ok)
      throw InterpError({}, "window index " +
                                (s.is_interval ? std::to_string(s.lo) + ":" + std::to_string(s.hi)
                                               : std::to_string(s.lo)) +
                                " is out of range for dimension " + std::to_string(d) +
                                " of extent " + std::to_string(shape_[d]));
    w.offset_ += s.lo * strides_[d];
    if (s.is_interval) {
      w.shape_.push_back(s.hi - s.lo);
      w.strides_.push_back(strides_[d]);
    }
  }
  return w;
}

std::ostream& operator<<(std::ostream& os, const Buffer& b) {
  if (!b.defined()) return os << "<undefined buffer>";
  os << to_string(b.kind()) << shape_string(b.shape()) << " {";
  int64_t n = b.num_elements();
  for (int64_t i = 0; i < n && i < 64; ++i) os << (i ? ", " : "") << fmt_double(b.flat(i));
  if (n > 64) os << ", ...";
  return os << "}";
}

// ---- comparisons -----------------------------------------------------------------------------

std::string compare_buffers(const Buffer& a, const Buffer& b, const std::string& name,
                            const CompareOptions& opts) {
  if (a.defined() != b.defined()) return name + ": one buffer is undefined";
  if (!a.defined()) return "";
  if (a.kind() != b.kind())
    return name + ": element types differ (" + to_string(a.kind()) + " vs " + to_string(b.kind()) +
           ")";
  if (a.shape() != b.shape())
    return name + ": shapes differ (" + shape_string(a.shape()) + " vs " + shape_string(b.shape()) +
           ")";
  int64_t n = a.num_elements();
  for (int64_t i = 0; i < n; ++i) {
    double x = a.flat(i), y = b.flat(i);
    bool same;
    if (std::isnan(x) || std::isnan(y))
      same = std::isnan(x) && std::isnan(y) && opts.nan_equal;
    else if (x == y)
      same = !opts.signed_zeros || std::signbit(x) == std::signbit(y);  // also equal infinities
    else
      same = std::fabs(x - y) <= opts.atol + opts.rtol * std::fabs(y);
    if (same) continue;
    std::string where = name + index_string(a.unflatten(i));
    std::string msg = where + " differs: " + fmt_double(x) + " vs " + fmt_double(y);
    if (std::isnan(x) && std::isnan(y))
      msg += " (both NaN: a read of memory never written? set CompareOptions::nan_equal to accept)";
    return msg;
  }
  return "";
}

std::string to_string(const ArgValue& v) {
  if (const int64_t* i = std::get_if<int64_t>(&v)) return std::to_string(*i);
  if (const bool* b = std::get_if<bool>(&v)) return *b ? "True" : "False";
  const Buffer& buf = std::get<Buffer>(v);
  if (!buf.defined()) return "<undefined buffer>";
  if (buf.rank() == 0)
    return std::string(to_string(buf.kind())) + " scalar " + fmt_double(buf.value());
  return std::string(to_string(buf.kind())) + shape_string(buf.shape()) + " buffer";
}

// ---- config state ----------------------------------------------------------------------------

bool ConfigState::has(const std::string& config, const std::string& field) const {
  return values.count({config, field}) != 0;
}

const ConfigValue& ConfigState::get(const std::string& config, const std::string& field,
                                    const SrcInfo& where) const {
  auto it = values.find({config, field});
  if (it == values.end())
    throw InterpError(
        where, "config field " + config + "." + field + " is read before it was ever written");
  return it->second;
}

void ConfigState::set(const std::string& config, const std::string& field, ConfigValue v) {
  values[{config, field}] = v;
}

static std::string config_value_string(const ConfigValue& v) {
  if (const int64_t* i = std::get_if<int64_t>(&v)) return std::to_string(*i);
  if (const bool* b = std::get_if<bool>(&v)) return *b ? "True" : "False";
  return fmt_double(std::get<double>(v));
}

std::string compare_configs(const ConfigState& a, const ConfigState& b) {
  for (const auto& [key, va] : a.values) {
    std::string name = key.first + "." + key.second;
    auto it = b.values.find(key);
    if (it == b.values.end()) return "config " + name + " is written only in the first run";
    if (!(it->second == va))
      return "config " + name + " differs: " + config_value_string(va) + " vs " +
             config_value_string(it->second);
  }
  for (const auto& [key, vb] : b.values)
    if (!a.values.count(key))
      return "config " + key.first + "." + key.second + " is written only in the second run";
  return "";
}

}  // namespace exocpp

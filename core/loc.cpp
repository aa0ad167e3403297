// Locations and the forwarding functions of the basic edits.
#include "core/loc.h"

#include <sstream>

namespace exocpp {

const char* to_string(CursorKind k) {
  switch (k) {
    case CursorKind::Invalid:
      return "invalid";
    case CursorKind::Stmt:
      return "statement";
    case CursorKind::Block:
      return "block";
    case CursorKind::Gap:
      return "gap";
    case CursorKind::Expr:
      return "expression";
    case CursorKind::Arg:
      return "argument";
  }
  return "?";
}

std::string Loc::to_string() const {
  std::ostringstream os;
  os << exocpp::to_string(kind) << " at body";
  for (const PathStep& s : block)
    os << "[" << s.index << "]." << (s.field == BlockField::Body ? "body" : "orelse");
  os << "[" << lo;
  if (kind == CursorKind::Block) os << ":" << hi;
  os << "]";
  for (int e : expr) os << "." << e;
  return os.str();
}

namespace {

bool has_prefix(const BlockPath& p, const BlockPath& prefix) {
  if (p.size() < prefix.size()) return false;
  for (size_t i = 0; i < prefix.size(); ++i)
    if (!(p[i] == prefix[i])) return false;
  return true;
}

// Where a location sits relative to list `path`.
enum class Rel { Outside, InList, BelowStmt };
Rel relation(const Loc& l, const BlockPath& path) {
  if (l.kind == CursorKind::Invalid || l.kind == CursorKind::Arg) return Rel::Outside;
  if (!has_prefix(l.block, path)) return Rel::Outside;
  return l.block.size() == path.size() ? Rel::InList : Rel::BelowStmt;
}

}  // namespace

bool loc_within_stmt(const Loc& l, const BlockPath& path, int index) {
  switch (relation(l, path)) {
    case Rel::Outside:
      return false;
    case Rel::BelowStmt:
      return l.block[path.size()].index == index;
    case Rel::InList:
      return (l.kind == CursorKind::Stmt || l.kind == CursorKind::Expr) && l.lo == index;
  }
  return false;
}

Loc loc_reroot(const Loc& l, const BlockPath& from, int from_index, const BlockPath& to,
               int to_index) {
  Loc out = l;
  if (from_index < 0) {
    // l.block starts with `from`: replace that prefix by `to`.
    out.block = to;
    out.block.insert(out.block.end(), l.block.begin() + static_cast<long>(from.size()),
                     l.block.end());
    return out;
  }
  // l is at or below statement from_index of list `from`.
  if (l.block.size() == from.size()) {
    out.block = to;
    out.lo = to_index + (l.lo - from_index);
    out.hi = to_index + (l.hi - from_index);
    return out;
  }
  out.block = to;
  PathStep first = l.block[from.size()];
  first.index = to_index + (first.index - from_index);
  out.block.push_back(first);
  out.block.insert(out.block.end(), l.block.begin() + static_cast<long>(from.size()) + 1,
                   l.block.end());
  return out;
}

ForwardFn fwd_identity() {
  return [](const Loc& l) { return l; };
}

ForwardFn fwd_compose(ForwardFn f, ForwardFn g) {
  return [f = std::move(f), g = std::move(g)](const Loc& l) {
    Loc m = f(l);
    return m.valid() ? g(m) : m;
  };
}

ForwardFn fwd_replace(BlockPath path, int lo, int hi, int n_new, ForwardFn inside) {
  return [path = std::move(path), lo, hi, n_new, inside = std::move(inside)](const Loc& l) -> Loc {
    const int delta = n_new - (hi - lo);
    auto in_region = [&]() { return inside ? inside(l) : Loc::invalid(); };
    Loc out = l;
    switch (relation(l, path)) {
      case Rel::Outside:
        return l;
      case Rel::BelowStmt: {
        int s = l.block[path.size()].index;
        if (s < lo) return l;
        if (s >= hi) {
          out.block[path.size()].index += delta;
          return out;
        }
        return in_region();
      }
      case Rel::InList:
        break;
    }
    switch (l.kind) {
      case CursorKind::Stmt:
      case CursorKind::Expr:
        if (l.lo < lo) return l;
        if (l.lo >= hi) {
          out.lo += delta;
          out.hi += delta;
          return out;
        }
        return in_region();
      case CursorKind::Block:
        if (l.hi <= lo) return l;
        if (l.lo >= hi) {
          out.lo += delta;
          out.hi += delta;
          return out;
        }
        if (l.lo == lo && l.hi == hi) {
          if (n_new == 0) return Loc::invalid();
          out.hi = lo + n_new;
          return out;
        }
        if (l.lo <= lo && l.hi >= hi) {
          out.hi += delta;
          return out.hi > out.lo ? out : Loc::invalid();
        }
        return in_region();
      case CursorKind::Gap:
        if (l.lo <= lo) return l;
        if (l.lo >= hi) {
          out.lo += delta;
          out.hi += delta;
          return out;
        }
        return in_region();
      case CursorKind::Invalid:
      case CursorKind::Arg:
        return l;
    }
    return l;
  };
}

ForwardFn fwd_wrap(BlockPath path, int lo, int hi, BlockField field) {
  BlockPath inner = path;
  inner.push_back({lo, field});
  ForwardFn inside = [path, lo, inner](const Loc& l) { return loc_reroot(l, path, lo, inner, 0); };
  return [path, lo, hi, inner, inside](const Loc& l) -> Loc {
    // A block or gap of list `path` lying within [lo, hi) moves into the new statement.
    if (relation(l, path) == Rel::InList && l.lo >= lo && l.hi <= hi &&
        (l.kind == CursorKind::Block || (l.kind == CursorKind::Gap && l.lo > lo && l.lo < hi))) {
      Loc out = l;
      out.block = inner;
      out.lo -= lo;
      out.hi -= lo;
      return out;
    }
    return fwd_replace(path, lo, hi, 1, inside)(l);
  };
}

ForwardFn fwd_unwrap(BlockPath path, int lo, int body_size, BlockField field) {
  BlockPath inner = path;
  inner.push_back({lo, field});
  ForwardFn inside = [path, lo, inner](const Loc& l) -> Loc {
    // The statement itself (or its other branch) is gone; its `field` body moves up a level.
    if (!has_prefix(l.block, inner)) return Loc::invalid();
    Loc out = l;
    out.block = path;
    if (l.block.size() == inner.size()) {
      out.lo += lo;
      out.hi += lo;
      return out;
    }
    PathStep first = l.block[inner.size()];
    first.index += lo;
    out.block.push_back(first);
    out.block.insert(out.block.end(), l.block.begin() + static_cast<long>(inner.size()) + 1,
                     l.block.end());
    return out;
  };
  return fwd_replace(std::move(path), lo, lo + 1, body_size, inside);
}

ForwardFn fwd_swap(BlockPath path, int lo, int hi, int hi2) {
  auto new_index = [lo, hi, hi2](int i) {
    if (i < lo || i >= hi2) return i;
    return i < hi ? i + (hi2 - hi) : i - (hi - lo);
  };
  return [path = std::move(path), lo, hi, hi2, new_index](const Loc& l) -> Loc {
    Loc out = l;
    switch (relation(l, path)) {
      case Rel::Outside:
        return l;
      case Rel::BelowStmt:
        out.block[path.size()].index = new_index(l.block[path.size()].index);
        return out;
      case Rel::InList:
        break;
    }
    switch (l.kind) {
      case CursorKind::Stmt:
      case CursorKind::Expr:
        out.lo = new_index(l.lo);
        out.hi = out.lo + (l.hi - l.lo);
        return out;
      case CursorKind::Block:
        if (l.hi <= lo || l.lo >= hi2 || (l.lo <= lo && l.hi >= hi2)) return l;
        if (l.lo >= lo && l.hi <= hi) {
          out.lo += hi2 - hi;
          out.hi += hi2 - hi;
          return out;
        }
        if (l.lo >= hi && l.hi <= hi2) {
          out.lo -= hi - lo;
          out.hi -= hi - lo;
          return out;
        }
        return Loc::invalid();
      case CursorKind::Gap:
        if (l.lo <= lo || l.lo >= hi2) return l;
        return Loc::invalid();
      case CursorKind::Invalid:
      case CursorKind::Arg:
        return l;
    }
    return l;
  };
}

}  // namespace exocpp

// Forwarding functions (core/forward.h).
#include "core/forward.h"

#include <algorithm>

namespace exocpp {

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

ForwardFn fwd_filter(std::function<bool(const Loc&)> keep) {
  return [keep = std::move(keep)](const Loc& l) { return keep(l) ? l : Loc::invalid(); };
}

ForwardFn fwd_move_stmt(BlockPath from, int from_idx, BlockPath to, int to_idx) {
  ForwardFn rest =
      fwd_compose(fwd_replace(from, from_idx, from_idx + 1, 0), fwd_replace(to, to_idx, to_idx, 1));
  return [from, from_idx, to, to_idx, rest](const Loc& l) -> Loc {
    bool is_block = l.kind == CursorKind::Block || l.kind == CursorKind::Gap;
    if (!is_block && loc_within_stmt(l, from, from_idx))
      return loc_reroot(l, from, from_idx, to, to_idx);
    if (l.kind == CursorKind::Block && l.block.size() > from.size() &&
        loc_within_stmt(l, from, from_idx))
      return loc_reroot(l, from, from_idx, to, to_idx);
    return rest(l);
  };
}

ForwardFn fwd_surround(BlockPath path, int lo, int hi, int n_before, int n_after) {
  ForwardFn inside = [path, lo, n_before](const Loc& l) {
    return loc_reroot(l, path, lo, path, lo + n_before);
  };
  return fwd_replace(std::move(path), lo, hi, n_before + (hi - lo) + n_after, std::move(inside));
}

ForwardFn fwd_expand(BlockPath path, int at, int n_new) {
  ForwardFn inside = [path, at, n_new](const Loc& l) -> Loc {
    if (n_new == 0 || l.kind != CursorKind::Stmt || l.block != path || l.lo != at)
      return Loc::invalid();
    return Loc{CursorKind::Block, path, at, at + n_new, {}};
  };
  return fwd_replace(std::move(path), at, at + 1, n_new, std::move(inside));
}

ForwardFn fwd_cut(BlockPath path, int at) {
  return fwd_replace(std::move(path), at, at + 1, 2, fwd_identity());
}

ForwardFn fwd_split(BlockPath path, int at, BlockField field, int k) {
  BlockPath split = path;
  split.push_back({at, field});
  BlockPath to = path;
  to.push_back({at + 1, field});
  ForwardFn inside = [path, at, field, split, to, k](const Loc& l) -> Loc {
    if (l.block.size() == path.size())
      return l.kind == CursorKind::Block ? Loc::invalid() : l;  // the statement
    if (!(l.block[path.size()] == split.back())) {
      // The other branch of an if: it stays with the copy that keeps it.
      Loc out = l;
      if (field == BlockField::Body) out.block[path.size()].index = at + 1;
      return out;
    }
    bool direct = l.block.size() == split.size();
    int idx = direct ? l.lo : l.block[split.size()].index;
    if (direct && l.kind == CursorKind::Gap && l.lo == k)
      return Loc{CursorKind::Gap, path, at + 1, at + 1, {}};
    if (direct && l.kind == CursorKind::Block && l.lo < k && l.hi > k) return Loc::invalid();
    if (idx < k) return l;
    Loc out = loc_reroot(l, split, -1, to, -1);
    if (direct) {
      out.lo -= k;
      out.hi -= k;
    } else {
      out.block[to.size()].index -= k;
    }
    return out;
  };
  return fwd_replace(std::move(path), at, at + 1, 2, std::move(inside));
}

ForwardFn fwd_merge(BlockPath path, int at, bool append, int body_offset, int orelse_offset) {
  ForwardFn inside = [path, at, append, body_offset, orelse_offset](const Loc& l) -> Loc {
    if (loc_within_stmt(l, path, at) || (l.block == path && l.lo == at && l.hi == at + 1))
      return l;  // the first statement
    if (!append || l.block.size() == path.size())
      return Loc::invalid();  // the second statement itself, or a block or gap across both
    // Inside list `field` of the second: to the end of the same list of the first.
    BlockField field = l.block[path.size()].field;
    int offset = field == BlockField::Body ? body_offset : orelse_offset;
    BlockPath from = path, to = path;
    from.push_back({at + 1, field});
    to.push_back({at, field});
    Loc out = loc_reroot(l, from, -1, to, -1);
    if (l.block.size() == from.size()) {
      out.lo += offset;
      out.hi += offset;
    } else {
      out.block[to.size()].index += offset;
    }
    return out;
  };
  return fwd_replace(std::move(path), at, at + 2, 1, std::move(inside));
}

ForwardFn fwd_interchange(BlockPath path, int at, BlockField field) {
  BlockPath ipath = path;
  ipath.push_back({at, field});  // the list holding the child
  BlockField other = field == BlockField::Body ? BlockField::Orelse : BlockField::Body;
  BlockPath opath = path, onew = path;
  opath.push_back({at, other});  // the parent's other branch (copied into the new inner ifs)
  onew.push_back({at, BlockField::Body});
  onew.push_back({0, other});
  return [path, at, ipath, field, opath, onew](const Loc& l) -> Loc {
    Loc out = l;
    bool head = l.kind == CursorKind::Stmt || l.kind == CursorKind::Expr;
    if (head && l.block == path && l.lo == at) {  // the parent's head -> now inner
      out.block = path;
      out.block.push_back({at, BlockField::Body});
      out.lo = 0;
      out.hi = 1;
      return out;
    }
    if (head && l.block == ipath && l.lo == 0) {  // the child's head -> now outer
      out.block = path;
      out.lo = at;
      out.hi = at + 1;
      return out;
    }
    if (has_prefix(l.block, opath)) return loc_reroot(l, opath, -1, onew, -1);
    if (!has_prefix(l.block, ipath) || l.block.size() == ipath.size()) return l;
    // Inside branch g of the child, under branch `field` of the parent: afterwards it sits in
    // branch `field` (of the new inner) under branch g (of the new outer).
    out.block[path.size()].field = l.block[ipath.size()].field;
    out.block[ipath.size()].field = field;
    return out;
  };
}

namespace {
// True when `l` is an expression location strictly below `at` (the same statement, `at`'s
// steps as a prefix).
bool strictly_below(const Loc& l, const Loc& at) {
  if (l.kind != CursorKind::Expr || l.block != at.block || l.lo != at.lo) return false;
  return l.expr.size() > at.expr.size() &&
         std::equal(at.expr.begin(), at.expr.end(), l.expr.begin());
}
}  // namespace

ForwardFn fwd_expr(Loc at, ExprMoves inside) {
  const size_t n = at.expr.size();
  return [at = std::move(at), n, inside = std::move(inside)](const Loc& l) -> Loc {
    if (!strictly_below(l, at)) return l;
    if (!inside) return Loc::invalid();
    std::optional<std::vector<int>> below =
        inside(std::vector<int>(l.expr.begin() + static_cast<long>(n), l.expr.end()));
    if (!below) return Loc::invalid();
    Loc out = l;
    out.expr.resize(n);
    out.expr.insert(out.expr.end(), below->begin(), below->end());
    return out;
  };
}

ForwardFn fwd_keep_child(Loc at, int child) {
  return [at = std::move(at), child](const Loc& l) -> Loc {
    if (l.kind == CursorKind::Expr && l.block == at.block && l.lo == at.lo && l.expr == at.expr)
      return Loc::invalid();
    if (!strictly_below(l, at)) return l;
    const size_t n = at.expr.size();
    if (l.expr[n] != child) return Loc::invalid();
    Loc out = l;
    out.expr.erase(out.expr.begin() + static_cast<long>(n));
    return out;
  };
}

}  // namespace exocpp

// The GEMM schedule (see schedule.h). The plan, as a GotoBLAS-style kernel (NR = 64 in f32,
// 32 in f64):
//
//   for ko (K blocks of kc):                       divide_loop k, cut_and_guard: a K tail part
//     for jc (blocks of P panels of NR columns):   divide_loop j (NR), then the panels (P)
//       B_pack = B[ko block, jc block]             stage_mem, divide_dim + rearrange_dim: the
//                                                  block as P dense panels [P][kc][NR];
//                                                  lift_alloc (one static buffer); specialize:
//                                                  with one row of tiles (M < 12) the tiles
//                                                  read B in place (no copy to amortize)
//       for io (6 rows):                           divide_loop i; parallelize_loop when parallel
//         for jr (the block's panels):             reorder_loops: A's 6 x kc stays in L1
//           gemm_tile(kc, A[..], B_pack[jr], C[..])  replace by the tile's specification,
//                                                  then call_eqv to its AVX-512 schedule
//     the last, partial block (N / NR % P panels)  the same, its buffer resized to P panels
//     the right edge (N % NR columns)              gemm_tile_right, likewise
//   if M % 6 == r (specialize, r = 1..5):          the bottom rows: gemm_tile at r rows, and
//     ...                                          the corner, gemm_tile_bottom
//
// The kernels (kernels.cpp) are scheduled from their specifications in gemm.exo: C staged in
// AVX-512 registers, B rows loaded and A elements broadcast, one fmadd per register of
// columns, loops unrolled so the registers have constant names.
#include "schedule.h"

#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <stdexcept>

#include "gemm_exo_text.h"
#include "kernels.h"
#include "loop_helpers.h"

namespace blas_example {

using namespace exocpp;

namespace {

// `for ii: for j: for ki` (rows ii) becomes NR-column tiles `for jo: for ii: for ji: for ki`
// and the column tail `if N % NR > 0: for ii: for ji in seq(0, N % NR): for ki`.
Proc tile_columns(Proc p, const Cursor& ii_loop, int nr) {
  p = divide_loop(p, ii_loop.body()[0], nr, {"jo", "ji"}, {.tail = Tail::CutAndGuard});
  Cursor jo = p.forward(ii_loop).body()[0];
  p = fission(p, jo.after());  // ii: jo ; ii: if N % NR > 0
  Cursor ii_main = p.forward(ii_loop);
  Cursor ii_tail = ii_main.next();
  p = reorder_loops(p, ii_main);                    // ii jo -> jo ii
  p = lift_scope(p, p.forward(ii_tail).body()[0]);  // ii: if -> if: ii
  return p;
}

// `for jo: for io: tile(A[io], B[b_rows, jo panel], C[io, jo])` (cursor `jo_loop`) becomes
// blocks of `panels` NR-column panels, each packed once into B_pack[panels][rows][NR] (dense
// panels, one after the other) and then swept row tile by row tile:
//   for jc: B_pack = B[b_rows, jc block]; for io: for jr: tile(A[io], B_pack[jr], C[io, jc jr])
//   if N / NR % panels > 0: the same for the last, partial block (B_pack resized to `panels`)
// A row tile's A (6 x kc) then stays in L1 across the block's panels instead of coming from
// memory once per panel.
Proc pack_panels(Proc p, const Cursor& jo_loop, const std::string& b_rows, int kc,
                 const Precision& prec, const ScheduleOptions& opts) {
  const int nr = prec.tile_columns();
  const int panels = opts.panels > 0 ? opts.panels : panels_for_this_machine(prec, kc);
  const std::string block_cols = std::to_string(nr * panels);
  p = divide_loop(p, jo_loop, panels, {"jc", "jr"}, {.tail = Tail::CutAndGuard});
  const Cursor jc = p.forward(jo_loop);
  const Cursor last_block = jc.next();
  const std::string full_start = block_cols + " * jc";
  const std::string last_start =
      block_cols + " * (N / " + std::to_string(nr) + " / " + std::to_string(panels) + ")";
  const std::string last_cols =
      std::to_string(nr) + " * (N / " + std::to_string(nr) + " % " + std::to_string(panels) + ")";
  struct Block {
    Cursor jr_loop;
    std::string start, cols;
  };
  for (const Block& b : {Block{jc.body()[0], full_start, block_cols},
                         Block{last_block.body()[0], last_start, last_cols}}) {
    const Cursor jr = p.forward(b.jr_loop);
    p = stage_mem(p, jr, "B[" + b_rows + ", " + b.start + ":" + b.start + " + " + b.cols + "]",
                  "B_pack");
    const Cursor alloc = p.forward(jr).prev().prev(), copy = p.forward(jr).prev();
    // The copy's columns panel by panel, so that it writes B_pack[panel, row, column] with no
    // division left in its indices once the buffer is split.
    p = divide_loop(p, copy.body()[0], nr, {"panel", "col"}, {.perfect = true});
    p = divide_dim(p, p.forward(alloc), 1, nr);         // B_pack[rows][block / NR][NR]
    p = rearrange_dim(p, p.forward(alloc), {1, 0, 2});  // B_pack[block / NR][rows][NR]
    p = simplify(p);
    if (b.cols != block_cols)  // the last block's buffer as large as a full one's
      p = resize_dim(p, p.forward(alloc), 0, std::to_string(panels), "0");
    p = reorder_loops(p, p.forward(jr));  // jr io -> io jr
    // The row tiles of a block write disjoint rows of C and only read the block: threads can
    // share them (parallelize_loop proves it), the block packed once before they start.
    if (opts.parallel) {
      p = parallelize_loop(p, p.forward(copy).next());  // the row tiles
      p = parallelize_loop(p, p.forward(copy));         // the packing copy's rows
    }
  }
  return p;
}

// One K part (`for i: for j: for ki`) cut into 6 x NR tiles, with row and column tails; the
// full tiles are ordered `for jo: for io` so a packed panel of B serves a whole column of
// tiles. `b_rows` is the window of B's rows this part reads ("512 * ko:512 * ko + 512").
Proc tile_part(Proc p, const Cursor& i_loop, const std::string& b_rows, int kc,
               const Precision& prec, const ScheduleOptions& opts) {
  const int nr = prec.tile_columns();
  p = divide_loop(p, i_loop, prec.tile_rows(), {"io", "ii"}, {.tail = Tail::CutAndGuard});
  Cursor io = p.forward(i_loop);
  Cursor m_tail = io.next();
  p = tile_columns(p, io.body()[0], nr);
  p = tile_columns(p, p.forward(m_tail).body()[0], nr);
  // The bottom rows once per row count (1 to 5), so that each is a register tile of that many
  // rows too: one pass over B instead of one per row.
  p = specialize_count(p, p.forward(m_tail), "M % " + std::to_string(prec.tile_rows()),
                       prec.tile_rows());
  io = p.forward(io);
  p = fission(p, io.body()[0].after());  // io: jo ; io: if N % NR > 0
  p = reorder_loops(p, p.forward(io));   // io jo -> jo io
  if (!opts.pack_b) return p;
  // A packed block pays for its copy only when several row tiles read it: with one row of
  // tiles (M < 12) the tiles read B in place, which has the same layout when N is NR.
  Cursor jo = p.forward(io).parent();
  p = specialize(p, jo, {"M < 12"});
  return pack_panels(p, p.forward(jo).parent().orelse()[0], b_rows, kc, prec, opts);
}

}  // namespace

long sane_cache_bytes(int level, long reported) {
  // Per-core sizes of the data caches of x86 parts of the last decade, with room either side.
  const long lo = level == 1 ? 16L << 10 : level == 2 ? 256L << 10 : 2L << 20;
  const long hi = level == 1 ? 128L << 10 : level == 2 ? 4L << 20 : 64L << 20;
  const long fallback = level == 1 ? 32L << 10 : level == 2 ? 1L << 20 : 8L << 20;
  if (reported <= 0) return fallback;
  return std::clamp(reported, lo, hi);
}

long cache_bytes(int level) {
  // Linux's per-core view first: in a virtual machine sysconf may report a host-wide L3
  // (320 MiB for a 32 MiB one here).
  for (int index = 0; index < 8; ++index) {
    const std::string dir = "/sys/devices/system/cpu/cpu0/cache/index" + std::to_string(index);
    std::ifstream level_file(dir + "/level"), type_file(dir + "/type"), size_file(dir + "/size");
    int file_level = 0;
    std::string type, size;
    if (!(level_file >> file_level) || !(type_file >> type) || !(size_file >> size)) break;
    if (file_level != level || type == "Instruction") continue;
    long value = 0;
    size_t digits = 0;
    try {
      value = std::stol(size, &digits);
    } catch (const std::exception&) {
      break;
    }
    const std::string unit = size.substr(digits);
    if (unit == "K") value <<= 10;
    if (unit == "M") value <<= 20;
    if (value > 0) return sane_cache_bytes(level, value);
  }
  return sane_cache_bytes(level, sysconf(level == 1   ? _SC_LEVEL1_DCACHE_SIZE
                                         : level == 2 ? _SC_LEVEL2_CACHE_SIZE
                                                      : _SC_LEVEL3_CACHE_SIZE));
}

int panels_for_this_machine(const Precision& prec, int kc) {
  const long panel = long(kc) * prec.tile_columns() * prec.bytes;
  int panels = 2;
  while (panels < 64 && 2L * panels * panel <= cache_bytes(3) / 8) panels *= 2;
  return panels;
}

int kc_for_this_machine(const Precision& prec) {
  const long panel_row = long(prec.tile_columns()) * prec.bytes;
  int kc = 64;
  while (kc < 8192 && 2L * kc * panel_row <= cache_bytes(2) / 4) kc *= 2;
  return kc;
}

const std::string& gemm_source() {
  static const std::string text = EXOCPP_GEMM_EXO_TEXT;
  return text;
}

Proc instantiate(const Proc& generic, const Precision& prec) {
  Proc p = rename(generic, prec.name(generic.name()));
  bool has_nr = false;
  for (const FnArg& arg : generic.args()) {
    has_nr |= arg.name.name() == "NR";
    if (!arg.mem.empty()) p = set_precision(p, arg.name.name(), prec.type);  // a data argument
  }
  if (has_nr) p = partial_eval(p, {{"NR", prec.tile_columns()}});
  return p;
}

Proc plain_gemm(const Precision& prec) {
  return instantiate(parse_module(gemm_source(), {}, "gemm.exo").proc("gemm"), prec);
}

Proc schedule_gemm(const Precision& prec, const ScheduleOptions& opts) {
  Proc p = plain_gemm(prec);
  if (opts.panels == 1 || opts.panels < 0)
    throw std::invalid_argument(
        "schedule_gemm: panels must be 0 (this machine's) or at least 2, got " +
        std::to_string(opts.panels));
  const int kc_value = opts.kc > 0 ? opts.kc : kc_for_this_machine(prec);
  const std::string kc = std::to_string(kc_value);

  // K blocks outermost: `for ko: for i: for j: for ki` and the tail `if K % kc > 0: ...`.
  p = divide_loop(p, "k", kc_value, {"ko", "ki"}, {.tail = Tail::CutAndGuard});
  p = fission(p, p.find_loop("ko").after(), {.n_lifts = 2});
  p = reorder_loops(p, "j ko");
  p = reorder_loops(p, "i ko");
  p = lift_scope(p, "if K % " + kc + " > 0: _");
  p = lift_scope(p, "if K % " + kc + " > 0: _");
  Cursor k_main = p.body_cursor()[0], k_tail = p.body_cursor()[1];
  p = tile_part(p, p.forward(k_main).body()[0], kc + " * ko:" + kc + " * ko + " + kc, kc_value,
                prec, opts);
  p = tile_part(p, p.forward(k_tail).body()[0],
                kc + " * (K / " + kc + "):" + kc + " * (K / " + kc + ") + K % " + kc, kc_value,
                prec, opts);
  if (opts.pack_b) {
    // The block buffers (full and last block of both K parts) become static arrays of
    // P x kc x NR, allocated once, not per block: the K tail's (K % kc rows) first grow to kc
    // rows (resize_dim: every access stays in bounds) so that their shape is constant too.
    for (int block : {2, 3}) p = resize_dim(p, "B_pack: _ #" + std::to_string(block), 1, kc, "0");
    for (int part : {0, 1, 2, 3}) {
      const std::string alloc = "B_pack: _ #" + std::to_string(part);
      p = lift_alloc(p, alloc);
      p = set_memory(p, alloc, "DRAM_STATIC");
    }
  }
  const Module specs = parse_module(gemm_source(), {}, "gemm.exo");
  p = replace_tiles(p, Tiles::of(specs, prec), prec, opts);
  if (opts.parallel) p = rename(p, p.name() + "_parallel");
  return simplify(p);
}

Proc gemm_space(const Precision& prec, const Proc& p, search::Choices& c) {
  if (p.name() != prec.name("gemm"))
    throw std::invalid_argument("gemm_space: the space schedules " + prec.name("gemm") + ", not " +
                                p.name());
  ScheduleOptions o;
  o.kc = static_cast<int>(c.pick_int("kc", {64, 128, 192, 256, 384, 512, 768}));
  o.panels = static_cast<int>(c.pick_int("panels", {2, 4, 8, 16, 32, 64}));
  o.pack_b = c.flip("pack_b");
  c.note("ScheduleOptions o;");
  c.note("o.kc = " + std::to_string(o.kc) + ";");
  c.note("o.panels = " + std::to_string(o.panels) + ";");
  c.note(std::string("o.pack_b = ") + (o.pack_b ? "true" : "false") + ";");
  c.note("p = schedule_gemm(" + std::string(prec.blas_letter[0] == 's' ? "kSingle" : "kDouble") +
         ", o);");
  return schedule_gemm(prec, o);
}

std::vector<Proc> schedule_blas_helpers(const Precision& prec) {
  const Module m = parse_module(gemm_source(), {}, "gemm.exo");
  Proc scale = instantiate(m.proc("gemm_scale"), prec),
       copy = instantiate(m.proc("gemm_copy"), prec);
  Proc transposed = instantiate(m.proc("gemm_copy_transposed"), prec);
  transposed = tile2d(transposed, "r c", {16, 16}, {"ro", "co", "ri", "ci"});
  return {scale, copy, simplify(transposed)};
}

}  // namespace blas_example

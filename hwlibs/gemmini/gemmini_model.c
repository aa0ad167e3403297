/* gemmini_model.c: the C functional model of a Gemmini-like accelerator (see gemmini_model.h). */
#include "gemmini_model.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* abort() never returns; telling the compiler lets it check the printf-style messages too. */
#if defined(__GNUC__) || defined(__clang__)
#define GEMMINI_FAIL_ATTRS __attribute__((noreturn, format(printf, 2, 3)))
#else
#define GEMMINI_FAIL_ATTRS
#endif

#define DIM GEMMINI_DIM
#define SPAD_MVIN_MAX_COLS (4 * DIM) /* a scratchpad mvin moves up to 4 blocks of DIM columns */

/* ---- State: one accelerator per process ---- */

static int8_t spad[GEMMINI_SPAD_ROWS][DIM];
static int32_t acc[GEMMINI_ACC_ROWS][DIM];

/* Allocation: alloc_len[row] is the length of the allocation starting at `row`, 0 where none
 * starts. Allocations never overlap, so a scan that jumps over them finds the free runs. */
static uint32_t spad_alloc_len[GEMMINI_SPAD_ROWS];
static uint32_t acc_alloc_len[GEMMINI_ACC_ROWS];

typedef struct {
  int configured;
  int64_t stride;
  float scale;
} load_slot;

static load_slot ld_slots[3];
static int st_configured;
static int64_t st_stride;
static int st_activation;
static float st_scale;
static int ex_configured;

/* The array: the latched weights (zero-padded to DIM x DIM) and the pending preload. */
static int8_t weights[DIM][DIM];
static int weights_loaded;
static int preload_pending;
static uint32_t pending_c_addr;
static uint32_t pending_c_cols, pending_c_rows;
/* Rows of the last compute that no preload has yet streamed in behind (the shadow buffer). */
static uint64_t hide_window;

static gemmini_counters counters;

/* ---- The dependence-aware timeline ----
 * Each instruction starts when its unit has finished the instructions before it (units issue
 * in order) and the local rows it touches are ready: a read waits for the last write of a row,
 * a write for the last write and the last read. Preloads fill the array's second weight buffer:
 * one may start once the compute before it has started. DRAM is not tracked (loads and stores
 * of one DRAM buffer are not ordered) and the array's fill and drain latency is not modelled. */
enum { UNIT_LOAD, UNIT_EXEC, UNIT_STORE, UNIT_PRELOAD, UNIT_COUNT };
static uint64_t unit_free[UNIT_COUNT];
static uint64_t spad_written_at[GEMMINI_SPAD_ROWS], spad_read_at[GEMMINI_SPAD_ROWS];
static uint64_t acc_written_at[GEMMINI_ACC_ROWS], acc_read_at[GEMMINI_ACC_ROWS];
static uint64_t timeline_end, last_compute_start, pending_preload_end;

typedef struct {
  int in_acc;
  uint32_t row, n;
} row_range;

static row_range rows_of(uint32_t addr, uint32_t n) {
  row_range r;
  r.in_acc = (addr & GEMMINI_ACC_ADDR) != 0;
  r.row = addr & GEMMINI_ROW_MASK;
  r.n = n;
  return r;
}

/* When every row of `r` may be read (write = 0) or written (write = 1). */
static uint64_t rows_ready(row_range r, int write) {
  const uint64_t *w = r.in_acc ? acc_written_at : spad_written_at;
  const uint64_t *rd = r.in_acc ? acc_read_at : spad_read_at;
  uint64_t t = 0;
  uint32_t i;
  for (i = 0; i < r.n; i++) {
    if (w[r.row + i] > t) t = w[r.row + i];
    if (write && rd[r.row + i] > t) t = rd[r.row + i];
  }
  return t;
}

static void rows_done(row_range r, int write, uint64_t end) {
  uint64_t *t = write ? (r.in_acc ? acc_written_at : spad_written_at)
                      : (r.in_acc ? acc_read_at : spad_read_at);
  uint32_t i;
  for (i = 0; i < r.n; i++)
    if (t[r.row + i] < end) t[r.row + i] = end;
}

/* Runs `cycles` on `unit` from `earliest` on; returns the end. */
static uint64_t timeline_run(int unit, uint64_t earliest, uint64_t cycles, uint64_t *start) {
  uint64_t s = unit_free[unit] > earliest ? unit_free[unit] : earliest;
  if (start) *start = s;
  unit_free[unit] = s + cycles;
  if (s + cycles > timeline_end) timeline_end = s + cycles;
  return s + cycles;
}

/* ---- Errors ---- */

static void fail(const char *instr, const char *fmt, ...) GEMMINI_FAIL_ATTRS;
static void fail(const char *instr, const char *fmt, ...) {
  va_list ap;
  fprintf(stderr, "gemmini: %s: ", instr);
  va_start(ap, fmt);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  fputc('\n', stderr);
  fflush(stderr);
  abort();
}

static void check_range(const char *instr, const char *what, int64_t got, int64_t lo, int64_t hi) {
  if (got < lo || got > hi)
    fail(instr, "%s out of range (got %lld, limit %lld..%lld)", what, (long long)got, (long long)lo,
         (long long)hi);
}

static void check_scale(const char *instr, float scale) {
  /* A non-finite scale would turn even 0 into NaN, which has no int value. */
  if (!isfinite(scale)) fail(instr, "scale is not finite (got %g, limit finite)", (double)scale);
}

/* ---- Local addresses ---- */

/* The row of a scratchpad operand `nrows` rows long, after checking it is one. */
static uint32_t spad_row(const char *instr, const char *operand, uint32_t addr, uint64_t nrows) {
  uint32_t row = addr & GEMMINI_ROW_MASK;
  if (addr == GEMMINI_GARBAGE_ADDR)
    fail(instr, "%s is the garbage address (got 0x%08x, limit a scratchpad address)", operand,
         (unsigned)addr);
  if (addr & GEMMINI_ACC_ADDR)
    fail(instr, "%s must be a scratchpad address (got 0x%08x, limit bit 31 clear)", operand,
         (unsigned)addr);
  if (addr & GEMMINI_ACC_ACCUMULATE)
    fail(instr, "accumulate bit on scratchpad %s (got 0x%08x, limit bit 30 clear)", operand,
         (unsigned)addr);
  if (addr & GEMMINI_ACC_FULL)
    fail(instr, "full-width bit on scratchpad %s (got 0x%08x, limit bit 29 clear)", operand,
         (unsigned)addr);
  if ((uint64_t)row + nrows > GEMMINI_SPAD_ROWS)
    fail(instr, "%s runs past the end of the scratchpad (got last row %llu, limit %u)", operand,
         (unsigned long long)((uint64_t)row + nrows - 1), GEMMINI_SPAD_ROWS - 1);
  return row;
}

/* The row of an accumulator operand `nrows` rows long; the flag bits are checked by the
 * caller, which knows which ones the instruction accepts. */
static uint32_t acc_row(const char *instr, const char *operand, uint32_t addr, uint64_t nrows) {
  uint32_t row = addr & GEMMINI_ROW_MASK;
  if ((uint64_t)row + nrows > GEMMINI_ACC_ROWS)
    fail(instr, "%s runs past the end of the accumulator (got last row %llu, limit %u)", operand,
         (unsigned long long)((uint64_t)row + nrows - 1), GEMMINI_ACC_ROWS - 1);
  return row;
}

/* ---- Arithmetic ---- */

/* Round half to even, done explicitly so that it does not depend on the floating-point
 * environment's rounding mode. x - floorf(x) is exact for floats, and every float of
 * magnitude >= 2^23 is already an integer (fraction 0). NaN stays NaN. */
static float round_half_even(float x) {
  float f = floorf(x);
  float frac = x - f;
  if (frac > 0.5f) return f + 1.0f;
  if (frac < 0.5f) return f;
  return fmodf(f, 2.0f) == 0.0f ? f : f + 1.0f;
}

/* The compare happens in float, before the conversion: converting an out-of-range float to an
 * integer is undefined behaviour. NaN (impossible with finite scales) maps to 0. */
static int32_t saturate_i32(float x) {
  if (x != x) return 0;
  if (x >= 2147483648.0f) return INT32_MAX;
  if (x < -2147483648.0f) return INT32_MIN;
  return (int32_t)x;
}

static int8_t saturate_i8(float x) {
  if (x != x) return 0;
  if (x > 127.0f) return 127;
  if (x < -128.0f) return -128;
  return (int8_t)x;
}

/* The int32 whose two's-complement bits are u, without relying on the implementation-defined
 * conversion of out-of-range unsigned values. */
static int32_t wrap_i32(uint32_t u) {
  if (u <= (uint32_t)INT32_MAX) return (int32_t)u;
  return (int32_t)(u - 0x80000000u) + INT32_MIN;
}

static int32_t add_wrap(int32_t a, int32_t b) { return wrap_i32((uint32_t)a + (uint32_t)b); }

static uint64_t ceil_div16(uint64_t bytes) { return (bytes + 15) / 16; }

/* ---- Reset and allocation ---- */

void gemmini_reset(void) {
  memset(spad, 0, sizeof spad);
  memset(acc, 0, sizeof acc);
  memset(spad_alloc_len, 0, sizeof spad_alloc_len);
  memset(acc_alloc_len, 0, sizeof acc_alloc_len);
  memset(ld_slots, 0, sizeof ld_slots);
  st_configured = 0;
  st_stride = 0;
  st_activation = GEMMINI_NO_ACTIVATION;
  st_scale = 1.0f;
  ex_configured = 0;
  memset(weights, 0, sizeof weights);
  weights_loaded = 0;
  preload_pending = 0;
  pending_c_addr = GEMMINI_GARBAGE_ADDR;
  pending_c_cols = pending_c_rows = 0;
  hide_window = 0;
  memset(unit_free, 0, sizeof unit_free);
  memset(spad_written_at, 0, sizeof spad_written_at);
  memset(spad_read_at, 0, sizeof spad_read_at);
  memset(acc_written_at, 0, sizeof acc_written_at);
  memset(acc_read_at, 0, sizeof acc_read_at);
  timeline_end = last_compute_start = pending_preload_end = 0;
  memset(&counters, 0, sizeof counters);
}

/* First fit over a memory of `capacity` rows whose allocations `len` describes. */
static uint32_t alloc_rows(const char *instr, const char *memory, uint32_t *len, uint32_t capacity,
                           uint32_t rows) {
  uint32_t row = 0, longest = 0;
  check_range(instr, "rows", rows, 0, capacity);
  /* An empty buffer (an extent of 0, which the interpreter allows) holds no row: it gets the
   * address one past the last row, which no instruction can use and free accepts. */
  if (rows == 0) return capacity;
  while (row < capacity) {
    uint32_t start, end;
    if (len[row] != 0) {
      row += len[row];
      continue;
    }
    start = row;
    end = row;
    while (end < capacity && len[end] == 0) end++;
    if (end - start >= rows) {
      len[start] = rows;
      return start;
    }
    if (end - start > longest) longest = end - start;
    row = end;
  }
  fail(instr, "no free run of %s rows that long (got %u, limit %u)", memory, (unsigned)rows,
       (unsigned)longest);
}

uint32_t gemmini_spad_alloc(uint32_t rows) {
  return alloc_rows("spad_alloc", "scratchpad", spad_alloc_len, GEMMINI_SPAD_ROWS, rows);
}

uint32_t gemmini_acc_alloc(uint32_t rows) {
  return GEMMINI_ACC_ADDR |
         alloc_rows("acc_alloc", "accumulator", acc_alloc_len, GEMMINI_ACC_ROWS, rows);
}

void gemmini_spad_free(uint32_t addr) {
  if (addr == GEMMINI_SPAD_ROWS) return; /* an empty buffer */
  if (addr >= GEMMINI_SPAD_ROWS || spad_alloc_len[addr] == 0)
    fail("spad_free", "no allocation starts at this address (got 0x%08x)", (unsigned)addr);
  spad_alloc_len[addr] = 0;
}

void gemmini_acc_free(uint32_t addr) {
  uint32_t row = addr & ~GEMMINI_ACC_ADDR;
  if (addr == (GEMMINI_ACC_ADDR | GEMMINI_ACC_ROWS)) return; /* an empty buffer */
  if (!(addr & GEMMINI_ACC_ADDR) || row >= GEMMINI_ACC_ROWS || acc_alloc_len[row] == 0)
    fail("acc_free", "no allocation starts at this address (got 0x%08x)", (unsigned)addr);
  acc_alloc_len[row] = 0;
}

/* ---- Configuration ---- */

void gemmini_config_ld(int id, int64_t stride_bytes, float scale) {
  check_range("config_ld", "load slot id", id, 0, 2);
  check_scale("config_ld", scale);
  ld_slots[id].configured = 1;
  ld_slots[id].stride = stride_bytes;
  ld_slots[id].scale = scale;
  counters.config_ld++;
  counters.load_cycles += 1;
  timeline_run(UNIT_LOAD, 0, 1, NULL);
}

void gemmini_config_st(int64_t stride_bytes, int activation, float scale) {
  check_range("config_st", "activation", activation, GEMMINI_NO_ACTIVATION, GEMMINI_RELU);
  /* Any scale, NaN and infinities included: the store path maps NaN to 0 and saturates the
   * infinities, as the acc_scale extern that the library's store bodies use does. */
  st_configured = 1;
  st_stride = stride_bytes;
  st_activation = activation;
  st_scale = scale;
  counters.config_st++;
  counters.store_cycles += 1;
  timeline_run(UNIT_STORE, 0, 1, NULL);
}

void gemmini_config_ex(int dataflow) {
  check_range("config_ex", "dataflow (only GEMMINI_WS is modelled)", dataflow, GEMMINI_WS,
              GEMMINI_WS);
  ex_configured = 1;
  counters.config_ex++;
  counters.exec_cycles += 1;
  counters.exec_cycles_overlapped += 1;
  timeline_run(UNIT_EXEC, 0, 1, NULL);
}

/* ---- Data movement ---- */

static void mvin_spad(const load_slot *slot, const char *dram, uint32_t local, uint32_t cols,
                      uint32_t rows) {
  uint32_t blocks = (cols + DIM - 1) / DIM, b, r, c;
  uint32_t row = spad_row("mvin", "destination", local, (uint64_t)blocks * rows);
  for (r = 0; r < rows; r++) {
    const int8_t *src = dram ? (const int8_t *)(dram + (int64_t)r * slot->stride) : NULL;
    for (b = 0; b < blocks; b++) {
      int8_t *dst = spad[row + b * rows + r];
      for (c = 0; c < DIM && b * DIM + c < cols; c++) {
        uint32_t col = b * DIM + c;
        int8_t v = 0;
        if (src)
          v = slot->scale == 1.0f ? src[col]
                                  : saturate_i8(round_half_even((float)src[col] * slot->scale));
        dst[c] = v;
      }
    }
  }
}

static void mvin_acc(const load_slot *slot, const char *dram, uint32_t local, uint32_t cols,
                     uint32_t rows) {
  int accumulate = (local & GEMMINI_ACC_ACCUMULATE) != 0;
  uint32_t row, r, c;
  if (local & GEMMINI_ACC_FULL)
    fail("mvin", "full-width bit on a mvin destination (got 0x%08x, limit bit 29 clear)",
         (unsigned)local);
  check_range("mvin", "cols (accumulator)", cols, 1, DIM);
  row = acc_row("mvin", "destination", local, rows);
  for (r = 0; r < rows; r++) {
    const char *src = dram ? dram + (int64_t)r * slot->stride : NULL;
    int32_t *dst = acc[row + r];
    for (c = 0; c < cols; c++) {
      int32_t v = 0;
      if (src) {
        /* memcpy: DRAM rows need not be 4-byte aligned. */
        memcpy(&v, src + 4 * c, sizeof v);
        /* Scale 1.0f copies exactly: a float cannot hold every int32. */
        if (slot->scale != 1.0f) v = saturate_i32(round_half_even((float)v * slot->scale));
      }
      dst[c] = accumulate ? add_wrap(dst[c], v) : v;
    }
  }
}

void gemmini_mvin(int id, const void *dram, uint32_t local, uint32_t cols, uint32_t rows) {
  int to_acc;
  uint32_t elem_bytes;
  check_range("mvin", "load slot id", id, 0, 2);
  check_range("mvin", "rows", rows, 1, DIM);
  if (local == GEMMINI_GARBAGE_ADDR)
    fail("mvin", "destination is the garbage address (got 0x%08x, limit a local address)",
         (unsigned)local);
  to_acc = (local & GEMMINI_ACC_ADDR) != 0;
  check_range("mvin", to_acc ? "cols (accumulator)" : "cols (scratchpad)", cols, 1,
              to_acc ? DIM : SPAD_MVIN_MAX_COLS);
  /* A zeroing load reads no DRAM, so it needs no stride. */
  if (dram != NULL && !ld_slots[id].configured)
    fail("mvin", "load slot %d was never configured", id);

  if (to_acc)
    mvin_acc(&ld_slots[id], (const char *)dram, local, cols, rows);
  else
    mvin_spad(&ld_slots[id], (const char *)dram, local, cols, rows);

  elem_bytes = to_acc ? 4 : 1;
  counters.mvin++;
  if (dram == NULL)
    counters.mvin_zero++;
  else
    counters.bytes_in += (uint64_t)rows * cols * elem_bytes;
  counters.load_cycles += (uint64_t)rows * ceil_div16((uint64_t)cols * elem_bytes);
  {
    /* The rows written: every block's, for a scratchpad load. */
    row_range w = rows_of(local, to_acc ? rows : rows * ((cols + DIM - 1) / DIM));
    uint64_t end = timeline_run(UNIT_LOAD, rows_ready(w, 1),
                                (uint64_t)rows * ceil_div16((uint64_t)cols * elem_bytes), NULL);
    rows_done(w, 1, end);
  }
}

void gemmini_mvout(void *dram, uint32_t local, uint32_t cols, uint32_t rows) {
  char *out = (char *)dram;
  uint32_t out_elem_bytes = 1, row, r, c;
  check_range("mvout", "rows", rows, 1, DIM);
  check_range("mvout", "cols", cols, 1, DIM);
  if (local == GEMMINI_GARBAGE_ADDR)
    fail("mvout", "source is the garbage address (got 0x%08x, limit a local address)",
         (unsigned)local);
  if (!st_configured) fail("mvout", "the store configuration was never written (config_st)");

  if (!(local & GEMMINI_ACC_ADDR)) {
    row = spad_row("mvout", "source", local, rows);
    for (r = 0; r < rows; r++) memcpy(out + (int64_t)r * st_stride, spad[row + r], cols);
  } else {
    if (local & GEMMINI_ACC_ACCUMULATE)
      fail("mvout", "accumulate bit on a mvout source (got 0x%08x, limit bit 30 clear)",
           (unsigned)local);
    row = acc_row("mvout", "source", local, rows);
    if (local & GEMMINI_ACC_FULL) {
      out_elem_bytes = 4;
      for (r = 0; r < rows; r++)
        memcpy(out + (int64_t)r * st_stride, acc[row + r], (size_t)cols * 4);
    } else {
      for (r = 0; r < rows; r++) {
        int8_t *dst = (int8_t *)(out + (int64_t)r * st_stride);
        for (c = 0; c < cols; c++) {
          int8_t v = saturate_i8(round_half_even((float)acc[row + r][c] * st_scale));
          if (st_activation == GEMMINI_RELU && v < 0) v = 0;
          dst[c] = v;
        }
      }
    }
  }

  counters.mvout++;
  counters.bytes_out += (uint64_t)rows * cols * out_elem_bytes;
  counters.store_cycles += (uint64_t)rows * ceil_div16((uint64_t)cols * out_elem_bytes);
  {
    row_range r = rows_of(local, rows);
    uint64_t end = timeline_run(UNIT_STORE, rows_ready(r, 0),
                                (uint64_t)rows * ceil_div16((uint64_t)cols * out_elem_bytes), NULL);
    rows_done(r, 0, end);
  }
}

/* ---- Addressing ---- */

uint32_t gemmini_row(uint32_t base, int64_t elem_offset) {
  if (elem_offset < 0 || elem_offset % DIM != 0)
    fail("address", "a window must start at the first column of a row (got element offset %lld)",
         (long long)elem_offset);
  return base + (uint32_t)(elem_offset / DIM);
}

/* ---- Execute ---- */

void gemmini_preload(uint32_t b_addr, uint32_t c_addr, uint32_t b_cols, uint32_t b_rows,
                     uint32_t c_cols, uint32_t c_rows) {
  uint64_t cycles = 0;
  if (!ex_configured)
    fail("preload", "the dataflow was never configured (config_ex(GEMMINI_WS) first)");
  check_range("preload", "b_cols", b_cols, 1, DIM);
  check_range("preload", "b_rows", b_rows, 1, DIM);
  check_range("preload", "c_cols", c_cols, 1, DIM);
  check_range("preload", "c_rows", c_rows, 1, DIM);

  if (c_addr != GEMMINI_GARBAGE_ADDR) {
    if (!(c_addr & GEMMINI_ACC_ADDR))
      fail("preload", "C must be an accumulator address (got 0x%08x, limit bit 31 set)",
           (unsigned)c_addr);
    if (c_addr & GEMMINI_ACC_FULL)
      fail("preload", "full-width bit on C (got 0x%08x, limit bit 29 clear)", (unsigned)c_addr);
    acc_row("preload", "C", c_addr, c_rows);
  }

  if (b_addr == GEMMINI_GARBAGE_ADDR) {
    /* Weight-stationary: the weights stay in the array after a compute, for reuse. */
    if (!weights_loaded)
      fail("preload", "B is the garbage address but no weights were ever loaded to keep");
  } else {
    uint32_t row = spad_row("preload", "B", b_addr, b_rows), k, j;
    for (k = 0; k < DIM; k++)
      for (j = 0; j < DIM; j++) weights[k][j] = (k < b_rows && j < b_cols) ? spad[row + k][j] : 0;
    weights_loaded = 1;
    cycles = b_rows;
  }

  preload_pending = 1;
  pending_c_addr = c_addr;
  pending_c_cols = c_cols;
  pending_c_rows = c_rows;

  counters.preload++;
  counters.exec_cycles += cycles;
  /* The shadow weight buffer fills during the previous compute; what does not fit in its rows
   * stalls the array. One shadow buffer: the next preload finds nothing left to hide behind. */
  counters.exec_cycles_overlapped += cycles > hide_window ? cycles - hide_window : 0;
  hide_window = 0;
  {
    uint64_t earliest = last_compute_start; /* the second weight buffer is free again */
    row_range b = rows_of(b_addr, b_rows);
    if (b_addr != GEMMINI_GARBAGE_ADDR && rows_ready(b, 0) > earliest) earliest = rows_ready(b, 0);
    pending_preload_end = timeline_run(UNIT_PRELOAD, earliest, cycles, NULL);
    if (b_addr != GEMMINI_GARBAGE_ADDR) rows_done(b, 0, pending_preload_end);
  }
}

void gemmini_compute(uint32_t a_addr, uint32_t a_cols, uint32_t a_rows) {
  uint32_t row, i, j, k;
  int8_t a[DIM][DIM];
  if (!preload_pending) fail("compute", "compute without a preceding preload");
  check_range("compute", "a_cols", a_cols, 1, DIM);
  check_range("compute", "a_rows", a_rows, 1, DIM);
  row = spad_row("compute", "A", a_addr, a_rows);

  for (i = 0; i < DIM; i++)
    for (k = 0; k < DIM; k++) a[i][k] = (i < a_rows && k < a_cols) ? spad[row + i][k] : 0;

  if (pending_c_addr != GEMMINI_GARBAGE_ADDR) {
    int accumulate = (pending_c_addr & GEMMINI_ACC_ACCUMULATE) != 0;
    uint32_t c_row = pending_c_addr & GEMMINI_ROW_MASK;
    for (i = 0; i < pending_c_rows; i++) {
      for (j = 0; j < pending_c_cols; j++) {
        /* Unsigned sums wrap around like the hardware's int32 adders, without overflow UB. */
        uint32_t sum = 0;
        for (k = 0; k < DIM; k++) sum += (uint32_t)((int32_t)a[i][k] * (int32_t)weights[k][j]);
        acc[c_row + i][j] = accumulate ? add_wrap(acc[c_row + i][j], wrap_i32(sum)) : wrap_i32(sum);
      }
    }
  }

  {
    row_range a_rows_used = rows_of(a_addr, a_rows);
    uint64_t earliest = pending_preload_end, end;
    if (rows_ready(a_rows_used, 0) > earliest) earliest = rows_ready(a_rows_used, 0);
    if (pending_c_addr != GEMMINI_GARBAGE_ADDR) {
      row_range c = rows_of(pending_c_addr, pending_c_rows);
      if (rows_ready(c, 1) > earliest) earliest = rows_ready(c, 1);
    }
    end = timeline_run(UNIT_EXEC, earliest, a_rows, &last_compute_start);
    rows_done(a_rows_used, 0, end);
    if (pending_c_addr != GEMMINI_GARBAGE_ADDR)
      rows_done(rows_of(pending_c_addr, pending_c_rows), 1, end);
  }
  preload_pending = 0;
  counters.compute++;
  counters.macs += (uint64_t)a_rows * a_cols * pending_c_cols;
  counters.exec_cycles += a_rows;
  counters.exec_cycles_overlapped += a_rows;
  hide_window = a_rows;
}

/* ---- Counters ---- */

const gemmini_counters *gemmini_get_counters(void) { return &counters; }

uint64_t gemmini_config_writes(void) {
  return counters.config_ld + counters.config_st + counters.config_ex;
}

uint64_t gemmini_cycles_serial(void) {
  return counters.load_cycles + counters.store_cycles + counters.exec_cycles;
}

uint64_t gemmini_cycles_timeline(void) { return timeline_end; }

uint64_t gemmini_cycles_overlapped(void) {
  uint64_t m = counters.load_cycles;
  if (counters.store_cycles > m) m = counters.store_cycles;
  if (counters.exec_cycles_overlapped > m) m = counters.exec_cycles_overlapped;
  return m;
}

double gemmini_utilization(void) {
  uint64_t cycles = gemmini_cycles_overlapped();
  if (cycles == 0) return 0.0;
  return (double)counters.macs / ((double)cycles * DIM * DIM);
}

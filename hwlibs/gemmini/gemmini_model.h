/* gemmini_model.h: the C functional model of a Gemmini-like accelerator (interface). */
/*
 * The model runs on any CPU. Generated kernels (from the instruction templates in gemmini.exo)
 * and hand-written demo programs call these functions; every emitted call site goes through
 * them, so the names and signatures are fixed.
 *
 * The hardware modelled: a GEMMINI_DIM x GEMMINI_DIM systolic array with the weight-stationary
 * dataflow, a scratchpad of GEMMINI_SPAD_ROWS rows of 16 int8 values, and an accumulator of
 * GEMMINI_ACC_ROWS rows of 16 int32 values. State lives in the library (one accelerator per
 * process); gemmini_reset() puts it back to its power-on state.
 *
 * Local addresses are uint32_t, laid out as the hardware has them:
 *   bit 31 (GEMMINI_ACC_ADDR)        the address is in the accumulator, not the scratchpad;
 *   bit 30 (GEMMINI_ACC_ACCUMULATE)  on an accumulator destination: add into the row
 *                                    (32-bit wrap-around) instead of overwriting it;
 *   bit 29 (GEMMINI_ACC_FULL)        on an accumulator source of mvout: read the full-width
 *                                    int32 values (no scaling, no activation);
 *   bits 0..28 (GEMMINI_ROW_MASK)    the row number.
 * GEMMINI_GARBAGE_ADDR means "no operand" (preload: keep the weights / discard the results).
 *
 * Errors: a violated limit (a count, an address, a missing configuration) prints one line
 *   gemmini: <instruction>: <what> (got <value>, limit <limit>)
 * to stderr and calls abort(); errors of state rather than of a value (a load slot never
 * configured, a compute without a preceding preload, freeing an address that no allocation
 * starts at) print "gemmini: <instruction>: <what>" the same way.
 */
#ifndef EXOCPP_GEMMINI_MODEL_H
#define EXOCPP_GEMMINI_MODEL_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define GEMMINI_DIM 16
#define GEMMINI_SPAD_ROWS 16384u
#define GEMMINI_ACC_ROWS 1024u
#define GEMMINI_ACC_ADDR 0x80000000u
#define GEMMINI_ACC_ACCUMULATE 0x40000000u
#define GEMMINI_ACC_FULL 0x20000000u
#define GEMMINI_ROW_MASK 0x1FFFFFFFu
#define GEMMINI_GARBAGE_ADDR 0xFFFFFFFFu
#define GEMMINI_NO_ACTIVATION 0
#define GEMMINI_RELU 1
#define GEMMINI_WS 1 /* weight-stationary dataflow: the only one modelled */

/* Zeroes both memories, the configuration, the latched weights and the counters, and frees
 * every allocation. */
void gemmini_reset(void);

/* ---- Allocation of local memory (what the GEMM_SCRATCH / GEMM_ACCUM memories emit) ---- */

/* The row address of `rows` consecutive free scratchpad rows, first fit from row 0. Aborts
 * when no free run is that long. The rows keep whatever they held. An empty buffer (rows 0)
 * gets GEMMINI_SPAD_ROWS, an address no instruction can use. */
uint32_t gemmini_spad_alloc(uint32_t rows);
/* Frees the allocation that starts at `addr` (a value gemmini_spad_alloc returned). */
void gemmini_spad_free(uint32_t addr);
/* As gemmini_spad_alloc, in the accumulator: returns GEMMINI_ACC_ADDR | first row. */
uint32_t gemmini_acc_alloc(uint32_t rows);
/* Frees the accumulator allocation that starts at `addr` (GEMMINI_ACC_ADDR | row). */
void gemmini_acc_free(uint32_t addr);

/* The local address of the element `elem_offset` elements past the row address `base`, in a
 * buffer of whole rows (16 elements each): base + elem_offset / 16. Aborts when the offset does
 * not start a row, as an instruction's operand must. (What the memories emit for an
 * instruction's {name_data}.) */
uint32_t gemmini_row(uint32_t base, int64_t elem_offset);

/* ---- Configuration (each call is one configuration write) ---- */

/* Load slot `id` (0..2): the DRAM row stride of mvin in BYTES (0: every row reads the same
 * DRAM row, a broadcast; negative strides are allowed) and the scale applied to loaded values
 * (finite). */
void gemmini_config_ld(int id, int64_t stride_bytes, float scale);
/* The DRAM row stride of mvout in bytes, the activation applied to accumulator -> int8 stores
 * (GEMMINI_NO_ACTIVATION or GEMMINI_RELU) and their scale (any float: a NaN product stores
 * 0, an infinite one saturates). */
void gemmini_config_st(int64_t stride_bytes, int activation, float scale);
/* The dataflow: must be GEMMINI_WS. Required before the first preload. */
void gemmini_config_ex(int dataflow);

/* ---- Data movement ---- */

/* Loads `rows` (1..16) rows of `cols` elements from DRAM, row r at
 * (const char *)dram + r * stride of load slot `id`.
 * - Scratchpad destination: int8 elements, cols 1..64. Block b (columns 16b..16b+15) lands in
 *   rows local + b*rows + r (block-major: a dense [blocks, rows, 16] buffer receives it);
 *   columns of the last block past `cols` are left as they were. Each value is
 *   saturate_i8(round_half_even(x * scale)), the identity with scale 1.0f.
 * - Accumulator destination: int32 elements, cols 1..16. Each value is
 *   saturate_i32(round_half_even((float)x * scale)), an exact copy with scale 1.0f. Columns
 *   past `cols` are left as they were; GEMMINI_ACC_ACCUMULATE adds (wrap-around) instead of
 *   overwriting.
 * Only the `cols` columns are written, in both memories, as the instructions' bodies say.
 * - dram == NULL is a zeroing load: zeros are written (nothing is added when accumulating), no
 *   DRAM is read, and slot `id` need not have been configured. */
void gemmini_mvin(int id, const void *dram, uint32_t local, uint32_t cols, uint32_t rows);
/* Stores `rows` (1..16) rows of `cols` (1..16) elements to DRAM, row r at
 * (char *)dram + r * stride of config_st.
 * - Scratchpad source: the int8 values, unchanged (no scale, no activation).
 * - Accumulator source: int8 values relu_if_configured(saturate_i8(round_half_even(
 *   (float)acc * scale))), the product computed in single precision.
 * - Accumulator source with GEMMINI_ACC_FULL: the int32 values, unchanged. */
void gemmini_mvout(void *dram, uint32_t local, uint32_t cols, uint32_t rows);

/* ---- Execute (weight-stationary) ---- */

/* Latches the weights B (a scratchpad address of b_rows x b_cols int8 values, K x M,
 * zero-padded to 16 x 16 in the array) and the output address C (an accumulator address, with
 * or without GEMMINI_ACC_ACCUMULATE, c_rows x c_cols). b_addr GEMMINI_GARBAGE_ADDR keeps the
 * weights already in the array; c_addr GEMMINI_GARBAGE_ADDR discards the results. All counts
 * 1..16. A second preload before a compute replaces the pending one. */
void gemmini_preload(uint32_t b_addr, uint32_t c_addr, uint32_t b_cols, uint32_t b_rows,
                     uint32_t c_cols, uint32_t c_rows);
/* Streams A (a scratchpad address of a_rows x a_cols int8 values, N x K) through the array and
 * consumes the pending preload: for i < c_rows, j < c_cols,
 * C[i][j] (+)= sum over k < 16 of A'[i][k] * B'[k][j] in int32 with wrap-around, A' and B' being
 * A and the weights zero-padded to 16 x 16. Columns j >= c_cols are untouched. */
void gemmini_compute(uint32_t a_addr, uint32_t a_cols, uint32_t a_rows);

/* ---- Counters and the cycle estimate ----
 *
 * The cycle counts are a MODEL for comparing schedules, not hardware truth. DMA moves 16 bytes
 * a cycle. Load unit: config_ld 1 cycle; mvin rows * ceil(cols * elem_bytes / 16) (1 byte for
 * the scratchpad, 4 for the accumulator; a zeroing load costs as much as a load). Store unit:
 * config_st 1; mvout rows * ceil(cols * out_elem_bytes / 16) (1 for int8 output, 4 for
 * full-width). Execute unit: config_ex 1; a preload with new weights b_rows (0 with
 * GEMMINI_GARBAGE_ADDR); a compute a_rows. exec_cycles adds all of these; in
 * exec_cycles_overlapped a preload only costs max(0, b_rows - rows of the previous compute),
 * since the array's weights are double-buffered and stream in during the previous compute (one
 * shadow buffer: a compute hides at most one following preload).
 */
typedef struct {
  uint64_t mvin, mvin_zero, mvout, preload, compute; /* instructions by kind (mvin_zero counts
                                                        zeroing loads, also counted in mvin) */
  uint64_t config_ld, config_st, config_ex;          /* configuration writes by kind */
  uint64_t bytes_in, bytes_out; /* DRAM bytes read by mvin (rows * cols * elem_bytes, even for
                                   a stride-0 broadcast), written by mvout */
  uint64_t macs; /* useful multiply-accumulates: a_rows * a_cols * c_cols per compute */
  uint64_t load_cycles, store_cycles, exec_cycles; /* busy cycles of each unit, serial model */
  uint64_t exec_cycles_overlapped; /* execute unit with preloads hidden behind the previous
                                      compute */
} gemmini_counters;

/* The counters since the last reset (valid until the next reset). */
const gemmini_counters *gemmini_get_counters(void);
/* config_ld + config_st + config_ex. */
uint64_t gemmini_config_writes(void);
/* load + store + exec cycles: one instruction at a time. */
uint64_t gemmini_cycles_serial(void);
/* max(load, store, exec_overlapped): decoupled queues that never stall each other. A THROUGHPUT
 * BOUND (it ignores the dependences between the units), not a latency. */
uint64_t gemmini_cycles_overlapped(void);
/* macs / (cycles_overlapped * DIM * DIM): the fraction of the array's peak; 0 with no cycles. */
double gemmini_utilization(void);
/* The dependence-aware estimate: units issue in order; an instruction waits for its unit and
 * for the local rows it touches (a read for their last write, a write for their last write and
 * read); a preload may start once the compute before it has (two weight buffers). DRAM order
 * and the array's fill and drain latency are not modelled. Between gemmini_cycles_overlapped()
 * (no dependences) and gemmini_cycles_serial(). */
uint64_t gemmini_cycles_timeline(void);

#ifdef __cplusplus
}
#endif

#endif /* EXOCPP_GEMMINI_MODEL_H */

/* test_timing.c - properties of the timing model: the prediction is the launch
 * overhead plus the largest of its terms, each term is traffic / rate, and the
 * prediction never falls when traffic grows or rises when resident warps grow. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <string.h>

#include "../sim/models/memstats.h"
#include "../sim/models/timing.h"

static ws_device dev(void)
{
    ws_device d;
    memset(&d, 0, sizeof d);
    d.key = "test";
    d.cc_major = 9;
    d.sm_count = 4;
    d.sm_clock_mhz = 1000;       /* 1 cycle = 1 ns: easy arithmetic */
    d.dram_bw_gbs = 1000;
    d.l2_bw_gbs = 2000;
    d.dram_fetch_bytes = 32;
    d.ecc = 1;
    d.l2_bytes = 1 << 20;
    d.l1_unified_bytes = 256 * 1024;
    d.max_warps_per_sm = 64;
    d.l1_hit_cycles = 30;
    d.l2_hit_cycles = 200;
    d.dram_cycles = 500;
    d.launch_overhead_us = 2;
    d.subpartitions = 4;
    d.sector_bytes = 32; d.line_bytes = 128; d.banks = 32; d.bank_bytes = 4;
    /* the H200's calibration, its L2 request rate scaled to this device's 2000 GB/s */
    d.dram_efficiency = 0.89;
    d.l2_requests_per_cycle = 35.0 * 2000 / 7500;
    return d;
}

static void test_no_traffic_costs_the_launch_overhead(void **state)
{
    (void)state;
    ws_device d = dev();
    ws_timing_input in;
    memset(&in, 0, sizeof in);
    ws_timing t;
    assert_int_equal(ws_timing_predict(&d, &in, &t), 0);
    assert_true(t.t_kernel_us == d.launch_overhead_us);
    assert_int_equal(t.bound, WS_BOUND_LAUNCH);
}

static void test_each_term_is_traffic_over_its_rate(void **state)
{
    (void)state;
    ws_device d = dev();
    ws_timing_input in;
    memset(&in, 0, sizeof in);
    in.dram_bytes = 8.9e6;  /* at 1000 GB/s x 0.89 = 890 B/ns: 10 us */
    in.l2_bytes = 4e6;      /* 2000 GB/s: 2 us */
    in.l1_wavefronts_max = 3000;  /* 1 per cycle at 1 GHz: 3 us */
    in.issue_insns_max = 8000;    /* 4 per cycle: 2 us */
    in.latency_cycles_per_warp_max = 1000; /* 1 us */
    ws_timing t;
    ws_timing_predict(&d, &in, &t);
    assert_true(t.t_dram_us > 9.999 && t.t_dram_us < 10.001);
    assert_true(t.t_l2_us > 1.999 && t.t_l2_us < 2.001);
    assert_true(t.t_l1_us > 2.999 && t.t_l1_us < 3.001);
    assert_true(t.t_issue_us > 1.999 && t.t_issue_us < 2.001);
    assert_true(t.t_latency_us > 0.999 && t.t_latency_us < 1.001);
    assert_int_equal(t.bound, WS_BOUND_DRAM);
    assert_true(t.t_kernel_us > 11.999 && t.t_kernel_us < 12.001); /* 2 us launch + 10 us */
    /* L2 requests: 35 per cycle at 7500 GB/s, scaled to this device's 2000 GB/s */
    in.l2_requests = 35.0 * 2000 / 7500 * 1000 * 5; /* 5 us worth */
    ws_timing_predict(&d, &in, &t);
    assert_true(t.t_l2_us > 4.999 && t.t_l2_us < 5.001);
}

static uint64_t lcg(uint64_t *s)
{
    *s = *s * 6364136223846793005ull + 1442695040888963407ull;
    return *s >> 33;
}

static void test_lines_over_earlier_dirty_data_write_back_the_dirty_share_of_them(void **state)
{
    (void)state;
    ws_device d = dev();
    ws_timing_input in;
    memset(&in, 0, sizeof in);
    in.l2_displaced_lines = 1e5;   /* 12.8 MB of lines over what an earlier kernel left */
    ws_timing t;
    /* the L2 keeps at most a quarter of its bytes dirty: a quarter of the lines write back first,
     * 3.2 MB at 890 B/ns = 3.5955 us */
    d.l2_dirty_fraction = 0.25;
    ws_timing_predict(&d, &in, &t);
    assert_true(fabs(t.t_dram_us - 0.25 * 128 * 1e5 / 890.0 / 1e3) < 1e-9);
    /* no dirty limit: an L2 left wholly dirty, every line writes one back */
    d.l2_dirty_fraction = 0;
    ws_timing_predict(&d, &in, &t);
    assert_true(fabs(t.t_dram_us - 128 * 1e5 / 890.0 / 1e3) < 1e-9);
    /* beside the kernel's own traffic the two add */
    in.dram_bytes = 8.9e6;
    d.l2_dirty_fraction = 0.5;
    ws_timing_predict(&d, &in, &t);
    assert_true(fabs(t.t_dram_us - (8.9e6 + 0.5 * 128 * 1e5) / 890.0 / 1e3) < 1e-9);
}

static void test_time_never_falls_when_any_traffic_grows_and_bounds_every_term(void **state)
{
    (void)state;
    ws_device d = dev();
    uint64_t seed = 7;
    d.dram_queue_cycles = 90; /* the H200's: the queue couples the latency term to the DRAM term */
    d.pipe_lanes_per_cycle[WS_PIPE_ALU] = 64;
    d.pipe_lanes_per_cycle[WS_PIPE_FMA] = 128;
    d.pipe_lanes_per_cycle[WS_PIPE_FMAHEAVY] = 64;
    for (int iter = 0; iter < 500; iter++) {
        ws_timing_input in;
        memset(&in, 0, sizeof in);
        double *f[] = {&in.dram_bytes, &in.l2_bytes, &in.l1_wavefronts_max, &in.issue_insns_max,
                       &in.latency_cycles_per_warp_max, &in.l2_requests, &in.latency_dram_epochs_per_warp_max,
                       &in.pipe_insns_max[WS_PIPE_ALU], &in.pipe_insns_max[WS_PIPE_FMA],
                       &in.pipe_insns_max[WS_PIPE_FMAHEAVY], &in.shared_wavefronts_max};
        const int nf = (int)(sizeof f / sizeof f[0]);
        for (int k = 0; k < nf; k++)
            *f[k] = (double)(lcg(&seed) % 1000000);
        in.latency_dram_epochs_per_warp_max = (double)(lcg(&seed) % 1000);
        in.warps_per_block = in.warps_in_flight_max = 8; /* one block in flight: the phase term's sum */
        in.bytes_moved = in.dram_bytes;
        ws_timing a, b;
        ws_timing_predict(&d, &in, &a);
        double terms[] = {a.t_dram_us, a.t_l2_us, a.t_l1_us, a.t_issue_us, a.t_latency_us};
        for (int k = 0; k < 5; k++)
            assert_true(a.t_kernel_us >= terms[k] + a.t_launch_us - 1e-9);
        int k = (int)(lcg(&seed) % (uint64_t)nf);
        *f[k] *= 1.0 + (double)(lcg(&seed) % 100) / 10.0;
        ws_timing_predict(&d, &in, &b);
        assert_true(b.t_kernel_us >= a.t_kernel_us);
    }
}

static void test_effective_bandwidth_is_bytes_moved_over_time(void **state)
{
    (void)state;
    ws_device d = dev();
    d.launch_overhead_us = 0;
    ws_timing_input in;
    memset(&in, 0, sizeof in);
    in.dram_bytes = in.bytes_moved = 1e9;
    ws_timing t;
    ws_timing_predict(&d, &in, &t);
    /* DRAM-bound with no overhead: effective bandwidth is the achievable DRAM rate */
    assert_true(t.eff_bw_gbs > 1000 * d.dram_efficiency - 1e-6 && t.eff_bw_gbs < 1000 * d.dram_efficiency + 1e-6);
    assert_true(t.eff_bw_gbs <= d.dram_bw_gbs);
}

static void test_device_without_rates_is_refused(void **state)
{
    (void)state;
    ws_device d = dev();
    d.dram_bw_gbs = 0;
    ws_timing_input in;
    memset(&in, 0, sizeof in);
    ws_timing t;
    assert_int_equal(ws_timing_predict(&d, &in, &t), -1);
}

/* One block of `threads` on 4 SMs; every warp loads 16 distinct cold lines. */
static double latency_term(int resident_warps, int nwarps)
{
    ws_device d = dev();
    ws_launch L;
    memset(&L, 0, sizeof L);
    L.grid[0] = 1; L.grid[1] = L.grid[2] = 1;
    L.block[0] = (uint32_t)(32 * nwarps); L.block[1] = L.block[2] = 1;
    ws_models *models = ws_models_new(&d, &L, 64 * 1024);
    ws_memstats *ms = ws_memstats_new(&d, &L, 4);
    ws_latency *lat = ws_latency_new(&d, &L);
    assert_non_null(models);
    assert_non_null(ms);
    assert_non_null(lat);
    ws_models_add_sink(models, ws_memstats_verdict, ms);
    ws_models_add_sink(models, ws_latency_verdict, lat);
    for (int w = 0; w < nwarps; w++)
        for (int i = 0; i < 16; i++) {
            ws_mem_event ev;
            memset(&ev, 0, sizeof ev);
            ev.space = WS_SPACE_GLOBAL;
            ev.op = WS_MEM_LOAD;
            ev.width = 4;
            ev.active_mask = 0xFFFFFFFFu;
            ev.warp = (uint32_t)w;
            ev.pc = 1;
            for (int l = 0; l < 32; l++)
                ev.addr[l] = 0x100000000ull + (uint64_t)(w * 16 + i) * 4096 + 4u * (uint64_t)l;
            ws_models_listener(models, &ev);
        }
    ws_models_finish(models);
    ws_memstats_finish(ms, ws_models_cache_totals(models));
    ws_latency_finish(lat);
    ws_occupancy o;
    memset(&o, 0, sizeof o);
    o.warps_per_block = nwarps;
    o.warps_per_sm = resident_warps;
    ws_timing_input in;
    ws_timing_input_from_memstats(ms, lat, &o, 0, 0, &in);
    ws_timing t;
    ws_timing_predict(&d, &in, &t);
    ws_memstats_free(ms);
    ws_latency_free(lat);
    ws_models_free(models);
    return t.t_latency_us;
}

/* The guide's table for compute capability 9.0: 32-bit integer add 64 results per clock per SM,
 * FP32 FMA 128, integer multiply-add 64, MUFU 16. One SM, 64 resident warps, N instructions
 * per thread: 64 N warp instructions, each 32 lanes. */
static void test_integer_adds_at_full_occupancy_run_at_the_guides_alu_rate(void **state)
{
    (void)state;
    const ws_device *h = ws_device_find("h200");
    assert_non_null(h);
    const double N = 1000, warps = 64, cycle_us = 1.0 / 1980;
    ws_timing_input in;
    memset(&in, 0, sizeof in);
    in.issue_insns_max = warps * N;
    in.pipe_insns_max[WS_PIPE_ALU] = warps * N;
    ws_timing t;
    assert_int_equal(ws_timing_predict(h, &in, &t), 0);
    double want = warps * N * 32 / 64 * cycle_us; /* twice the 4-per-cycle issue slots */
    assert_true(t.t_issue_us > want * (1 - 1e-9) && t.t_issue_us < want * (1 + 1e-9));
    assert_true(t.t_issue_slots_us > warps * N / 4 * cycle_us * (1 - 1e-9));
    assert_int_equal(t.issue_pipe, WS_PIPE_ALU);
    assert_int_equal(t.bound, WS_BOUND_ISSUE);
    in.pipe_insns_max[WS_PIPE_ALU] = 0;        /* MUFU: 16 per clock, 8x the issue slots */
    in.pipe_insns_max[WS_PIPE_XU] = warps * N;
    assert_int_equal(ws_timing_predict(h, &in, &t), 0);
    want = warps * N * 32 / 16 * cycle_us;
    assert_true(t.t_issue_us > want * (1 - 1e-9) && t.t_issue_us < want * (1 + 1e-9));
    assert_int_equal(t.issue_pipe, WS_PIPE_XU);
    in.pipe_insns_max[WS_PIPE_XU] = 0;         /* FP32 at 128 per clock: no slower than issue */
    in.pipe_insns_max[WS_PIPE_FMA] = warps * N;
    assert_int_equal(ws_timing_predict(h, &in, &t), 0);
    want = warps * N / 4 * cycle_us;
    assert_true(t.t_issue_us > want * (1 - 1e-9) && t.t_issue_us < want * (1 + 1e-9));
}

static void test_fp32_and_integer_multiply_adds_share_the_fma_pipe(void **state)
{
    (void)state;
    const ws_device *h = ws_device_find("h200");
    const double cycle_us = 1.0 / 1980;
    ws_timing_input in;
    memset(&in, 0, sizeof in);
    in.pipe_insns_max[WS_PIPE_FMA] = 3000;      /* FFMA on heavy + lite: 128 lanes a cycle */
    in.pipe_insns_max[WS_PIPE_FMAHEAVY] = 1000; /* IMAD on fma-heavy only: 64 */
    ws_timing t;
    assert_int_equal(ws_timing_predict(h, &in, &t), 0);
    double want = (3000 + 1000) * 32.0 / 128 * cycle_us; /* together on the 128 lanes */
    assert_true(t.t_pipe_us > want * (1 - 1e-9) && t.t_pipe_us < want * (1 + 1e-9));
    assert_int_equal(t.issue_pipe, WS_PIPE_FMA);
    in.pipe_insns_max[WS_PIPE_FMA] = 0;         /* IMAD alone: fma-heavy's 64 */
    assert_int_equal(ws_timing_predict(h, &in, &t), 0);
    want = 1000 * 32.0 / 64 * cycle_us;
    assert_true(t.t_pipe_us > want * (1 - 1e-9) && t.t_pipe_us < want * (1 + 1e-9));
    assert_int_equal(t.issue_pipe, WS_PIPE_FMAHEAVY);
}

/* The tensor pipe from the probe's table (results/h200-tensorpipe/SUMMARY.md): 16 warps on an SM
 * (4 per sub-partition), each issuing K HMMA.16816, take at least 16 K / 0.658 cycles - the SM's
 * rate, whatever else they do; the same work from 1 warp per SM: K / 0.119 (one warp cannot fill its
 * sub-partition's tensor core). A wgmma m64n256k16 is 128 cycles of the SM whatever else runs:
 * W warpgroups x G of them = 128 G W cycles, in units 4 warps x 32 (N/8) x G W. Forms share the
 * pipe: their times add. */
static void test_the_tensor_pipe_bounds_mma_at_its_measured_rate(void **state)
{
    (void)state;
    const ws_device *h = ws_device_find("h200");
    assert_non_null(h);
    const double K = 4096, cycle_us = 1.0 / h->sm_clock_mhz;
    ws_timing_input in;
    memset(&in, 0, sizeof in);
    in.issue_insns_max = 16 * K * 2;          /* an HMMA and one other instruction each */
    in.pipe_insns_max[WS_PIPE_HMMA] = 16 * K;
    in.warps_in_flight_max = 16;
    ws_timing t;
    assert_int_equal(ws_timing_predict(h, &in, &t), 0);
    double want = 16 * K / 0.658 * cycle_us;
    assert_true(fabs(t.t_tensor_us - want) < want * 1e-9);
    assert_int_equal(t.bound, WS_BOUND_TENSOR);
    assert_int_equal(t.tensor_pipe, WS_PIPE_HMMA);
    assert_string_equal(ws_bound_class(t.bound), "tensor");
    assert_true(t.t_kernel_us >= want + h->launch_overhead_us * (1 - 1e-9));

    in.pipe_insns_max[WS_PIPE_HMMA] = K;      /* one warp per SM */
    in.issue_insns_max = 2 * K;
    in.warps_in_flight_max = 1;
    assert_int_equal(ws_timing_predict(h, &in, &t), 0);
    want = K / 0.119 * cycle_us;
    assert_true(fabs(t.t_tensor_us - want) < want * 1e-9);
    in.warps_in_flight_max = 4;               /* one per sub-partition: 4 x 0.119 < 0.658 */
    in.pipe_insns_max[WS_PIPE_HMMA] = 4 * K;
    assert_int_equal(ws_timing_predict(h, &in, &t), 0);
    want = 4 * K / (4 * 0.119) * cycle_us;
    assert_true(fabs(t.t_tensor_us - want) < want * 1e-9);

    memset(&in, 0, sizeof in);                /* 2 warpgroups x 64 wgmma m64n256k16 */
    const double W = 2, G = 64;
    in.pipe_insns_max[WS_PIPE_GMMA] = 4 * W * G * (256 / 8);
    in.warps_in_flight_max = 4 * W;
    assert_int_equal(ws_timing_predict(h, &in, &t), 0);
    want = 128 * G * W * cycle_us;
    assert_true(fabs(t.t_tensor_us - want) < want * 1e-9);
    in.pipe_insns_max[WS_PIPE_DMMA] = 1000;   /* and 1000 DMMA on the same pipe: 4 cycles each */
    assert_int_equal(ws_timing_predict(h, &in, &t), 0);
    want += 1000 / 0.25 * cycle_us;
    assert_true(fabs(t.t_tensor_us - want) < want * 1e-9);
    assert_int_equal(t.tensor_pipe, WS_PIPE_GMMA);

    ws_device d = dev();                      /* a profile without tensor rates: no term */
    assert_int_equal(ws_timing_predict(&d, &in, &t), 0);
    assert_true(t.t_tensor_us == 0);
    assert_int_equal(t.tensor_pipe, WS_PIPE_NONE);
}

/* 1 cycle = 1 ns. Unloaded latency a = 1 us; 10 DRAM epochs per warp at Q = 100 cycles: b = 1 us;
 * D = 1 us of DRAM. M/M/1: each DRAM epoch waits Q u/(1-u), u = D/t, t = a + 10 Q u/(1-u):
 * t = 1 + 1/(t-1) gives t = 2 us, u = 1/2, a wait of 100 cycles per epoch. */
static void test_dram_epochs_wait_in_an_mm1_queue_at_the_kernels_utilisation(void **state)
{
    (void)state;
    ws_device d = dev();
    d.dram_queue_cycles = 100;
    ws_timing_input in;
    memset(&in, 0, sizeof in);
    in.dram_bytes = 8.9e5;                     /* 890 B/ns: 1 us */
    in.latency_cycles_per_warp_max = 1000;
    in.latency_dram_epochs_per_warp_max = 10;
    ws_timing t;
    assert_int_equal(ws_timing_predict(&d, &in, &t), 0);
    assert_true(t.t_latency_us > 2 - 1e-9 && t.t_latency_us < 2 + 1e-9);
    assert_true(t.dram_utilisation > 0.5 - 1e-9 && t.dram_utilisation < 0.5 + 1e-9);
    assert_true(t.dram_queue_cycles > 100 - 1e-6 && t.dram_queue_cycles < 100 + 1e-6);
    assert_int_equal(t.bound, WS_BOUND_LATENCY); /* the queue (1 us) is not more than a (1 us) */
    /* another term sets the time (4 us of L1): u = 1/4, a wait of 100/3 per epoch */
    in.l1_wavefronts_max = 4000;
    assert_int_equal(ws_timing_predict(&d, &in, &t), 0);
    double want = 1 + 10 * (100.0 / 3) / 1000;
    assert_true(t.t_latency_us > want - 1e-9 && t.t_latency_us < want + 1e-9);
    assert_int_equal(t.bound, WS_BOUND_L1);
    /* a = 0.1 us: (t - 0.1)(t - 1) = 1, t = (1.1 + sqrt(4.81)) / 2; the wait is most of it: DRAM */
    in.l1_wavefronts_max = 0;
    in.latency_cycles_per_warp_max = 100;
    assert_int_equal(ws_timing_predict(&d, &in, &t), 0);
    want = (1.1 + sqrt(4.81)) / 2;
    assert_true(t.t_latency_us > want - 1e-9 && t.t_latency_us < want + 1e-9);
    assert_int_equal(t.bound, WS_BOUND_DRAM);
    /* no queue: the unloaded latency */
    d.dram_queue_cycles = 0;
    assert_int_equal(ws_timing_predict(&d, &in, &t), 0);
    assert_true(t.t_latency_us > 0.1 - 1e-9 && t.t_latency_us < 0.1 + 1e-9);
}

/* L2 writes: a request's fixed part and its sectors' part add. With 100 requests, 50 whole and 25
 * partial sectors per cycle (1 cycle = 1 ns), 1e6 one-sector writes take 1e6 x (1/100 + 1/50) = 30,000 cycles
 * and 1e6 full-line writes 1e6 x (1/100 + 4/50) = 90,000: 3x, not the 4x of bytes alone nor the
 * 1x of requests alone. Reads keep the partial-request term; a profile without write rates puts
 * the writes in it too, as before (one-sector requests at l2_requests_per_cycle). */
static void test_an_l2_write_costs_its_request_and_its_sectors(void **state)
{
    (void)state;
    ws_device d = dev();
    d.l2_bw_gbs = 1e6; /* keep the byte term out of the way */
    d.l2_write_requests_per_cycle = 100;
    d.l2_write_sectors_per_cycle = 50;
    d.l2_write_partial_sectors_per_cycle = 25;
    ws_timing_input in;
    memset(&in, 0, sizeof in);
    ws_timing t;
    in.l2_write_requests = 1e6;
    in.l2_write_sectors = 1e6;
    in.l2_bytes = 32e6;
    ws_timing_predict(&d, &in, &t);
    assert_true(fabs(t.t_l2_write_us - 30.0) < 1e-9);
    assert_true(fabs(t.t_l2_us - 30.0) < 1e-9);
    assert_int_equal(t.bound, WS_BOUND_L2);
    in.l2_write_sectors = 4e6;
    in.l2_bytes = 128e6;
    ws_timing_predict(&d, &in, &t);
    assert_true(fabs(t.t_l2_us - 90.0) < 1e-9);
    /* the same lines with one word per sector: 4e6 partial sectors at 25 per cycle, 1e6 x (1/100 +
     * 4/25) = 170,000 cycles */
    in.l2_write_partial_sectors = 4e6;
    ws_timing_predict(&d, &in, &t);
    assert_true(fabs(t.t_l2_us - 170.0) < 1e-9);
    in.l2_write_partial_sectors = 0;
    /* reads of many partial lines that cost more than the writes set the term */
    in.l2_requests = d.l2_requests_per_cycle * 1000 * 200; /* 200 us of partial read requests */
    ws_timing_predict(&d, &in, &t);
    assert_true(fabs(t.t_l2_us - 200.0) < 1e-6);
    assert_true(fabs(t.t_l2_write_us - 90.0) < 1e-9);
    /* no write rates: 1e6 one-sector writes are 1e6 partial requests at the request rate */
    d.l2_write_requests_per_cycle = d.l2_write_sectors_per_cycle = d.l2_write_partial_sectors_per_cycle = 0;
    memset(&in, 0, sizeof in);
    in.l2_write_requests = 1e6;
    in.l2_write_sectors = 1e6;
    ws_timing_predict(&d, &in, &t);
    assert_true(t.t_l2_write_us == 0);
    assert_true(fabs(t.t_l2_us - 1e6 / d.l2_requests_per_cycle / 1000) < 1e-6);
}

/* The H200's write rates against what the probe measured (results/h200-local/local-ncu.csv, 132 SMs:
 * 16.8 M L2-resident store requests, SM cycles per request = (ncu time - 2.1 us) x clock / requests):
 * one whole sector 0.0226, a whole line 0.0524, four one-word sectors 0.0674; each within 6 %. */
static void test_the_h200_write_rates_reproduce_the_probe(void **state)
{
    (void)state;
    const ws_device *d = ws_device_find("h200");
    assert_non_null(d);
    const struct { int sectors, partial; double cycles; } m[] = {{1, 0, 0.0226}, {4, 0, 0.0524}, {4, 1, 0.0674}};
    for (size_t k = 0; k < sizeof m / sizeof m[0]; k++) {
        double c = 1 / d->l2_write_requests_per_cycle +
                   m[k].sectors / (m[k].partial ? d->l2_write_partial_sectors_per_cycle : d->l2_write_sectors_per_cycle);
        assert_true(fabs(c / m[k].cycles - 1) < 0.06);
    }
}

/* L2 reads at their own request rate: with 80 read requests and 10 other requests per cycle
 * (1 cycle = 1 ns), 1e6 partial read requests take 1e6 / 80 = 12,500 cycles, not the 100,000 of the
 * shared rate; writes without write rates stay at 10 per cycle and the slower of the two sets the
 * term (they are separate limits, like the write term); no read rate: reads at 10, as before. */
static void test_l2_read_requests_run_at_their_own_rate(void **state)
{
    (void)state;
    ws_device d = dev();
    d.l2_bw_gbs = 1e6; /* keep the byte term out of the way */
    d.l2_requests_per_cycle = 10;
    d.l2_read_requests_per_cycle = 80;
    ws_timing_input in;
    memset(&in, 0, sizeof in);
    ws_timing t;
    in.l2_requests = 1e6;
    ws_timing_predict(&d, &in, &t);
    assert_true(fabs(t.t_l2_us - 12.5) < 1e-9);
    assert_int_equal(t.bound, WS_BOUND_L2);
    in.l2_write_requests = 5e5; /* one-sector writes: 5e5 partial requests at 10 per cycle */
    in.l2_write_sectors = 5e5;
    ws_timing_predict(&d, &in, &t);
    assert_true(fabs(t.t_l2_us - 50.0) < 1e-9);
    in.l2_write_requests = in.l2_write_sectors = 0;
    d.l2_read_requests_per_cycle = 0;
    ws_timing_predict(&d, &in, &t);
    assert_true(fabs(t.t_l2_us - 100.0) < 1e-9);
}

/* The H200's read rate against the probe (results/h200-local/local-ncu.csv, 132 SMs, L2-resident
 * one-sector __ldcg: rd_s1_f1 111.648 us for 16,739,168 requests at 1958.1 MHz, rd_s1_f0 102.208 us
 * for 15,414,258 at 1965.2 MHz; SM cycles per request = (ncu time - 2.1 us) x clock / requests). */
static void test_the_h200_read_rate_reproduces_the_probe(void **state)
{
    (void)state;
    const ws_device *d = ws_device_find("h200");
    assert_non_null(d);
    const struct { double us, mhz, requests; } m[] = {{111.648, 1958.1, 16739168}, {102.208, 1965.2, 15414258}};
    for (size_t k = 0; k < sizeof m / sizeof m[0]; k++) {
        double cycles = (m[k].us - 2.1) * m[k].mhz / m[k].requests;
        assert_true(fabs(cycles * d->l2_read_requests_per_cycle - 1) < 0.02);
    }
}

static void test_a_profile_without_its_calibration_is_refused(void **state)
{
    (void)state;
    ws_timing_input in;
    memset(&in, 0, sizeof in);
    ws_timing t;
    ws_device d = dev();
    d.dram_efficiency = 0; /* an unset figure must not silently become some other GPU's */
    assert_int_equal(ws_timing_predict(&d, &in, &t), -1);
    d = dev();
    d.l2_requests_per_cycle = 0;
    assert_int_equal(ws_timing_predict(&d, &in, &t), -1);
    for (const ws_device *const *p = ws_device_all(); *p; p++)
        assert_int_equal(ws_timing_predict(*p, &in, &t), 0);
}

static void test_more_resident_warps_never_raise_the_latency_term(void **state)
{
    (void)state;
    /* 8 warps x 16 cold loads of 500 cycles (unloaded, no queue) (1 cycle = 1 ns):
     * one warp at a time 8 x 16 x L, all 8 in flight 16 x L */
    const double L = 500 / 1000.0 /* unloaded DRAM, no queue */; /* us */
    double prev = latency_term(1, 8);
    assert_true(prev > 128 * L - 1e-6 && prev < 128 * L + 1e-6);
    for (int r = 2; r <= 16; r++) {
        double t = latency_term(r, 8);
        assert_true(t <= prev + 1e-9);
        prev = t;
    }
    assert_true(prev > 16 * L - 1e-6 && prev < 16 * L + 1e-6);
}

/* A block slot is empty while the distributor launches its next block. 1 cycle = 1 ns; blocks of 8
 * warps, 8 in flight per SM (64 warps), 100 blocks on the busiest SM (12.5 waves); each warp's loads
 * take 1000 cycles: 100 x 8 x 1000 / 64 = 12,500 cycles. Launching a block takes the distributor 150
 * cycles, one block at a time, so each of a slot's 12.5 blocks waits 150 before it starts: 12.5 x 150
 * = 1875 more, 14,375 in all, while the distributor alone needs 100 x 150 = 15,000 (its own term). With
 * 32-warp blocks at 10 cycles a warp a launch takes 320, and 2 slots hold the 64 warps. */
static void test_a_slot_waits_for_its_next_blocks_launch(void **state)
{
    (void)state;
    ws_device d = dev();
    ws_timing_input in;
    memset(&in, 0, sizeof in);
    in.latency_cycles_per_warp_max = 100.0 * 8 * 1000 / 64;
    in.warps_in_flight_max = 64;
    in.blocks_max = 100;
    in.warps_per_block = 8;
    ws_timing t;
    assert_int_equal(ws_timing_predict(&d, &in, &t), 0);
    assert_true(fabs(t.t_latency_us - 12.5) < 1e-9);       /* no launch cost in the profile: as before */
    d.block_launch_cycles = 150;
    d.warp_launch_cycles = 10;
    assert_int_equal(ws_timing_predict(&d, &in, &t), 0);
    assert_true(fabs(t.t_latency_us - 14.375) < 1e-9);
    assert_true(fabs(t.t_block_launch_us - 15.0) < 1e-9);
    assert_int_equal(t.bound, WS_BOUND_BLOCK_LAUNCH);
    in.blocks_max = 25;                                     /* the same warps in 32-warp blocks */
    in.warps_per_block = 32;
    assert_int_equal(ws_timing_predict(&d, &in, &t), 0);
    assert_true(fabs(t.t_latency_us - (12.5 + 12.5 * 0.320)) < 1e-9);
    assert_true(fabs(t.t_block_launch_us - 25 * 0.320) < 1e-9);
    assert_int_equal(t.bound, WS_BOUND_LATENCY);
}

/* The shared data path (results/h200-shared-rate/SUMMARY.md): the H200 served one bank-rule wavefront
 * per SM cycle at every conflict degree, so a warp's LDS of 32 words 128 bytes apart (all in bank 0:
 * 32 distinct words, 32 wavefronts) costs 32 cycles, measured 32.0 per instruction with 16-64 warps/SM,
 * and the same load 132 bytes apart (33 words: 32 banks, one wavefront) costs 1. */
static void test_a_32_way_conflicted_load_costs_32_cycles_of_the_data_path(void **state)
{
    (void)state;
    const ws_device *h = ws_device_find("h200");
    assert_non_null(h);
    const double insts = 32 * 4096.0;          /* per SM: 32 warps x 4096 loads */
    for (int stride = 128; stride <= 132; stride += 4) {
        ws_mem_event ev;
        memset(&ev, 0, sizeof ev);
        ev.space = WS_SPACE_SHARED;
        ev.op = WS_MEM_LOAD;
        ev.width = 4;
        ev.active_mask = 0xFFFFFFFFu;
        for (int l = 0; l < 32; l++)
            ev.addr[l] = (uint64_t)l * (uint64_t)stride;
        ws_bank_result bk;
        assert_int_equal(ws_banks(&ev, &bk), 0);
        int want_wf = stride == 128 ? 32 : 1;
        assert_int_equal(bk.wavefronts, want_wf);
        ws_timing_input in;
        memset(&in, 0, sizeof in);
        in.l1_wavefronts_max = insts * bk.wavefronts;
        ws_timing t;
        assert_int_equal(ws_timing_predict(h, &in, &t), 0);
        double want = insts * want_wf * 1.0 / 1980.0;  /* 1.0 cycle per wavefront at the 1980 MHz boost */
        assert_true(fabs(t.t_l1_us - want) < want * 1e-9);
        assert_true(fabs(ws_timing_l1_us(h, in.l1_wavefronts_max) - want) < want * 1e-9);
        assert_int_equal(t.bound, WS_BOUND_L1);
    }
    /* the rate is the profile's: half a wavefront per cycle doubles the term, 0 means one */
    ws_device d = dev();
    d.l1_wavefronts_per_cycle = 0.5;
    assert_true(fabs(ws_timing_l1_us(&d, 1000) - 2.0) < 1e-12);   /* 1000 MHz: 2000 cycles */
    d.l1_wavefronts_per_cycle = 0;
    assert_true(fabs(ws_timing_l1_us(&d, 1000) - 1.0) < 1e-12);
}

/* The phase term (docs/timing-model.md "Phases that add"): a block's load phase and its shared
 * phase run in turn, so one block per SM takes their sum; blocks in flight overlap them. Checked
 * against its definition, the fixed point B X = t_sh (1 + (B - 1) X / (t_lat + X)) with X the
 * SM's time beyond the latency term, not against the closed form. */
static void test_phases_add_within_a_block_and_overlap_across_blocks(void **state)
{
    (void)state;
    /* one block in flight: the sum; any t_lat, t_sh */
    assert_true(fabs(ws_timing_phase_us(3.0, 2.0, 1) - 5.0) < 1e-12);
    assert_true(fabs(ws_timing_phase_us(3.0, 2.0, 0.5) - 5.0) < 1e-12); /* below one block: one */
    /* no shared wavefronts, or no latency: the other term alone */
    assert_true(ws_timing_phase_us(3.0, 0, 4) == 3.0);
    assert_true(ws_timing_phase_us(0, 2.0, 4) == 2.0);
    /* the fixed point, for several placements; between max and sum, falling as B grows */
    const double lat[] = {3.0, 1.0, 10.0}, sh[] = {2.0, 4.0, 0.5};
    for (int i = 0; i < 3; i++) {
        double prev = lat[i] + sh[i];
        for (int B = 1; B <= 64; B *= 2) {
            double t = ws_timing_phase_us(lat[i], sh[i], B);
            double X = t - lat[i];
            assert_true(fabs(B * X - sh[i] * (1 + (B - 1) * X / (lat[i] + X))) < 1e-9 * (lat[i] + sh[i]));
            assert_true(t >= fmax(lat[i], sh[i]) - 1e-12 && t <= lat[i] + sh[i] + 1e-12);
            assert_true(t <= prev + 1e-12);
            prev = t;
        }
        /* many blocks: the larger term */
        assert_true(fabs(ws_timing_phase_us(lat[i], sh[i], 1e12) - fmax(lat[i], sh[i])) < 1e-5);
    }
    /* H200 probe (results/h200-phase/phase.csv, persistent blocks of 256 threads, 32-way LDS x4):
       the load-only control at the same blocks per SM as t_lat, the shared wavefronts at one per
       cycle as t_sh: measured 5307.6 / 4663.6 / 4328.6 us at 1 / 2 / 4 blocks per SM */
    const double ctrl[] = {1285.31, 809.82, 631.84}, meas[] = {5307.62, 4663.62, 4328.61};
    for (int i = 0; i < 3; i++) {
        double t = ws_timing_phase_us(ctrl[i], 4140.38, 1 << i);
        assert_true(fabs(t / meas[i] - 1) < 0.05);
    }

    /* in ws_timing_predict: 3 us of latency chain (the load phase), 2 us of shared wavefronts and
       0.5 us of lines filled from L2 (the shared phase: 2.5 us of the L1 data path), 8-warp blocks,
       10 placed per SM, two in flight: the fixed point */
    ws_device d = dev();
    ws_timing_input in;
    memset(&in, 0, sizeof in);
    in.latency_cycles_per_warp_max = 3000;
    in.l1_wavefronts_max = 2500;
    in.shared_wavefronts_max = 2000;
    in.warps_per_block = 8;
    in.blocks_max = 10;
    in.warps_in_flight_max = 16;              /* two blocks in flight */
    ws_timing t;
    ws_timing_predict(&d, &in, &t);
    assert_true(fabs(t.t_shared_us - 2.0) < 1e-9 && fabs(t.t_latency_us - 3.0) < 1e-9);
    double X = t.t_phase_us - 3.0;
    assert_true(fabs(2 * X - 2.5 * (1 + X / (3.0 + X))) < 1e-9);
    assert_true(fabs(t.t_kernel_us - (d.launch_overhead_us + t.t_phase_us)) < 1e-9);  /* it sets the time */
    assert_true(t.t_phase_us > 3.0 && t.t_phase_us < 5.5);
    assert_int_equal(t.bound, WS_BOUND_LATENCY);  /* the longer phase names it */
    in.warps_in_flight_max = 8;               /* one block in flight: the sum */
    ws_timing_predict(&d, &in, &t);
    assert_true(fabs(t.t_phase_us - 5.5) < 1e-9);
    assert_true(fabs(t.t_kernel_us - (d.launch_overhead_us + 5.5)) < 1e-9);
    /* one wave (one block per SM, one placed): the same sum, 3 + 2.5 */
    in.blocks_max = 1;
    ws_timing_predict(&d, &in, &t);
    assert_true(fabs(t.t_kernel_us - (d.launch_overhead_us + 5.5)) < 1e-9);
    assert_int_equal(t.bound, WS_BOUND_LATENCY);
    /* 1 us of the chain is the warps' own instructions: they run in the shared phase, beside the
       other warps' wavefronts, so the load phase is 2 us and the shared phase max(2.5, 1): 4.5 us */
    in.latency_insn_cycles_per_warp_max = 1000;
    ws_timing_predict(&d, &in, &t);
    assert_true(fabs(t.t_kernel_us - (d.launch_overhead_us + 4.5)) < 1e-9);
    assert_int_equal(t.bound, WS_BOUND_L1);   /* 2.5 us of data path against 2 us of loads */
    /* 2.5 us of them (with 0.25 us of shared loads' short chain): the phase is the warps' own work
       (0.25 + 2.5), the data path hides under it, and the time is the chain's, 3 us */
    in.latency_insn_cycles_per_warp_max = 2500;
    in.latency_short_cycles_per_warp_max = 250;
    ws_timing_predict(&d, &in, &t);
    assert_true(fabs(t.t_phase_us - 3.0) < 1e-9);
    assert_true(fabs(t.t_kernel_us - (d.launch_overhead_us + 3.0)) < 1e-9);
    /* a pipeline (a wait_group N > 0 ran): its copies in flight hide the load phase, the max */
    in.latency_insn_cycles_per_warp_max = in.latency_short_cycles_per_warp_max = 0;
    in.copies_in_flight = 1;
    ws_timing_predict(&d, &in, &t);
    assert_true(t.t_phase_us == 0);
    assert_true(fabs(t.t_kernel_us - (d.launch_overhead_us + 3.0)) < 1e-9);
}

/* The L1 data path (docs/timing-model.md "Phases that add"): shared wavefronts and global lines
 * take its cycles in turn, except that L1-hit lines run beside the shared ones (results/h200-phase/
 * rate.csv: LDS + an L1-hit LDG, one cycle per pair). 1000 MHz: 1000 wavefronts are 1 us. */
static void test_l1_hit_lines_run_beside_the_shared_wavefronts(void **state)
{
    (void)state;
    ws_device d = dev();
    ws_timing_input in;
    memset(&in, 0, sizeof in);
    ws_timing t;
    in.shared_wavefronts_max = 2000;          /* 2000 shared + 1000 global lines */
    in.l1_wavefronts_max = 3000;
    ws_timing_predict(&d, &in, &t);           /* all lines missed: in turn, 3 us */
    assert_true(fabs(t.t_l1_us - 3.0) < 1e-9);
    in.l1_hit_line_share = 1;                 /* all hit: beside the shared 2000, 2 us */
    ws_timing_predict(&d, &in, &t);
    assert_true(fabs(t.t_l1_us - 2.0) < 1e-9);
    in.l1_hit_line_share = 0.5;               /* 500 missed in turn + max(2000, 500 hits) */
    ws_timing_predict(&d, &in, &t);
    assert_true(fabs(t.t_l1_us - 2.5) < 1e-9);
    in.shared_wavefronts_max = 0;             /* no shared work: hits and misses in turn, 1 us */
    in.l1_wavefronts_max = 1000;
    ws_timing_predict(&d, &in, &t);
    assert_true(fabs(t.t_l1_us - 1.0) < 1e-9);
    in.shared_wavefronts_max = 200;           /* 800 lines, half hits: 400 + max(200, 400) */
    ws_timing_predict(&d, &in, &t);
    assert_true(fabs(t.t_l1_us - 0.8) < 1e-9);
}

/* The data path's phase without shared memory: a warp's global loads return through the L1 data
 * path, one wavefront per 128-B line, so a block whose warps wait for one step's loads together
 * takes the step's latency and then its lines: NVIDIA's wmma samples load their fragments from
 * global memory, 8 lines per request (cs_wmma_tf32: ~1024 wavefronts a step per SM on top of a
 * ~700-cycle latency, ncu ~1866 cycles a step). The rule is the shared phase's, with the lines as
 * the data-path phase: one block in flight the sum, many nearly the max. 1000 MHz: 1000 cycles = 1 us. */
static void test_global_lines_on_the_data_path_add_to_a_single_blocks_load_phase(void **state)
{
    (void)state;
    ws_device d = dev();
    ws_timing_input in;
    memset(&in, 0, sizeof in);
    in.latency_cycles_per_warp_max = 3000;     /* 3 us of chain */
    in.l1_wavefronts_max = 2000;               /* 2 us of lines, no shared wavefronts */
    in.warps_per_block = in.warps_in_flight_max = 16;
    in.blocks_max = 1;
    ws_timing t;
    ws_timing_predict(&d, &in, &t);
    assert_true(t.t_shared_us == 0);
    assert_true(fabs(t.t_phase_us - 5.0) < 1e-9);
    assert_true(fabs(t.t_kernel_us - (d.launch_overhead_us + 5.0)) < 1e-9);
    assert_int_equal(t.bound, WS_BOUND_LATENCY);
    in.warps_in_flight_max = 16 * 64;          /* 64 blocks in flight: close to the max, 3 us */
    in.blocks_max = 64;
    ws_timing_predict(&d, &in, &t);
    assert_true(t.t_phase_us > 3.0 && t.t_phase_us < 3.1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_global_lines_on_the_data_path_add_to_a_single_blocks_load_phase),
        cmocka_unit_test(test_no_traffic_costs_the_launch_overhead),
        cmocka_unit_test(test_each_term_is_traffic_over_its_rate),
        cmocka_unit_test(test_lines_over_earlier_dirty_data_write_back_the_dirty_share_of_them),
        cmocka_unit_test(test_time_never_falls_when_any_traffic_grows_and_bounds_every_term),
        cmocka_unit_test(test_effective_bandwidth_is_bytes_moved_over_time),
        cmocka_unit_test(test_device_without_rates_is_refused),
        cmocka_unit_test(test_more_resident_warps_never_raise_the_latency_term),
        cmocka_unit_test(test_a_profile_without_its_calibration_is_refused),
        cmocka_unit_test(test_integer_adds_at_full_occupancy_run_at_the_guides_alu_rate),
        cmocka_unit_test(test_fp32_and_integer_multiply_adds_share_the_fma_pipe),
        cmocka_unit_test(test_dram_epochs_wait_in_an_mm1_queue_at_the_kernels_utilisation),
        cmocka_unit_test(test_the_tensor_pipe_bounds_mma_at_its_measured_rate),
        cmocka_unit_test(test_an_l2_write_costs_its_request_and_its_sectors),
        cmocka_unit_test(test_the_h200_write_rates_reproduce_the_probe),
        cmocka_unit_test(test_l2_read_requests_run_at_their_own_rate),
        cmocka_unit_test(test_the_h200_read_rate_reproduces_the_probe),
        cmocka_unit_test(test_a_slot_waits_for_its_next_blocks_launch),
        cmocka_unit_test(test_a_32_way_conflicted_load_costs_32_cycles_of_the_data_path),
        cmocka_unit_test(test_phases_add_within_a_block_and_overlap_across_blocks),
        cmocka_unit_test(test_l1_hit_lines_run_beside_the_shared_wavefronts),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

// shared_rate_probe.cu - sustained shared-memory (L1 data path) wavefronts per SM cycle on the GPU
// present, under bank conflicts, vector widths, load/store mixes, barriers, global traffic beside
// it and shared atomics (issue 23: the timing model's t_l1 term charges one wavefront per cycle;
// the H200 runs 32-way-conflicted transposes ~1.8x slower than that).
//
// Build: nvcc -arch=sm_90 -O3 -o shared_rate_probe tests/gpu/shared_rate_probe.cu
// Run:   shared_rate_probe run DIR    writes DIR/rate.csv, a summary on stdout
//        shared_rate_probe run DIR SUBSTR  only the forms whose name contains SUBSTR
//        shared_rate_probe once [W,..] one short launch per (form, warps/SM in the list, default
//                                     4,16,32,64), for ncu; its list on stdout as
//                                     "# once,ID,form,warps_per_sm" (ID = launch order)
//
// Placement: warps per SM in {4, 16, 32, 64}. Up to 32 warps: one block of warps*32 threads per SM
// with 116 KB of dynamic shared memory (more than half an SM's 228 KB: one block per SM); 64 warps:
// two blocks of 1024 threads per SM with 76 KB each (two fit, three do not). __launch_bounds__
// (1024, 2) keeps registers <= 32 so two 1024-thread blocks fit; occupancy is checked and written.
// Every SM is busy (grid = SMs x blocks per SM).
//
// A form is: op A with a 32-lane byte-offset pattern, optionally op B with its own pattern, U
// instances per loop iteration (A,B interleaved), or with sync = 1: U x A, __syncthreads, U x B,
// __syncthreads (the shape of a tiled transpose). All warps of a block use the same offsets.
// Ops (PTX -> SASS): ld/st.volatile.shared.{u32,v2.u32,v4.u32} (LDS/STS .32/.64/.128, volatile so
// ptxas merges no repeated access), red.shared.add.u32 (no return), atom.shared.add.u32 (return
// used), ld.global.ca.u32 from a 4 KB L1-resident buffer, one 128-B line per unrolled slot (LDG beside
// the shared op; the run of 4c8ba6d read one address in every slot and ptxas merged the eight into one).
//
// Timing: lane 0 of each warp stamps clock64 before and after its loop and records %smid. Per SM:
// span = last end - first start over its warps (clock64 is per SM); span_cyc = mean over SMs.
// mhz = span_cyc / event time (median of 3 launches after a warm-up) says what clock the SMs ran.
// nominal_wf: wavefronts per instruction by the bank rule (max over banks of distinct 4-byte words
// in that bank, at least bytes/128); ncu's l1tex__data_pipe_lsu_wavefronts_* give the real count.
//
// rate.csv columns:
//   form,opA,opB,unroll,sync,warps_per_sm,blocks_per_sm,resident_blocks,iters,nomwfA,nomwfB,
//   median_ms,mhz,span_cyc,winst_per_sm,nominal_wf_per_sm,cyc_per_winst,nominal_wf_per_clk
//   winst_per_sm = warp-level shared/global instructions (A + B) per SM; cyc_per_winst = span_cyc /
//   winst_per_sm; nominal_wf_per_clk = nominal_wf_per_sm / span_cyc.
#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>
#include <algorithm>
#include <cuda_runtime.h>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); exit(1); } } while (0)

typedef unsigned long long u64;
enum { OP_NONE, OP_LD32, OP_ST32, OP_LD64, OP_ST64, OP_LD128, OP_ST128, OP_RED, OP_ATOM, OP_LDG };
static const char *op_name[] = {"none", "lds32", "sts32", "lds64", "sts64", "lds128", "sts128",
                                "red_add", "atom_add_ret", "ldg32"};
static const int op_bytes[] = {0, 4, 4, 8, 8, 16, 16, 4, 4, 4};
static const int SMEM_ONE = 116 * 1024, SMEM_TWO = 76 * 1024;

template <int OP>
__device__ __forceinline__ void do_op(uint32_t sa, const unsigned *ga, uint32_t &acc, uint32_t v) {
    if (OP == OP_LD32) {
        uint32_t r;
        asm volatile("ld.volatile.shared.u32 %0, [%1];" : "=r"(r) : "r"(sa));
        acc ^= r;
    } else if (OP == OP_ST32) {
        asm volatile("st.volatile.shared.u32 [%0], %1;" ::"r"(sa), "r"(v));
    } else if (OP == OP_LD64) {
        uint32_t r0, r1;
        asm volatile("ld.volatile.shared.v2.u32 {%0,%1}, [%2];" : "=r"(r0), "=r"(r1) : "r"(sa));
        acc ^= r0 + r1;
    } else if (OP == OP_ST64) {
        asm volatile("st.volatile.shared.v2.u32 [%0], {%1,%1};" ::"r"(sa), "r"(v));
    } else if (OP == OP_LD128) {
        uint32_t r0, r1, r2, r3;
        asm volatile("ld.volatile.shared.v4.u32 {%0,%1,%2,%3}, [%4];"
                     : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3) : "r"(sa));
        acc ^= (r0 + r1) ^ (r2 + r3);
    } else if (OP == OP_ST128) {
        asm volatile("st.volatile.shared.v4.u32 [%0], {%1,%1,%1,%1};" ::"r"(sa), "r"(v));
    } else if (OP == OP_RED) {
        asm volatile("red.shared.add.u32 [%0], 1;" ::"r"(sa));
    } else if (OP == OP_ATOM) {
        uint32_t r;
        asm volatile("atom.shared.add.u32 %0, [%1], 1;" : "=r"(r) : "r"(sa));
        acc ^= r;
    } else if (OP == OP_LDG) {
        uint32_t r;
        asm volatile("ld.global.ca.u32 %0, [%1];" : "=r"(r) : "l"(ga));
        acc ^= r;
    }
}

template <int A, int B, int U, int SYNC>
__global__ void __launch_bounds__(1024, 2)
probe(const int *offA, const int *offB, const unsigned *g, u64 *st, unsigned *smid, int iters,
      unsigned *sink) {
    extern __shared__ __align__(16) unsigned char smem[];
    for (int i = threadIdx.x; i < 8192; i += blockDim.x) ((uint32_t *)smem)[i] = 0;
    __syncthreads();
    int lane = threadIdx.x & 31;
    uint32_t base = (uint32_t)__cvta_generic_to_shared(smem);
    int oa = offA[lane], ob = offB[lane];
    uint32_t sa = base + oa, sb = base + ob;
    const unsigned *ga = g + (oa >> 2), *gb = g + (ob >> 2);
    uint32_t acc = 0, v = threadIdx.x;
    __syncthreads();
    u64 t0 = clock64();
#pragma unroll 1
    for (int i = 0; i < iters; i++) {
#pragma unroll
        for (int u = 0; u < U; u++) {
            /* global loads: a line apart per slot (4 KB in all, L1-resident) so ptxas merges none */
            do_op<A>(sa, ga + 32 * u, acc, v + u);
            if (!SYNC && B != OP_NONE) do_op<B>(sb, gb + 32 * u, acc, v + u);
        }
        if (SYNC) {
            __syncthreads();
#pragma unroll
            for (int u = 0; u < U; u++) do_op<B>(sb, gb + 32 * u, acc, v + u);
            __syncthreads();
        }
        v += 7;
    }
    u64 t1 = clock64();
    if (lane == 0) {
        unsigned gw = (blockIdx.x * blockDim.x + threadIdx.x) >> 5, sm;
        asm volatile("mov.u32 %0, %%smid;" : "=r"(sm));
        st[2 * gw] = t0;
        st[2 * gw + 1] = t1;
        smid[gw] = sm;
    }
    if (acc == 0xdeadbeefu) sink[0] = acc;
}

typedef void (*kern_t)(const int *, const int *, const unsigned *, u64 *, unsigned *, int, unsigned *);
struct Form {
    std::string name;
    int a, b, u, sync;
    std::vector<int> pa, pb;  // byte offsets per lane
    kern_t k;
};

// ---- patterns: byte offsets for 32 lanes
static std::vector<int> stride(int bytes, int s) {  // lane l at element l*s of `bytes`-wide elements
    std::vector<int> p(32);
    for (int l = 0; l < 32; l++) p[l] = l * s * bytes;
    return p;
}
static std::vector<int> same() { return std::vector<int>(32, 0); }
static std::vector<int> multicast4() {  // groups of 4 lanes share a word: 8 words, 8 banks
    std::vector<int> p(32);
    for (int l = 0; l < 32; l++) p[l] = (l / 4) * 4;
    return p;
}
static std::vector<int> rand32() {  // 32 bins (words 0..31), fixed pseudo-random lane->bin with collisions
    std::vector<int> p(32);
    uint32_t x = 12345;
    for (int l = 0; l < 32; l++) {
        x = x * 1103515245u + 12345u;
        p[l] = (int)((x >> 16) % 32) * 4;
    }
    return p;
}
// wavefronts by the bank rule: max over the 32 banks of the distinct words it holds (same word:
// one); for 64/128-bit accesses this is also at least bytes moved / 128
static int nominal_wf(int op, const std::vector<int> &p) {
    if (op == OP_NONE) return 0;
    if (op == OP_LDG) return 1;
    int words = op_bytes[op] / 4, worst = 0;
    for (int b = 0; b < 32; b++) {
        std::vector<int> seen;
        for (int l = 0; l < 32; l++)
            for (int w = 0; w < words; w++) {
                int word = p[l] / 4 + w;
                if (word % 32 == b && std::find(seen.begin(), seen.end(), word) == seen.end()) seen.push_back(word);
            }
        worst = std::max(worst, (int)seen.size());
    }
    return std::max(worst, 1);
}

#define K(A, B, U, S) (kern_t)probe<A, B, U, S>
static std::vector<Form> forms() {
    std::vector<Form> f;
    std::vector<int> none = same();
    const int degs[] = {1, 2, 4, 8, 16, 32};
    for (int d : degs) f.push_back({"lds32_s" + std::to_string(d), OP_LD32, OP_NONE, 8, 0, stride(4, d), none, K(OP_LD32, OP_NONE, 8, 0)});
    f.push_back({"lds32_s33", OP_LD32, OP_NONE, 8, 0, stride(4, 33), none, K(OP_LD32, OP_NONE, 8, 0)});
    f.push_back({"lds32_broadcast", OP_LD32, OP_NONE, 8, 0, same(), none, K(OP_LD32, OP_NONE, 8, 0)});
    f.push_back({"lds32_multicast4", OP_LD32, OP_NONE, 8, 0, multicast4(), none, K(OP_LD32, OP_NONE, 8, 0)});
    for (int d : degs) f.push_back({"sts32_s" + std::to_string(d), OP_ST32, OP_NONE, 8, 0, stride(4, d), none, K(OP_ST32, OP_NONE, 8, 0)});
    f.push_back({"sts32_same", OP_ST32, OP_NONE, 8, 0, same(), none, K(OP_ST32, OP_NONE, 8, 0)});
    const int s64[] = {1, 2, 4, 16}, s128[] = {1, 2, 8};
    for (int s : s64) f.push_back({"lds64_s" + std::to_string(s), OP_LD64, OP_NONE, 8, 0, stride(8, s), none, K(OP_LD64, OP_NONE, 8, 0)});
    for (int s : s64) f.push_back({"sts64_s" + std::to_string(s), OP_ST64, OP_NONE, 8, 0, stride(8, s), none, K(OP_ST64, OP_NONE, 8, 0)});
    for (int s : s128) f.push_back({"lds128_s" + std::to_string(s), OP_LD128, OP_NONE, 4, 0, stride(16, s), none, K(OP_LD128, OP_NONE, 4, 0)});
    for (int s : s128) f.push_back({"sts128_s" + std::to_string(s), OP_ST128, OP_NONE, 8, 0, stride(16, s), none, K(OP_ST128, OP_NONE, 8, 0)});
    // transpose-like mixes: a store then a load, interleaved, and separated by barriers (U = 1: one
    // tile row each, as transpose_coalesced)
    const int mix[][2] = {{1, 1}, {1, 32}, {32, 1}, {32, 32}};
    for (auto &m : mix) {
        std::string n = "sts_s" + std::to_string(m[0]) + "+lds_s" + std::to_string(m[1]);
        f.push_back({"mix_" + n, OP_ST32, OP_LD32, 8, 0, stride(4, m[0]), stride(4, m[1]), K(OP_ST32, OP_LD32, 8, 0)});
        f.push_back({"sync_" + n, OP_ST32, OP_LD32, 1, 1, stride(4, m[0]), stride(4, m[1]), K(OP_ST32, OP_LD32, 1, 1)});
    }
    // global loads hitting L1 beside shared loads: is the data path shared?
    f.push_back({"ldg_l1hit", OP_LDG, OP_NONE, 8, 0, stride(4, 1), none, K(OP_LDG, OP_NONE, 8, 0)});
    f.push_back({"lds_s1+ldg", OP_LD32, OP_LDG, 8, 0, stride(4, 1), stride(4, 1), K(OP_LD32, OP_LDG, 8, 0)});
    f.push_back({"lds_s32+ldg", OP_LD32, OP_LDG, 8, 0, stride(4, 32), stride(4, 1), K(OP_LD32, OP_LDG, 8, 0)});
    // shared atomics
    f.push_back({"red_distinct", OP_RED, OP_NONE, 8, 0, stride(4, 1), none, K(OP_RED, OP_NONE, 8, 0)});
    f.push_back({"red_s32", OP_RED, OP_NONE, 8, 0, stride(4, 32), none, K(OP_RED, OP_NONE, 8, 0)});
    f.push_back({"red_rand32bins", OP_RED, OP_NONE, 8, 0, rand32(), none, K(OP_RED, OP_NONE, 8, 0)});
    f.push_back({"red_same", OP_RED, OP_NONE, 8, 0, same(), none, K(OP_RED, OP_NONE, 8, 0)});
    f.push_back({"atom_distinct", OP_ATOM, OP_NONE, 8, 0, stride(4, 1), none, K(OP_ATOM, OP_NONE, 8, 0)});
    f.push_back({"atom_rand32bins", OP_ATOM, OP_NONE, 8, 0, rand32(), none, K(OP_ATOM, OP_NONE, 8, 0)});
    f.push_back({"atom_same", OP_ATOM, OP_NONE, 8, 0, same(), none, K(OP_ATOM, OP_NONE, 8, 0)});
    return f;
}

int main(int argc, char **argv) {
    if (argc < 2 || (strcmp(argv[1], "run") && strcmp(argv[1], "once")) || (!strcmp(argv[1], "run") && argc < 3)) {
        fprintf(stderr, "usage: %s run DIR [SUBSTR] | once [4,16,32,64]\n", argv[0]);
        return 2;
    }
    bool once = !strcmp(argv[1], "once");
    int sms;
    CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    int clock_khz = 0;
    cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, 0);
    FILE *csv = nullptr;
    if (!once) {
        std::string path = std::string(argv[2]) + "/rate.csv";
        csv = fopen(path.c_str(), "w");
        if (!csv) { perror(path.c_str()); return 1; }
        fprintf(csv, "# sms %d, reported clock %d kHz\n", sms, clock_khz);
        fprintf(csv, "form,opA,opB,unroll,sync,warps_per_sm,blocks_per_sm,resident_blocks,iters,nomwfA,nomwfB,"
                     "median_ms,mhz,span_cyc,winst_per_sm,nominal_wf_per_sm,cyc_per_winst,nominal_wf_per_clk\n");
    }
    std::vector<Form> fs = forms();
    int *d_oa, *d_ob;
    unsigned *d_g, *d_smid, *d_sink;
    u64 *d_st;
    const int max_warps = 64 * sms;
    CK(cudaMalloc(&d_oa, 32 * sizeof(int)));
    CK(cudaMalloc(&d_ob, 32 * sizeof(int)));
    CK(cudaMalloc(&d_g, 65536));
    CK(cudaMemset(d_g, 0, 65536));
    CK(cudaMalloc(&d_smid, max_warps * sizeof(unsigned)));
    CK(cudaMalloc(&d_st, 2 * max_warps * sizeof(u64)));
    CK(cudaMalloc(&d_sink, 4));
    cudaEvent_t e0, e1;
    CK(cudaEventCreate(&e0));
    CK(cudaEventCreate(&e1));
    std::vector<u64> st(2 * max_warps);
    std::vector<unsigned> smid(max_warps);
    std::vector<int> warps_list = {4, 16, 32, 64};
    if (once && argc > 2) {  // e.g. "32" or "4,16,64"
        warps_list.clear();
        for (const char *p = argv[2]; *p;) {
            int w = atoi(p);
            if (w != 4 && w != 16 && w != 32 && w != 64) { fprintf(stderr, "warps %d: not 4, 16, 32 or 64\n", w); return 2; }
            warps_list.push_back(w);
            while (*p && *p != ',') p++;
            if (*p == ',') p++;
        }
    }
    // run DIR SUBSTR: only the forms whose name contains SUBSTR (e.g. "ldg": a rerun of those alone)
    const char *only = !once && argc > 3 ? argv[3] : nullptr;
    int id = 0;
    for (auto &f : fs) {
        if (only && !strstr(f.name.c_str(), only)) continue;
        CK(cudaFuncSetAttribute(f.k, cudaFuncAttributeMaxDynamicSharedMemorySize, SMEM_ONE));
        CK(cudaMemcpy(d_oa, f.pa.data(), 32 * sizeof(int), cudaMemcpyHostToDevice));
        CK(cudaMemcpy(d_ob, f.pb.data(), 32 * sizeof(int), cudaMemcpyHostToDevice));
        int wa = nominal_wf(f.a, f.pa), wb = nominal_wf(f.b, f.pb);
        for (int warps : warps_list) {
            int bps = warps > 32 ? 2 : 1, threads = warps / bps * 32, smem = bps == 2 ? SMEM_TWO : SMEM_ONE;
            int resident = 0;
            CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&resident, f.k, threads, smem));
            double per_iter_wf = (double)warps * f.u * (wa + wb);
            double target = once ? (double)(1 << 18) : (double)(1 << 21);
            int iters = std::max(4, (int)(target / per_iter_wf));
            int blocks = sms * bps;
            if (once) {
                f.k<<<blocks, threads, smem>>>(d_oa, d_ob, d_g, d_st, d_smid, iters, d_sink);
                CK(cudaGetLastError());
                CK(cudaDeviceSynchronize());
                printf("# once,%d,%s,%d\n", id++, f.name.c_str(), warps);
                continue;
            }
            f.k<<<blocks, threads, smem>>>(d_oa, d_ob, d_g, d_st, d_smid, iters, d_sink);  // warm-up
            CK(cudaGetLastError());
            std::vector<float> ms;
            for (int r = 0; r < 3; r++) {
                CK(cudaEventRecord(e0));
                f.k<<<blocks, threads, smem>>>(d_oa, d_ob, d_g, d_st, d_smid, iters, d_sink);
                CK(cudaEventRecord(e1));
                CK(cudaEventSynchronize(e1));
                float t;
                CK(cudaEventElapsedTime(&t, e0, e1));
                ms.push_back(t);
            }
            std::sort(ms.begin(), ms.end());
            int nw = blocks * threads / 32;
            CK(cudaMemcpy(st.data(), d_st, 2 * nw * sizeof(u64), cudaMemcpyDeviceToHost));
            CK(cudaMemcpy(smid.data(), d_smid, nw * sizeof(unsigned), cudaMemcpyDeviceToHost));
            std::vector<u64> lo(1024, ~0ull), hi(1024, 0);
            for (int w = 0; w < nw; w++) {
                unsigned s = smid[w] & 1023;
                lo[s] = std::min(lo[s], st[2 * w]);
                hi[s] = std::max(hi[s], st[2 * w + 1]);
            }
            double span = 0;
            int nsm = 0;
            for (int s = 0; s < 1024; s++)
                if (hi[s]) { span += (double)(hi[s] - lo[s]); nsm++; }
            span /= nsm ? nsm : 1;
            double winst = (double)(nw / nsm) * iters * f.u * (f.b != OP_NONE ? 2 : 1);
            double nomwf = (double)(nw / nsm) * iters * f.u * (wa + wb);
            double mhz = span / (ms[1] * 1e3);
            fprintf(csv, "%s,%s,%s,%d,%d,%d,%d,%d,%d,%d,%d,%.4f,%.0f,%.0f,%.0f,%.0f,%.3f,%.4f\n", f.name.c_str(),
                    op_name[f.a], op_name[f.b], f.u, f.sync, warps, bps, resident, iters, wa, wb, ms[1], mhz, span,
                    winst, nomwf, span / winst, nomwf / span);
            fflush(csv);
            printf("%-24s warps %2d (resident %d/%d): %8.3f ms, %4.0f MHz, %7.3f cyc/winst, nominal %d+%d wf -> %.3f wf/clk\n",
                   f.name.c_str(), warps, resident, bps, ms[1], mhz, span / winst, wa, wb, nomwf / span);
        }
    }
    if (csv) fclose(csv);
    return 0;
}

// contention_probe.cu - what same-address atomics cost on the GPU present (issue 23): global RED and
// ATOM on one address, one per warp, K bins, distinct words and sectors; a CAS retry loop beside
// atomicMax; float adds; shared-memory atomics per block, warp, bank and bin with the privatised
// histogram's per-block global flush; 256-bin byte histograms (naive, privatised, warp-aggregated,
// uniform and skewed input); and the block launch rate of empty kernels. Standalone on purpose (no
// warpscope code), so its numbers calibrate the simulator's contention model instead of echoing it.
//
// Build and run on a GPU machine (scripts/gpu-verdicts.sh does both):
//   nvcc -O3 -arch=sm_90 -o probe tests/gpu/contention_probe.cu && ./probe > contention.csv
//   ./probe --list              the configuration names
//   ./probe --only NAME [--threads N] [--reps R]   one configuration (for ncu: --reps 1 --warmup 0)
//
// Output: one CSV line per configuration, after a header line:
//   name,threads,blocks,block,lane_ops,addresses,median_us,min_us,reps,l2,ok
// lane_ops counts one per lane per atomic (a warp's 32 lanes on one address count 32); addresses is
// the number of distinct words the atomics touch (shared: per block). Histograms: lane_ops = input
// bytes (the privatised one's shared atomics; its global adds are at most 256 per block). Timing: cudaEvent around one launch, one warm-up
// launch, median and minimum of `reps` (default 11) launches. l2 = "flushed": before every timed
// launch a 256 MiB buffer is memset (evicting the 60 MiB L2), then the atomics' target words are
// zeroed (so they start L2-resident and dirty, as in any kernel that zeroes its bins first).
// Global configurations start at 2^22 threads and double (to at most 2^24) until one launch takes
// >= 200 us; --threads fixes the count. ok: 1 the result checked exact (sums of all bins = lane ops,
// histograms = the host's count, CAS max = atomicMax), 0 it did not, - not checked.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#define CK(x)                                                                                      \
    do {                                                                                           \
        cudaError_t e_ = (x);                                                                      \
        if (e_ != cudaSuccess) {                                                                   \
            fprintf(stderr, "contention_probe: %s at line %d: %s\n", #x, __LINE__,               \
                    cudaGetErrorString(e_));                                                       \
            exit(1);                                                                               \
        }                                                                                          \
    } while (0)

// A full-avalanche 32-bit hash (lowbias32): bins and random data from the thread index.
__host__ __device__ static inline unsigned hash32(unsigned x)
{
    x ^= x >> 16; x *= 0x7feb352dU; x ^= x >> 15; x *= 0x846ca68bU; x ^= x >> 16;
    return x;
}

// ---------------------------------------------------------------- global atomics
enum { G_ONE, G_WARP, G_HASH, G_LANE, G_DISTINCT };

// Word index of this thread's atomic. stride is in words: G_WARP warps `stride` words apart,
// G_DISTINCT threads `stride` words apart (1 coalesced, 8 one 32-byte sector per lane).
__device__ static inline unsigned gindex(unsigned t, int mode, unsigned K, unsigned stride)
{
    switch (mode) {
    case G_ONE: return 0;
    case G_WARP: return (t >> 5) * stride;
    case G_HASH: return hash32(t) % K;
    case G_LANE: return (t & 31) % K;
    default: return t * stride;
    }
}

// USE = 0: the result is dropped (the compiler emits RED); USE = 1: stored per thread (ATOM).
template <int USE, class T>
__global__ void k_global(T *bins, T *out, int mode, unsigned K, unsigned stride)
{
    unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned i = gindex(t, mode, K, stride);
    if (USE) out[t] = atomicAdd(&bins[i], (T)1);
    else atomicAdd(&bins[i], (T)1);
}

// The catalog's spelling: a literal address the compiler can see is uniform.
template <int USE>
__global__ void k_one_literal(int *count, int *out)
{
    unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
    if (USE) out[t] = atomicAdd(&count[0], 1);
    else atomicAdd(&count[0], 1);
}

// Max over data[] into *m: the classic CAS retry loop, and atomicMax.
__global__ void k_cas_max(const int *data, int *m)
{
    unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
    int v = data[t];
    int old = *(volatile int *)m;
    while (v > old) {
        int assumed = old;
        old = atomicCAS(m, assumed, v);
        if (old == assumed) break;
    }
}
__global__ void k_atomic_max(const int *data, int *m)
{
    unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
    atomicMax(m, data[t]);
}

// ---------------------------------------------------------------- shared atomics
enum { S_BLOCK, S_WARP, S_LANE32, S_ONEBANK, S_HASH, S_DISTINCT };
#define SWORDS 1024

// R shared atomicAdds per thread into s[], then one global add per nonzero word (the privatised
// histogram's flush). K = bins for S_HASH.
__global__ void k_shared(int *bins, int mode, unsigned K, int R)
{
    __shared__ int s[SWORDS];
    for (int j = threadIdx.x; j < SWORDS; j += blockDim.x) s[j] = 0;
    __syncthreads();
    unsigned t = blockIdx.x * blockDim.x + threadIdx.x, lane = threadIdx.x & 31;
    for (int r = 0; r < R; r++) {
        unsigned i;
        switch (mode) {
        case S_BLOCK: i = 0; break;
        case S_WARP: i = threadIdx.x >> 5; break;
        case S_LANE32: i = lane; break;
        case S_ONEBANK: i = lane * 32; break;
        case S_HASH: i = hash32(t * R + r) % K; break;
        default: i = threadIdx.x; break;
        }
        atomicAdd(&s[i], 1);
    }
    __syncthreads();
    for (int j = threadIdx.x; j < SWORDS; j += blockDim.x)
        if (s[j]) atomicAdd(&bins[j], s[j]);
}

// ---------------------------------------------------------------- byte histograms
__global__ void k_hist_naive(const unsigned char *in, unsigned n, int *hist)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) atomicAdd(&hist[in[i]], 1);
}
__global__ void k_hist_private(const unsigned char *in, unsigned n, int *hist)
{
    __shared__ int s[256];
    for (int j = threadIdx.x; j < 256; j += blockDim.x) s[j] = 0;
    __syncthreads();
    for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        atomicAdd(&s[in[i]], 1);
    __syncthreads();
    for (int j = threadIdx.x; j < 256; j += blockDim.x)
        if (s[j]) atomicAdd(&hist[j], s[j]);
}
// One atomic per distinct byte value per warp: the lowest lane of each group adds the group's size.
__global__ void k_hist_warpagg(const unsigned char *in, unsigned n, int *hist)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned v = i < n ? in[i] : 256u; // past the end: a value no real byte has
    unsigned peers = __match_any_sync(0xffffffffu, v);
    unsigned lane = threadIdx.x & 31;
    if (v < 256 && lane == (unsigned)(__ffs(peers) - 1)) atomicAdd(&hist[v], __popc(peers));
}

// Input bytes: uniform, or skewed (90% into bins 3, 77, 128, 201; the rest uniform).
__global__ void k_fill_bytes(unsigned char *in, unsigned n, int skew)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    unsigned h = hash32(i ^ 0x9e3779b9u);
    unsigned char b = h & 0xff;
    if (skew && (h >> 8) % 10 < 9) {
        const unsigned char hot[4] = {3, 77, 128, 201};
        b = hot[(h >> 16) & 3];
    }
    in[i] = b;
}
__global__ void k_fill_ints(int *d, unsigned n)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) d[i] = (int)(hash32(i + 12345u) >> 1);
}

// ---------------------------------------------------------------- launch rate
__global__ void k_empty() {}

// ---------------------------------------------------------------- checks
template <class T>
__global__ void k_sum(const T *a, size_t n, double *sum)
{
    double acc = 0;
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
        acc += (double)a[i];
    for (int o = 16; o; o >>= 1) acc += __shfl_down_sync(0xffffffffu, acc, o);
    if ((threadIdx.x & 31) == 0) atomicAdd(sum, acc);
}

// ---------------------------------------------------------------- the harness
struct Opts {
    const char *only = nullptr;
    long threads = 0;
    int reps = 11, warmup = 1;
};
static Opts opt;
static char *flushbuf;
static const size_t FLUSH = 256u << 20;

struct Cfg {
    std::string name;
    long threads, blocks, block, lane_ops, addresses;
};

static std::vector<std::string> names; // filled in list mode

static bool selected(const std::string &name, bool list)
{
    if (list) { names.push_back(name); return false; }
    return !opt.only || name == opt.only;
}

// Times launch() `reps` times after `warmup`; before each: the L2 flush, then reset().
template <class L, class R>
static void timeit(std::vector<float> &t, L launch, R reset, int reps, int warmup)
{
    cudaEvent_t a, b;
    CK(cudaEventCreate(&a));
    CK(cudaEventCreate(&b));
    t.clear();
    for (int i = 0; i < warmup + reps; i++) {
        CK(cudaMemsetAsync(flushbuf, i & 0xff, FLUSH));
        reset();
        CK(cudaEventRecord(a));
        launch();
        CK(cudaEventRecord(b));
        CK(cudaEventSynchronize(b));
        CK(cudaGetLastError());
        float ms;
        CK(cudaEventElapsedTime(&ms, a, b));
        if (i >= warmup) t.push_back(ms * 1000.f);
    }
    std::sort(t.begin(), t.end());
    CK(cudaEventDestroy(a));
    CK(cudaEventDestroy(b));
}

static void emit(const Cfg &c, const std::vector<float> &t, const char *ok)
{
    float med = t.empty() ? 0 : t[t.size() / 2], mn = t.empty() ? 0 : t[0];
    printf("%s,%ld,%ld,%ld,%ld,%ld,%.2f,%.2f,%zu,flushed,%s\n", c.name.c_str(), c.threads, c.blocks,
           c.block, c.lane_ops, c.addresses, med, mn, t.size(), ok);
    fflush(stdout);
}

// One configuration at one size: what it launches, what reset() zeroes, how it is checked.
struct Job {
    Cfg cfg;
    std::function<void()> launch, reset;
    std::function<const char *()> check;
};

// Runs one configuration; grow: double the threads from 2^22 (to at most 2^24) until one launch
// takes >= 200 us, so launch overhead stays a small part of the time.
static void run_sized(const std::string &name, bool list, bool grow, std::function<Job(long)> make)
{
    if (!selected(name, list)) return;
    long threads = opt.threads ? opt.threads : (1L << 22);
    for (;;) {
        Job job = make(threads);
        std::vector<float> t;
        if (grow && !opt.threads && threads < (1L << 24)) {
            timeit(t, job.launch, job.reset, 1, 1);
            if (t[0] < 200.f) { threads *= 2; continue; }
        }
        timeit(t, job.launch, job.reset, opt.reps, opt.warmup);
        emit(job.cfg, t, job.check());
        return;
    }
}

static void *bins_buf, *out_buf;                  // targets of the atomics; ATOM results
static const size_t BINS_BYTES = 512u << 20, OUT_BYTES = 64u << 20;
static const int TPB = 256;                       // block size of every atomic configuration

template <class T> static const char *sum_is(size_t words, double want)
{
    double *d, got;
    CK(cudaMalloc(&d, sizeof(double)));
    CK(cudaMemset(d, 0, sizeof(double)));
    k_sum<T><<<1024, 256>>>((const T *)bins_buf, words, d);
    CK(cudaMemcpy(&got, d, sizeof(double), cudaMemcpyDeviceToHost));
    CK(cudaFree(d));
    return got == want ? "1" : "0";
}

// A global configuration: mode, K (bins), stride (words), ATOM or RED, int or float.
template <class T>
static void global_cfg(const char *name, bool list, int mode, unsigned K, unsigned stride, int use)
{
    run_sized(name, list, true, [=](long n) {
        Job j;
        long addrs, span; // distinct words; words reset() must zero
        switch (mode) {
        case G_ONE: addrs = 1; span = 1; break;
        case G_WARP: addrs = n / 32; span = (n / 32 - 1) * stride + 1; break;
        case G_HASH: addrs = std::min<long>(K, n); span = K; break;
        case G_LANE: addrs = std::min<unsigned>(K, 32); span = K; break;
        default: addrs = n; span = (n - 1) * stride + 1; break;
        }
        if ((size_t)span * sizeof(T) > BINS_BYTES || (size_t)n * sizeof(T) > OUT_BYTES) {
            fprintf(stderr, "contention_probe: %s does not fit its buffers\n", name);
            exit(1);
        }
        j.cfg = {name, n, n / TPB, TPB, n, addrs};
        T *b = (T *)bins_buf, *o = (T *)out_buf;
        j.reset = [=] { CK(cudaMemsetAsync(b, 0, span * sizeof(T))); };
        j.launch = [=] {
            if (use) k_global<1, T><<<n / TPB, TPB>>>(b, o, mode, K, stride);
            else k_global<0, T><<<n / TPB, TPB>>>(b, o, mode, K, stride);
        };
        j.check = [=] { return sum_is<T>(span, (double)n); };
        return j;
    });
}

static void literal_cfg(const char *name, bool list, int use)
{
    run_sized(name, list, true, [=](long n) {
        Job j;
        j.cfg = {name, n, n / TPB, TPB, n, 1};
        int *b = (int *)bins_buf, *o = (int *)out_buf;
        j.reset = [=] { CK(cudaMemsetAsync(b, 0, 4)); };
        j.launch = [=] {
            if (use) k_one_literal<1><<<n / TPB, TPB>>>(b, o);
            else k_one_literal<0><<<n / TPB, TPB>>>(b, o);
        };
        j.check = [=] { return sum_is<int>(1, (double)n); };
        return j;
    });
}

// Max of hash data into one word: CAS retry loop (cas = 1) or atomicMax. Checked against each other.
static void max_cfg(const char *name, bool list, int cas)
{
    run_sized(name, list, true, [=](long n) {
        Job j;
        j.cfg = {name, n, n / TPB, TPB, n, 1}; // lane_ops: one load-or-atomic per lane (CAS retries are not counted)
        int *m = (int *)bins_buf, *data = (int *)out_buf;
        j.reset = [=] {
            k_fill_ints<<<(n + 255) / 256, 256>>>(data, n);
            CK(cudaMemsetAsync(m, 0, 4));
        };
        j.launch = [=] {
            if (cas) k_cas_max<<<n / TPB, TPB>>>(data, m);
            else k_atomic_max<<<n / TPB, TPB>>>(data, m);
        };
        j.check = [=] {
            int got, want = 0;
            CK(cudaMemcpy(&got, m, 4, cudaMemcpyDeviceToHost));
            for (long i = 0; i < n; i++) want = std::max(want, (int)(hash32((unsigned)i + 12345u) >> 1));
            return got == want ? "1" : "0";
        };
        return j;
    });
}

// Shared configuration: R atomics per thread, then one global add per nonzero shared word.
static void shared_cfg(const char *name, bool list, int mode, unsigned K)
{
    const int R = 128;
    run_sized(name, list, true, [=](long n) {
        Job j;
        long addrs; // distinct shared words per block
        switch (mode) {
        case S_BLOCK: addrs = 1; break;
        case S_WARP: addrs = TPB / 32; break;
        case S_LANE32: case S_ONEBANK: addrs = 32; break;
        case S_HASH: addrs = K; break;
        default: addrs = TPB; break;
        }
        j.cfg = {name, n, n / TPB, TPB, n * R, addrs};
        int *b = (int *)bins_buf;
        j.reset = [=] { CK(cudaMemsetAsync(b, 0, SWORDS * 4)); };
        j.launch = [=] { k_shared<<<n / TPB, TPB>>>(b, mode, K, R); };
        // unsigned: s_block at 2^24 threads adds 2^31 into one word (an int would read it negative)
        j.check = [=] { return sum_is<unsigned>(SWORDS, (double)n * R); };
        return j;
    });
}

// Byte histograms over nbytes of uniform or skewed input. kind: 0 naive, 1 privatised, 2 warp-aggregated.
static unsigned char *hist_in;
static void hist_cfg(const char *name, bool list, long nbytes, int skew, int kind)
{
    if (!selected(name, list)) return;
    int *h = (int *)bins_buf;
    k_fill_bytes<<<(nbytes + 255) / 256, 256>>>(hist_in, nbytes, skew);
    CK(cudaDeviceSynchronize());
    std::vector<unsigned char> host(nbytes);
    CK(cudaMemcpy(host.data(), hist_in, nbytes, cudaMemcpyDeviceToHost));
    std::vector<int> want(256, 0), got(256);
    for (long i = 0; i < nbytes; i++) want[host[i]]++;
    long blocks = kind == 1 ? 264 : nbytes / TPB;
    Cfg c = {name, blocks * TPB, blocks, TPB, nbytes, 256}; // lane_ops: the input bytes
    std::vector<float> t;
    timeit(t, [=] {
        if (kind == 0) k_hist_naive<<<blocks, TPB>>>(hist_in, nbytes, h);
        else if (kind == 1) k_hist_private<<<blocks, TPB>>>(hist_in, nbytes, h);
        else k_hist_warpagg<<<blocks, TPB>>>(hist_in, nbytes, h);
    }, [=] { CK(cudaMemsetAsync(h, 0, 1024)); }, opt.reps, opt.warmup);
    CK(cudaMemcpy(got.data(), h, 1024, cudaMemcpyDeviceToHost));
    emit(c, t, got == want ? "1" : "0");
}

// Empty kernels: the cost of launching blocks.
static void launch_cfg(bool list, long blocks, int block)
{
    char name[64];
    snprintf(name, sizeof name, "launch_empty_%ldx%d", blocks, block);
    if (!selected(name, list)) return;
    Cfg c = {name, blocks * block, blocks, block, 0, 0};
    std::vector<float> t;
    timeit(t, [=] { k_empty<<<blocks, block>>>(); }, [] {}, opt.reps, opt.warmup);
    emit(c, t, "-");
}

static void run_all(bool list)
{
    // global: one address, RED and ATOM; the catalog's literal spelling of the same.
    global_cfg<int>("g_one_red", list, G_ONE, 1, 1, 0);
    global_cfg<int>("g_one_atom", list, G_ONE, 1, 1, 1);
    literal_cfg("g_one_literal_red", list, 0);
    literal_cfg("g_one_literal_atom", list, 1);
    // one address per warp, warps 4 B and 128 B apart
    global_cfg<int>("g_warp_4B_red", list, G_WARP, 1, 1, 0);
    global_cfg<int>("g_warp_128B_red", list, G_WARP, 1, 32, 0);
    global_cfg<int>("g_warp_4B_atom", list, G_WARP, 1, 1, 1);
    global_cfg<int>("g_warp_128B_atom", list, G_WARP, 1, 32, 1);
    // K hashed bins
    const unsigned Ks[] = {1, 2, 4, 8, 16, 32, 64, 256, 4096, 65536, 1u << 20};
    char nm[64];
    for (unsigned K : Ks) {
        snprintf(nm, sizeof nm, "g_hash%u_red", K);
        global_cfg<int>(nm, list, G_HASH, K, 1, 0);
    }
    for (unsigned K : {1u, 32u, 256u, 4096u, 1u << 20}) {
        snprintf(nm, sizeof nm, "g_hash%u_atom", K);
        global_cfg<int>(nm, list, G_HASH, K, 1, 1);
    }
    // bin = lane % K
    for (unsigned K : {1u, 2u, 4u, 8u, 16u, 32u}) {
        snprintf(nm, sizeof nm, "g_lane%u_red", K);
        global_cfg<int>(nm, list, G_LANE, K, 1, 0);
    }
    for (unsigned K : {1u, 8u, 32u}) {
        snprintf(nm, sizeof nm, "g_lane%u_atom", K);
        global_cfg<int>(nm, list, G_LANE, K, 1, 1);
    }
    // distinct words (4 B stride, coalesced) and distinct sectors (32 B stride)
    global_cfg<int>("g_distinct4B_red", list, G_DISTINCT, 1, 1, 0);
    global_cfg<int>("g_distinct4B_atom", list, G_DISTINCT, 1, 1, 1);
    global_cfg<int>("g_distinct32B_red", list, G_DISTINCT, 1, 8, 0);
    global_cfg<int>("g_distinct32B_atom", list, G_DISTINCT, 1, 8, 1);
    // max: CAS retry loop vs atomicMax
    max_cfg("g_cas_max", list, 1);
    max_cfg("g_atomic_max", list, 0);
    // float atomicAdd
    global_cfg<float>("gf_one_red", list, G_ONE, 1, 1, 0);
    global_cfg<float>("gf_one_atom", list, G_ONE, 1, 1, 1);
    global_cfg<float>("gf_warp_4B_red", list, G_WARP, 1, 1, 0);
    global_cfg<float>("gf_lane32_red", list, G_LANE, 32, 1, 0);
    global_cfg<float>("gf_hash256_red", list, G_HASH, 256, 1, 0);
    global_cfg<float>("gf_distinct4B_red", list, G_DISTINCT, 1, 1, 0);
    // shared
    shared_cfg("s_block", list, S_BLOCK, 1);
    shared_cfg("s_warp", list, S_WARP, 1);
    shared_cfg("s_lane32", list, S_LANE32, 32);
    shared_cfg("s_onebank32", list, S_ONEBANK, 32);
    for (unsigned K : {1u, 2u, 4u, 8u, 16u, 32u, 64u, 128u, 256u, 1024u}) {
        snprintf(nm, sizeof nm, "s_hash%u", K);
        shared_cfg(nm, list, S_HASH, K);
    }
    shared_cfg("s_distinct", list, S_DISTINCT, TPB);
    // byte histograms
    for (long nb : {1L << 24, 1L << 26})
        for (int skew : {0, 1})
            for (int kind : {0, 1, 2}) {
                static const char *kn[] = {"naive", "private", "warpagg"};
                snprintf(nm, sizeof nm, "hist_%s_%s_2^%d", kn[kind], skew ? "skew" : "uniform",
                         nb == (1L << 24) ? 24 : 26);
                hist_cfg(nm, list, nb, skew, kind);
            }
    // block launch rate
    for (long blocks : {10000L, 100000L, 1000000L})
        for (int block : {32, 128, 256, 1024}) launch_cfg(list, blocks, block);
}

int main(int argc, char **argv)
{
    bool list = false;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--list")) list = true;
        else if (!strcmp(argv[i], "--only") && i + 1 < argc) opt.only = argv[++i];
        else if (!strcmp(argv[i], "--threads") && i + 1 < argc) opt.threads = atol(argv[++i]);
        else if (!strcmp(argv[i], "--reps") && i + 1 < argc) opt.reps = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--warmup") && i + 1 < argc) opt.warmup = atoi(argv[++i]);
        else {
            fprintf(stderr, "usage: %s [--list] [--only NAME] [--threads N] [--reps R] [--warmup W]\n", argv[0]);
            return 1;
        }
    }
    if (opt.reps < 1 || opt.warmup < 0 || opt.threads < 0 || opt.threads % TPB || opt.threads > (1L << 24)) {
        fprintf(stderr, "contention_probe: --reps >= 1, --warmup >= 0, --threads a multiple of %d up to 2^24\n", TPB);
        return 1;
    }
    run_all(true);
    if (list) {
        for (auto &n : names) printf("%s\n", n.c_str());
        return 0;
    }
    if (opt.only && std::find(names.begin(), names.end(), opt.only) == names.end()) {
        fprintf(stderr, "contention_probe: no configuration '%s' (--list names them)\n", opt.only);
        return 1;
    }
    CK(cudaMalloc(&flushbuf, FLUSH));
    CK(cudaMalloc(&bins_buf, BINS_BYTES));
    CK(cudaMalloc(&out_buf, OUT_BYTES));
    CK(cudaMalloc(&hist_in, 1u << 26));
    printf("name,threads,blocks,block,lane_ops,addresses,median_us,min_us,reps,l2,ok\n");
    run_all(false);
    CK(cudaDeviceSynchronize());
    return 0;
}

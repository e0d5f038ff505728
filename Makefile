# warpscope - see README.md.  `make help` lists the targets; V=1 shows commands.
# Builds whatever this machine can build: the simulator always, the CUDA
# backend where the CUDA headers are found, the visualizer where SDL2 is found.

# Parallel by default: every core (JOBS), unless the command line gives -j (make -j1: one at a
# time) or a goal is `clean`, which must not race the build. make test runs that many test binaries
# at once too. Only the top-level make sets it: a sub-make shares its jobserver.
JOBS ?= $(shell nproc 2>/dev/null || echo 1)
ifeq ($(MAKELEVEL)$(filter -j%,$(MAKEFLAGS))$(filter clean,$(MAKECMDGOALS)),0)
  MAKEFLAGS += -j$(JOBS)
endif
# the job count in effect in a recipe (make -j without a number: JOBS)
JOBS_NOW = $(or $(patsubst -j%,%,$(filter -j%,$(MAKEFLAGS))),$(JOBS))

CC       ?= gcc
CUDA_HOME ?= /usr/local/cuda
NVCC     ?= $(shell command -v nvcc 2>/dev/null || ls $(CUDA_HOME)/bin/nvcc 2>/dev/null)
PTX_ARCH ?= sm_90
BUILD    := build
.DEFAULT_GOAL := all

Q := $(if $(V),,@)
msg = $(if $(V),,@printf '  %-6s %s\n' $(1) $(2);)

CFLAGS_BASE := -std=c11 -Wall -Wextra -Werror -D_GNU_SOURCE -MMD -MP -g
# x86-64: the POPCNT instruction (every x86-64 CPU since 2008-9: Nehalem, K10). Without it each
# __builtin_popcount is a call into libgcc's table walk: 5.5% of gather_random's instructions.
ifneq ($(filter x86_64%,$(shell $(CC) -dumpmachine 2>/dev/null)),)
  CFLAGS_BASE += -mpopcnt
endif
OPT      ?= -O2
LDLIBS   := -ldl -lm -lpthread -lstdc++   # libstdc++: the C++ runtime's demangler (common/demangle.c)

# --- optional parts -----------------------------------------------------------
# CJSON_DIR=<prefix>: a cJSON unpacked outside the system, as on the lent GPU machine, which has
# no libcjson-dev and no package registry (scripts/gpu-carry.sh unpacks Debian's packages there).
CJSON_DIR ?=
HAVE_CJSON := $(shell pkg-config --exists libcjson 2>/dev/null && echo 1)
ifneq ($(CJSON_DIR),)
  HAVE_CJSON := 1
  CFLAGS_BASE += -I$(CJSON_DIR)/include
  LDLIBS += -L$(CJSON_DIR)/lib/x86_64-linux-gnu -Wl,-rpath,$(abspath $(CJSON_DIR))/lib/x86_64-linux-gnu -lcjson
else ifeq ($(HAVE_CJSON),1)
  CFLAGS_BASE += $(shell pkg-config --cflags libcjson)
  LDLIBS += $(shell pkg-config --libs libcjson)
else ifneq ($(wildcard /usr/include/cjson/cJSON.h),)
  HAVE_CJSON := 1
  LDLIBS += -lcjson
endif

HAVE_CUDA_H := $(shell test -f $(CUDA_HOME)/include/cuda.h -a -f $(CUDA_HOME)/include/nvrtc.h && echo 1)
ifeq ($(HAVE_CUDA_H),1)
  CFLAGS_BASE += -DWS_HAVE_CUDA=1 -isystem $(CUDA_HOME)/include
endif

# libcrypto (libssl-dev): the SHA-256 of saved files (common/sha256.c); without it no digest
HAVE_CRYPTO := $(shell pkg-config --exists libcrypto 2>/dev/null && echo 1)
ifeq ($(HAVE_CRYPTO),1)
  CFLAGS_BASE += -DWS_HAVE_CRYPTO=1 $(shell pkg-config --cflags libcrypto)
  LDLIBS += $(shell pkg-config --libs libcrypto)
endif
HAVE_SDL := $(shell pkg-config --exists sdl2 SDL2_ttf SDL2_image fontconfig libpng libgif 2>/dev/null && echo 1)
ifeq ($(HAVE_SDL),1)
  CFLAGS_BASE += -DWS_HAVE_SDL=1 $(shell pkg-config --cflags sdl2 SDL2_ttf SDL2_image fontconfig libpng libgif)
  LDLIBS += $(shell pkg-config --libs sdl2 SDL2_ttf SDL2_image fontconfig libpng libgif)
  VIZ_SRC := $(wildcard viz/*.c)
endif

LIB_SRC  := $(wildcard common/*.c) $(wildcard sim/*.c) $(wildcard sim/*/*.c) $(wildcard cuda/*.c) $(VIZ_SRC)
LIB_SRC  := $(filter-out common/main.c,$(LIB_SRC))
TEST_SRC := $(wildcard tests/test_*.c)
ifneq ($(HAVE_SDL),1)
  TEST_SRC := $(filter-out tests/test_viz%,$(TEST_SRC))
endif
TEST_SUPPORT := $(filter-out tests/test_% tests/bench_%,$(wildcard tests/*.c))
BENCH_SRC := $(wildcard tests/bench_*.c)
BENCH_BIN := $(BENCH_SRC:tests/%.c=$(BUILD)/%)

# --- version: WS_VERSION (common/cli.h) plus `git describe`; cli.o is rebuilt when it changes
GIT_DESCRIBE  := $(shell git describe --tags --always --dirty 2>/dev/null)
VERSION_STAMP := $(BUILD)/git-describe
# (the stamp is written whenever it is missing: outside a git tree - an unpacked `git archive` -
# GIT_DESCRIBE is empty, and a missing stamp read as "" would otherwise never be made)
$(shell mkdir -p $(BUILD) && [ -f $(VERSION_STAMP) ] && [ "$$(cat $(VERSION_STAMP))" = "$(GIT_DESCRIBE)" ] || echo "$(GIT_DESCRIBE)" > $(VERSION_STAMP))
# (not the sanitizer build's: every test binary links it, and a new commit must not relink them all)
CLI_OBJ := $(BUILD)/obj/common/cli.o $(BUILD)/fuzz/obj/common/cli.o
$(CLI_OBJ): $(VERSION_STAMP)
$(CLI_OBJ): CFLAGS_BASE += -DWS_GIT_DESCRIBE='"$(GIT_DESCRIBE)"'

# --- release build --------------------------------------------------------------
OBJ := $(LIB_SRC:%.c=$(BUILD)/obj/%.o)
BIN := $(BUILD)/warpscope

# --- sanitizer build for tests -------------------------------------------------
ASAN_FLAGS := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
# WS_ASSERT (common/ws_assert.h) is on in the test objects and the fuzz builds, off in the release one
ASSERT_FLAGS := -DWS_ASSERTS
# Tests link archives, not object lists: a test binary holds only the modules it reaches
# (test_expr needs no viz/ or cuda/), and a new source file is picked up by the wildcard.
ASAN_OBJ   := $(LIB_SRC:%.c=$(BUILD)/asan/%.o)
ASAN_LIB   := $(BUILD)/asan/libws.a
ASAN_TLIB  := $(BUILD)/asan/libws-test.a
TEST_BIN   := $(TEST_SRC:tests/%.c=$(BUILD)/asan/tests/%)
# the binaries with slow cases: those whose main returns ws_run_tests (tests/slow.h)
SLOW_TEST_BIN := $(patsubst tests/%.c,$(BUILD)/asan/tests/%,$(shell grep -l 'return ws_run_tests' $(TEST_SRC) 2>/dev/null))
ASAN_BIN   := $(BUILD)/asan/warpscope

.PHONY: all deps demo test test-slow gpu-test bench ptx fuzz clean help status
all: status $(BIN)

status:
	@echo "warpscope build: simulator yes; CUDA backend $(if $(HAVE_CUDA_H),yes ($(CUDA_HOME)/include),no - cuda.h/nvrtc.h not found under $(CUDA_HOME)/include; gpu/check report that plainly); visualizer $(if $(HAVE_SDL),yes,no - SDL2/SDL2_ttf/SDL2_image/fontconfig/libpng/giflib not found by pkg-config; run scripts/deps.sh)"
	@$(if $(HAVE_CJSON),true,echo "warpscope build: cJSON (libcjson-dev) is required and was not found; run scripts/deps.sh" >&2; false)

$(BUILD)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(call msg,CC,$<)$(CC) $(CFLAGS_BASE) $(OPT) $(CFLAGS) -c $< -o $@

$(BUILD)/asan/%.o: %.c
	@mkdir -p $(dir $@)
	$(call msg,CC-SAN,$<)$(CC) $(CFLAGS_BASE) -O1 $(ASAN_FLAGS) $(ASSERT_FLAGS) $(CFLAGS) -c $< -o $@

$(BIN): $(OBJ) $(BUILD)/obj/common/main.o
	$(call msg,LD,$@)$(CC) $(OPT) -o $@ $^ $(LDLIBS)

$(ASAN_BIN): $(ASAN_OBJ) $(BUILD)/asan/common/main.o
	$(call msg,LD-SAN,$@)$(CC) $(ASAN_FLAGS) -o $@ $^ $(LDLIBS)

$(BUILD)/libws.a: $(OBJ)
	$(call msg,AR,$@)rm -f $@ && ar rcs $@ $^

$(ASAN_LIB): $(ASAN_OBJ)
	$(call msg,AR,$@)rm -f $@ && ar rcs $@ $^

$(ASAN_TLIB): $(TEST_SUPPORT:%.c=$(BUILD)/asan/%.o)
	$(call msg,AR,$@)rm -f $@ && ar rcs $@ $^

# Benchmarks: tests/bench_*.c, optimised build, no sanitizers.
$(BUILD)/bench_%: $(BUILD)/obj/tests/bench_%.o $(BUILD)/libws.a
	$(call msg,LD,$@)$(CC) $(OPT) -o $@ $^ $(LDLIBS)

$(BUILD)/asan/tests/%: $(BUILD)/asan/tests/%.o $(ASAN_TLIB) $(ASAN_LIB)
	$(call msg,LD-SAN,$@)$(CC) $(ASAN_FLAGS) -o $@ $^ $(LDLIBS) -lcmocka

# --- fuzzing (clang + libFuzzer) -------------------------------------------------
# tests/fuzz/fuzz_<x>.c are libFuzzer targets (a subfolder, so tests/*.c never
# links them); the library is rebuilt with clang and coverage hooks. A target
# whose module has not landed yet is skipped. Corpora persist in $(BUILD)/fuzz/.
FUZZ_CC      ?= clang
FUZZ_SECONDS ?= 60
FUZZ_TIMEOUT ?= 10
FUZZ_FLAGS   := -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer
FUZZ_CFLAGS  := $(filter-out -Werror,$(CFLAGS_BASE)) -O1 $(FUZZ_FLAGS) $(ASSERT_FLAGS)
FUZZ_NEEDS_fuzz_desc   := common/desc.c
FUZZ_NEEDS_fuzz_ptx    := sim/frontend/ptx_parse.c
FUZZ_NEEDS_fuzz_interp := sim/frontend/ptx_parse.c sim/interp/interp.c
FUZZ_NEEDS_fuzz_semantics := sim/frontend/ptx_parse.c sim/interp/interp.c
FUZZ_NEEDS_fuzz_cli    := cuda/cu_results.c common/outfile.c
FUZZ_ALL := $(patsubst tests/fuzz/%.c,%,$(wildcard tests/fuzz/fuzz_*.c))
FUZZ_BIN := $(foreach t,$(FUZZ_ALL),$(if $(filter $(words $(FUZZ_NEEDS_$(t))),$(words $(wildcard $(FUZZ_NEEDS_$(t))))),$(BUILD)/fuzz/$(t)))
FUZZ_OBJ := $(LIB_SRC:%.c=$(BUILD)/fuzz/obj/%.o)

$(BUILD)/fuzz/obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(call msg,CC-FUZZ,$<)$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link -c $< -o $@

# an archive, so a target links only the modules it reaches
$(BUILD)/fuzz/libws.a: $(FUZZ_OBJ)
	$(call msg,AR,$@)rm -f $@ && ar rcs $@ $^

$(BUILD)/fuzz/fuzz_%: $(BUILD)/fuzz/obj/tests/fuzz/fuzz_%.o $(BUILD)/fuzz/libws.a
	$(call msg,LD-FUZZ,$@)$(FUZZ_CC) $(FUZZ_FLAGS) -fsanitize=fuzzer -o $@ $^ $(LDLIBS)

.PRECIOUS: $(BUILD)/fuzz/obj/%.o

fuzz:
	$(Q)command -v $(FUZZ_CC) >/dev/null || { echo "make fuzz: $(FUZZ_CC) not found (libFuzzer needs clang; apt-get install clang)"; exit 1; }
	$(Q)$(MAKE) --no-print-directory $(FUZZ_BIN)
	$(Q)FUZZ_SECONDS=$(FUZZ_SECONDS) FUZZ_TIMEOUT=$(FUZZ_TIMEOUT) BUILD=$(BUILD) sh scripts/fuzz.sh $(FUZZ_BIN)

deps:
	$(Q)sh scripts/deps.sh

demo: deps
	$(Q)$(MAKE) --no-print-directory all
	$(Q)WS="$(BIN)" sh scripts/demo.sh

# Each test binary runs from the repository root (it reads demos/ and tests/data/), JOBS_NOW of
# them at once; the last run's times (in $(BUILD)/asan/test-times) start the longest first.
# make test runs the quick cases and says how many slow ones it left; make test-slow runs those
# (tests/slow.h says how a case is marked slow). CI (.ci/run) runs both.
test: deps
	$(Q)$(MAKE) --no-print-directory $(TEST_BIN) $(ASAN_BIN)
	$(Q)WS_BIN=$(ASAN_BIN) WS_TEST_JOBS=$(JOBS_NOW) WS_TEST_TIMES=$(BUILD)/asan/test-times sh scripts/run-tests.sh $(TEST_BIN)

test-slow: deps
	$(Q)$(MAKE) --no-print-directory $(SLOW_TEST_BIN) $(ASAN_BIN)
	$(Q)WS_SLOW=1 WS_BIN=$(ASAN_BIN) WS_TEST_JOBS=$(JOBS_NOW) WS_TEST_TIMES=$(BUILD)/asan/test-slow-times sh scripts/run-tests.sh $(SLOW_TEST_BIN)

gpu-test: all
	$(Q)WS_BIN="$(BIN)" sh scripts/gpu-test.sh

bench:
	$(Q)$(MAKE) --no-print-directory all $(BENCH_BIN)
	$(Q)BUILD="$(BUILD)" sh scripts/bench.sh

# Regenerates the catalog's checked-in PTX (needs nvcc).
ptx:
	$(Q)NVCC="$(NVCC)" PTX_ARCH=$(PTX_ARCH) sh scripts/gen-ptx.sh

clean:
	rm -rf $(BUILD)

help:
	@echo "make            build build/warpscope (says what it skipped and why)"
	@echo "make demo       install missing packages, build, run the main job (catalog tour)"
	@echo "make test       install missing packages, run the cmocka tests under ASan+UBSan (quick cases)"
	@echo "make test-slow  the slow cases make test leaves out (whole-catalog sweeps, many compiler runs)"
	@echo "make gpu-test   run the catalog through 'check' on the GPU present, write results/"
	@echo "make bench      every model on at -j 1 and every core, sampled vs full (BENCH_FULL=0: sampled only), tiny sim, viz frame and first frame"
	@echo "make fuzz       libFuzzer targets in tests/fuzz/ with clang, FUZZ_SECONDS (default 60) each"
	@echo "make ptx        regenerate demos/*.ptx with nvcc ($(PTX_ARCH))"
	@echo "make clean      remove build/"
	@echo "V=1             show the commands"
	@echo "JOBS=N, -jN     jobs at once, for the build and the tests (default: every core, here $(JOBS))"

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)

# ptxemu — non-recursive Makefile.  MODE=release (default) | debug | asan | tsan | fuzz
MODE ?= release
BUILD := build/$(MODE)
CC ?= cc
FUZZ_CC ?= clang
CFLAGS_COMMON := -std=gnu11 -fPIC -fno-semantic-interposition -Wall -Wextra -Werror -Wno-unused-parameter -Wno-format-truncation -I. -I$(BUILD)/gen -Iparser -Ivm -Iruntime -Ilexer
ifeq ($(MODE),release)
CFLAGS_MODE := -O2 -g
else ifeq ($(MODE),debug)
CFLAGS_MODE := -O0 -g3
else ifeq ($(MODE),asan)
# -Og, not -O1: GCC takes minutes on vm/exec.c's dispatch loop at -O1 with UBSan
CFLAGS_MODE := -Og -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
LDFLAGS_MODE := -fsanitize=address,undefined
else ifeq ($(MODE),tsan)
# ThreadSanitizer, for the parallel launch (vm/par.c) and the checker's threads
CFLAGS_MODE := -O1 -g -fsanitize=thread
LDFLAGS_MODE := -fsanitize=thread
else ifeq ($(MODE),fuzz)
# the libFuzzer harnesses (tests/fuzz): clang, ASan+UBSan, coverage for the fuzzer
CC := $(FUZZ_CC)
CFLAGS_MODE := -Wno-unknown-warning-option -Wno-unused-function -Wno-unknown-pragmas -O1 -g -fsanitize=fuzzer-no-link,address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
LDFLAGS_MODE := -fsanitize=address,undefined
else
$(error MODE must be release, debug, asan, tsan or fuzz)
endif
# DISPATCH=switch builds the VM's dispatch loop as a plain switch instead of computed goto
ifeq ($(DISPATCH),switch)
CFLAGS_MODE += -DPTXEMU_NO_COMPUTED_GOTO
endif
# x86-64: vm/exec.c's dispatch loop is compiled a second time with AVX2
# (4 lanes per vector op instead of 2) and the bit instructions of the same
# CPUs (popcnt, bmi, lzcnt; not fma: GCC would contract a*b+c), chosen at run
# time on CPUs that have them
# (not in MODE=fuzz: clang has no __builtin_cpu_supports("lzcnt"); the fuzzers
# run the base copy of the same source)
ARCH := $(shell uname -m)
ifeq ($(ARCH),x86_64)
ifneq ($(MODE),fuzz)
CFLAGS_MODE += -DVM_EXEC_AVX2
EXEC_VARIANTS := $(BUILD)/vm/exec_avx2.o
# with GCC the AVX2 copy's loops are unrolled, at most 4 times: a whole
# warp's vectorised lane loop (8 iterations of 4 lanes) becomes 2, which cut
# recurrence 12%, histogram 6%, matmul512 2.5% (docs/PERFORMANCE.md, step 56);
# the per-lane loops of partial groups and of calls stay rolled (GCC unroll 1)
EXEC_UNROLL := $(if $(shell $(CC) -dM -E -x c /dev/null 2>/dev/null | grep __clang__),,-funroll-loops --param max-unroll-times=4)
endif
endif
CFLAGS += $(CFLAGS_COMMON) $(CFLAGS_MODE)
ifeq ($(MODE),fuzz)
# clang takes 3 minutes on vm/exec.c's dispatch loop at -O1 with UBSan, 4 s at
# -O0: the cold build of `make test` stays short, the VM fuzzers run a little slower
$(BUILD)/vm/exec.o: CFLAGS += -O0
endif
LDLIBS := -lffi -lm -ldl -lreadline -pthread
PREFIX ?= /usr/local

GEN := $(BUILD)/gen
# objects are rebuilt when the compiler flags change (e.g. -fPIC, needed by
# the shared libraries below): the stamp holds the flags of the last build
FLAGS_STAMP := $(BUILD)/.cflags
$(shell mkdir -p $(BUILD) && (echo '$(CC) $(CFLAGS)' | cmp -s - $(FLAGS_STAMP) || echo '$(CC) $(CFLAGS)' > $(FLAGS_STAMP)))
LIB_SRCS := $(wildcard parser/*.c vm/*.c runtime/*.c lexer/*.c)
GEN_SRCS := $(GEN)/ptx.tab.c $(GEN)/ptx.lex.c
LIB_OBJS := $(patsubst %.c,$(BUILD)/%.o,$(LIB_SRCS)) $(GEN)/ptx.tab.o $(GEN)/ptx.lex.o $(EXEC_VARIANTS)
# the stand-in driver library (runtime/cuda/) for `ptxemu exec`
CUDA_SRCS := $(filter-out runtime/cuda/nvjitlink.c,$(wildcard runtime/cuda/*.c))
CUDA_OBJS := $(patsubst %.c,$(BUILD)/%.o,$(CUDA_SRCS))
CUDA_LIB := $(BUILD)/lib/libcuda.so.1
NVJITLINK_LIB := $(BUILD)/lib/libnvJitLink.so.13
TOOL_SRCS := $(wildcard tools/*.c)
TOOL_OBJS := $(patsubst %.c,$(BUILD)/%.o,$(TOOL_SRCS))

all: $(BUILD)/ptxemu build/ptxemu $(CUDA_LIB) $(NVJITLINK_LIB)

# exports only the driver API (exports.map), so it never clashes with the
# program's or a Python extension's symbols
$(CUDA_LIB): $(CUDA_OBJS) $(LIB_OBJS) runtime/cuda/exports.map
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) $(LDFLAGS_MODE) -shared -Wl,-soname,libcuda.so.1 -Wl,--version-script=runtime/cuda/exports.map \
		-Wl,-z,defs -o $@ $(CUDA_OBJS) $(LIB_OBJS) -lffi -lm -ldl -lpthread
	@ln -sf libcuda.so.1 $(dir $@)libcuda.so

# the nvJitLink stand-in `ptxemu exec` preloads (runtime/cuda/nvjitlink.c)
$(NVJITLINK_LIB): $(BUILD)/runtime/cuda/nvjitlink.o $(BUILD)/runtime/fatbin.o runtime/cuda/nvjitlink.map
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) $(LDFLAGS_MODE) -shared -Wl,-soname,libnvJitLink.so.13 -Wl,--version-script=runtime/cuda/nvjitlink.map \
		-Wl,-z,defs -o $@ $(BUILD)/runtime/cuda/nvjitlink.o $(BUILD)/runtime/fatbin.o -ldl

# always relinked: make compares the link's target, so after a build in
# another MODE it would otherwise keep pointing there
build/ptxemu: $(BUILD)/ptxemu
	@mkdir -p build && ln -sfn $(MODE)/ptxemu build/ptxemu
.PHONY: build/ptxemu

$(BUILD)/libptxemu.a: $(LIB_OBJS)
	ar rcs $@ $^

$(BUILD)/ptxemu: $(TOOL_OBJS) $(BUILD)/libptxemu.a
	$(CC) $(LDFLAGS) $(LDFLAGS_MODE) -o $@ $^ $(LDLIBS)

$(GEN)/ptx.tab.c $(GEN)/ptx.tab.h: parser/ptx.y
	@mkdir -p $(GEN)
	bison -Wall -Werror --defines=$(GEN)/ptx.tab.h -o $(GEN)/ptx.tab.c $<

# -Cf: full tables (a larger scanner, 10% less time loading a 2.7 MB CUB module)
$(GEN)/ptx.lex.c $(GEN)/ptx.lex.h: lexer/ptx.l $(GEN)/ptx.tab.h
	@mkdir -p $(GEN)
	flex -Cf --header-file=$(GEN)/ptx.lex.h -o $(GEN)/ptx.lex.c $<

# the version, from one place (the VERSION file)
$(GEN)/version.h: VERSION
	@mkdir -p $(GEN)
	printf '#define PTXEMU_VERSION "%s"\n' "$$(tr -d ' \n' < VERSION)" > $@
$(BUILD)/tools/ptxemu.o: $(GEN)/version.h

# generated code is compiled without -Werror's pickier warnings
$(GEN)/%.o: $(GEN)/%.c $(FLAGS_STAMP)
	$(CC) $(CFLAGS) -Wno-sign-compare -Wno-unused-function -c -o $@ $<

$(BUILD)/%.o: %.c $(GEN)/ptx.tab.h $(GEN)/ptx.lex.h $(FLAGS_STAMP)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -MMD -MP -c -o $@ $<

$(BUILD)/vm/exec_avx2.o: vm/exec.c $(GEN)/ptx.tab.h $(GEN)/ptx.lex.h
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -mavx2 -mpopcnt -mbmi -mbmi2 -mlzcnt $(EXEC_UNROLL) -DVM_EXEC_VARIANT -MMD -MP -c -o $@ $<

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)

test: all
	@bash tests/run.sh

bench: all
	@bash tests/bench.sh

# single PTX instructions in whole warps (M lane-instructions/s): finds handlers that do not vectorise
bench-ops: all
	@python3 tests/bench/ops.py

# one launch on 1, 2, 4, ... host threads up to nproc: the speedup over one thread
bench-scaling: all
	@bash tests/bench_scaling.sh

# libFuzzer harnesses: build/fuzz/fuzz_NAME from tests/fuzz/fuzz_NAME.c (MODE=fuzz);
# `make fuzz FUZZ_SECONDS=N` builds and runs each for N seconds (tests/fuzz/run.sh)
FUZZERS := $(patsubst tests/fuzz/%.c,build/fuzz/%,$(wildcard tests/fuzz/fuzz_*.c))
fuzzers:
	@$(MAKE) -s MODE=fuzz $(FUZZERS)
build/fuzz/fuzz_%: build/fuzz/tests/fuzz/fuzz_%.o build/fuzz/libptxemu.a
	$(CC) $(LDFLAGS) -fsanitize=fuzzer,address,undefined -o $@ $^ $(LDLIBS)
FUZZ_SECONDS ?= 60
fuzz:
	@FUZZ_KEEP=1 bash tests/fuzz/run.sh $(FUZZ_SECONDS)

install: all
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/lib $(DESTDIR)$(PREFIX)/include/ptxemu $(DESTDIR)$(PREFIX)/share/man/man1
	install -m 755 $(BUILD)/ptxemu $(DESTDIR)$(PREFIX)/bin/ptxemu
	install -d $(DESTDIR)$(PREFIX)/lib/ptxemu
	install -m 755 $(CUDA_LIB) $(DESTDIR)$(PREFIX)/lib/ptxemu/libcuda.so.1
	ln -sf libcuda.so.1 $(DESTDIR)$(PREFIX)/lib/ptxemu/libcuda.so
	install -m 755 $(NVJITLINK_LIB) $(DESTDIR)$(PREFIX)/lib/ptxemu/libnvJitLink.so.13
	install -m 644 $(BUILD)/libptxemu.a $(DESTDIR)$(PREFIX)/lib/libptxemu.a
	install -m 644 runtime/ptxemu.h parser/diag.h parser/ast.h vm/bc.h vm/ops.def vm/vm.h vm/mem.h $(DESTDIR)$(PREFIX)/include/ptxemu/
	install -m 644 docs/ptxemu.1 $(DESTDIR)$(PREFIX)/share/man/man1/ptxemu.1
	install -d $(DESTDIR)$(PREFIX)/share/bash-completion/completions
	install -m 644 tools/ptxemu.bash-completion $(DESTDIR)$(PREFIX)/share/bash-completion/completions/ptxemu

clean:
	rm -rf build

.PHONY: all test bench bench-ops bench-scaling clean install fuzz fuzzers

# --- parser tests begin ---
# The parser alone (usable before the VM compiles): astdump links only the
# parser objects.  `make MODE=asan parser-test` runs tests/parser/run.sh.
PARSER_OBJS := $(BUILD)/parser/ast.o $(BUILD)/parser/diag.o $(GEN)/ptx.tab.o $(GEN)/ptx.lex.o
$(GEN)/ptx.tab.o: $(GEN)/ptx.lex.h
# the generated scanner and parser embed the builder's structs
$(GEN)/ptx.tab.o $(GEN)/ptx.lex.o: parser/ast_build.h parser/ast.h parser/diag.h

$(BUILD)/astdump: $(BUILD)/tests/parser/astdump.o $(PARSER_OBJS)
	$(CC) $(LDFLAGS) $(LDFLAGS_MODE) -o $@ $^ -lm

parser-test:
	@bash tests/parser/run.sh

.PHONY: parser-test
# --- parser tests end ---

# SPDX-License-Identifier: GPL-2.0-only
# rtsched: benchmarks of the Linux real-time scheduler.
#
#   make            build ./migrate
#   make check      install missing dependencies (as root), build, run the tests
#   make run        install missing dependencies, build, run the default benchmark
#   make bench      print measured speed and accuracy figures (as root)
#   make install    install everything a user runs, as rtsched-NAME, under $(DESTDIR)$(prefix)
#   make check-fresh  make run and make check in a minimal Debian 12 root (as root)
#   make check-lava   the lab test definition in real LAVA jobs (amd64, arm64), QEMU, offline (as root)
#   make check-deb    the Debian package: built (amd64, arm64), lintian, autopkgtest, piuparts (as root)
#   make static     statically linked programs for a VM's initramfs (static/)
#   make static-arm64  the same for arm64 guests, cross-built (build/arm64/static/)
#   make reproduce  the 2010 result: two kernels in QEMU, results/reproduction/
#   make reproduce-6.12  the same on 6.12, PREEMPT_RT, RT_PUSH_IPI off and on (2 h 20 min; 3 h cold)
#   make bisect-demo  scripts/bisect finds a planted commit in linux-source-6.1 (cold cache)
#
# CFLAGS from the command line or the environment are kept; V=1 shows commands.

SHELL := /bin/bash
VERSION := 0.1.0

prefix ?= /usr/local
bindir ?= $(prefix)/bin
mandir ?= $(prefix)/share/man
libexecdir ?= $(prefix)/libexec
pkglibexecdir := $(libexecdir)/rtsched
# A make value as one shell word, whatever it holds (spaces, quotes): DESTDIR and
# prefix are the user's, and a path split in two would install, or remove, elsewhere.
sq = '$(subst ','\'',$(1))'

CC ?= cc
AR ?= ar
PKG_CONFIG ?= pkg-config
CFLAGS ?= -O2 -g

# The pkg-config name of each dependency and the packages that provide it.
# The static programs go without libtracecmd, which Debian ships only as a
# shared library: they record no trace (src/static/tracedat.c says so).
STATIC_DEPS := libtraceevent libtracefs numa zlib
DEPS := $(STATIC_DEPS) libtracecmd
dep_hint_libtracecmd := libtracecmd-dev (Debian/Ubuntu) or libtracecmd-devel (Fedora)
dep_hint_libtraceevent := libtraceevent-dev (Debian/Ubuntu) or libtraceevent-devel (Fedora)
dep_hint_libtracefs := libtracefs-dev (Debian/Ubuntu) or libtracefs-devel (Fedora)
dep_hint_numa := libnuma-dev (Debian/Ubuntu) or numactl-devel (Fedora)
dep_hint_zlib := zlib1g-dev (Debian/Ubuntu) or zlib-devel (Fedora)

# Evaluated when used, so that a recursive make after scripts/install-deps sees them.
DEP_CFLAGS = $(shell $(PKG_CONFIG) --cflags $(DEPS) 2>/dev/null)
DEP_LIBS = $(shell $(PKG_CONFIG) --libs $(DEPS) 2>/dev/null)
DEP_STATIC_LIBS = $(shell $(PKG_CONFIG) --static --libs $(STATIC_DEPS) 2>/dev/null)

WARNINGS := -Wall -Wextra -Wformat=2 -Wshadow -Wimplicit-fallthrough
# CI builds (CI=true) turn warnings into errors.
ifneq ($(CI),)
WARNINGS += -Werror
endif

override CFLAGS += -std=gnu11 $(WARNINGS) -D_GNU_SOURCE -pthread -Isrc \
	-DRT_VERSION='"$(VERSION)"' $(DEP_CFLAGS) -MMD -MP
override LDLIBS += $(DEP_LIBS) -pthread -lm

ifeq ($(V),1)
Q :=
else
Q := @
endif

# O=DIR/ puts the objects, libraries and programs under DIR/ instead of in
# the tree (a cross build beside the native one: make static-arm64).
O ?=
LIB := $(O)src/lib/librtsched.a
LIB_OBJS := $(patsubst %.c,$(O)%.o,$(wildcard src/lib/*.c))
# the trace analysis, a layer on the library: recording, reading, walking, saying
TRACE_LIB := $(O)src/trace/librtsched-trace.a
TRACE_OBJS := $(patsubst %.c,$(O)%.o,$(wildcard src/trace/*.c))
SKELETON_OBJS := $(patsubst %.c,$(O)%.o,$(wildcard src/cli/*.c src/bench/*.c))
MIGRATE_OBJS := $(patsubst %.c,$(O)%.o,$(wildcard src/migrate/*.c))
PI_STRESS_OBJS := $(patsubst %.c,$(O)%.o,$(wildcard src/pi_stress/*.c))
SPIN_OBJS := $(patsubst %.c,$(O)%.o,$(wildcard src/spin/*.c))
ANALYSE_OBJS := $(patsubst %.c,$(O)%.o,$(wildcard src/analyse/*.c))
UNIT_TESTS := $(patsubst %.c,%,$(wildcard tests/unit/test_*.c))
PROGRAMS := $(addprefix $(O),migrate pi_stress spin analyse)
STATIC_PROGRAMS := $(addprefix $(O),static/migrate static/pi_stress static/spin)
# arm64's static programs, for kernel-matrix's arm64 guests: the same
# sources through Debian's cross compiler and the arm64 libraries
# (multiarch: dpkg --add-architecture arm64; scripts/install-deps does it)
ARM64 := build/arm64/
ARM64_CROSS := aarch64-linux-gnu-

FUZZERS := opts cpus procstat schedan hist
FUZZ_REPLAY := $(patsubst %,tests/fuzz/replay_%,$(FUZZERS))
FUZZ_CC ?= clang
FUZZ_SECONDS ?= 30
FUZZ_CORPUS ?= /tmp/rtsched-fuzz-corpus

SAN_CC ?= clang
SAN_FLAGS := -O1 -g -fno-omit-frame-pointer -fno-sanitize-recover=all
# a sanitized build runs some tests several times slower: each test file's time limit
SAN_TEST_TIMEOUT ?= 420

.PHONY: all deps check-deps run check bench install uninstall clean fuzz soak \
	check-asan check-tsan analyze static static-arm64 reproduce reproduce-6.12 check-fresh check-lava check-deb \
	bisect-demo
all: check-deps $(PROGRAMS)

# Stop early, naming the package to install, when pkg-config cannot find a dependency.
check-deps:
	@command -v $(PKG_CONFIG) >/dev/null || { \
		echo "error: $(PKG_CONFIG) not found: install pkg-config, or run sudo scripts/install-deps" >&2; exit 1; }
	@$(foreach d,$(DEPS),$(PKG_CONFIG) --exists $(d) || { \
		echo "error: pkg-config cannot find '$(d)': install $(dep_hint_$(d)), or run sudo scripts/install-deps" >&2; exit 1; };)

deps:
	$(Q)scripts/install-deps

$(O)%.o: %.c | check-deps
	@$(if $(Q),echo "  CC      $@";)
	@$(if $(O),mkdir -p $(@D))
	$(Q)$(CC) $(CPPFLAGS) $(CFLAGS) -c -o $@ $<

$(LIB): $(LIB_OBJS)
$(TRACE_LIB): $(TRACE_OBJS)
$(LIB) $(TRACE_LIB):
	@$(if $(Q),echo "  AR      $@";)
	$(Q)rm -f $@ && $(AR) rcs $@ $^

$(O)migrate: $(MIGRATE_OBJS) $(SKELETON_OBJS) $(TRACE_LIB) $(LIB)
$(O)pi_stress: $(PI_STRESS_OBJS) $(SKELETON_OBJS) $(TRACE_LIB) $(LIB)
$(O)spin: $(SPIN_OBJS) $(SKELETON_OBJS) $(TRACE_LIB) $(LIB)
$(O)analyse: $(ANALYSE_OBJS) $(SKELETON_OBJS) $(TRACE_LIB) $(LIB)
$(PROGRAMS):
	@$(if $(Q),echo "  LD      $@";)
	$(Q)$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS)

# Statically linked programs for a virtual machine's initramfs
# (scripts/kernel-matrix): nothing to find in the guest but the kernel.
# The linker's notes on dlopen (libtraceevent's plugins, which rtsched does
# not load) and getaddrinfo (libnuma's unused network affinity) are harmless.
static: check-deps $(STATIC_PROGRAMS)

# build/arm64/static/: the static programs for arm64 (the arm64 guests'),
# cross-built beside the native ones. Without arm64's libtracecmd, which
# they do not link (Debian 12's cannot be installed for two architectures at
# once): its header, the same for every architecture, from this machine's.
static-arm64:
	$(Q)$(MAKE) --no-print-directory O=$(ARM64) CC=$(ARM64_CROSS)gcc AR=$(ARM64_CROSS)ar \
		PKG_CONFIG=$(ARM64_CROSS)pkg-config DEPS='$(STATIC_DEPS)' \
		CPPFLAGS='$(shell $(PKG_CONFIG) --cflags-only-I libtracecmd)' static

$(O)static/migrate: $(MIGRATE_OBJS) $(SKELETON_OBJS) $(O)src/static/tracedat.o $(TRACE_LIB) $(LIB)
$(O)static/pi_stress: $(PI_STRESS_OBJS) $(SKELETON_OBJS) $(O)src/static/tracedat.o $(TRACE_LIB) $(LIB)
$(O)static/spin: $(SPIN_OBJS) $(SKELETON_OBJS) $(O)src/static/tracedat.o $(TRACE_LIB) $(LIB)
$(STATIC_PROGRAMS):
	@mkdir -p $(@D)
	@$(if $(Q),echo "  LD      $@ (static)";)
	$(Q)$(CC) $(CFLAGS) $(LDFLAGS) -static -o $@ $^ $(DEP_STATIC_LIBS) -pthread -lm 2>&1 | \
		{ grep -v -e "in function .load_plugin.:" -e "in function .affinity_ip.:" \
			-e "requires at runtime the shared libraries" || true; } >&2; \
		test $${PIPESTATUS[0]} -eq 0

# The 2010 result again: two kernels built from Debian's linux-source-6.1,
# with and without commit 43fa5460fe60, each booted with 4 virtual CPUs
# (scripts/reproduce; results in results/reproduction/, as root).
reproduce: deps static
	$(Q)scripts/reproduce

# scripts/bisect on a known answer: a history of Debian's linux-source-6.1
# with the removal of commit 43fa5460fe60's conditions planted in it,
# bisected from a cold cache, every revision built and booted (as root).
bisect-demo: deps static
	$(Q)tests/bisect-demo

# The same on today's kernels (results/reproduction/README.md, "2026"): from
# Debian's linux-source-6.12, the kernels without and with PREEMPT_RT, each
# booted six times with RT_PUSH_IPI off and six with it on, the boots
# interleaved, untraced and traced; then the PI workload of the
# NO_RT_PUSH_IPI regression report (pi_stress --spread, traced) on the
# stock kernel, six boots with the feature off and six on, interleaved.
# Each step stops the whole at its failure, with the step's own line.
PUSH_IPI_SETTING = --setting 'push-ipi-$(2)=echo $(1)RT_PUSH_IPI > /sys/kernel/debug/sched/features || echo "could not set $(1)RT_PUSH_IPI"'
SPREAD_RUNS = --run 'pi_stress --spread -d 10 -r 3 --trace' \
	--run 'pi_stress --spread --hold 1ms -d 10 -r 3 --trace' \
	--run 'migrate -m contention -t 8 -d 10s -r 3 -p --trace'
reproduce-6.12: deps static
	$(Q)for cell in "" "--rt"; do \
		for trace in "" "--trace"; do \
			scripts/reproduce --series 6.12 --push-ipi both $$cell $$trace || exit; \
		done; \
	done
	$(Q)img=$$(scripts/kernel-variant --source-package linux-source-6.12 stock | \
		awk '$$1 == "stock" { print $$3 }') && test -n "$$img" && \
	scripts/kernel-matrix --cpus 4 --memory 3072 --command-timeout 900 --sittings 6 \
		--results results/reproduction/6.12-push-ipi-both/pi_stress-spread/sittings-$$(date -u +%Y%m%dT%H%M%SZ) \
		$(call PUSH_IPI_SETTING,NO_,off) $(call PUSH_IPI_SETTING,,on) $(SPREAD_RUNS) "$$img"

# A unit test links the library and the trace layer; those of a layer above
# them link that layer too: the skeleton (src/cli, src/bench) and a program
# without its main().
tests/unit/test_migrate: $(filter-out src/migrate/main.o,$(MIGRATE_OBJS)) $(SKELETON_OBJS)
tests/unit/test_pi_stress: $(filter-out src/pi_stress/main.o,$(PI_STRESS_OBJS)) $(SKELETON_OBJS)
tests/unit/test_driver: $(SKELETON_OBJS)
tests/unit/test_%: tests/unit/test_%.c $(TRACE_LIB) $(LIB)
	@$(if $(Q),echo "  CC      $@";)
	$(Q)$(CC) $(CPPFLAGS) $(CFLAGS) -Itests/unit $(LDFLAGS) -o $@ \
		$< $(filter %.o,$^) $(TRACE_LIB) $(LIB) $(LDLIBS)

# The fuzz harnesses as plain programs over the kept inputs (make check), and
# with libFuzzer, AddressSanitizer and UndefinedBehaviorSanitizer (make fuzz).
tests/fuzz/replay_%: tests/fuzz/fuzz_%.c tests/fuzz/replay.c $(TRACE_LIB) $(LIB)
	@$(if $(Q),echo "  CC      $@";)
	$(Q)$(CC) $(CPPFLAGS) $(CFLAGS) -Itests/fuzz $(LDFLAGS) -o $@ $< tests/fuzz/replay.c \
		$(TRACE_LIB) $(LIB) $(LDLIBS)

tests/fuzz/fuzz_%: tests/fuzz/fuzz_%.c $(wildcard src/lib/*.c src/trace/*.c)
	@$(if $(Q),echo "  FUZZ    $@";)
	$(Q)$(FUZZ_CC) -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
		-std=gnu11 -D_GNU_SOURCE -Isrc -Itests/fuzz -DRT_VERSION='"$(VERSION)"' \
		$(DEP_CFLAGS) -o $@ $< $(wildcard src/lib/*.c src/trace/*.c) $(DEP_LIBS) -lm

# Each harness for FUZZ_SECONDS, from its seeds and kept inputs; a crash
# leaves its input in tests/fuzz/ as crash-*: fix it, then keep the input
# in tests/fuzz/regressions/NAME/.
fuzz: check-deps
	$(Q)for f in $(FUZZERS); do \
		$(MAKE) --no-print-directory tests/fuzz/fuzz_$$f || exit 1; \
		mkdir -p $(FUZZ_CORPUS)/$$f; \
		echo "fuzz_$$f: $(FUZZ_SECONDS) s"; \
		tests/fuzz/fuzz_$$f -max_total_time=$(FUZZ_SECONDS) -print_final_stats=1 \
			-artifact_prefix=tests/fuzz/ $(FUZZ_CORPUS)/$$f tests/fuzz/seeds/$$f \
			$$(ls -d tests/fuzz/regressions/$$f 2>/dev/null) 2>&1 | grep -E '^stat::number_of_executed_units|^==|ERROR|SUMMARY' ; \
		test $${PIPESTATUS[0]} -eq 0 || exit 1; \
	done

# the programs' configurations (for their trace buffer plans), without their main()
BENCH_OBJS := $(filter-out src/migrate/main.o,$(MIGRATE_OBJS)) \
	$(filter-out src/pi_stress/main.o,$(PI_STRESS_OBJS)) $(SKELETON_OBJS)
tests/bench/bench: tests/bench/bench.c $(BENCH_OBJS) $(TRACE_LIB) $(LIB)
	@$(if $(Q),echo "  CC      $@";)
	$(Q)$(CC) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ $< \
		$(BENCH_OBJS) $(TRACE_LIB) $(LIB) $(LDLIBS)

# The two commands of the README: set up what is missing, then build and use.
run: deps
	$(Q)$(MAKE) --no-print-directory all
	./migrate

# The kernel matrix test boots a guest with the static programs, and make
# install installs them; the sanitizer runs build those first with the plain
# compiler (a sanitized program cannot be linked statically), then
# everything else sanitized, and neither make check nor the make install of
# its tests (which inherits their CFLAGS through MAKEFLAGS) links them again.
CHECK_STATIC := static
# and arm64's, for the arm64 guest (tests/integration/arm64.sh)
CHECK_CROSS := static-arm64
SAN_STATIC = $(MAKE) --no-print-directory static $(if $(SAN_ALL),$(CHECK_CROSS)) && \
	rm -f $(LIB) $(TRACE_LIB) src/*/*.o src/*/*.d

# (the static programs' own object even where they are not linked, under the
# sanitizers: tests/layers reads every folder's objects)
check: deps
	$(Q)$(MAKE) --no-print-directory all $(CHECK_STATIC) $(CHECK_CROSS) src/static/tracedat.o $(UNIT_TESTS) \
		$(FUZZ_REPLAY)
	$(Q)tests/run

bench: deps
	$(Q)$(MAKE) --no-print-directory all static tests/bench/bench
	$(Q)tests/bench/bench ./migrate ./pi_stress ./analyse

# make check again with the sanitizers: AddressSanitizer with
# UndefinedBehaviorSanitizer, then ThreadSanitizer (the benchmarks are
# threaded). Each rebuilds from clean and cleans after itself, keeping the
# tests' TAP (tests/out). TSan's thread leak report is off: a run the
# watchdog ends exits without joining its stuck threads, on purpose. The
# tests that test no sanitized program (the guests', which run the static
# programs; a Python script's) are not run again under them
# (RTSCHED_SANITIZED: tests/run lists them and why); watch.sh's stall runs
# last 20 s, not make check's 60. SAN_ALL=1 runs the tests left out too, as
# make check runs them: make check-asan SAN_ALL=1 is then make check and its
# sanitized run in one (check-fresh --sanitized: CI's run in the fresh root).
check-asan: deps
	$(Q)$(MAKE) --no-print-directory clean
	$(Q)$(SAN_STATIC)
	$(Q)install -m 644 tests/lsan.supp /tmp/rtsched-lsan.supp	# readable by the tests' other users
	$(Q)ASAN_OPTIONS=abort_on_error=1:detect_leaks=1:fast_unwind_on_malloc=0 \
		UBSAN_OPTIONS=print_stacktrace=1 RTSCHED_TEST_TIMEOUT=$(SAN_TEST_TIMEOUT) \
		RTSCHED_SANITIZED=address,undefined RTSCHED_SANITIZED_ALL=$(SAN_ALL) WATCH_SECONDS=20 \
		LSAN_OPTIONS=suppressions=/tmp/rtsched-lsan.supp \
		$(MAKE) --no-print-directory check CC=$(SAN_CC) CHECK_STATIC= CHECK_CROSS= \
		CFLAGS="$(SAN_FLAGS) -fsanitize=address,undefined" LDFLAGS="-fsanitize=address,undefined"
	$(Q)$(MAKE) --no-print-directory clean KEEP_TESTS_OUT=1

check-tsan: deps
	$(Q)$(MAKE) --no-print-directory clean
	$(Q)$(SAN_STATIC)
	$(Q)TSAN_OPTIONS=halt_on_error=1:report_thread_leaks=0 RTSCHED_TEST_TIMEOUT=$(SAN_TEST_TIMEOUT) \
		RTSCHED_SANITIZED=thread WATCH_SECONDS=20 \
		$(MAKE) --no-print-directory check CC=$(SAN_CC) CHECK_STATIC= CHECK_CROSS= \
		CFLAGS="$(SAN_FLAGS) -fsanitize=thread" LDFLAGS="-fsanitize=thread"
	$(Q)$(MAKE) --no-print-directory clean KEEP_TESTS_OUT=1

# Static analysis: cppcheck, GCC's -fanalyzer over every source, and the layer rule
# (tests/layers: no include or call up a floor or across to a sibling).
analyze: check-deps
	cppcheck --quiet --error-exitcode=1 --inline-suppr --enable=warning,performance,portability \
		--std=c11 -D_GNU_SOURCE -DRT_VERSION='"$(VERSION)"' -Isrc \
		--suppress=missingIncludeSystem src tests/unit tests/bench tests/fuzz
	$(Q)for f in src/*/*.c; do \
		gcc -fanalyzer -Werror -std=gnu11 -D_GNU_SOURCE -pthread -Isrc \
			-DRT_VERSION='"$(VERSION)"' $(DEP_CFLAGS) -O1 -c -o /dev/null $$f || exit 1; \
	done; echo "analyze: cppcheck and gcc -fanalyzer found nothing"
	$(Q)$(MAKE) --no-print-directory all static
	$(Q)tests/layers

# Every mode many times back to back (as root): see scripts/soak.
soak: deps
	$(Q)$(MAKE) --no-print-directory all
	$(Q)scripts/soak

# Everything a user runs, under names that cannot collide with rt-tests
# (which owns pi_stress and pi_stress(8)): rtsched-NAME for programs and
# pages alike. The programs, the static programs for the guest, the scripts
# with their modules and the published tables keep the tree's layout in
# $(pkglibexecdir), so that each finds the others as in the tree; $(bindir)
# holds links to them.
SCRIPTS := batch bisect calibrate compare plot kernel-matrix kernel-variant reproduce result-lines
SCRIPT_FILES := $(addprefix scripts/,$(SCRIPTS)) $(wildcard scripts/rtsched_*.py) \
	scripts/kernel/init.sh scripts/kernel/rtsched-guest.config \
	scripts/kernel/rtsched-guest-rt.config
MAN_PAGES := $(wildcard man/*.[18])
# bindir's links point into pkglibexecdir, relative so that DESTDIR keeps them right
TO_LIBEXEC := $(shell realpath -m --relative-to=$(call sq,$(bindir)) $(call sq,$(pkglibexecdir)))
# In the installed pages, the commands are named as installed (scripts/compare: rtsched-compare).
MAN_SED := $(foreach s,$(SCRIPTS),-e 's,scripts/$(s)\b,rtsched-$(s),g') \
	-e 's/^\.TH \(MIGRATE\|PI_STRESS\|SPIN\|ANALYSE\) /.TH RTSCHED-\1 /' \
	-e 's/^\.BR \(migrate\|pi_stress\|spin\) (8)/.BR rtsched-\1 (8)/' -e 's/^\.BR analyse (1)/.BR rtsched-analyse (1)/' \
	-e 's/\b\(migrate\|pi_stress\|spin\)(8)/rtsched-\1(8)/g' -e 's/\banalyse(1)/rtsched-analyse(1)/g'
REFERENCE := $(wildcard results/reference/*.json) results/reference/README.md
# What install writes in $(pkglibexecdir), and its folders, deepest first: uninstall
# removes exactly these (and the links and pages), never a folder with something else in it.
LIB_FILES := $(PROGRAMS) $(STATIC_PROGRAMS) $(SCRIPT_FILES) $(REFERENCE)
LIB_DIRS := static scripts/kernel scripts/__pycache__ scripts results/reference results .
# The three folders install writes in, each one shell word.
SH_DIRS = b=$(call sq,$(DESTDIR)$(bindir)); m=$(call sq,$(DESTDIR)$(mandir)); \
	d=$(call sq,$(DESTDIR)$(pkglibexecdir)); t=$(call sq,$(TO_LIBEXEC))

install: all $(CHECK_STATIC)
	@$(if $(Q),echo "  INSTALL $(DESTDIR)$(prefix)";)
	$(Q)set -e; $(SH_DIRS); \
	install -d "$$b" "$$m/man1" "$$m/man8" "$$d/static" "$$d/scripts/kernel" "$$d/results/reference"; \
	install -m 0755 $(PROGRAMS) "$$d/"; \
	install -m 0755 $(STATIC_PROGRAMS) "$$d/static/"; \
	for f in $(SCRIPT_FILES); do \
		case $$f in *.py|*.config) mode=0644 ;; *) mode=0755 ;; esac; \
		install -m $$mode "$$f" "$$d/$$f"; \
	done; \
	install -m 0644 $(REFERENCE) "$$d/results/reference/"; \
	for p in $(PROGRAMS); do ln -sfn "$$t/$$p" "$$b/rtsched-$$p"; done; \
	for s in $(SCRIPTS); do ln -sfn "$$t/scripts/$$s" "$$b/rtsched-$$s"; done; \
	for f in $(MAN_PAGES); do \
		n=$${f#man/}; n=rtsched-$${n#rtsched-}; \
		sed $(MAN_SED) "$$f" >"$$m/man$${f##*.}/$$n"; \
	done

uninstall:
	$(Q)$(SH_DIRS); \
	for n in $(PROGRAMS) $(SCRIPTS); do rm -f "$$b/rtsched-$$n"; done; \
	for f in $(MAN_PAGES); do \
		n=$${f#man/}; n=rtsched-$${n#rtsched-}; rm -f "$$m/man$${f##*.}/$$n"; \
	done; \
	for f in $(LIB_FILES); do rm -f "$$d/$$f"; done; \
	rm -f "$$d/scripts/__pycache__"/rtsched_*.pyc; \
	for s in $(LIB_DIRS); do f=$$d/$$s; f=$${f%/.}; [ ! -d "$$f" ] || rmdir "$$f" 2>/dev/null || \
		echo "uninstall: kept $$f: it holds files install did not write" >&2; done

# The README's two commands where nothing is installed: a minimal Debian 12
# root, make run and make check inside it (scripts/check-fresh, as root;
# FRESH_FLAGS=--sanitized: make check-asan SAN_ALL=1 there instead, as CI does).
check-fresh:
	$(Q)scripts/check-fresh $(FRESH_FLAGS)

# The Debian package, as a distribution checks it (scripts/check-deb, as
# root): built in a fresh Debian 12 root for amd64 and, cross, arm64;
# lintian; autopkgtest; piuparts; installed with apt in a fresh root and run.
check-deb:
	$(Q)scripts/check-deb

# lava/rtsched in a LAVA job (lava-run of Debian 12's lava-dispatcher) on
# Debian's 6.1 kernel in QEMU, this machine's architecture and arm64, its
# test cases read back (scripts/check-lava, as root). The definition
# installs rtsched's package in the guest, built for it in a fresh root, or
# taken from LAVA_DEBS=DIR (rtsched_VERSION_ARCH.deb there: make check-deb's).
check-lava:
	$(Q)st=0; for a in $$(dpkg --print-architecture) arm64; do \
		scripts/check-lava --arch $$a \
			$(if $(LAVA_DEBS),--package $(call sq,$(LAVA_DEBS))/rtsched_$(VERSION)_$$a.deb) || st=1; \
	done; exit $$st

clean:
	rm -f $(PROGRAMS) $(LIB) $(TRACE_LIB) src/*/*.o src/*/*.d tests/unit/*.d $(UNIT_TESTS) \
		tests/bench/bench tests/bench/*.d tests/fuzz/replay_* tests/fuzz/fuzz_? tests/fuzz/*.d \
		$(patsubst %,tests/fuzz/fuzz_%,$(FUZZERS))
	rm -rf $(if $(KEEP_TESTS_OUT),,tests/out) static build

-include $(wildcard $(O)src/*/*.d tests/unit/*.d tests/bench/*.d tests/fuzz/*.d)

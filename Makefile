# SPDX-License-Identifier: GPL-2.0-only
# rtsched: benchmarks of the Linux real-time scheduler.
#
#   make            build ./migrate
#   make check      install missing dependencies (as root), build, run the tests
#   make run        install missing dependencies, build, run the default benchmark
#   make bench      print measured speed and accuracy figures (as root)
#   make install    install programs and man pages under $(DESTDIR)$(prefix)
#
# CFLAGS from the command line or the environment are kept; V=1 shows commands.

VERSION := 0.1.0

prefix ?= /usr/local
bindir ?= $(prefix)/bin
mandir ?= $(prefix)/share/man

CC ?= cc
AR ?= ar
PKG_CONFIG ?= pkg-config
CFLAGS ?= -O2 -g

# The pkg-config name of each dependency and the packages that provide it.
DEPS := libtracefs numa
dep_hint_libtracefs := libtracefs-dev (Debian/Ubuntu) or libtracefs-devel (Fedora)
dep_hint_numa := libnuma-dev (Debian/Ubuntu) or numactl-devel (Fedora)

# Evaluated when used, so that a recursive make after scripts/install-deps sees them.
DEP_CFLAGS = $(shell $(PKG_CONFIG) --cflags $(DEPS) 2>/dev/null)
DEP_LIBS = $(shell $(PKG_CONFIG) --libs $(DEPS) 2>/dev/null)

WARNINGS := -Wall -Wextra -Wformat=2 -Wshadow -Wimplicit-fallthrough
# CI builds (CI=true) turn warnings into errors.
ifneq ($(CI),)
WARNINGS += -Werror
endif

override CFLAGS += -std=gnu11 $(WARNINGS) -D_GNU_SOURCE -pthread -Isrc/lib -Isrc/cli \
	-DRT_VERSION='"$(VERSION)"' $(DEP_CFLAGS) -MMD -MP
override LDLIBS += $(DEP_LIBS) -pthread -lm

ifeq ($(V),1)
Q :=
else
Q := @
endif

LIB := src/lib/librtsched.a
LIB_OBJS := $(patsubst %.c,%.o,$(wildcard src/lib/*.c))
CLI_OBJS := $(patsubst %.c,%.o,$(wildcard src/cli/*.c))
MIGRATE_OBJS := $(patsubst %.c,%.o,$(wildcard src/migrate/*.c))
PI_STRESS_OBJS := $(patsubst %.c,%.o,$(wildcard src/pi_stress/*.c))
UNIT_TESTS := $(patsubst %.c,%,$(wildcard tests/unit/test_*.c))
PROGRAMS := migrate pi_stress

.PHONY: all deps check-deps run check bench install uninstall clean static-check
all: check-deps $(PROGRAMS)

# Stop early, naming the package to install, when pkg-config cannot find a dependency.
check-deps:
	@command -v $(PKG_CONFIG) >/dev/null || { \
		echo "error: $(PKG_CONFIG) not found: install pkg-config, or run sudo scripts/install-deps" >&2; exit 1; }
	@$(foreach d,$(DEPS),$(PKG_CONFIG) --exists $(d) || { \
		echo "error: pkg-config cannot find '$(d)': install $(dep_hint_$(d)), or run sudo scripts/install-deps" >&2; exit 1; };)

deps:
	$(Q)scripts/install-deps

%.o: %.c
	@$(if $(Q),echo "  CC      $@";)
	$(Q)$(CC) $(CPPFLAGS) $(CFLAGS) -c -o $@ $<

$(LIB): $(LIB_OBJS)
	@$(if $(Q),echo "  AR      $@";)
	$(Q)rm -f $@ && $(AR) rcs $@ $^

migrate: $(MIGRATE_OBJS) $(CLI_OBJS) $(LIB)
	@$(if $(Q),echo "  LD      $@";)
	$(Q)$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS)

pi_stress: $(PI_STRESS_OBJS) $(CLI_OBJS) $(LIB)
	@$(if $(Q),echo "  LD      $@";)
	$(Q)$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS)

tests/unit/test_%: tests/unit/test_%.c $(LIB)
	@$(if $(Q),echo "  CC      $@";)
	$(Q)$(CC) $(CPPFLAGS) $(CFLAGS) -Itests/unit $(LDFLAGS) -o $@ $< $(LIB) $(LDLIBS)

tests/bench/bench: tests/bench/bench.c $(LIB)
	@$(if $(Q),echo "  CC      $@";)
	$(Q)$(CC) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ $< $(LIB) $(LDLIBS)

# The two commands of the README: set up what is missing, then build and use.
run: deps
	$(Q)$(MAKE) --no-print-directory all
	./migrate

check: deps
	$(Q)$(MAKE) --no-print-directory all $(UNIT_TESTS)
	$(Q)tests/run

bench: deps
	$(Q)$(MAKE) --no-print-directory all tests/bench/bench
	$(Q)tests/bench/bench ./migrate ./pi_stress

install: all
	install -d $(DESTDIR)$(bindir) $(DESTDIR)$(mandir)/man8
	install -m 0755 $(PROGRAMS) $(DESTDIR)$(bindir)/
	install -m 0644 $(patsubst %,man/%.8,$(PROGRAMS)) $(DESTDIR)$(mandir)/man8/

uninstall:
	rm -f $(patsubst %,$(DESTDIR)$(bindir)/%,$(PROGRAMS))
	rm -f $(patsubst %,$(DESTDIR)$(mandir)/man8/%.8,$(PROGRAMS))

clean:
	rm -f $(PROGRAMS) $(LIB) src/*/*.o src/*/*.d tests/unit/*.d $(UNIT_TESTS) \
		tests/bench/bench tests/bench/*.d
	rm -rf tests/out

-include $(wildcard src/*/*.d tests/unit/*.d tests/bench/*.d)

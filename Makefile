# textfp: PostgreSQL extension, built with PGXS.
#
#   make && make install        build and install into the server pg_config names
#   make installcheck           run the pg_regress suite against a running server
#   make unitcheck              build and run the C unit tests of the pure core
#   test/run-tests.sh           everything, on a throwaway cluster (see README)

EXTENSION   = textfp
# The version in development or, once released, the last release; kept in
# step with textfp.control, META.json, debian/changelog and CHANGELOG.md by
# tools/check_release.sh (make release-check, run by test/run-tests.sh).
EXTVERSION  = 1.3
# the release before it, from which an update script leads to EXTVERSION
PREVVERSION = 1.2

MODULE_big  = textfp
# Sources in two wings (src/README.md):
#   src/core/            the pure C library: no PostgreSQL header (checked by
#                        the target core-check, a prerequisite of the build)
#   src/core/generated/  its generated tables (each names its generator)
#   src/pg/              fmgr functions, types, access methods, planner support
#   src/sql/             the install script's fragments
CORE_DIRS   = src/core src/core/generated
CORE_SRCS   = $(sort $(foreach d,$(CORE_DIRS),$(wildcard $(d)/*.c)))
CORE_HDRS   = $(wildcard src/core/*.h)
PG_SRCS     = $(sort $(wildcard src/pg/*.c))
OBJS        = $(patsubst %.c,%.o,$(CORE_SRCS) $(PG_SRCS))

# The install script is assembled from the fragments in src/sql/ (one per
# concern, applied in file-name order).  upgrade/ holds what released
# versions shipped, frozen: the install script of every release and the
# update scripts between them (textfp--1.0--1.1.sql, ...).  The update from
# PREVVERSION to EXTVERSION is its hand-written head (what it drops or
# changes of the release before) followed by the fragments of the objects it
# redefines and of those it adds (1.3: 64b, textfp_check_arrivals, and 83,
# minhash_similar's support function).  Once EXTVERSION is released, upgrade/ holds
# frozen copies of both built scripts, and tools/check_release.sh fails if
# the fragments no longer make exactly those bytes: a change of SQL objects
# after a release is a new version.  Every path is tested by
# test/t/100_upgrade.pl.
FRAGMENTS     = $(sort $(wildcard src/sql/*.sql))
FRAGMENTS_NEW = src/sql/64b_check_arrivals.sql src/sql/83_minhash_citus.sql
# ... and of those whose statements marked "update: CREATE OR REPLACE" it
# defines again in place (1.3: textfp_match's default model, the order in
# which textfp_verify_pairs verifies; tools/replaced_functions.awk)
FRAGMENTS_REPLACED = src/sql/63_match.sql src/sql/63b_boilerplate.sql src/sql/79_citus_arrivals.sql
UPDATE_SQL  = $(EXTENSION)--$(PREVVERSION)--$(EXTVERSION).sql
DATA_built  = $(EXTENSION)--$(EXTVERSION).sql $(UPDATE_SQL)
# every frozen script but the two the fragments build
DATA        = $(filter-out upgrade/$(EXTENSION)--$(EXTVERSION).sql upgrade/$(UPDATE_SQL), \
				$(filter-out %.head.sql,$(sort $(wildcard upgrade/$(EXTENSION)--*.sql))))

REGRESS      = $(patsubst sql/%.sql,%,$(sort $(wildcard sql/*.sql)))
REGRESS_OPTS = --load-extension=$(EXTENSION)

PG_CPPFLAGS = -I$(srcdir)/src/core -I$(srcdir)/src/core/generated -I$(srcdir)/src/pg
SHLIB_LINK += -lxxhash
EXTRA_CLEAN = $(EXTENSION)-*.tar.gz $(EXTENSION)-*.zip test/unit/*.bin test/unit/*.san test/unit/*.a test/unit/obj src/core/.core-check

PG_CONFIG ?= pg_config
PGXS := $(shell $(PG_CONFIG) --pgxs)
include $(PGXS)

# PGXS does not track header dependencies: rebuild every object when a header
# or the generated data file (included by tfp_unicode.c for its table
# geometry) changes.
$(OBJS): $(CORE_HDRS) $(wildcard src/pg/*.h) src/core/generated/tfp_unicode_data.c

# The core wing must build without PostgreSQL: every file of it is compiled
# (syntax only) with no PostgreSQL include directory on the path, and none
# may name a PostgreSQL header.  A prerequisite of the shared library, so a
# core file that includes one fails the build.
src/core/.core-check: $(CORE_SRCS) $(CORE_HDRS) tools/check_core.sh
	@$(srcdir)/tools/check_core.sh "$(CC)" $(CORE_SRCS) $(CORE_HDRS)
	@touch $@

core-check: src/core/.core-check
$(shlib): src/core/.core-check

$(EXTENSION)--$(EXTVERSION).sql: $(FRAGMENTS)
	cat $^ > $@

$(UPDATE_SQL): upgrade/$(EXTENSION)--$(PREVVERSION)--$(EXTVERSION).head.sql $(FRAGMENTS_REPLACED) \
			   $(FRAGMENTS_NEW) tools/replaced_functions.awk
	{ cat $<; awk -f $(srcdir)/tools/replaced_functions.awk $(FRAGMENTS_REPLACED); \
	  cat $(FRAGMENTS_NEW); } > $@

# The versions in step, every release frozen, and no change of SQL objects
# since the last release without a new version (tools/check_release.sh).
release-check: $(DATA_built)
	@$(srcdir)/tools/check_release.sh

# A versioned source archive of the committed tree (PGXN, packaging):
# textfp-1.2.0.zip and .tar.gz, holding textfp-1.2.0/ (META.json's version).
DISTVERSION = $(shell sed -n 's/^ *"version": *"\([^"]*\)".*/\1/p' $(srcdir)/META.json | head -n 1)
dist:
	git -C $(srcdir) archive --format=tar.gz --prefix=$(EXTENSION)-$(DISTVERSION)/ -o $(abspath $(EXTENSION)-$(DISTVERSION).tar.gz) HEAD
	git -C $(srcdir) archive --format=zip --prefix=$(EXTENSION)-$(DISTVERSION)/ -o $(abspath $(EXTENSION)-$(DISTVERSION).zip) HEAD

# C unit tests of the PostgreSQL-free core (src/core/): each test/unit/*.c
# links against the core only and prints TAP-style "ok"/"not ok" lines.  The
# plain flavour links the very objects of the shared library (compiled once,
# with the server's flags: the code that ships is the code tested); the
# sanitizer flavour below compiles its own.
UNIT_SRCS  = $(sort $(wildcard test/unit/*.c))
UNIT_BINS  = $(UNIT_SRCS:.c=.bin)
UNIT_DEPS  = $(CORE_HDRS) $(wildcard test/unit/*.h test/fuzz/*.[ch])
UNIT_CFLAGS = -O2 -g -Wall -Wextra -std=gnu11 -Isrc/core -Isrc/core/generated
UNIT_OBJS  = $(patsubst %.c,%.o,$(CORE_SRCS))

test/unit/libcore.a: $(UNIT_OBJS)
	rm -f $@ && $(AR) rcs $@ $^

test/unit/%.bin: test/unit/%.c test/unit/libcore.a $(UNIT_DEPS)
	$(CC) $(UNIT_CFLAGS) -o $@ $< test/unit/libcore.a -lm

unitcheck: $(UNIT_BINS)
	@set -e; for t in $(UNIT_BINS); do echo "# $$t"; ./$$t; done

# The same programs under AddressSanitizer and UndefinedBehaviorSanitizer
# (any report aborts the program); run by test/run-tests.sh --full.
SAN_CFLAGS = -O1 -g -Wall -Wextra -std=gnu11 -Isrc/core -Isrc/core/generated -fno-omit-frame-pointer \
	-fsanitize=address,undefined -fno-sanitize-recover=all
UNIT_SANS  = $(UNIT_SRCS:.c=.san)
SAN_OBJS   = $(patsubst src/%.c,test/unit/obj/san/%.o,$(CORE_SRCS))

test/unit/obj/san/%.o: src/%.c $(CORE_HDRS)
	@mkdir -p $(@D)
	$(CC) $(SAN_CFLAGS) -c -o $@ $<

test/unit/libcore-san.a: $(SAN_OBJS)
	rm -f $@ && $(AR) rcs $@ $^

test/unit/%.san: test/unit/%.c test/unit/libcore-san.a $(UNIT_DEPS)
	$(CC) $(SAN_CFLAGS) -o $@ $< test/unit/libcore-san.a -lm

unitcheck-san: $(UNIT_SANS)
	@set -e; for t in $(UNIT_SANS); do echo "# $$t"; ASAN_OPTIONS=detect_leaks=0 ./$$t; done

.PHONY: unitcheck unitcheck-san core-check release-check dist

# textfp: PostgreSQL extension, built with PGXS.
#
#   make && make install        build and install into the server pg_config names
#   make installcheck           run the pg_regress suite against a running server
#   make unitcheck              build and run the C unit tests of the pure core
#   test/run-tests.sh           everything, on a throwaway cluster (see README)

EXTENSION   = textfp
EXTVERSION  = 1.1

MODULE_big  = textfp
# src/tfp_features_fast.c is included by src/tfp_features.c, not built alone
OBJS        = $(patsubst %.c,%.o,$(sort $(filter-out src/tfp_features_fast.c,$(wildcard src/*.c))))

# The install script is assembled from the fragments in src/sql/ (one per
# concern, applied in file-name order).  upgrade/ holds the frozen install
# script of every earlier version and the hand-written head of each update
# script; an update script is its head followed by the fragments that
# version added (for 1.1: those numbered 60 and up).  Every path is tested
# by test/t/100_upgrade.pl.
FRAGMENTS     = $(sort $(wildcard src/sql/*.sql))
FRAGMENTS_1_0 = $(wildcard src/sql/[0-5]*.sql)
FRAGMENTS_1_1 = $(filter-out $(FRAGMENTS_1_0),$(FRAGMENTS))
DATA_built  = $(EXTENSION)--$(EXTVERSION).sql $(EXTENSION)--1.0--1.1.sql
DATA        = upgrade/$(EXTENSION)--1.0.sql

REGRESS      = $(patsubst sql/%.sql,%,$(sort $(wildcard sql/*.sql)))
REGRESS_OPTS = --load-extension=$(EXTENSION)

PG_CPPFLAGS = -I$(srcdir)/src
SHLIB_LINK += -lxxhash
EXTRA_CLEAN = test/unit/*.bin test/unit/*.san

PG_CONFIG ?= pg_config
PGXS := $(shell $(PG_CONFIG) --pgxs)
include $(PGXS)

# PGXS does not track header dependencies: rebuild every object when a header
# or the generated data file (included by tfp_unicode.c for its table
# geometry) changes.
$(OBJS): $(wildcard src/*.h) src/tfp_unicode_data.c src/tfp_features_fast.c

$(EXTENSION)--$(EXTVERSION).sql: $(FRAGMENTS)
	cat $^ > $@

$(EXTENSION)--1.0--1.1.sql: upgrade/$(EXTENSION)--1.0--1.1.head.sql $(FRAGMENTS_1_1)
	cat $^ > $@

# C unit tests of the PostgreSQL-free core (src/tfp_*.c): each test/unit/*.c
# links against those files only and prints TAP-style "ok"/"not ok" lines.
CORE_SRCS  = $(sort $(filter-out src/tfp_features_fast.c,$(wildcard src/tfp_*.c)))
UNIT_SRCS  = $(sort $(wildcard test/unit/*.c))
UNIT_BINS  = $(UNIT_SRCS:.c=.bin)
UNIT_CFLAGS = -O2 -g -Wall -Wextra -std=gnu11 -Isrc

test/unit/%.bin: test/unit/%.c $(CORE_SRCS) src/tfp_features_fast.c $(wildcard src/tfp_*.h) $(wildcard test/unit/*.h test/fuzz/*.[ch])
	$(CC) $(UNIT_CFLAGS) -o $@ $< $(CORE_SRCS) -lm

unitcheck: $(UNIT_BINS)
	@set -e; for t in $(UNIT_BINS); do echo "# $$t"; ./$$t; done

# The same programs under AddressSanitizer and UndefinedBehaviorSanitizer
# (any report aborts the program); run by test/run-tests.sh.
SAN_CFLAGS = -O1 -g -Wall -Wextra -std=gnu11 -Isrc -fno-omit-frame-pointer \
	-fsanitize=address,undefined -fno-sanitize-recover=all
UNIT_SANS  = $(UNIT_SRCS:.c=.san)

test/unit/%.san: test/unit/%.c $(CORE_SRCS) src/tfp_features_fast.c $(wildcard src/tfp_*.h) $(wildcard test/unit/*.h test/fuzz/*.[ch])
	$(CC) $(SAN_CFLAGS) -o $@ $< $(CORE_SRCS) -lm

unitcheck-san: $(UNIT_SANS)
	@set -e; for t in $(UNIT_SANS); do echo "# $$t"; ASAN_OPTIONS=detect_leaks=0 ./$$t; done

.PHONY: unitcheck

# The statements of the install-script fragments marked for the update
# script as definitions made again in place: the CREATE FUNCTION that follows
# a line "-- update: CREATE OR REPLACE" (alone on its line), printed up to
# the end of its statement (a line ending in ";" outside a $fn$ quote) with
# CREATE FUNCTION made CREATE OR REPLACE FUNCTION.  Used by the Makefile for
# upgrade/textfp--PREV--NEW.sql: a function whose default changes is defined
# again rather than dropped (a DROP fails on, or with CASCADE takes, every
# object of a user that calls it), with the install script's very text.
#
#   awk -f tools/replaced_functions.awk FRAGMENT.sql ...
$0 == "-- update: CREATE OR REPLACE" { want = 1; next }
want && !on && /^CREATE FUNCTION / {
	on = 1; quotes = 0
	sub(/^CREATE FUNCTION /, "CREATE OR REPLACE FUNCTION ")
}
on {
	print
	quotes += gsub(/\$fn\$/, "&")
	if (quotes % 2 == 0 && /;[ \t]*$/) { on = 0; want = 0; print "" }
}

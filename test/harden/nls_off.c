/*
 * nls_off.c: message translation switched off, for a server run with the
 * AddressSanitizer runtime preloaded (test/harden/asan.sh).  On Debian 12,
 * Debian's postgres binary with libasan (gcc 12 or clang 14) preloaded
 * hangs at start in bindtextdomain() (a write lock on glibc's _nl_state_lock
 * that never comes).  Preloaded after the runtime, these stand-ins return
 * what glibc returns without a message catalogue, so the server starts and
 * speaks English.  Build: gcc -shared -fPIC -o nls_off.so nls_off.c
 */
#include <stddef.h>

char *bindtextdomain(const char *domainname, const char *dirname);
char *bind_textdomain_codeset(const char *domainname, const char *codeset);
char *textdomain(const char *domainname);
char *gettext(const char *msgid);
char *dgettext(const char *domainname, const char *msgid);
char *dcgettext(const char *domainname, const char *msgid, int category);
char *ngettext(const char *msgid, const char *msgid_plural, unsigned long n);
char *dngettext(const char *domainname, const char *msgid, const char *msgid_plural,
				unsigned long n);
char *dcngettext(const char *domainname, const char *msgid, const char *msgid_plural,
				 unsigned long n, int category);

char *
bindtextdomain(const char *domainname, const char *dirname)
{
	(void) domainname;
	return (char *) dirname;
}

char *
bind_textdomain_codeset(const char *domainname, const char *codeset)
{
	(void) domainname;
	return (char *) codeset;
}

char *
textdomain(const char *domainname)
{
	return (char *) (domainname ? domainname : "messages");
}

char *
gettext(const char *msgid)
{
	return (char *) msgid;
}

char *
dgettext(const char *domainname, const char *msgid)
{
	(void) domainname;
	return (char *) msgid;
}

char *
dcgettext(const char *domainname, const char *msgid, int category)
{
	(void) domainname;
	(void) category;
	return (char *) msgid;
}

char *
ngettext(const char *msgid, const char *msgid_plural, unsigned long n)
{
	return (char *) (n == 1 ? msgid : msgid_plural);
}

char *
dngettext(const char *domainname, const char *msgid, const char *msgid_plural, unsigned long n)
{
	(void) domainname;
	return (char *) (n == 1 ? msgid : msgid_plural);
}

char *
dcngettext(const char *domainname, const char *msgid, const char *msgid_plural,
		   unsigned long n, int category)
{
	(void) domainname;
	(void) category;
	return (char *) (n == 1 ? msgid : msgid_plural);
}

// SPDX-License-Identifier: GPL-2.0
/*
 * dmaown ignore: the rules that silence known findings (the tracker's
 * "ignore" file): listed, added, removed, emptied.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dmaown.h"

const struct option ignore_options[] = {
	{}
};

static const char ignore_help[] =
"usage: dmaown [--json] [--debugfs DIR] ignore [list]\n"
"       dmaown ignore add KIND:FUNCTION...\n"
"       dmaown ignore remove KIND:FUNCTION...\n"
"       dmaown ignore clear\n"
"\n"
"Rules that silence known findings, while their fix is under review, so\n"
"that they neither bury the other reports nor stop a run made with\n"
"dma_owner.report=panic. A report a rule matches is not WARNed, logged,\n"
"traced or counted as a violation: it is counted against the rule (its\n"
"hits) and in stats' \"ignored\", which 'dmaown status' shows. So status\n"
"and violations exit 1 only for the reports no rule matches.\n"
"\n"
"A rule is KIND:FUNCTION: KIND a violation kind (those 'dmaown violations\n"
"--kind' takes) or * for every kind; FUNCTION the function that made the\n"
"call, as the first line of the report names it, without its offset\n"
"(\"in e1000_clean_rx_irq+0x2f0/0x5a0\" is e1000_clean_rx_irq); it also\n"
"matches the compiler's copies of it (e1000_clean_rx_irq.isra.0).\n"
"\n"
"  list      the rules and their hits since the last clear (the default)\n"
"  add       add the rules, all or none (a rule already there stays)\n"
"  remove    remove the rules, all or none\n"
"  clear     remove every rule\n"
"\n"
"examples:\n"
"  dmaown ignore add missing-sync-for-device:e1000_clean_rx_irq\n"
"  dmaown ignore add '*:e100_rx_alloc_skb'\n"
"  dmaown ignore\n"
"  RULE                                                    HITS\n"
"  missing-sync-for-device:e1000_clean_rx_irq                12\n"
"  *:e100_rx_alloc_skb                                        0\n"
"  dmaown ignore remove '*:e100_rx_alloc_skb'\n"
"\n"
"The boot parameter dma_owner.ignore=KIND:FUNCTION,... sets rules before\n"
"drivers probe.\n"
"\n"
"exit status: 0, or 2 for a usage or environment error (a kernel without\n"
"ignore rules, a bundle, which is a copy) and when the kernel refuses the\n"
"change (its errno is printed; nothing was changed).\n";

/* ---------------------------------------------------------------------- */
/* Showing the rules: here, and in dmaown status                          */

void ignore_rules_json(struct json *j, const char *key,
		       const struct ignore_rule *rules, int n)
{
	json_array(j, key, false);
	for (int i = 0; i < n; i++) {
		char *rule = xasprintf("%s:%s", rules[i].kind, rules[i].function);

		json_object(j, NULL);
		json_string(j, "rule", rule);
		json_string(j, "kind", rules[i].kind);
		json_string(j, "function", rules[i].function);
		json_int(j, "hits", rules[i].hits);
		json_end(j);
		free(rule);
	}
	json_end(j);
}

void ignore_rules_text(const struct ignore_rule *rules, int n, const char *indent)
{
	for (int i = 0; i < n; i++) {
		char *rule = xasprintf("%s:%s", rules[i].kind, rules[i].function);

		printf("%s%-52s %7lld\n", indent, rule, rules[i].hits);
		free(rule);
	}
}

static void show_rules(void)
{
	struct ignore_rule *rules;
	int n = read_ignore_rules(&rules);

	if (use_json) {
		struct json j;

		json_init(&j, stdout);
		json_object(&j, NULL);
		ignore_rules_json(&j, "rules", rules, n);
		json_end(&j);
	} else if (!n) {
		printf("no ignore rules: every report counts\n");
	} else {
		printf("%-52s %7s\n", "RULE", "HITS");
		ignore_rules_text(rules, n, "");
	}
	free(rules);
}

/* ---------------------------------------------------------------------- */
/* Changing them                                                          */

/* As the compiler names functions: a C identifier. */
static bool is_identifier(const char *s)
{
	if (!*s || isdigit((unsigned char)*s))
		return false;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && *s != '_')
			return false;
	return true;
}

/* Fails, in words, unless @token is KIND:FUNCTION with a kind of @st. */
static void check_rule(const char *token, const struct stats *st)
{
	struct ignore_rule r;

	if (!parse_ignore_rule(token, &r))
		bad_usage("ignore: '%s' is not a rule: say KIND:FUNCTION, e.g. missing-sync-for-device:e1000_clean_rx_irq",
			  token);
	if (strcmp(r.kind, "*") && !known_kind(st, r.kind))
		bad_usage("ignore: '%s': %s is not a violation kind; the kinds are * (every kind), %s",
			  token, r.kind, kind_list(st));
	if (strpbrk(r.function, "+/ "))
		bad_usage("ignore: '%s': name the function alone, without the offset and module the report adds (%.*s)",
			  token, (int)strcspn(r.function, "+/ "), r.function);
	if (!is_identifier(r.function))
		bad_usage("ignore: '%s': %s is not a function name (letters, digits and _)",
			  token, r.function);
}

static bool has_rule(const struct ignore_rule *rules, int n, const char *token)
{
	struct ignore_rule r;

	parse_ignore_rule(token, &r);
	for (int i = 0; i < n; i++)
		if (!strcmp(rules[i].kind, r.kind) && !strcmp(rules[i].function, r.function))
			return true;
	return false;
}

/* Why the kernel refused a change (kernel/owner_ignore.c), in words. */
static void refused(const char *action, int err, char **tokens, int ntokens,
		    const struct ignore_rule *rules, int nrules)
{
	const char *why = "";
	char *absent = NULL;

	switch (err) {
	case EINVAL:
		why = ": a rule it does not take (dmesg says which and why)";
		break;
	case E2BIG:
		why = ": too many rules in one write";
		break;
	case ENOSPC:
		why = xasprintf(": it keeps no more rules (%d now); remove some first", nrules);
		break;
	case ENOENT:
		for (int i = 0; i < ntokens; i++) {
			char *old = absent;

			if (has_rule(rules, nrules, tokens[i]))
				continue;
			absent = xasprintf("%s%s%s", old ? old : "", old ? " " : "", tokens[i]);
			free(old);
		}
		why = xasprintf(": no such rule%s%s ('dmaown ignore' lists them)",
				absent ? ": " : "", absent ? absent : "");
		break;
	}
	fail("ignore %s: the kernel refused it, and changed nothing: %s%s", action,
	     errno_text(err), why);
}

static void change_rules(const char *action, char **tokens, int ntokens)
{
	bool add = !strcmp(action, "add"), remove = !strcmp(action, "remove");
	struct ignore_rule *rules;
	char *text = xstrdup(""), *action_name = xasprintf("ignore %s", action);
	struct stats st;
	int nrules, err;

	if ((add || remove) && !ntokens)
		bad_usage("ignore %s: which rules? dmaown ignore %s KIND:FUNCTION...",
			  action, action);
	if (!add && !remove && ntokens)
		bad_usage("ignore clear takes no rules (to remove some: dmaown ignore remove KIND:FUNCTION...)");
	need_live_tracker(action_name);
	/* Fails first on a kernel without the file. */
	nrules = read_ignore_rules(&rules);
	read_stats(&st);
	for (int i = 0; i < ntokens; i++) {
		char *old = text;

		check_rule(tokens[i], &st);
		text = xasprintf("%s%s%s\n", old, remove ? "-" : "", tokens[i]);
		free(old);
	}
	free_stats(&st);
	/* One write: the kernel takes it all or changes nothing. */
	err = write_tracker("ignore", *text ? text : "\n");
	if (err)
		refused(action, err, tokens, ntokens, rules, nrules);
	free(text);
	free(rules);
	free(action_name);
	show_rules();
}

int cmd_ignore(int argc, char **argv)
{
	struct cmd_opts o = { .options = ignore_options, .help = ignore_help };
	const char *action = "list";

	while (cmd_getopt(&o, argc, argv) != -1)
		;
	if (o.other)
		bad_usage("ignore takes no options: dmaown ignore [list|add|remove|clear]");
	if (optind < argc)
		action = argv[optind++];
	if (!strcmp(action, "list")) {
		if (optind != argc)
			bad_usage("ignore list takes no arguments");
		need_tracker();
		show_rules();
		return 0;
	}
	if (strcmp(action, "add") && strcmp(action, "remove") && strcmp(action, "clear"))
		bad_usage("ignore %s: say list, add, remove or clear", action);
	change_rules(action, argv + optind, argc - optind);
	return 0;
}

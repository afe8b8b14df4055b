// SPDX-License-Identifier: GPL-2.0
/*
 * DMA ownership tracker: rules that silence known findings.
 *
 * A driver with a known violation, its fix under review, should neither bury
 * the reports of everything else in WARNs nor stop a test run made with
 * dma_owner.report=panic. A rule names a kind, or every kind, and the
 * function that makes the call (the one a report's first line names). A
 * report that matches a rule is counted, against the rule and in the
 * "ignored" total, and goes nowhere else: no WARN, no log record, no trace
 * event, no violation count. KCSAN's "!func" list is the model.
 *
 * Rules match by name, looked up from the caller's address when a report is
 * made, so that a rule may name a function of a module not loaded yet. A
 * rule "foo" also matches the compiler's clones of foo (foo.isra.0,
 * foo.cold, ...).
 *
 * Rules are written as "KIND:FUNCTION" tokens, KIND a kind's name or "*",
 * separated by white space or commas; "-KIND:FUNCTION" removes a rule. The
 * debugfs file "ignore" and the boot parameter dma_owner.ignore= take the
 * same tokens. A write with one invalid token changes nothing.
 */

#define pr_fmt(fmt) "dma-owner: " fmt

#include <linux/ctype.h>
#include <linux/hash.h>
#include <linux/kallsyms.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/percpu.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <kunit/visibility.h>

#include "owner.h"

#undef MODULE_PARAM_PREFIX
#define MODULE_PARAM_PREFIX "dma_owner."

#define ANY_KIND	(-1)
#define FUNC_MAX	64	/* longest function name of a rule, with its NUL */

struct ignore_rule {
	int kind;		/* an enum dma_owner_kind, or ANY_KIND */
	char func[FUNC_MAX];
	unsigned long hits;
};

/*
 * The rules, and the hits counted against them, under rules_lock: reports
 * come from any context. A change is made on a copy (scratch, under the same
 * lock), then copied back whole, so that an invalid token changes nothing.
 */
static struct ignore_rule rules[DMA_OWNER_IGNORE_MAX];
static struct ignore_rule scratch[DMA_OWNER_IGNORE_MAX];
static unsigned int nr_rules;
static DEFINE_RAW_SPINLOCK(rules_lock);

/*
 * The verdict for a call site and kind, under rules_lock: the caller's name
 * is looked up (for a module, a linear scan of its symbols) once per site,
 * not once per report, and never under the lock. A change of the rules, or
 * a module going (another may be loaded at its addresses), makes every
 * verdict stale: sites_gen moves on, and a slot of another generation is
 * not read.
 */
#define SITE_BITS	7
struct site_verdict {
	unsigned long ip;
	u32 gen;
	u8 kind;
	s8 rule;		/* the index of the rule that matches, or -1 */
};

static struct site_verdict sites[1 << SITE_BITS];
static u32 sites_gen = 1;	/* a zeroed slot is never current */
struct caller_name {
	char s[KSYM_NAME_LEN];
};

static DEFINE_PER_CPU(struct caller_name, caller_names);

static_assert(DMA_OWNER_IGNORE_MAX <= S8_MAX);
static_assert(DMA_OWNER_NR_KINDS <= U8_MAX);

/* Every verdict is stale. Under rules_lock. */
static void stale_sites(void)
{
	if (!++sites_gen)
		sites_gen = 1;
}

static int kind_by_name(const char *name, size_t len)
{
	int kind;

	if (len == 1 && name[0] == '*')
		return ANY_KIND;
	for (kind = 0; kind < DMA_OWNER_NR_KINDS; kind++)
		if (strlen(dma_owner_kind_names[kind]) == len &&
		    !strncmp(dma_owner_kind_names[kind], name, len))
			return kind;
	return -EINVAL;
}

static const char *kind_name(int kind)
{
	return kind == ANY_KIND ? "*" : dma_owner_kind_names[kind];
}

/* A C identifier: a clone (foo.isra.0) is named by its function's name. */
static bool valid_function(const char *s)
{
	size_t i, len = strlen(s);

	if (!len || len >= FUNC_MAX || isdigit(s[0]))
		return false;
	for (i = 0; i < len; i++)
		if (!isalnum(s[i]) && s[i] != '_')
			return false;
	return true;
}

/* One token, parsed: 0, or -EINVAL, the reason said if @loud. */
static int parse_token(const char *tok, struct ignore_rule *rule, bool *remove,
		       bool loud)
{
	const char *colon;

	*remove = tok[0] == '-';
	if (*remove)
		tok++;
	colon = strchr(tok, ':');
	if (!colon) {
		if (loud)
			pr_err("ignore: '%s' is not KIND:FUNCTION\n", tok);
		return -EINVAL;
	}
	rule->kind = kind_by_name(tok, colon - tok);
	if (rule->kind == -EINVAL) {
		if (loud)
			pr_err("ignore: '%.*s' is neither a violation kind nor '*'\n",
			       (int)(colon - tok), tok);
		return -EINVAL;
	}
	if (!valid_function(colon + 1)) {
		if (loud)
			pr_err("ignore: '%s' is not a function name of at most %d characters\n",
			       colon + 1, FUNC_MAX - 1);
		return -EINVAL;
	}
	strscpy(rule->func, colon + 1, sizeof(rule->func));
	rule->hits = 0;
	return 0;
}

static int find_rule(const struct ignore_rule *set, unsigned int n,
		     const struct ignore_rule *rule)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if (set[i].kind == rule->kind && !strcmp(set[i].func, rule->func))
			return i;
	return -ENOENT;
}

/* Apply one well-formed token to scratch[0..*n). */
static int apply_token(const char *tok, unsigned int *n)
{
	struct ignore_rule rule;
	bool remove;
	int i;

	parse_token(tok, &rule, &remove, false);
	i = find_rule(scratch, *n, &rule);
	if (remove) {
		if (i < 0)
			return -ENOENT;
		/* The rest keep their order: the first that matches counts. */
		memmove(&scratch[i], &scratch[i + 1], (--*n - i) * sizeof(*scratch));
	} else if (i < 0) {
		if (*n == DMA_OWNER_IGNORE_MAX)
			return -ENOSPC;
		scratch[(*n)++] = rule;
	}
	return 0;
}

/* The first token at or after @p in a buffer whose separators are NULs. */
static char *next_token(char *p, const char *end)
{
	while (p < end && !*p)
		p++;
	return p;
}

/**
 * dma_owner_ignore_update() - add and remove ignore rules
 * @buf: tokens separated by white space or commas, "KIND:FUNCTION" to add a
 *	 rule (a rule already there stays as it is), "-KIND:FUNCTION" to remove
 *	 one; with no token at all, the list is emptied. Modified.
 *
 * All or nothing: on an error, the rules are as they were, and the reason is
 * in dmesg.
 *
 * Return: 0, -EINVAL on a malformed token, -ENOSPC when the rules would be
 * more than %DMA_OWNER_IGNORE_MAX, -ENOENT when a rule to remove is absent,
 * -EOPNOTSUPP for a rule in a kernel without kallsyms.
 */
int dma_owner_ignore_update(char *buf)
{
	char *end = buf + strlen(buf), *tok, *failed = NULL;
	struct ignore_rule rule;
	unsigned long flags;
	unsigned int n;
	bool any = false, remove;
	int ret = 0;

	for (tok = buf; tok < end; tok++)
		if (isspace(*tok) || *tok == ',')
			*tok = '\0';
	/* The syntax first, outside the lock, saying what is wrong. */
	for (tok = next_token(buf, end); tok < end;
	     tok = next_token(tok + strlen(tok), end)) {
		ret = parse_token(tok, &rule, &remove, true);
		if (ret)
			return ret;
		any = true;
	}
	/* Rules name functions: without kallsyms no report has a name. */
	if (any && !IS_ENABLED(CONFIG_KALLSYMS)) {
		pr_err("ignore: rules need CONFIG_KALLSYMS, to name the caller of a report\n");
		return -EOPNOTSUPP;
	}

	raw_spin_lock_irqsave(&rules_lock, flags);
	n = nr_rules;
	memcpy(scratch, rules, sizeof(rules));
	for (tok = next_token(buf, end); tok < end;
	     tok = next_token(tok + strlen(tok), end)) {
		ret = apply_token(tok, &n);
		if (ret) {
			failed = tok;
			break;
		}
	}
	if (!ret) {
		WRITE_ONCE(nr_rules, any ? n : 0);
		memcpy(rules, scratch, sizeof(rules));
		stale_sites();
	}
	raw_spin_unlock_irqrestore(&rules_lock, flags);

	if (ret == -ENOENT)
		pr_err("ignore: no rule %s to remove\n", failed + 1);
	else if (ret == -ENOSPC)
		pr_err("ignore: %s would make more than %d rules\n", failed,
		       DMA_OWNER_IGNORE_MAX);
	return ret;
}
EXPORT_SYMBOL_IF_KUNIT(dma_owner_ignore_update);

static bool rule_matches(const struct ignore_rule *rule, int kind,
			 const char *func)
{
	size_t len = strlen(rule->func);

	if (rule->kind != ANY_KIND && rule->kind != kind)
		return false;
	/* foo, or a clone of it: foo.isra.0, foo.cold, foo.part.1 */
	return !strncmp(func, rule->func, len) &&
	       (func[len] == '\0' || func[len] == '.');
}

/**
 * dma_owner_ignored() - should this report be silenced?
 * @r: the report
 *
 * Counts the report against the first rule that matches it.
 *
 * Return: true if a rule matches: the report is then counted as ignored and
 * must go nowhere else.
 */
bool dma_owner_ignored(const struct dma_owner_report *r)
{
	struct site_verdict *site;
	unsigned long flags;
	unsigned int i;
	bool named;
	char *name;
	int rule;
	u32 gen;

	if (!READ_ONCE(nr_rules))
		return false;
	/* This CPU's name buffer is its own while its interrupts are off. */
	local_irq_save(flags);
	raw_spin_lock(&rules_lock);
	site = &sites[hash_long(r->caller + r->kind, SITE_BITS)];
	if (site->gen == sites_gen && site->ip == r->caller &&
	    site->kind == r->kind) {
		rule = site->rule;
	} else {
		gen = sites_gen;
		raw_spin_unlock(&rules_lock);
		/* kallsyms and module lookups take no lock: any context will do. */
		name = this_cpu_ptr(&caller_names)->s;
		named = !lookup_symbol_name(r->caller, name);
		raw_spin_lock(&rules_lock);
		rule = -1;
		for (i = 0; named && i < nr_rules; i++) {
			if (rule_matches(&rules[i], r->kind, name)) {
				rule = i;
				break;
			}
		}
		/* Unless the rules changed meanwhile, it holds for the site. */
		if (gen == sites_gen)
			*site = (struct site_verdict){ .ip = r->caller, .gen = gen,
						       .kind = r->kind, .rule = rule };
	}
	if (rule >= 0)
		rules[rule].hits++;
	raw_spin_unlock(&rules_lock);
	local_irq_restore(flags);
	if (rule >= 0)
		atomic_long_inc(&dma_owner_stats.ignored);
	return rule >= 0;
}

static int ignore_module_going(struct notifier_block *nb, unsigned long action,
			       void *data)
{
	unsigned long flags;

	if (action == MODULE_STATE_GOING) {
		raw_spin_lock_irqsave(&rules_lock, flags);
		stale_sites();
		raw_spin_unlock_irqrestore(&rules_lock, flags);
	}
	return NOTIFY_DONE;
}

static struct notifier_block ignore_module_nb = {
	.notifier_call = ignore_module_going,
};

static int __init dma_owner_ignore_init(void)
{
	return register_module_notifier(&ignore_module_nb);
}
core_initcall(dma_owner_ignore_init);

/**
 * dma_owner_ignore_show() - list the rules and their hits
 * @m: where to
 * @prefix: put before each line ("" for the ignore file, "ignore: " in stats)
 *
 * One line per rule, "KIND:FUNCTION HITS", oldest rule first.
 */
void dma_owner_ignore_show(struct seq_file *m, const char *prefix)
{
	struct ignore_rule *copy;
	unsigned long flags;
	unsigned int i, n;

	/* seq_printf() may not be called under a raw lock on PREEMPT_RT. */
	copy = kmalloc_array(DMA_OWNER_IGNORE_MAX, sizeof(*copy), GFP_KERNEL);
	if (!copy)
		return;
	raw_spin_lock_irqsave(&rules_lock, flags);
	n = nr_rules;
	memcpy(copy, rules, n * sizeof(*copy));
	raw_spin_unlock_irqrestore(&rules_lock, flags);
	for (i = 0; i < n; i++)
		seq_printf(m, "%s%s:%s %lu\n", prefix, kind_name(copy[i].kind),
			   copy[i].func, copy[i].hits);
	kfree(copy);
}
EXPORT_SYMBOL_IF_KUNIT(dma_owner_ignore_show);

/**
 * dma_owner_ignore_clear_hits() - zero the hits and the ignored total
 *
 * For dma_owner_clear_counters(): they restart with the other counters.
 */
void dma_owner_ignore_clear_hits(void)
{
	unsigned long flags;
	unsigned int i;

	raw_spin_lock_irqsave(&rules_lock, flags);
	for (i = 0; i < nr_rules; i++)
		rules[i].hits = 0;
	raw_spin_unlock_irqrestore(&rules_lock, flags);
	atomic_long_set(&dma_owner_stats.ignored, 0);
}

/* dma_owner.ignore=KIND:FUNCTION,...: for reports made at probe time. */
static int ignore_param_set(const char *val, const struct kernel_param *kp)
{
	char buf[256];

	if (strscpy(buf, val, sizeof(buf)) < 0) {
		pr_err("dma_owner.ignore= longer than %zu characters\n",
		       sizeof(buf) - 1);
		return -E2BIG;
	}
	/* Any refusal is of the value (-ENOENT would read "Unknown parameter"). */
	return dma_owner_ignore_update(buf) ? -EINVAL : 0;
}

static int ignore_param_get(char *buf, const struct kernel_param *kp)
{
	unsigned long flags;
	unsigned int i;
	int len = 0;

	raw_spin_lock_irqsave(&rules_lock, flags);
	for (i = 0; i < nr_rules; i++)
		len += scnprintf(buf + len, PAGE_SIZE - len, "%s%s:%s",
				 i ? "," : "", kind_name(rules[i].kind),
				 rules[i].func);
	raw_spin_unlock_irqrestore(&rules_lock, flags);
	len += scnprintf(buf + len, PAGE_SIZE - len, "\n");
	return len;
}

static const struct kernel_param_ops ignore_param_ops = {
	.set = ignore_param_set,
	.get = ignore_param_get,
};
module_param_cb(ignore, &ignore_param_ops, NULL, 0444);
MODULE_PARM_DESC(ignore, "Reports to count, not make: KIND:FUNCTION,... (KIND may be *)");

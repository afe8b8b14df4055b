// SPDX-License-Identifier: GPL-2.0
/*
 * dmaown: bundles, the tracker's files saved by "dmaown save DIR" so that
 * "dmaown --debugfs DIR status|violations|mappings|filter|ignore" read them
 * on another machine, as they were. A bundle is laid out as debugfs is:
 *
 *   DIR/manifest          "key: value" lines: the format, dmaown's version,
 *                         the kernel, the host and the time of the save,
 *                         what was saved and what was not
 *   DIR/dma-owner/NAME    every readable file of the tracker, as read
 *   DIR/parameters/NAME   the tracker's module parameters (dma_owner.*)
 *
 * The manifest is written last: a directory without one is a save that did
 * not finish, and --debugfs refuses it.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "dmaown.h"

#define MANIFEST	"manifest"
#define PARAMETERS_DIR	"parameters"
/* The manifest's first line; a later layout gets a new number. */
#define FORMAT_KEY	"format: dmaown-bundle "
#define FORMAT		1

/* ---------------------------------------------------------------------- */
/* Reading                                                                */

/* The value of "@key: value" in the manifest @buf, or NULL. */
static char *manifest_value(const char *buf, const char *key)
{
	size_t klen = strlen(key);

	for (const char *line = buf; line && *line; line = strchr(line, '\n')) {
		line += *line == '\n';
		if (!strncmp(line, key, klen) && line[klen] == ':' && line[klen + 1] == ' ')
			return xstrndup(line + klen + 2, strcspn(line + klen + 2, "\n"));
	}
	return NULL;
}

struct bundle *open_bundle(const char *dir)
{
	char path[PATH_MAX + 64];
	struct bundle *b;
	struct stat st;
	char *buf;
	size_t len;
	int format;

	snprintf(path, sizeof(path), "%s/" MANIFEST, dir);
	buf = read_whole_file(path, &len);
	if (!buf)
		return NULL;
	if (strncmp(buf, FORMAT_KEY, strlen(FORMAT_KEY))) {
		free(buf);	/* some other file of that name */
		return NULL;
	}
	format = atoi(buf + strlen(FORMAT_KEY));
	if (format != FORMAT)
		fail("%s is a bundle of format %d, which this dmaown %s does not read (it reads format %d): read it with a newer dmaown",
		     dir, format, DMAOWN_VERSION, FORMAT);
	snprintf(path, sizeof(path), "%s/" TRACKER_DIR_NAME, dir);
	if (stat(path, &st) || !S_ISDIR(st.st_mode))
		fail("%s: a bundle without its %s/ directory: copy the whole directory that dmaown save wrote",
		     dir, TRACKER_DIR_NAME);
	b = xmalloc(sizeof(*b));
	b->dir = xstrdup(dir);
	b->kernel = manifest_value(buf, "kernel");
	b->host = manifest_value(buf, "host");
	b->saved = manifest_value(buf, "saved");
	if (!b->kernel)
		b->kernel = xstrdup("?");
	if (!b->host)
		b->host = xstrdup("?");
	if (!b->saved)
		b->saved = xstrdup("?");
	free(buf);
	return b;
}

/* ---------------------------------------------------------------------- */
/* Writing                                                                */

/*
 * The files the read commands read: a bundle without one of them would
 * not answer, so save fails instead. The others are saved if they can be.
 */
static const char *const needed_files[] = {
	"stats", "filter", "violations", "mappings",
};

static bool needed(const char *name)
{
	for (size_t i = 0; i < sizeof(needed_files) / sizeof(needed_files[0]); i++)
		if (!strcmp(needed_files[i], name))
			return true;
	return false;
}

/*
 * Fails unless @dir does not exist, or is an empty directory that only we
 * may write: save runs as root, and must not write through a directory (or
 * a symbolic link) that another user can change under it.
 */
static void check_new_dir(const char *dir)
{
	struct dirent *de;
	struct stat st;
	DIR *d;

	if (lstat(dir, &st)) {
		if (errno == ENOENT)
			return;
		fail("save: cannot use %s: %s", dir, strerror(errno));
	}
	if (!S_ISDIR(st.st_mode))
		fail("save: %s exists and is not a directory: name a new directory for the bundle",
		     dir);
	if (st.st_uid != geteuid() || (st.st_mode & 022))
		fail("save: %s may be written by others (owner uid %u, mode %03o): name a new directory, or one only you can write",
		     dir, (unsigned int)st.st_uid, (unsigned int)(st.st_mode & 0777));
	d = opendir(dir);
	if (!d)
		fail("save: cannot read the directory %s: %s", dir, strerror(errno));
	while ((de = readdir(d)))
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, ".."))
			fail("save: %s exists and is not empty: save writes a new bundle, so name a new or empty directory",
			     dir);
	closedir(d);
}

/* A directory of the bundle: new, as the bundle is. */
static void make_dir(const char *path, mode_t mode)
{
	if (mkdir(path, mode))
		fail("save: cannot create %s: %s", path, strerror(errno));
}

/* A file of the bundle: new, never through a link. */
static void write_file(const char *path, const char *data, size_t len)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0600);
	FILE *f = fd < 0 ? NULL : fdopen(fd, "w");

	if (!f)
		fail("save: cannot create %s: %s", path, strerror(errno));
	if (fwrite(data, 1, len, f) != len || fclose(f))
		fail("save: cannot write %s: %s", path, strerror(errno));
}

/* A growing string of space-separated words. */
static void add_word(char **list, const char *word)
{
	char *old = *list;

	*list = xasprintf("%s%s%s", old ? old : "", old ? " " : "", word);
	free(old);
}

/*
 * Copy the readable files of @from into @to (created), adding their names
 * to @saved and a line per file left out to @not_saved. Returns how many
 * it copied; -1 if @from does not exist.
 */
static int copy_kernel_dir(const char *from, const char *to, bool tracker,
			   char **saved, char **not_saved)
{
	struct kernel_file *fs;
	char path[PATH_MAX + 256];
	int n, copied = 0;

	n = read_kernel_dir(from, &fs);
	if (n == -ENOENT)
		return -1;
	if (n < 0)
		fail("save: cannot read the directory %s: %s", from, strerror(-n));
	make_dir(to, 0700);
	for (int i = 0; i < n; i++) {
		const struct kernel_file *f = &fs[i];
		char *why;

		if (f->write_only || !f->data) {
			if (tracker && needed(f->name))
				fail("save: cannot read %s/%s: %s", from, f->name,
				     f->write_only ? "write-only" : strerror(f->err));
			why = xasprintf("not_saved: %s/%s (%s)\n", from, f->name,
					f->write_only ? "write-only" : strerror(f->err));
			if (!f->write_only)
				fprintf(stderr, "dmaown: save: %s", why + strlen("not_saved: "));
			*not_saved = xasprintf("%s%s", *not_saved ? *not_saved : "", why);
			free(why);
			continue;
		}
		snprintf(path, sizeof(path), "%s/%s", to, f->name);
		write_file(path, f->data, f->len);
		add_word(saved, f->name);
		copied++;
	}
	free_kernel_files(fs, n);
	return copied;
}

/* Seconds since boot, as the reports' time= and dmesg count them. */
static double uptime_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

void save_bundle(const char *dir)
{
	char *files = NULL, *parameters = NULL, *not_saved = NULL, *manifest;
	char path[PATH_MAX + 64], tmp[PATH_MAX + 64], saved[32];
	struct utsname u;
	time_t now = time(NULL);
	int nfiles, nparams;

	check_new_dir(dir);
	/* As debugfs, readable by its owner only. */
	if (mkdir(dir, 0700) && (errno != EEXIST || chmod(dir, 0700)))
		fail("save: cannot create %s: %s", dir, strerror(errno));

	snprintf(path, sizeof(path), "%s/" TRACKER_DIR_NAME, dir);
	nfiles = copy_kernel_dir(tracker_dir, path, true, &files, &not_saved);
	if (nfiles < 0)
		fail("save: %s disappeared", tracker_dir);
	snprintf(path, sizeof(path), "%s/" PARAMETERS_DIR, dir);
	nparams = copy_kernel_dir(TRACKER_PARAMETERS, path, false, &parameters,
				  &not_saved);

	uname(&u);
	strftime(saved, sizeof(saved), "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
	manifest = xasprintf(FORMAT_KEY "%d\n"
			     "dmaown: %s\n"
			     "kernel: %s\n"
			     "kernel_version: %s\n"
			     "machine: %s\n"
			     "host: %s\n"
			     "saved: %s\n"
			     "uptime_s: %.3f\n"
			     "source: %s\n"
			     "files: %s\n"
			     "parameters: %s\n"
			     "%s",
			     FORMAT, DMAOWN_VERSION, u.release, u.version, u.machine,
			     u.nodename, saved, uptime_s(), tracker_dir, files ? files : "",
			     nparams < 0 ? "(none: " TRACKER_PARAMETERS " does not exist)" :
			     parameters ? parameters : "",
			     not_saved ? not_saved : "");
	/* Last, and whole: its presence says the bundle is complete. */
	snprintf(tmp, sizeof(tmp), "%s/" MANIFEST ".tmp", dir);
	snprintf(path, sizeof(path), "%s/" MANIFEST, dir);
	write_file(tmp, manifest, strlen(manifest));
	if (rename(tmp, path))
		fail("save: cannot rename %s to %s: %s", tmp, path, strerror(errno));

	printf("saved %d files of %s (%s)", nfiles, tracker_dir, files ? files : "");
	if (nparams >= 0)
		printf(" and %d module parameters", nparams);
	printf(" to %s, kernel %s\n", dir, u.release);
	printf("read it on any machine with: dmaown --debugfs %s status (or violations, mappings, ...)\n",
	       dir);
	free(manifest);
	free(files);
	free(parameters);
	free(not_saved);
}

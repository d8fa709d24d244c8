/*
 * The mapping file of the MPI examples (README.md, "The mapping file"): lines
 * `MPI_RANK PORT_GUID`, which host port of a plan (an all-to-all schedule, a broadcast
 * plan) every MPI rank stands for. Shared by the examples as a header of static functions,
 * so each stays one .c file that builds on its own with the Makefile; the plan is reached
 * through two callbacks (GUID -> rank, rank -> GUID).
 */
#ifndef IBFAT_MPI_MAPPING_H
#define IBFAT_MPI_MAPPING_H

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { EXIT_MISMATCH = 1, EXIT_INPUT = 2 };
enum { MSG_LEN = 1024, LINE_LEN = 512 };
#define NO_RANK UINT32_MAX

/* Problems a rank prints on stderr before it only counts them. */
enum { MAX_REPORTS = 5 };

/* One problem of rank `me` of a plan, prefixed by `who` ("bcast: plan rank"); the first
 * MAX_REPORTS are printed, the rest only counted in *reports. */
static void report_problem(const char *who, uint32_t me, unsigned *reports, const char *fmt, ...)
{
	va_list ap;
	if (++*reports > MAX_REPORTS)
		return;
	fprintf(stderr, "%s %u: ", who, me);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

/* What a failed setup step says (every rank finds the same error in the same files). */
static char setup_error[MSG_LEN];

static int fail(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(setup_error, sizeof setup_error, fmt, ap);
	va_end(ap);
	return EXIT_INPUT;
}

/* The mapping both ways: schedule rank of every MPI rank and MPI rank of every schedule
 * rank (NO_RANK where nobody stands for it). */
struct mapping {
	uint32_t *sched_of_mpi;
	uint32_t *mpi_of_sched;
	unsigned *line_of_mpi;
};

/* The plan's rank of a port GUID (0 when it has one), and the GUID of a rank. */
typedef int (*mapping_rank_of_fn)(const void *plan, uint64_t guid, uint32_t *rank);
typedef uint64_t (*mapping_guid_of_fn)(const void *plan, uint32_t rank);

/* Read `path`: lines `MPI_RANK PORT_GUID`, blank lines and `#` comments ignored; `n` MPI
 * ranks and plan ranks; `sched_path` names the plan in messages. */
static int read_mapping(const char *path, const char *sched_path, const void *plan, mapping_rank_of_fn rank_of,
			mapping_guid_of_fn guid_of, uint32_t n, struct mapping *m)
{
	FILE *f = fopen(path, "r");
	char line[LINE_LEN];
	unsigned lineno = 0;
	int rc = 0;

	if (!f)
		return fail("%s: cannot open the mapping file: %s", path, strerror(errno));
	for (uint32_t i = 0; i < n; i++)
		m->sched_of_mpi[i] = m->mpi_of_sched[i] = NO_RANK;
	while (rc == 0 && fgets(line, sizeof line, f)) {
		unsigned long mpi;
		uint64_t guid;
		uint32_t rank;
		char *p = line, *end;

		lineno++;
		if (!strchr(line, '\n') && !feof(f)) {
			rc = fail("%s:%u: line longer than %d characters", path, lineno, LINE_LEN - 2);
			break;
		}
		line[strcspn(line, "#\r\n")] = '\0';
		p += strspn(p, " \t");
		if (*p == '\0')
			continue;
		errno = 0;
		mpi = strtoul(p, &end, 10);
		if (!isdigit((unsigned char)*p) || errno || (*end != ' ' && *end != '\t')) {
			rc = fail("%s:%u: expected `MPI_RANK PORT_GUID` (like `0 0x0002c90020000001`), got `%s`",
				  path, lineno, p);
			break;
		}
		p = end + strspn(end, " \t");
		errno = 0;
		guid = strtoull(p, &end, 16);
		if (strncmp(p, "0x", 2) != 0 || end == p + 2 || errno ||
		    end[strspn(end, " \t")] != '\0') {
			rc = fail("%s:%u: `%s` is not a port GUID (0x and up to 16 hex digits)", path, lineno, p);
			break;
		}
		if (mpi >= n) {
			rc = fail("%s:%u: MPI rank %lu, but mpirun started %u processes (ranks 0-%u)", path,
				  lineno, mpi, n, n - 1);
			break;
		}
		if (m->sched_of_mpi[mpi] != NO_RANK) {
			rc = fail("%s:%u: MPI rank %lu is already mapped on line %u", path, lineno, mpi,
				  m->line_of_mpi[mpi]);
			break;
		}
		if (rank_of(plan, guid, &rank) != 0) {
			rc = fail("%s:%u: MPI rank %lu: host 0x%016" PRIx64 " is not in the schedule %s; "
				  "map every MPI rank to one of its \"hosts\"",
				  path, lineno, mpi, guid, sched_path);
			break;
		}
		if (m->mpi_of_sched[rank] != NO_RANK) {
			rc = fail("%s:%u: host 0x%016" PRIx64 " is already MPI rank %u (line %u); one process per host port",
				  path, lineno, guid, m->mpi_of_sched[rank], m->line_of_mpi[m->mpi_of_sched[rank]]);
			break;
		}
		m->sched_of_mpi[mpi] = rank;
		m->mpi_of_sched[rank] = (uint32_t)mpi;
		m->line_of_mpi[mpi] = lineno;
	}
	if (rc == 0 && ferror(f))
		rc = fail("%s: read error: %s", path, strerror(errno));
	fclose(f);
	for (uint32_t i = 0; rc == 0 && i < n; i++) {
		if (m->sched_of_mpi[i] == NO_RANK)
			rc = fail("%s: MPI rank %u has no line; every MPI rank 0-%u needs one", path, i, n - 1);
		else if (m->mpi_of_sched[i] == NO_RANK) {
			rc = fail("%s: schedule rank %u (host 0x%016" PRIx64 ") has no MPI process: its peers would "
				  "wait forever", path, i, guid_of(plan, i));
		}
	}
	return rc;
}

/* Room for the mapping of n ranks; 0, or an exit status with setup_error set. */
static int mapping_alloc(struct mapping *m, uint32_t n)
{
	m->sched_of_mpi = malloc(n * sizeof(uint32_t));
	m->mpi_of_sched = malloc(n * sizeof(uint32_t));
	m->line_of_mpi = calloc(n, sizeof(unsigned));
	if (!m->sched_of_mpi || !m->mpi_of_sched || !m->line_of_mpi)
		return fail("out of memory");
	return 0;
}

static void mapping_free(struct mapping *m)
{
	free(m->sched_of_mpi);
	free(m->mpi_of_sched);
	free(m->line_of_mpi);
}

/* The mapping of a plan of `ranks` ranks (read from `plan_path`) for the `size` MPI
 * processes mpirun started: refused unless they are as many, then read from `path`. */
static int mapping_for(const char *path, const char *plan_path, const void *plan, mapping_rank_of_fn rank_of,
		       mapping_guid_of_fn guid_of, uint32_t ranks, int size, struct mapping *m)
{
	if (ranks != (uint32_t)size)
		return fail("%s has %u ranks but mpirun started %d processes: run it with -np %u", plan_path, ranks,
			    size, ranks);
	if (mapping_alloc(m, ranks))
		return EXIT_INPUT;
	return read_mapping(path, plan_path, plan, rank_of, guid_of, ranks, m);
}

#endif

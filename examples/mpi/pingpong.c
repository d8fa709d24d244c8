/*
 * Measure Hockney's L and B between two MPI ranks and save them as the profile file
 * `ibfat predict --profile FILE` reads (docs/predict.md §1):
 *
 *   latency: <seconds>
 *   bandwidth: <bytes per second>
 *
 *   mpirun -np 2 ./pingpong PROFILE [SMALL_BYTES [LARGE_BYTES [REPETITIONS]]]
 *
 * Rank 0 sends a message to rank 1, which sends it back (MPI_Send / MPI_Recv), for
 * REPETITIONS round trips of SMALL_BYTES (default 8) and of LARGE_BYTES (default 4 MiB),
 * after a few untimed ones. The latency L is half the median small round trip; a large
 * message takes half the median large round trip, t, and the bandwidth is
 * B = LARGE_BYTES / (t - L) (LARGE_BYTES / t when noise makes t no more than L), so that
 * L + M/B meets both measurements. Every byte that comes back is checked.
 *
 * Rank 0 writes PROFILE atomically (a temporary file next to it, then rename): the old
 * file stays whole until the new one is complete. Exit status 0, 1 when a message came
 * back wrong (nothing written), 2 on bad input (arguments, not two processes; nothing
 * written).
 */
#define _POSIX_C_SOURCE 200809L /* fileno, fsync, getpid */
#include <errno.h>
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { EXIT_MISMATCH = 1, EXIT_INPUT = 2, WARMUP = 3 };
#define MAX_BYTES (1UL << 30)
#define MAX_REPS 100000UL

static int by_value(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

static double median(double *v, unsigned long n)
{
	qsort(v, n, sizeof *v, by_value);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* An argument from lo to hi, or 0 with a message on stderr (rank 0 only). */
static unsigned long number(const char *arg, const char *what, unsigned long lo, unsigned long hi, int say)
{
	char *end;
	errno = 0;
	unsigned long v = strtoul(arg, &end, 10);
	if (*end || end == arg || *arg == '-' || errno || v < lo || v > hi) {
		if (say)
			fprintf(stderr, "pingpong: %s: `%s` is not a number from %lu to %lu\n", what, arg, lo, hi);
		return 0;
	}
	return v;
}

/* Median round trip of `reps` exchanges of `len` bytes; counts bytes that came back wrong. */
static double round_trip(int me, uint8_t *buf, uint8_t *back, size_t len, unsigned long reps,
			 unsigned long long *wrong)
{
	double *t = malloc(reps * sizeof *t);
	if (!t) {
		fprintf(stderr, "pingpong: out of memory\n");
		MPI_Abort(MPI_COMM_WORLD, EXIT_INPUT);
	}
	for (size_t k = 0; k < len; k++)
		buf[k] = (uint8_t)(k * 131 + len);
	for (unsigned long i = 0; i < reps + WARMUP; i++) {
		double start = MPI_Wtime();
		if (me == 0) {
			MPI_Send(buf, (int)len, MPI_BYTE, 1, 0, MPI_COMM_WORLD);
			MPI_Recv(back, (int)len, MPI_BYTE, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		} else {
			MPI_Recv(back, (int)len, MPI_BYTE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
			MPI_Send(back, (int)len, MPI_BYTE, 0, 0, MPI_COMM_WORLD);
		}
		double took = MPI_Wtime() - start;
		if (i >= WARMUP)
			t[i - WARMUP] = took;
		if (me == 0 && i == WARMUP)
			for (size_t k = 0; k < len; k++)
				*wrong += back[k] != buf[k];
	}
	double m = median(t, reps);
	free(t);
	return m;
}

/* Write the profile to `path` through a temporary file and rename; 0 or an error said. */
static int save(const char *path, double latency, double bandwidth)
{
	size_t n = strlen(path) + 32;
	char *tmp = malloc(n);
	FILE *f;
	if (!tmp)
		return -1;
	snprintf(tmp, n, "%s.tmp.%ld", path, (long)getpid());
	f = fopen(tmp, "w");
	if (!f) {
		fprintf(stderr, "pingpong: cannot write %s: %s\n", tmp, strerror(errno));
		free(tmp);
		return -1;
	}
	int bad = fprintf(f, "latency: %.9g\nbandwidth: %.9g\n", latency, bandwidth) < 0;
	bad |= fflush(f) != 0 || fsync(fileno(f)) != 0;
	bad |= fclose(f) != 0;
	if (bad || rename(tmp, path) != 0) {
		fprintf(stderr, "pingpong: cannot write %s: %s\n", path, strerror(errno));
		remove(tmp);
		free(tmp);
		return -1;
	}
	free(tmp);
	return 0;
}

int main(int argc, char **argv)
{
	unsigned long small = 8, large = 4UL << 20, reps = 100;
	unsigned long long wrong = 0, wrong_all = 0;
	int me, size, rc = 0;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &me);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	/* every rank checks the same arguments; rank 0 says what is wrong */
	if (argc < 2 || argc > 5) {
		if (me == 0)
			fprintf(stderr, "pingpong: usage: mpirun -np 2 %s PROFILE [SMALL_BYTES [LARGE_BYTES [REPETITIONS]]]\n",
				argv[0]);
		rc = EXIT_INPUT;
	} else if (size != 2) {
		if (me == 0)
			fprintf(stderr, "pingpong: mpirun started %d processes; run it with -np 2\n", size);
		rc = EXIT_INPUT;
	} else if ((argc > 2 && !(small = number(argv[2], "SMALL_BYTES", 1, MAX_BYTES, me == 0))) ||
		   (argc > 3 && !(large = number(argv[3], "LARGE_BYTES", 1, MAX_BYTES, me == 0))) ||
		   (argc > 4 && !(reps = number(argv[4], "REPETITIONS", 1, MAX_REPS, me == 0)))) {
		rc = EXIT_INPUT;
	} else if (large <= small) {
		if (me == 0)
			fprintf(stderr, "pingpong: LARGE_BYTES (%lu) must exceed SMALL_BYTES (%lu)\n", large, small);
		rc = EXIT_INPUT;
	}
	if (rc) {
		MPI_Finalize();
		return rc;
	}

	uint8_t *buf = malloc(large), *back = malloc(large);
	if (!buf || !back) {
		fprintf(stderr, "pingpong: out of memory for %lu bytes\n", large);
		MPI_Abort(MPI_COMM_WORLD, EXIT_INPUT);
	}
	double t_small = round_trip(me, buf, back, small, reps, &wrong) / 2;
	double t_large = round_trip(me, buf, back, large, reps, &wrong) / 2;
	MPI_Allreduce(&wrong, &wrong_all, 1, MPI_UNSIGNED_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
	if (me == 0) {
		double latency = t_small;
		double bandwidth = (double)large / (t_large > latency ? t_large - latency : t_large);
		if (wrong_all) {
			fprintf(stderr, "pingpong: %llu bytes came back wrong; no profile written\n", wrong_all);
			rc = EXIT_MISMATCH;
		} else if (!(latency > 0) || !(bandwidth > 0) || save(argv[1], latency, bandwidth)) {
			if (!(latency > 0) || !(bandwidth > 0))
				fprintf(stderr, "pingpong: the clock gave latency %g s, bandwidth %g B/s; no profile written\n",
					latency, bandwidth);
			rc = EXIT_INPUT;
		} else {
			printf("ibfat-mpi-pingpong: small=%lu large=%lu repetitions=%lu latency=%.9g bandwidth=%.9g profile=%s\n",
			       small, large, reps, latency, bandwidth, argv[1]);
		}
	}
	MPI_Bcast(&rc, 1, MPI_INT, 0, MPI_COMM_WORLD);
	free(buf);
	free(back);
	MPI_Finalize();
	return rc;
}

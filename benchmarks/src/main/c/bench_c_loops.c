/*
 * OpsTableBench's C baseline: the data-path calls OpsTableBench makes from Java, made from C
 * through the same function pointers of the same fake provider (bench_provider.c), in the same
 * run. Each loop calls verbs.h's static inline ibv_post_send / ibv_poll_cq, which read
 * ctx->ops on every call, as a C application does. Java calls a loop once per n iterations, so
 * the one downcall is spread over n calls. Compiled together with bench_provider.c.
 */
#include <infiniband/verbs.h>
#include <stdint.h>

/* n x ibv_post_send(qp, wr); returns the sum of the return values (0 when all succeeded). */
long bench_c_post_send(struct ibv_qp *qp, struct ibv_send_wr *wr, long n)
{
	struct ibv_send_wr *bad_wr;
	long failed = 0;

	for (long i = 0; i < n; i++)
		failed += ibv_post_send(qp, wr, &bad_wr);
	return failed;
}

/* n x ibv_poll_cq(cq, num_entries, wc); returns the completions polled. */
long bench_c_poll_cq(struct ibv_cq *cq, int num_entries, struct ibv_wc *wc, long n)
{
	long polled = 0;

	for (long i = 0; i < n; i++)
		polled += ibv_poll_cq(cq, num_entries, wc);
	return polled;
}

/* n x (post, poll, read the completion's wr_id); returns the sum of the wr_ids read. */
long bench_c_post_poll_read(struct ibv_qp *qp, struct ibv_send_wr *wr, struct ibv_cq *cq, int num_entries,
			    struct ibv_wc *wc, long n)
{
	struct ibv_send_wr *bad_wr;
	uint64_t sum = 0;

	for (long i = 0; i < n; i++) {
		ibv_post_send(qp, wr, &bad_wr);
		if (ibv_poll_cq(cq, num_entries, wc) > 0)
			sum += ((volatile struct ibv_wc *)wc)->wr_id;
	}
	return (long)sum;
}

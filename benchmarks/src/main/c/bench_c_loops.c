/*
 * OpsTableBench's C baseline: the data-path calls OpsTableBench makes from Java, made from C
 * through the same function pointers of the same fake provider (bench_provider.c and the
 * benchmark's extended provider), in the same run. Each loop calls verbs.h's static inline
 * ibv_post_send / ibv_post_recv / ibv_poll_cq / ibv_wr_*, which read ctx->ops (or the ibv_qp_ex
 * pointers) on every call, as a C application does. Java calls a loop once per n iterations, so
 * the one downcall is spread over n calls. Compiled together with bench_provider.c.
 */
#include <infiniband/verbs.h>
#include <stdint.h>

/*
 * long name(qp, wr, n): n x post(qp, wr, &bad_wr), one of the two post verbs with its request type;
 * returns the sum of the return values (0 when all succeeded).
 */
#define BENCH_POST_LOOP(name, post, wr_type)					\
	long name(struct ibv_qp *qp, struct wr_type *wr, long n)		\
	{									\
		struct wr_type *bad_wr;						\
		long failed = 0;						\
										\
		for (long i = 0; i < n; i++)					\
			failed += post(qp, wr, &bad_wr);			\
		return failed;							\
	}

BENCH_POST_LOOP(bench_c_post_send, ibv_post_send, ibv_send_wr)
BENCH_POST_LOOP(bench_c_post_recv, ibv_post_recv, ibv_recv_wr)

/*
 * n x one ibv_wr_* batch of the RDMA WRITEs chained from wr (one entry each), as a C application
 * writes it: ibv_wr_start, per request wr_id, wr_flags, ibv_wr_rdma_write and ibv_wr_set_sge,
 * then ibv_wr_complete; returns the sum of ibv_wr_complete's results.
 */
long bench_c_wr_batch(struct ibv_qp_ex *qpx, struct ibv_send_wr *wr, long n)
{
	long failed = 0;

	for (long i = 0; i < n; i++) {
		ibv_wr_start(qpx);
		for (struct ibv_send_wr *r = wr; r; r = r->next) {
			qpx->wr_id = r->wr_id;
			qpx->wr_flags = r->send_flags;
			ibv_wr_rdma_write(qpx, r->wr.rdma.rkey, r->wr.rdma.remote_addr);
			ibv_wr_set_sge(qpx, r->sg_list[0].lkey, r->sg_list[0].addr, r->sg_list[0].length);
		}
		failed += ibv_wr_complete(qpx);
	}
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

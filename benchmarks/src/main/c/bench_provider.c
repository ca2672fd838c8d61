/*
 * A minimal fake provider for OpsTableBench: an ibv_context whose ops do the least a real
 * provider does (read the request, write a completion), so the benchmark measures the Java
 * dispatch through ctx->ops, not the provider. Compiled by the benchmark at setup with
 * gcc -shared -fPIC; it links nothing, libibverbs is not needed.
 */
#include <infiniband/verbs.h>
#include <stdint.h>
#include <stdlib.h>

uint64_t bench_posted;

static int bench_post_send(struct ibv_qp *qp, struct ibv_send_wr *wr, struct ibv_send_wr **bad_wr)
{
	for (; wr; wr = wr->next)
		bench_posted += wr->wr_id;
	return 0;
}

static int bench_post_recv(struct ibv_qp *qp, struct ibv_recv_wr *wr, struct ibv_recv_wr **bad_wr)
{
	for (; wr; wr = wr->next)
		bench_posted += wr->wr_id;
	return 0;
}

static int bench_poll_cq(struct ibv_cq *cq, int num_entries, struct ibv_wc *wc)
{
	if (num_entries < 1)
		return 0;
	wc[0].wr_id = bench_posted;
	wc[0].status = IBV_WC_SUCCESS;
	wc[0].opcode = IBV_WC_SEND;
	return 1;
}

static int bench_req_notify_cq(struct ibv_cq *cq, int solicited_only)
{
	return 0;
}

struct ibv_context *bench_context(void)
{
	struct verbs_context *vctx = calloc(1, sizeof(*vctx));
	struct ibv_context *ctx = &vctx->context;

	ctx->ops.post_send = bench_post_send;
	ctx->ops.post_recv = bench_post_recv;
	ctx->ops.poll_cq = bench_poll_cq;
	ctx->ops.req_notify_cq = bench_req_notify_cq;
	return ctx;
}

struct ibv_qp *bench_qp(struct ibv_context *ctx)
{
	struct ibv_qp *qp = calloc(1, sizeof(*qp));
	qp->context = ctx;
	return qp;
}

struct ibv_cq *bench_cq(struct ibv_context *ctx)
{
	struct ibv_cq *cq = calloc(1, sizeof(*cq));
	cq->context = ctx;
	return cq;
}

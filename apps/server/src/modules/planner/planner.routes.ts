import { ErrorResponse, PLAN_FILE_NAME, PlanQuery, PlanResponse, XLSX_CONTENT_TYPE } from '@accord/contracts';
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errors } from '../../lib/errors.ts';
import { reportBytes } from '../../lib/report-workbook.ts';
import { currentUser, requirePermission } from '../../plugins/auth.ts';
import { planReport } from './planner.presenter.ts';
import type { PlannerService } from './planner.service.ts';

const errorResponses = { 400: ErrorResponse, 401: ErrorResponse, 403: ErrorResponse };
const WHO =
  ' Researchers and admins (403 otherwise). The base is chosen as for norms; a base of fewer than 5 studies of at least 3 clients is too small for a trustworthy estimate: status "withheld" with the reason and no plan.';

/** A workbook as a download. */
function sendWorkbook(reply: FastifyReply, bytes: Buffer) {
  return reply
    .type(XLSX_CONTENT_TYPE)
    .header('content-disposition', `attachment; filename="${PLAN_FILE_NAME}"`)
    .send(bytes);
}

/** The study planner: researchers and admins. */
export const plannerRoutes: FastifyPluginAsyncZod<{ planner: PlannerService }> = async (app, { planner }) => {
  const tags = ['planner'];
  const guard = requirePermission('canAccessAnalytics');

  app.get(
    '/plan',
    {
      preHandler: guard,
      schema: {
        tags,
        summary:
          "Consumers needed for a planned test: from the base's answers the standard deviation of one answer (pooled within products), the box share and the correlation of a consumer's answers to two products (complete-block studies); for the difference, design, products, alpha, power and correction the consumers needed (per product monadic, in all sequential monadic), the same plan against the base's P75 and the power curve." +
          WHO,
        querystring: PlanQuery,
        response: { 200: PlanResponse, ...errorResponses },
      },
    },
    async (request) => planner.plan(currentUser(request), request.query),
  );

  app.get(
    '/plan/xlsx',
    {
      preHandler: guard,
      schema: {
        tags,
        summary: `A plan as ${PLAN_FILE_NAME}: the base, the estimates, the consumers needed, the action standard plan and the power curve. A base too small or without a plan answers 404 with the reason.${WHO}`,
        querystring: PlanQuery,
        response: { ...errorResponses, 404: ErrorResponse },
      },
    },
    async (request, reply) => {
      const user = currentUser(request);
      const plan = await planner.plan(user, request.query);
      if (plan.status !== 'available' || plan.plan === null)
        throw errors.notFound(plan.reason ?? plan.plan_reason ?? undefined);
      const report = planReport(plan, { author: user.email, date: new Date() });
      return sendWorkbook(reply, await reportBytes('Plan', report.header, report.table));
    },
  );
};

import { z } from 'zod';

/**
 * GET /api/health: whether this server and its database answer, for a load balancer or service
 * manager. 200 with status "ok" when the database answered `select 1`; 503 with status
 * "unavailable" (and the database's error) when it did not. No sign-in needed.
 */
export const HealthResponse = z
  .object({
    status: z.enum(['ok', 'unavailable']),
    name: z.string(),
    version: z.string(),
    /** Seconds since this server process started. */
    uptimeSeconds: z.number().nonnegative(),
    database: z.object({
      engine: z.enum(['pglite', 'postgresql']),
      ok: z.boolean(),
      /** Time of the database's answer to `select 1`, or until it failed (ms). */
      latencyMs: z.number().nonnegative(),
      /** Why the database did not answer (only when ok is false). */
      error: z.string().optional(),
    }),
  })
  .meta({ id: 'HealthResponse' });
export type HealthResponse = z.infer<typeof HealthResponse>;

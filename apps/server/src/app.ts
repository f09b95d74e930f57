/**
 * Builds the Fastify application: security headers, validation with the shared zod schemas, the
 * OpenAPI document, sessions, every feature's routes under /api, and the built SPA at /.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import cookie from '@fastify/cookie';
import rateLimit from '@fastify/rate-limit';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { MESSAGES, PAGINATION_HEADERS, refuseNulText, STUDIES_UPLOAD_MESSAGES } from '@accord/contracts';
import Fastify, { LogController, type FastifyInstance, type FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  hasZodFastifySchemaValidationErrors,
  isResponseSerializationError,
  jsonSchemaTransform,
  jsonSchemaTransformObject,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import { inBackground } from './db/background-queries.ts';
import type { Database } from './db/client.ts';
import type { JobQueue } from './jobs/queue.ts';
import type { Clock } from './lib/clock.ts';
import { AppError, isDiskFull } from './lib/errors.ts';
import { withOperationId } from './openapi/operation-id.ts';
import { cleanDocument, withNonJsonAnswers } from './openapi/responses.ts';
import { issueInWords } from './lib/validation-message.ts';
import type { Mailer } from './lib/mailer.ts';
import { analyticsDeps, analyticsRoutes } from './modules/analytics/analytics.routes.ts';
import { decksRoutes } from './modules/decks/decks.routes.ts';
import { fragranceDeckRoutes } from './modules/decks/fragrance-deck.ts';
import { normDeckRoutes } from './modules/decks/norm-deck.ts';
import { rankingDeckRoutes } from './modules/decks/ranking-deck.ts';
import { comparisonDeckRoutes } from './modules/decks/comparison-decks.ts';
import { registerAnalyticsJobs } from './modules/analytics/analytics.service.ts';
import { createAnalyticsRepository } from './modules/analytics/analytics.repository.ts';
import { comparisonsRoutes } from './modules/comparisons/comparisons.routes.ts';
import { rankingsRoutes } from './modules/comparisons/rankings.routes.ts';
import { createNormsRepository } from './modules/norms/norms.repository.ts';
import { normsRoutes } from './modules/norms/norms.routes.ts';
import { createNormsService } from './modules/norms/norms.service.ts';
import { createDriversRepository } from './modules/drivers/drivers.repository.ts';
import { driversRoutes } from './modules/drivers/drivers.routes.ts';
import { createDriversService } from './modules/drivers/drivers.service.ts';
import { createPlannerRepository } from './modules/planner/planner.repository.ts';
import { plannerRoutes } from './modules/planner/planner.routes.ts';
import { createPlannerService } from './modules/planner/planner.service.ts';
import {
  createComparisonsService,
  registerComparisonJobs,
} from './modules/comparisons/comparisons.service.ts';
import { authRoutes } from './modules/auth/auth.routes.ts';
import { fragranceRoutes } from './modules/fragrance/fragrance.routes.ts';
import { createAuthService } from './modules/auth/auth.service.ts';
import { cicsModule } from './modules/cics/index.ts';
import { fileProcessModule } from './modules/fileprocess/index.ts';
import { createSessionRepository } from './modules/auth/session.repository.ts';
import { createFieldsRepository } from './modules/fields/fields.repository.ts';
import { fieldsRoutes } from './modules/fields/fields.routes.ts';
import { savedSearchesRoutes } from './modules/saved-searches/saved-searches.routes.ts';
import { createMappingRepository } from './modules/mapping/mapping.repository.ts';
import { mappingRoutes } from './modules/mapping/mapping.routes.ts';
import { createMappingService } from './modules/mapping/mapping.service.ts';
import { createSearchRepository } from './modules/search/search.repository.ts';
import { searchRoutes } from './modules/search/search.routes.ts';
import { createStatisticsRepository } from './modules/statistics/statistics.repository.ts';
import { statisticsRoutes } from './modules/statistics/statistics.routes.ts';
import { createStatisticsService } from './modules/statistics/statistics.service.ts';
import { createSearchService } from './modules/search/search.service.ts';
import { createSettingsRepository, settingsRoutes } from './modules/settings/settings.routes.ts';
import { registerStudyFileJobs } from './modules/study/study-files.jobs.ts';
import { createStudyFilesRepository } from './modules/study/study-files.repository.ts';
import { studyFilesRoutes } from './modules/study/study-files.routes.ts';
import { createStudyFilesService } from './modules/study/study-files.service.ts';
import { createStudyRepository } from './modules/study/study.repository.ts';
import { studyRoutes } from './modules/study/study.routes.ts';
import { createDriverTraceRepository } from './modules/trace/driver-trace.repository.ts';
import { driverTraceRoutes } from './modules/trace/driver-trace.routes.ts';
import { createDriverTraceService } from './modules/trace/driver-trace.service.ts';
import { traceDeps, traceRoutes } from './modules/trace/trace.routes.ts';
import { createStudyService } from './modules/study/study.service.ts';
import { systemRoutes, testHookRoutes } from './modules/system/system.routes.ts';
import { createUsersRepository } from './modules/users/users.repository.ts';
import { usersRoutes } from './modules/users/users.routes.ts';
import { createUsersService } from './modules/users/users.service.ts';
import { authPlugin } from './plugins/auth.ts';
import { compressAnswers } from './plugins/compress-answers.ts';
import { requestLog, type LogLevel } from './plugins/request-log.ts';
import { webAppRoutes } from './plugins/web-app.ts';
import { registerSecurityHeaders } from './plugins/security-headers.ts';
import type { FileStorage } from './storage/file-storage.ts';
import { warmUploadWorkers } from './workers/pool.ts';

export interface AppDeps {
  database: Database;
  /** The job queue on the same database; the caller starts it and stops it after the app closes. */
  jobs: JobQueue;
  /** Run the features' job workers in this process (default true; false for a web-only process). */
  workers?: boolean;
  storage: FileStorage;
  mailer: Mailer;
  clock: Clock;
  version: string;
  publicUrl: string;
  /** Further origins a mailed reset link may point at (see config.ts). */
  resetLinkOrigins?: readonly string[];
  /** Built SPA folder; not served when absent. */
  webDist?: string;
  /** Sign-in and reset-mail requests per minute from one address (default 30). */
  loginRateLimit?: number;
  /** Fastify's trustProxy: whether X-Forwarded-For names the client (default false). */
  trustProxy?: boolean | number | string;
  testHooks?: boolean;
  /** Level of the JSON log lines on stdout (LOG_LEVEL; default silent, as tests want). */
  logLevel?: LogLevel;
  /** Where the log lines go instead of stdout (tests read them). */
  logStream?: { write(line: string): void };
  /** Answer the web app's source maps (ACCORD_SOURCE_MAPS; default off). */
  sourceMaps?: boolean;
  /** When the process started (the health check's uptime); default when the app was built. */
  startedAt?: number;
  /** Limits of studies uploads (defaults: the constants of packages/contracts). */
  uploads?: { quotaBytes?: number; maxStatusStreams?: number };
  /**
   * Fill the analytics caches once the app is ready (analytics.service.ts warmUp), as background work
   * that neither delays listening nor holds off requests, in a process that runs the job workers;
   * progress lines go to `log`. Off by default (tests).
   */
  warmUp?: { log: (line: string) => void };
}

/**
 * The service with each of its async methods run through `readFromReplica` (db/read-routing.ts), so
 * that its plain reads may be answered by a current read replica. Without replicas: the service.
 */
function readingOnReplica<T extends object>(database: Database, service: T): T {
  if (database.readReplicas === 0) return service;
  return new Proxy(service, {
    get(target, key, receiver) {
      const value: unknown = Reflect.get(target, key, receiver);
      // Only async methods: wrapping would turn a synchronous answer into a promise.
      if (typeof value !== 'function' || value.constructor.name !== 'AsyncFunction') return value;
      const method = value as (...args: unknown[]) => Promise<unknown>;
      return (...args: unknown[]) => database.readFromReplica(() => method.apply(target, args));
    },
  });
}

/** The queue with each job of `register`ed workers run through `readFromReplica`. */
function jobsReadingOnReplica(database: Database, jobs: JobQueue): JobQueue {
  if (database.readReplicas === 0) return jobs;
  return {
    ...jobs,
    register: <T extends object>(
      name: string,
      handler: (data: T) => Promise<void>,
      options?: Parameters<JobQueue['register']>[2],
    ) => jobs.register<T>(name, (data) => database.readFromReplica(() => handler(data)), options),
  };
}

/** Trusts the first `hops` proxies in front of the server (Fastify's numeric trustProxy). */
function trustHops(hops: number) {
  return (_address: string, hop: number) => hop < hops;
}

export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  // Uploads are checked and report spreadsheets written in worker threads: they are loaded before the
  // first one arrives (here, not in a plugin, whose start has a time limit that loading threads on a
  // busy machine may pass). A web-only process writes spreadsheets too. Loaded first, not beside the
  // plugins' registration: on a busy machine a plugin that uses them then waited past its time limit.
  await warmUploadWorkers();
  const logLevel = deps.logLevel ?? 'silent';
  const app = Fastify({
    logger:
      logLevel === 'silent'
        ? false
        : { level: logLevel, ...(deps.logStream ? { stream: deps.logStream } : {}) },
    // One line per request (plugins/request-log.ts) rather than Fastify's two.
    logController: new LogController({ disableRequestLogging: true, requestIdLogLabel: 'requestId' }),
    // A request received while the server stops is answered (with Connection: close), not refused.
    return503OnClosing: false,
    genReqId: () => crypto.randomUUID(),
    trustProxy: typeof deps.trustProxy === 'number' ? trustHops(deps.trustProxy) : (deps.trustProxy ?? false),
    bodyLimit: 5 * 1024 * 1024,
    // A busy machine or database may take more than Fastify's 10 s to register a module (the job
    // queues of the uploads are created in the database): the start then waits; it never fails for it.
    pluginTimeout: 0,
  }).withTypeProvider<ZodTypeProvider>();
  // Every body, query and path parameter is first checked for NUL characters (named as a field of a
  // 400), then validated with the route's zod schema.
  app.setValidatorCompiler(({ schema, ...route }) =>
    validatorCompiler({
      ...route,
      schema: z
        .unknown()
        .superRefine(refuseNulText)
        .pipe(schema as z.ZodType),
    }),
  );
  app.setSerializerCompiler(serializerCompiler);
  // The server's time for a request until its answer is written, in Server-Timing (browsers show
  // it; the bench reads it to tell the server's time from its own).
  const receivedAt = new WeakMap<FastifyRequest, number>();
  app.addHook('onRequest', async (request) => {
    receivedAt.set(request, performance.now());
  });

  await registerSecurityHeaders(app, {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        connectSrc: ["'self'"],
        fontSrc: ["'self'", 'data:'],
        objectSrc: ["'none'"],
        frameAncestors: ["'none'"],
        // Accord may be served over plain HTTP inside a company network; never force HTTPS upgrades.
        upgradeInsecureRequests: null,
      },
    },
  });
  await app.register(cookie);
  await app.register(rateLimit, { global: false });
  await app.register(swagger, {
    openapi: {
      // 3.1: the schemas are JSON Schema 2020-12 (type arrays, const), as zod writes them.
      openapi: '3.1.0',
      info: {
        title: 'Accord API',
        version: deps.version,
        description: 'Study library, analytics and administration of Accord.',
      },
      // Paths start with /api: the server is the one that serves this document.
      servers: [{ url: '/', description: 'This Accord server' }],
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
      security: [{ bearer: [] }],
    },
    transform: withNonJsonAnswers(withOperationId(jsonSchemaTransform)),
    transformObject: (input) => cleanDocument(jsonSchemaTransformObject(input)),
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs' });

  app.addHook('onSend', async (_request, reply) => {
    reply.header('x-request-id', _request.id);
    const received = receivedAt.get(_request);
    if (received !== undefined)
      reply.header('server-timing', `app;dur=${(performance.now() - received).toFixed(1)}`);
    reply.header(
      'access-control-expose-headers',
      ['Authorization', 'x-request-id', ...PAGINATION_HEADERS].join(', '),
    );
  });

  app.setErrorHandler((error, request, reply) => {
    const requestId = request.id;
    if (hasZodFastifySchemaValidationErrors(error)) {
      const details = error.validation.map((issue) => ({
        path: issue.instancePath.replace(/^\//, '').replace(/\//g, '.'),
        message: issue.message ?? 'Invalid value',
      }));
      // The message is read by people (the web app shows it): the first problem in words.
      const first = error.validation[0];
      const message = first
        ? issueInWords({
            keyword: first.keyword,
            path: first.instancePath.split('/').filter(Boolean),
            message: first.message ?? '',
            params: first.params,
          })
        : 'Invalid request.';
      return reply
        .code(400)
        .send({ error: 'validation_failed', message, statusCode: 400, requestId, details });
    }
    if (isDiskFull(error)) {
      request.log.error({ err: error }, 'storage full');
      return reply.code(507).send({
        error: 'insufficient_storage',
        message: STUDIES_UPLOAD_MESSAGES.diskFull,
        statusCode: 507,
        requestId,
      });
    }
    if (error instanceof AppError) {
      if (error.headers) reply.headers(error.headers);
      return reply.code(error.statusCode).send({
        error: error.id,
        message: error.message,
        statusCode: error.statusCode,
        requestId,
        ...(error.details ? { details: error.details } : {}),
        ...error.extra,
      });
    }
    const statusCode = (error as { statusCode?: number }).statusCode ?? 500;
    if (statusCode === 429) {
      return reply
        .code(429)
        .send({ error: 'rate_limited', message: MESSAGES.tooManyLogins, statusCode, requestId });
    }
    if (statusCode >= 400 && statusCode < 500 && !isResponseSerializationError(error)) {
      return reply
        .code(statusCode)
        .send({ error: 'bad_request', message: (error as Error).message, statusCode, requestId });
    }
    request.log.error({ err: error }, 'request failed');
    if (logLevel === 'silent') console.error(error);
    return reply
      .code(500)
      .send({ error: 'internal_error', message: MESSAGES.loginFailure, statusCode: 500, requestId });
  });

  const { db } = deps.database;
  const sessions = createSessionRepository(db);
  const usersRepo = createUsersRepository(db);
  const auth = createAuthService({
    db,
    users: usersRepo,
    sessions,
    mailer: deps.mailer,
    clock: deps.clock,
    publicUrl: deps.publicUrl,
    resetLinkOrigins: deps.resetLinkOrigins,
  });
  const users = createUsersService({
    users: usersRepo,
    sessions,
    clock: deps.clock,
    checkPassword: (email, password) => auth.checkPassword(email, password),
  });

  await app.register(authPlugin, { sessions });
  if (logLevel !== 'silent') requestLog(app);
  compressAnswers(app);
  await app.register(
    async (api) => {
      // API answers are personal and change with every write: no browser or proxy may keep them.
      // Set first, so a route that streams (server-sent events) may still choose its own.
      api.addHook('onRequest', async (_request, reply) => {
        reply.header('cache-control', 'no-store');
      });
      await api.register(systemRoutes, {
        version: deps.version,
        database: deps.database,
        startedAt: deps.startedAt ?? Date.now(),
      });
      await api.register(authRoutes, { auth, loginRateLimit: deps.loginRateLimit ?? 30 });
      await api.register(usersRoutes, { users });
      await api.register(savedSearchesRoutes, { db });
      await api.register(settingsRoutes, { settings: createSettingsRepository(db) });
      await api.register(fieldsRoutes, { fields: createFieldsRepository(db), clock: deps.clock });
      await api.register(searchRoutes, {
        search: readingOnReplica(
          deps.database,
          createSearchService({
            search: createSearchRepository(db),
            fields: createFieldsRepository(db),
            clock: deps.clock,
          }),
        ),
      });
      const studyRepo = createStudyRepository(db);
      await api.register(studyRoutes, {
        study: createStudyService({
          studies: studyRepo,
          fields: createFieldsRepository(db),
          clock: deps.clock,
        }),
      });
      const files = createStudyFilesService({
        studies: studyRepo,
        files: createStudyFilesRepository(db),
        storage: deps.storage,
        clock: deps.clock,
        jobs: deps.jobs,
      });
      if (deps.workers !== false) await registerStudyFileJobs(deps.jobs, files);
      await api.register(studyFilesRoutes, { files });
      await api.register(mappingRoutes, {
        mapping: createMappingService({ mapping: createMappingRepository(db), clock: deps.clock }),
      });
      const analyticsParts = analyticsDeps(db, deps.jobs);
      // Analytics reads (searches in the workers, options, rankings) may go to a current replica.
      const analytics = {
        ...analyticsParts,
        analytics: readingOnReplica(deps.database, analyticsParts.analytics),
        search: readingOnReplica(deps.database, analyticsParts.search),
      };
      if (deps.workers !== false)
        await registerAnalyticsJobs(jobsReadingOnReplica(deps.database, deps.jobs), analyticsParts.analytics);
      if (deps.workers !== false && deps.warmUp) {
        const { log } = deps.warmUp;
        // The warm-up never delays the start: it begins once the app is ready and runs as background
        // work, so on PGlite (where a query holds the process) each of its queries gives way to the
        // requests' (db/background-queries.ts) and a request waits for one of them at most; the
        // caches share a computation between concurrent lookups, so a first search meets the
        // warm-up's work rather than repeating it. On PostgreSQL its first part reads every metric,
        // a minute at library scale.
        api.addHook('onReady', async () => {
          void inBackground(() => analyticsParts.analytics.warmUp(log)).catch((error: unknown) => {
            log(`Warm-up stopped: ${(error as Error).message}`);
          });
        });
      }
      await api.register(analyticsRoutes, analytics);
      await api.register(decksRoutes, { analytics: analytics.analytics });
      const comparisons = createComparisonsService({
        analytics: analytics.analytics,
        jobsRepository: createAnalyticsRepository(db),
        jobs: deps.jobs,
      });
      if (deps.workers !== false) await registerComparisonJobs(deps.jobs, comparisons);
      await api.register(comparisonsRoutes, { comparisons });
      await api.register(comparisonDeckRoutes, { analytics: analytics.analytics, comparisons });
      await api.register(rankingsRoutes, { analytics: analytics.analytics });
      await api.register(rankingDeckRoutes, { analytics: analytics.analytics });
      await api.register(fragranceRoutes, { db });
      await api.register(fragranceDeckRoutes, { db });
      const normsRepository = createNormsRepository(db);
      const normsService = createNormsService({ norms: normsRepository, analytics: analytics.analytics });
      await api.register(normsRoutes, { norms: normsService });
      await api.register(normDeckRoutes, { norms: normsService });
      await api.register(plannerRoutes, {
        planner: createPlannerService({
          normsService,
          norms: normsRepository,
          analytics: analytics.analytics,
          planner: createPlannerRepository(db),
        }),
      });
      const driversService = createDriversService({
        norms: normsRepository,
        analytics: analytics.analytics,
        drivers: createDriversRepository(db),
      });
      await api.register(driversRoutes, { drivers: driversService });
      await api.register(driverTraceRoutes, {
        driverTrace: createDriverTraceService({
          drivers: driversService,
          norms: normsRepository,
          analytics: analytics.analytics,
          repository: createDriverTraceRepository(db),
        }),
      });
      await api.register(traceRoutes, traceDeps(db));
      await api.register(cicsModule, { db });
      await api.register(fileProcessModule, {
        database: deps.database,
        storage: deps.storage,
        clock: deps.clock,
        jobs: deps.jobs,
        workers: deps.workers !== false,
        ...deps.uploads,
      });
      await api.register(statisticsRoutes, {
        statistics: createStatisticsService({
          runs: createStatisticsRepository(db),
          storage: deps.storage,
          clock: deps.clock,
        }),
      });
      if (deps.testHooks) await api.register(testHookRoutes, { db });
      api.setNotFoundHandler((request, reply) =>
        reply.code(404).send({
          error: 'not_found',
          message: `No such call: ${request.method} ${request.url}`,
          statusCode: 404,
          requestId: request.id,
        }),
      );
    },
    { prefix: '/api' },
  );

  if (deps.webDist && existsSync(path.join(deps.webDist, 'index.html')))
    await webAppRoutes(app, { webDist: deps.webDist, sourceMaps: deps.sourceMaps });

  return app;
}

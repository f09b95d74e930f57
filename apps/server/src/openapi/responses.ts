/**
 * What the OpenAPI document says of answers that are not JSON, which the zod response schemas
 * cannot describe: the downloads (workbooks, csv files, stored files) and the upload progress
 * stream declare their success response with its media type and a binary body, so a generated
 * client types them as files rather than as nothing; sign-in and renewal declare the Authorization
 * header that carries the access token. These are added to the document only: the routes send
 * their answers as before.
 *
 * Component schemas also lose the `$id` that zod's JSON Schema gives them ("#/components/schemas/X"):
 * an `$id` may not hold a fragment, and every reference already names the component by its path
 * (`cleanDocument`).
 */
import type { SwaggerTransform } from '@fastify/swagger';
import type { FastifySchema } from 'fastify';

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const PPTX = 'application/vnd.openxmlformats-officedocument.presentationml.presentation';
const BINARY = { type: 'string', format: 'binary' } as const;

interface NonJsonAnswer {
  mediaType: string;
  description: string;
  /** Sent as a file to save (Content-Disposition: attachment with its name). */
  attachment: boolean;
}

const file = (mediaType: string, description: string): NonJsonAnswer => ({
  mediaType,
  description,
  attachment: true,
});

/** The operations that answer something other than JSON, by method and path. */
export const NON_JSON_ANSWERS: Record<string, NonJsonAnswer> = {
  'POST /api/smartsearch/download_study_summarises': file(XLSX, 'The studies found, as a workbook'),
  'POST /api/smartsearch/download_fragrances': file(XLSX, 'The fragrances found, as a workbook'),
  'GET /api/study/{studyId}/study-files/{fileId}': file(
    'application/octet-stream',
    'The study file, sent with its own media type (PDF, Office document, csv)',
  ),
  'GET /api/study/{id}/study-files-path/{file_name}': file(
    'application/octet-stream',
    'The study file, sent with its own media type (PDF, Office document, csv)',
  ),
  'GET /api/analytics/fragrances/xlsx/{jobId}': file(XLSX, "The metric search's workbook"),
  'GET /api/analytics/performance/xlsx/{jobId}': file(XLSX, 'The performance workbook of the metric search'),
  'GET /api/analytics/top-attributes/xlsx/{jobId}': file(XLSX, 'The top attributes workbook'),
  'POST /api/analytics/tendencies/xlsx': file(XLSX, 'The tendencies workbook'),
  'POST /api/study/{id}/fragrance/{code}/xlsx': file(XLSX, "The fragrance profile's workbook"),
  'GET /api/norms/xlsx': file(XLSX, 'The norm workbook'),
  'GET /api/analytics/fragrances/pptx/{jobId}': file(PPTX, "The metric search's slides"),
  'GET /api/analytics/performance/pptx/{jobId}': file(PPTX, 'The performance slides of the metric search'),
  'GET /api/analytics/top-attributes/pptx/{jobId}': file(PPTX, 'The top attributes slides'),
  'POST /api/analytics/tendencies/pptx': file(PPTX, 'The tendencies slides'),
  'GET /api/rankings/pptx/{jobId}': file(PPTX, 'The ranking slides (Best/Worst, Fragrance Attributes)'),
  'GET /api/fragrance/{code}/pptx': file(PPTX, "The slides of one fragrance's tests"),
  'GET /api/norms/pptx': file(PPTX, 'The norm slides'),
  'GET /api/plan/xlsx': file(XLSX, 'The study plan workbook'),
  'GET /api/drivers/xlsx': file(XLSX, 'The drivers of liking workbook'),
  'GET /api/drivers/pptx': file(PPTX, 'The drivers of liking slides'),
  'GET /api/drivers/trace/answers.csv': file(
    'text/csv',
    "The paired answers behind a driver's figure, as csv",
  ),
  'POST /api/category-profile/pptx': file(PPTX, 'The category profile slides'),
  'GET /api/group-comparison/pptx/{jobId}': file(PPTX, 'The group comparison slides'),
  'POST /api/trace/answers.csv': file('text/csv', 'The answers behind the aggregate, as csv'),
  'GET /api/fileprocess/{processId}/{filePath}/download': file(
    'application/octet-stream',
    'A file of the upload, sent with its own media type',
  ),
  'GET /api/rdf/download_templates/{folder_name}/{file}': file('text/csv', 'The template csv'),
  'GET /api/fileprocess/{taskId}/status': {
    mediaType: 'text/event-stream',
    description:
      'Server-sent events of the task: progress events, then one result or error event, after which the stream ends',
    attachment: false,
  },
};

/** Operations that answer a new access token in the Authorization header. */
export const TOKEN_ANSWERS = new Set(['POST /api/auth/login', 'GET /api/auth/refresh']);

const AUTHORIZATION_HEADER = {
  Authorization: {
    type: 'string',
    pattern: '^Bearer \\S+$',
    description:
      'The access token, as "Bearer <token>", to send in the Authorization header of later calls. Absent when sign-in needs a password reset first.',
  },
};

/** `METHOD /path/{param}` of a route (Fastify writes parameters as :param). */
export function operationKey(method: string, url: string): string {
  return `${method.toUpperCase()} ${url.replace(/:([A-Za-z0-9_]+)/g, '{$1}')}`;
}

/** Wraps a route transform: adds the non-JSON success answers and the token header. */
export function withNonJsonAnswers<S extends FastifySchema>(
  transform: SwaggerTransform<S>,
): SwaggerTransform<S> {
  return (input) => {
    const result = transform(input);
    const methods = [input.route.method].flat();
    const method = methods.find((name) => name !== 'HEAD') ?? methods[0] ?? 'GET';
    const key = operationKey(method, input.url);
    const answer = NON_JSON_ANSWERS[key];
    const schema = result.schema as FastifySchema & { response?: Record<string, unknown> };
    if (answer) {
      const success = {
        description: answer.description,
        content: { [answer.mediaType]: { schema: BINARY } },
        ...(answer.attachment
          ? {
              headers: {
                'Content-Disposition': {
                  type: 'string',
                  description: 'attachment, with the file name to save it under',
                },
              },
            }
          : {}),
      };
      return { ...result, schema: { ...schema, response: { 200: success, ...schema.response } } as S };
    }
    if (TOKEN_ANSWERS.has(key) && schema.response?.['200']) {
      const ok = schema.response['200'] as Record<string, unknown>;
      return {
        ...result,
        schema: {
          ...schema,
          response: { ...schema.response, 200: { ...ok, headers: AUTHORIZATION_HEADER } },
        } as S,
      };
    }
    return result;
  };
}

/**
 * The document as linters and client generators read it: component schemas without the `$id`
 * zod gives them, tuples (prefixItems with `items: false`, exactly as long as their prefix) with an
 * `items` schema their members share, and every tag the operations use listed.
 */
export function cleanDocument<T>(document: T): T {
  const visit = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(visit);
    if (value === null || typeof value !== 'object') return value;
    const out: Record<string, unknown> = {};
    for (const [key, child] of Object.entries(value)) {
      if (key === '$id' && typeof child === 'string' && child.includes('#')) continue;
      out[key] = visit(child);
    }
    const prefix = out.prefixItems;
    if (Array.isArray(prefix) && out.items === false && out.maxItems === prefix.length) {
      const distinct = [...new Map(prefix.map((item) => [JSON.stringify(item), item])).values()];
      out.items = distinct.length === 1 ? distinct[0] : { anyOf: distinct };
    }
    return out;
  };
  const cleaned = visit(document) as T & { paths?: Record<string, Record<string, { tags?: string[] }>> };
  const tags = new Set<string>();
  for (const operations of Object.values(cleaned.paths ?? {}))
    for (const operation of Object.values(operations)) for (const tag of operation.tags ?? []) tags.add(tag);
  return { ...cleaned, tags: [...tags].map((name) => ({ name })) };
}

import { ZApiError } from '@rollcall/contracts';
import { z } from 'zod';
import type { DescribedRoute, RestPrefix } from './described-routes';
import { isFileAnswer } from './rest-description';

/** JSON Schema 2020-12 (OpenAPI 3.1's dialect) by zod's own converter (docs/adr/0023) */
const jsonSchema = (schema: z.ZodType, io: 'input' | 'output') => z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'draft-2020-12' });

const TAGS: Record<RestPrefix, { tag: string; operation: string }> = {
  '/api/v1': { tag: 'v1', operation: 'v1' },
  '/api/v2': { tag: 'v2', operation: 'v2' },
  '/api': { tag: 'v2 (unprefixed)', operation: 'api' },
};

/** The answer under a prefix: bare on v1, `{data}` on v2 and unprefixed (unless the route answers bare). */
export function answerSchemaOf(route: DescribedRoute, prefix: RestPrefix): z.ZodType | null {
  const { answer, v2Answer, bare } = route.description;
  if (isFileAnswer(answer)) return null;
  if (prefix === '/api/v1' || bare) return answer;
  return z.object({ data: v2Answer ?? answer });
}

function answerContent(route: DescribedRoute, prefix: RestPrefix) {
  const { answer } = route.description;
  if (isFileAnswer(answer)) return Object.fromEntries(answer.file.map((mediaType) => [mediaType, { schema: { type: 'string', format: 'binary' } }]));
  return { 'application/json': { schema: jsonSchema(answerSchemaOf(route, prefix)!, 'output') } };
}

function parametersOf(route: DescribedRoute) {
  const { params, query } = route.description;
  const pathSchemas = (params ? jsonSchema(params, 'input').properties : undefined) ?? {};
  const querySchema = query ? jsonSchema(query, 'input') : undefined;
  const required = new Set((querySchema?.required as string[] | undefined) ?? []);
  return [
    ...[...route.path.matchAll(/\{(\w+)\}/g)].map(([, name]) => ({ name, in: 'path', required: true, schema: pathSchemas[name] ?? { type: 'string' } })),
    ...Object.entries(querySchema?.properties ?? {}).map(([name, schema]) => ({ name, in: 'query', required: required.has(name), schema })),
  ];
}

function operation(route: DescribedRoute, prefix: RestPrefix) {
  const { summary, body, caller } = route.description;
  const error = { description: 'Error', content: { 'application/json': { schema: { $ref: '#/components/schemas/ApiError' } } } };
  const parameters = parametersOf(route);
  return {
    summary,
    operationId: `${TAGS[prefix].operation}_${route.method}_${route.path.replace(/[^a-zA-Z0-9]+/g, '_')}`,
    tags: [TAGS[prefix].tag],
    ...(caller === 'reader' ? { security: [{ reader: [] }] } : route.public ? { security: [] } : {}),
    ...(parameters.length ? { parameters } : {}),
    ...(body ? { requestBody: { required: true, content: { 'application/json': { schema: jsonSchema(body, 'input') } } } } : {}),
    responses: {
      [String(route.status)]: { description: 'OK', content: answerContent(route, prefix) },
      '400': error,
      '401': error,
      '404': error,
      '409': error,
    },
  };
}

/**
 * OpenAPI 3.1 from the routes the controllers declare and the answer schemas of libs/contracts
 * (docs/adr/0023): v1 under /api/v1, v2 under /api/v2 and unprefixed /api.
 */
export function buildOpenApiDocument(routes: readonly DescribedRoute[]) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    for (const prefix of route.prefixes) {
      const path = `${prefix}/${route.path}`;
      paths[path] ??= {};
      paths[path][route.method] = operation(route, prefix);
    }
  }
  return {
    openapi: '3.1.0',
    info: { title: 'Rollcall API', version: '0.1.0', description: 'REST compatibility layer (v1 bare answers, v2 wrapped in {data}). The console itself uses tRPC at /trpc.' },
    servers: [{ url: '/' }],
    components: {
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer' },
        session: { type: 'apiKey', in: 'cookie', name: 'user_session' },
        reader: { type: 'http', scheme: 'bearer', description: "A door reader's own token (rcr_...), for the reader protocol (docs/readers.md)" },
      },
      schemas: { ApiError: jsonSchema(ZApiError, 'output') },
    },
    security: [{ bearer: [] }, { session: [] }],
    paths,
  };
}

import { z } from 'zod';
import { ERROR_SCHEMA, ROUTES, type RouteEntry } from './route-catalogue';

const jsonSchema = (schema: z.ZodType, io: 'input' | 'output') => z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'draft-2020-12' });

function operation(route: RouteEntry, version: 'v1' | 'v2') {
  const inner = version === 'v2' ? (route.v2Response ?? route.response) : route.response;
  const response = version === 'v2' ? z.object({ data: inner }) : inner;
  const error = { description: 'Error', content: { 'application/json': { schema: { $ref: '#/components/schemas/ApiError' } } } };
  const queryProperties = route.query ? (jsonSchema(route.query, 'input').properties ?? {}) : {};
  const parameters = [
    ...[...route.path.matchAll(/\{(\w+)\}/g)].map((m) => ({ name: m[1], in: 'path', required: true, schema: { type: 'string' } })),
    ...Object.entries(queryProperties).map(([name, schema]) => ({ name, in: 'query', required: false, schema })),
  ];
  return {
    summary: route.summary,
    operationId: `${version}_${route.method}_${route.path.replace(/[^a-zA-Z0-9]+/g, '_')}`,
    tags: [version],
    ...(route.public ? { security: [] } : {}),
    ...(parameters.length ? { parameters } : {}),
    ...(route.body ? { requestBody: { required: true, content: { 'application/json': { schema: jsonSchema(route.body, 'input') } } } } : {}),
    responses: {
      [String(route.status ?? 200)]: { description: 'OK', content: { 'application/json': { schema: jsonSchema(response, 'output') } } },
      '400': error,
      '401': error,
      '404': error,
      '409': error,
    },
  };
}

/** OpenAPI 3.1, generated from the route catalogue: v1 under /api/v1, v2 under /api/v2 and /api. */
export function buildOpenApiDocument() {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of ROUTES) {
    for (const [prefix, version] of [['/api/v1/', 'v1'], ['/api/v2/', 'v2'], ['/api/', 'v2']] as const) {
      if (!(route.versions ?? ['v1', 'v2']).includes(version)) continue;
      const path = prefix + route.path;
      paths[path] ??= {};
      const op = operation(route, version);
      paths[path][route.method] = prefix === '/api/' ? { ...op, operationId: op.operationId.replace(/^v2_/, 'api_'), tags: ['v2 (unprefixed)'] } : op;
    }
  }
  return {
    openapi: '3.1.0',
    info: { title: 'Rollcall API', version: '0.1.0', description: 'REST compatibility layer (v1 bare answers, v2 wrapped in {data}). The console itself uses tRPC at /trpc.' },
    servers: [{ url: '/' }],
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer' }, session: { type: 'apiKey', in: 'cookie', name: 'user_session' } },
      schemas: { ApiError: jsonSchema(ERROR_SCHEMA, 'output') },
    },
    security: [{ bearer: [] }, { session: [] }],
    paths,
  };
}

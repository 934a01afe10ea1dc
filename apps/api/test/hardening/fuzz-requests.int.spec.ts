import fc from 'fast-check';
import { z } from 'zod';
import { ZReaderHealthReport, ZReaderScanBatch, ZReaderScanPost } from '@rollcall/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, firstOrganization, http, makeSuperAdministrator, signIn, startTestApp, type TestApp } from '../test-app';
import { asQueryText, encode, hostileValue, RAW_PATH_SEGMENTS, value, type JsonSchema } from './fuzz-arbitraries';
import { inPool, leaksInternals, proceduresOf, restErrorProblem, trpcErrorProblem } from './hardening-helpers';

/**
 * Fuzzing (docs/security.md, "1. Fuzzing"): fast-check generates requests for every route of the served
 * OpenAPI document (v1, v2 and unprefixed), the door readers' protocol and every tRPC procedure,
 * with valid, boundary and hostile bodies, headers, query strings and path parameters, as a signed-in
 * super administrator, as a door reader and unauthenticated. Every answer: no 5xx, no stack trace or
 * dependency path in the body, every 4xx in the documented error shape ({error: {code, message,
 * fields?}}, for tRPC under error.data.apiError), and no 2xx for an unauthenticated caller outside
 * the public routes.
 *
 * ROLLCALL_FUZZ_RUNS sets the number of requests (default 5,000: 65-110 seconds on two cores,
 * depending on their load); CI's 100,000 is ROLLCALL_FUZZ_RUNS=100000 (25-40 minutes).
 * ROLLCALL_FUZZ_SEED replays a run; the seed is printed every time.
 */
const RUNS = Number(process.env.ROLLCALL_FUZZ_RUNS ?? 5000);
const SEED = Number(process.env.ROLLCALL_FUZZ_SEED ?? Math.floor(Math.random() * 2 ** 31));
const IN_FLIGHT = 6;
const CHUNK = 1000;

type Persona = 'admin' | 'reader' | 'anonymous';

interface Target {
  transport: 'rest' | 'trpc';
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** OpenAPI style, {param} placeholders; for tRPC the procedure's name */
  path: string;
  body?: JsonSchema;
  query?: Record<string, JsonSchema>;
  /** tRPC: query, mutation or subscription */
  procedure?: 'query' | 'mutation' | 'subscription';
  /** the personas this target is tried as */
  personas: Persona[];
  /** answers without a session (sign-in, activation, the documents); anything else must refuse an anonymous caller */
  public?: boolean;
}

interface FuzzRequest {
  persona: Persona;
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string;
  transport: 'rest' | 'trpc';
  label: string;
  public: boolean;
}

const toJsonSchema = (schema: z.ZodType): JsonSchema => {
  try {
    return z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any', target: 'draft-2020-12' }) as JsonSchema;
  } catch {
    return {};
  }
};

/** Every route of the served document, the reader protocol and every tRPC procedure. */
async function targetsOf(app: TestApp): Promise<Target[]> {
  const document = (await http(app.url).get('/api/openapi.json')).body as {
    paths: Record<string, Record<string, { security?: unknown[]; requestBody?: { content: { 'application/json': { schema: JsonSchema } } }; parameters?: Array<{ name: string; in: string; schema: JsonSchema }> }>>;
  };
  const targets: Target[] = [];
  for (const [path, operations] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(operations)) {
      const query = Object.fromEntries((operation.parameters ?? []).filter((p) => p.in === 'query').map((p) => [p.name, p.schema]));
      targets.push({ transport: 'rest', method: method.toUpperCase() as Target['method'], path, body: operation.requestBody?.content['application/json'].schema, query, personas: ['admin', 'anonymous'], public: operation.security?.length === 0 });
    }
  }
  // the door readers' protocol (docs/readers.md) again with a reader's own token: the document's rows above are tried as admin and anonymous only
  for (const prefix of ['/api/v2/reader', '/api/reader']) {
    targets.push({ transport: 'rest', method: 'POST', path: `${prefix}/scans`, body: toJsonSchema(ZReaderScanPost), personas: ['reader', 'anonymous', 'admin'] });
    targets.push({ transport: 'rest', method: 'POST', path: `${prefix}/scans/batch`, body: toJsonSchema(ZReaderScanBatch), personas: ['reader', 'anonymous', 'admin'] });
    targets.push({ transport: 'rest', method: 'POST', path: `${prefix}/health`, body: toJsonSchema(ZReaderHealthReport), personas: ['reader', 'anonymous'] });
  }
  for (const { name, type, inputs } of proceduresOf(app)) {
    targets.push({
      transport: 'trpc',
      method: type === 'mutation' ? 'POST' : 'GET',
      path: name,
      procedure: type,
      body: inputs.length ? toJsonSchema(inputs[0] as z.ZodType) : undefined,
      // a subscription over HTTP is refused for everyone (subscriptions go over the WebSocket only: trpc/trpc.ts)
      personas: ['admin', 'anonymous'],
      public: PUBLIC_PROCEDURES.includes(name),
    });
  }
  return targets;
}

/** the console's calls made before signing in (publicProcedure in app-router.ts) */
const PUBLIC_PROCEDURES = ['auth.signIn', 'auth.completeSignIn', 'auth.passkeyStepOptions', 'auth.completeSignInWithPasskey', 'auth.passkeySignInOffered', 'auth.passkeySignInOptions', 'auth.signInWithPasskey', 'accounts.activation', 'accounts.activate'];

const MALFORMED_JSON = ['{', '{"a":', '[1,2', 'nul', '{"a":1}garbage', '\u0000', '"\\ud800"', '{"a":1,"a":2}', '[]', '""', '0', '{"__proto__":{"x":1}}', `${'['.repeat(5000)}${']'.repeat(5000)}`];
const ODD_CONTENT_TYPES = ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/xml', 'application/json; charset=utf-16', 'application/json; charset=latin1', 'application/vnd.api+json', 'application/json;;', 'application/*', ''];

/** header values an attacker sends; printable ASCII only, the rest never leaves a well-behaved client */
const hostileHeaders = fc.record(
  {
    'x-forwarded-for': fc.constantFrom('1.2.3.4', 'garbage', '::1, 300.1.1.1', '127.0.0.1, 10.0.0.1, ::ffff:1.2.3.4', Array.from({ length: 200 }, (_, i) => `10.0.${i % 256}.1`).join(', ')),
    'x-forwarded-proto': fc.constantFrom('https', 'gopher', ''),
    'x-correlation-id': fc.constantFrom('ok-id-1', 'a'.repeat(500), '../../x', '<script>', ' '),
    'x-request-id': fc.constantFrom('r1', 'b'.repeat(500), '"quoted"'),
    'x-time-zone': fc.constantFrom('Europe/Berlin', 'Mars/Olympus_Mons', "'; DROP TABLE x; --", 'a'.repeat(63), '+25:00'),
    'x-rollcall-consistency': fc.constantFrom('none', 'all', 'x'.repeat(100)),
    accept: fc.constantFrom('text/html', 'application/xml', '*/*', 'application/json;q=0', 'text/event-stream'),
    'accept-language': fc.constantFrom('de-DE', 'xx', '*;q=abc'),
    'accept-encoding': fc.constantFrom('gzip', 'br', 'identity;q=0', 'x-unknown'),
    'content-encoding': fc.constantFrom('gzip', 'deflate', 'br', 'identity', 'x-unknown'),
    'if-none-match': fc.constantFrom('*', '"abc"', 'W/"x"'),
    range: fc.constantFrom('bytes=0-1', 'bytes=-1', 'bytes=999999999-', 'items=0-1'),
    'x-http-method-override': fc.constantFrom('DELETE', 'PUT', 'TRACE'),
    origin: fc.constantFrom('null', 'https://evil.example'),
    'sec-fetch-site': fc.constantFrom('cross-site', 'same-origin', 'none', 'bogus'),
  },
  { requiredKeys: [] },
);

/** credentials an anonymous caller tries: forged, truncated, of the wrong kind */
const forgedCredential = fc.oneof(
  fc.constant({}),
  fc.constantFrom('Bearer x', 'Bearer ', 'Bearer', 'Basic YWRtaW46YWRtaW4=', 'bearer lowercase', `Bearer ${'a'.repeat(5000)}`, 'Bearer rc_', 'Bearer rcr_', 'Bearer rc_AAAA.BBBB', 'Bearer rcr_AAAA').map((authorization) => ({ authorization })),
  fc.string({ minLength: 1, maxLength: 64, unit: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-.'.split('')) }).map((token) => ({ authorization: `Bearer rc_${token}` })),
  fc.constantFrom('user_session=garbage', 'user_session=', 'user_session=%E0%A4%A', 'a=b; user_session=x; user_session=y', `user_session=${'z'.repeat(4000)}`).map((cookie) => ({ cookie })),
);

interface Context {
  ids: string[];
  adminToken: () => string;
  readerToken: string;
}

/** one generated request for a target: path parameters, query, body, headers and credential */
function requestFor(target: Target, context: Context): fc.Arbitrary<FuzzRequest> {
  const pathParams = (target.transport === 'rest' ? [...target.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]) : []) as string[];
  const param = fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom(...context.ids).map(encodeURIComponent) },
    { weight: 2, arbitrary: fc.uuid().map(encodeURIComponent) },
    { weight: 1, arbitrary: fc.integer({ min: -1, max: 2 ** 40 }).map(String) },
    { weight: 2, arbitrary: hostileValue.map((v) => encode(asQueryText(v)).slice(0, 4000) || '%20') },
    { weight: 1, arbitrary: fc.constantFrom(...RAW_PATH_SEGMENTS) },
  );
  const queryEntries = Object.entries(target.query ?? {}).map(([name, schema]) => fc.option(value(schema, context.ids, name).map((v) => `${encode(name)}=${encode(asQueryText(v))}`), { nil: undefined }));
  const extraQuery = fc.option(fc.constantFrom('page[]=1', 'page=1&page=2', '__proto__[admin]=1', 'a[b][c][d]=1', 'limit=99999999999999999999', 'sort=;DROP', 'search=%', 'search=%00', '%=%', 'x'.repeat(100) + '=1', 'limit[$gt]=1'), { nil: undefined });
  const bodyValue = target.body ? value(target.body, context.ids) : fc.oneof(fc.constant(undefined), hostileValue);
  const body = fc.oneof(
    { weight: 240, arbitrary: bodyValue.map((v) => ({ text: v === undefined ? undefined : JSON.stringify(v), type: 'application/json' })) },
    { weight: 20, arbitrary: fc.constantFrom(...MALFORMED_JSON).map((text) => ({ text, type: 'application/json' })) },
    { weight: 20, arbitrary: fc.tuple(fc.constantFrom(...ODD_CONTENT_TYPES), fc.constantFrom('a=1&b=2', '{"a":1}', '<x/>', '--x--')).map(([type, text]) => ({ text, type })) },
    { weight: 20, arbitrary: fc.constant({ text: undefined as string | undefined, type: '' }) },
    // just over the 1 MB limit: 413, not a crash (rare, it is the most expensive request)
    { weight: 1, arbitrary: fc.constant({ text: JSON.stringify({ title: 'x'.repeat(1024 * 1024 + 10) }), type: 'application/json' }) },
  );
  const persona = fc.constantFrom(...target.personas);
  // a wrong method on a tRPC procedure, or a batch call: both are still the procedure's own door
  const trpcShape = fc.constantFrom('plain', 'plain', 'plain', 'plain', 'wrong-method', 'batch');

  return fc
    .record({ params: fc.array(param, { minLength: pathParams.length, maxLength: pathParams.length }), query: fc.tuple(...queryEntries, extraQuery), body, persona, headers: hostileHeaders, forged: forgedCredential, trpcShape, noHeaders: fc.boolean() })
    .map(({ params, query, body: generatedBody, persona, headers, forged, trpcShape, noHeaders }) => {
      let body = generatedBody;
      const sent: Record<string, string> = noHeaders ? {} : { ...headers };
      // the administrator's and the reader's credentials are added when the request is sent (a fuzzed sign-out renews them)
      if (persona === 'anonymous') Object.assign(sent, forged);
      // fetch sends no body with GET
      if (target.method === 'GET' && target.transport === 'rest') body = { text: undefined, type: '' };
      if (body.text !== undefined && body.type) sent['content-type'] = body.type;
      if (body.text === undefined) delete sent['content-encoding'];
      if (target.transport === 'rest') {
        let index = 0;
        const path = target.path.replace(/\{\w+\}/g, () => params[index++]);
        const search = query.filter((part): part is string => part !== undefined).join('&');
        return { persona, transport: 'rest', method: target.method, url: search ? `${path}?${search}` : path, headers: sent, body: body.text, label: `${target.method} ${target.path}`, public: target.public ?? false } satisfies FuzzRequest;
      }
      const input = body.text;
      const asQuery = (text: string | undefined) => (text === undefined ? '' : `?input=${encodeURIComponent(text)}`);
      const label = `tRPC ${target.procedure} ${target.path}`;
      if (trpcShape === 'batch') {
        return { persona, transport: 'trpc', method: target.method, url: `/trpc/${target.path},${target.path}?batch=1${target.method === 'GET' ? `&input=${encodeURIComponent(`{"0":${input ?? 'null'},"1":{}}`)}` : ''}`, headers: sent, body: target.method === 'GET' ? undefined : `{"0":${input ?? 'null'},"1":[]}`, label, public: target.public ?? false } satisfies FuzzRequest;
      }
      const method = trpcShape === 'wrong-method' ? (target.method === 'GET' ? 'POST' : 'GET') : target.method;
      return { persona, transport: 'trpc', method, url: method === 'GET' ? `/trpc/${target.path}${asQuery(input)}` : `/trpc/${target.path}`, headers: sent, body: method === 'GET' ? undefined : input, label, public: target.public ?? false } satisfies FuzzRequest;
    });
}

interface Finding {
  request: FuzzRequest;
  status: number;
  problem: string;
  answer: string;
}

describe('fuzzing every REST route and tRPC procedure (sqlite)', () => {
  let app: TestApp;
  const logLines: string[] = [];
  let context: Context;
  let targets: Target[];

  beforeAll(async () => {
    // the throttle's per-address budget (100 failures) is for people, not 5000 requests from one
    // address: the fuzzed sign-in steps (codes, passkeys) would use it up and lock the fuzzer's own sign-in out
    app = await startTestApp('sqlite', { ROLLCALL_SIGNIN_ADDRESS_FAILURES: '100000' }, undefined, { write: (line: string) => void logLines.push(line) });
    const root = http(app.url, await signIn(app.url));
    // the fuzzing administrator is a super administrator whose own id is never generated, so it cannot lock, demote or delete itself
    const fuzzer = await createAccount(root, {});
    await makeSuperAdministrator(root, fuzzer.id);
    let adminToken = await signIn(app.url, { username: fuzzer.username, password: fuzzer.password });
    const admin = http(app.url, adminToken);
    const { organizationId, roleId } = await firstOrganization(admin);
    const ok = async (answer: Promise<{ status: number; body: { id?: string; data?: { id?: string; token?: string } & Record<string, unknown> } }>) => {
      const { status, body } = await answer;
      if (status >= 300) throw new Error(`fixture: ${status} ${JSON.stringify(body)}`);
      return body;
    };
    const organization = (await ok(admin.post('/api/v2/organization', { title: 'Fuzz Org', description: '', parent_id: organizationId }))).data!.id!;
    const member = (await createAccount(admin, { organization })).id;
    const team = (await ok(admin.post('/api/v2/team', { title: 'Fuzz Team', organization }))).data!.id!;
    const permission = (await ok(admin.post('/api/v2/permission', { organization_id: organization, title: 'Fuzz permission', slug: 'fuzz:read', description: '' }))).data!.id!;
    const role = (await ok(admin.post(`/api/v2/organization/${organization}/role`, { title: 'Fuzz role', slug: 'fuzz-role', description: '', permissions: [permission] }))).data!.id!;
    const token = (await ok(admin.post('/api/v2/token', { title: 'Fuzz token', forever: true, permissions: ['accounts:read'], restrictions: [], account_id: member }))).data!.id!;
    const policy = (await ok(admin.post('/api/v1/policy', { title: 'Fuzz policy', min_length: 8, min_strength: 0, lockout: 0, lockout_duration: 60 }))).id!;
    const reader = { id: (await ok(admin.post('/api/v2/readers', { name: 'Fuzz door', door: 'Front', role: 'enrollment' }))).data!.id! };
    const readerToken = (await ok(admin.post(`/api/v2/readers/${reader.id}/token`))).data!.token!;
    if (!readerToken?.startsWith('rcr_')) throw new Error(`fixture: no reader token (${readerToken})`);
    const status = (await ok(admin.post('/api/v2/states/attendance', { title: 'Fuzz status' }))).data!.id!;
    context = {
      ids: [organizationId, roleId, organization, member, team, permission, role, token, policy, reader.id, status, 'fuzz:read', 'fuzz-role', '04A1B2C3D4E5F6'],
      adminToken: () => adminToken,
      readerToken,
    };
    // a fuzzed sign-out ends the fuzzing administrator's session: sign in again and go on
    resignIn = async () => {
      adminToken = await signIn(app.url, { username: fuzzer.username, password: fuzzer.password });
    };
    targets = await targetsOf(app);
  }, 120_000);
  let resignIn: () => Promise<void> = async () => undefined;

  afterAll(async () => {
    await app?.destroy();
  });

  it(`answers ${RUNS} generated requests without a 5xx, a stack trace or an undocumented error shape`, async () => {
    const findings: Finding[] = [];
    const statuses = new Map<string, number>();
    const reached = new Set<string>();
    const succeeded = new Set<string>();
    let sent = 0;
    let adminSignIns = 0;
    const outcomes = new Map<string, number>();
    const slowest: Array<{ ms: number; what: string }> = [];
    const started = Date.now();
    const arbitrary = fc.constantFrom(...targets).chain((target) => requestFor(target, context));
    console.log(`fuzzing: ${RUNS} requests over ${targets.length} targets (${targets.filter((t) => t.transport === 'rest').length} REST route x method, ${targets.filter((t) => t.transport === 'trpc').length} tRPC procedures), seed ${SEED} (ROLLCALL_FUZZ_SEED=${SEED} replays it)`);

    for (let chunk = 0; chunk * CHUNK < RUNS; chunk += 1) {
      const requests = fc.sample(arbitrary, { numRuns: Math.min(CHUNK, RUNS - chunk * CHUNK), seed: SEED + chunk });
      await inPool(requests, IN_FLIGHT, async (request) => {
        const before = Date.now();
        const credential = request.persona === 'admin' ? context.adminToken() : request.persona === 'reader' ? context.readerToken : null;
        const answer = await send(app.url, credential ? { ...request, headers: { ...request.headers, authorization: `Bearer ${credential}` } } : request);
        slowest.push({ ms: Date.now() - before, what: `${request.method} ${request.url.slice(0, 120)} (${request.body?.length ?? 0} bytes) -> ${answer.status}` });
        if (slowest.length > 40) slowest.sort((a, b) => b.ms - a.ms).splice(10);
        sent += 1;
        const code = /"code":"([a-z_.]+)"/.exec(answer.text)?.[1] ?? '';
        const key = `${request.persona} ${answer.status} ${code}`;
        outcomes.set(key, (outcomes.get(key) ?? 0) + 1);
        if (request.persona === 'admin' && answer.status === 401 && code === 'auth.required') {
          adminSignIns += 1;
          await resignIn();
        }
        const klass = `${Math.floor(answer.status / 100)}xx`;
        statuses.set(klass, (statuses.get(klass) ?? 0) + 1);
        reached.add(request.label);
        if (answer.status < 300) succeeded.add(request.label);
        const problem = judge(request, answer.status, answer.text, answer.contentType);
        if (problem) findings.push({ request, status: answer.status, problem, answer: answer.text.slice(0, 500) });
      });
      // a long run says how far it got every 10,000 requests
      if (sent % 10_000 === 0 && sent < RUNS) console.log(`fuzzing: ${sent} sent after ${((Date.now() - started) / 1000).toFixed(0)} s, ${findings.length} findings so far`);
    }

    const seconds = (Date.now() - started) / 1000;
    console.log(`fuzzing: sent ${sent} requests in ${seconds.toFixed(1)} s (${(sent / seconds).toFixed(0)}/s); answers ${[...statuses].map(([k, n]) => `${k}: ${n}`).join(', ')}; ${reached.size} of ${new Set(targets.map(label)).size} targets reached, ${succeeded.size} with at least one 2xx; the administrator signed in again ${adminSignIns} times; ${findings.length} findings`);
    console.log(`most frequent answers: ${[...outcomes].sort((a, b) => b[1] - a[1]).slice(0, 12).map(([k, n]) => `${k}: ${n}`).join(', ')}`);
    console.log(`slowest: ${slowest.sort((a, b) => b.ms - a.ms).slice(0, 5).map((s) => `${s.ms} ms ${s.what}`).join('\n  ')}`);
    for (const finding of findings.slice(0, 10)) {
      console.log(`FINDING ${finding.status} ${finding.problem}\n  ${finding.request.method} ${finding.request.url.slice(0, 300)} as ${finding.request.persona}\n  headers (${JSON.stringify(finding.request.headers).length} bytes) ${JSON.stringify(finding.request.headers).slice(0, 400)}\n  body ${finding.request.body?.slice(0, 400)}\n  answer ${finding.answer}`);
    }
    if (findings.length) console.log(`server log around the findings:\n${logLines.filter((line) => /"level":(50|60)|error/i.test(line)).slice(0, 5).join('\n').slice(0, 4000)}`);
    expect(sent).toBe(RUNS);
    expect(findings.map((f) => `${f.status} ${f.request.label}: ${f.problem}`)).toEqual([]);
  }, Math.max(180_000, RUNS * 40));
});

const label = (target: Target) => (target.transport === 'rest' ? `${target.method} ${target.path}` : `tRPC ${target.procedure} ${target.path}`);

async function send(base: string, request: FuzzRequest, retried = false): Promise<{ status: number; text: string; contentType: string }> {
  try {
    const response = await fetch(base + request.url, { method: request.method, headers: request.headers, body: request.body, redirect: 'manual', signal: AbortSignal.timeout(30_000) });
    return { status: response.status, text: await response.text(), contentType: response.headers.get('content-type') ?? '' };
  } catch (error) {
    // the client refused to send it (an invalid URL or header): nothing reached the server
    if (error instanceof TypeError && !/fetch failed/.test(error.message)) return { status: 0, text: '', contentType: '' };
    // a keep-alive connection the server closed just as the request went out: once more on a fresh one
    if (!retried && /ECONNRESET|other side closed|socket/i.test(`${(error as Error).message} ${String((error as Error).cause)}`)) return send(base, request, true);
    return { status: 599, text: `no answer: ${(error as Error).message} ${String((error as Error).cause ?? '')}`, contentType: '' };
  }
}

/** what is wrong with an answer, or null */
function judge(request: FuzzRequest, status: number, text: string, contentType: string): string | null {
  if (status >= 500) return `server error ${status}`;
  // Node's own HTTP parser refuses over-long headers (16 KB) before any of our code runs, with no body
  if (status === 431 && text === '') return null;
  const leak = leaksInternals(text);
  if (leak) return `the answer shows ${leak}`;
  // a tRPC subscription over HTTP is an event stream that opens with 200: its refusal is an error event inside
  if (contentType.startsWith('text/event-stream')) return eventStreamProblem(request, text);
  // access control fails closed: no forged credential or odd request gets an anonymous caller through
  if (status < 300 && request.persona === 'anonymous' && !request.public) return `an unauthenticated request succeeded (${status})`;
  if (status < 400) return null;
  if (!contentType.startsWith('application/json')) return `a ${status} answered as ${contentType || 'nothing'}: ${text.slice(0, 200)}`;
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return 'a 4xx body that is not JSON';
  }
  return request.transport === 'trpc' ? trpcErrorProblem(body) : restErrorProblem(body);
}

/** a subscription asked over HTTP, by anyone, may say 'connected' and then only carry the documented error */
function eventStreamProblem(request: FuzzRequest, text: string): string | null {
  const events = text.split(/\n\n+/).filter((block) => block.trim()).map((block) => ({ event: /^event: (.*)$/m.exec(block)?.[1] ?? 'message', data: /^data: (.*)$/m.exec(block)?.[1] ?? '' }));
  const carried = events.filter((event) => !['connected', 'ping', 'return'].includes(event.event));
  const error = carried.find((event) => event.event === 'serialized-error');
  if (!error || carried.length !== 1) return `a subscription over HTTP (${request.persona}) streamed ${JSON.stringify(carried).slice(0, 300)}`;
  return trpcErrorProblem({ error: JSON.parse(error.data) });
}

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { loadConfig, type AppConfig } from '../src/platform/config/app-config';
import { startApp, type RunningApp } from '../src/create-app';
import { createTRPCClient, createWSClient, wsLink } from '@trpc/client';
import WebSocket from 'ws';
import type { AppRouter } from '../src/root-router';
import type { DestinationStream } from 'pino';

export const ADMIN = { username: 'admin', password: 'correct horse battery staple' };

export type StorageKind = 'sqlite' | 'postgres';

export const PG_URL = process.env.ROLLCALL_TEST_PG_URL;

/** The storage engines a suite runs on: SQLite always, PostgreSQL where ROLLCALL_TEST_PG_URL is set. */
export function storageKinds(): StorageKind[] {
  if (!PG_URL) console.log('skipped: PostgreSQL variants (ROLLCALL_TEST_PG_URL not set)');
  return PG_URL ? ['sqlite', 'postgres'] : ['sqlite'];
}

export interface TestApp extends RunningApp {
  config: AppConfig;
  /** stop the process-like app, keeping its data */
  stop(): Promise<void>;
  /** start again on the same data */
  restart(): Promise<TestApp>;
  /** stop and delete its data */
  destroy(): Promise<void>;
  printed: string[];
}

/**
 * Starts the real Nest app over HTTP on a free port: SQLite files in a fresh temp dir, or a fresh
 * PostgreSQL schema for both the event store and the read models.
 */
export async function startTestApp(kind: StorageKind = 'sqlite', overrides: Record<string, string> = {}, reuse?: AppConfig, logDestination?: DestinationStream): Promise<TestApp> {
  let config = reuse;
  if (!config) {
    const dataDir = mkdtempSync(join(tmpdir(), 'rollcall-test-'));
    const schema = `t_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
    config = loadConfig({
      PORT: '0',
      ROLLCALL_DATA_DIR: dataDir,
      ROLLCALL_ADMIN_USERNAME: ADMIN.username,
      ROLLCALL_ADMIN_PASSWORD: ADMIN.password,
      ROLLCALL_LOG_LEVEL: 'error',
      // cheaper argon2id keeps the suite fast; the production parameters are checked elsewhere
      ROLLCALL_ARGON2_MEMORY_KIB: '4096',
      ROLLCALL_ARGON2_TIME_COST: '1',
      ROLLCALL_CONSOLE_DIR: join(dataDir, 'no-console'),
      ...(kind === 'postgres' ? { ROLLCALL_EVENT_STORE: PG_URL!, ROLLCALL_READ_DB: PG_URL!, ROLLCALL_PG_SCHEMA: schema } : {}),
      // the suites once more with the projections on a worker thread (docs/adr/0026): ROLLCALL_TEST_PROJECTIONS_THREAD=worker
      ...(kind === 'sqlite' && process.env.ROLLCALL_TEST_PROJECTIONS_THREAD ? { ROLLCALL_PROJECTIONS_THREAD: process.env.ROLLCALL_TEST_PROJECTIONS_THREAD } : {}),
      ...overrides,
    });
  }
  const printed: string[] = [];
  const running = await startApp(config, { print: (line) => printed.push(line), logDestination });
  const fixed = config;
  return {
    ...running,
    config: fixed,
    printed,
    stop: () => running.close(),
    restart: async () => startTestApp(kind, overrides, fixed),
    destroy: async () => {
      await running.close();
      await dropStorage(fixed);
    },
  };
}

export async function dropStorage(config: AppConfig): Promise<void> {
  rmSync(config.dataDir, { recursive: true, force: true });
  // the secrets key file beside it (<dataDir>.key)
  if (config.secrets?.keyFile) rmSync(config.secrets.keyFile, { force: true });
  if (config.eventStore.kind === 'postgres') {
    const client = new pg.Client({ connectionString: config.eventStore.url });
    await client.connect();
    await client.query(`DROP SCHEMA IF EXISTS "${config.eventStore.schema}" CASCADE`);
    await client.end();
  }
}

/** A small HTTP client bound to one app and (optionally) one session. */
export function http(base: string, token?: string) {
  const call = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
    const response = await fetch(base + path, {
      method,
      headers: { ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
    const text = await response.text();
    let json: unknown = undefined;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      json = text;
    }
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    return { status: response.status, headers: response.headers, body: json as any };
  };
  return {
    get: (path: string, headers?: Record<string, string>) => call('GET', path, undefined, headers),
    post: (path: string, body?: unknown, headers?: Record<string, string>) => call('POST', path, body, headers),
    raw: call,
  };
}

export async function signIn(base: string, credentials = ADMIN): Promise<string> {
  const response = await http(base).post('/api/v1/admin/authenticate', credentials);
  if (response.status !== 200) throw new Error(`sign-in failed: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body.token as string;
}

let counter = 0;
export function newAccount(overrides: Record<string, unknown> = {}) {
  counter += 1;
  const id = `${Date.now().toString(36)}${counter}`;
  return { first_name: 'Ada', last_name: `Lovelace ${id}`, email: `ada.${id}@example.com`, username: `ada.${id}`, password: 'analytical engine 1843', ...overrides };
}

/** creates an account through REST v1 as the given admin client; returns what was sent plus its id */
export async function createAccount(admin: ReturnType<typeof http>, overrides: Record<string, unknown> = {}) {
  const account = newAccount(overrides);
  const created = await admin.post('/api/v1/account', account);
  if (created.status !== 201) throw new Error(`account creation failed: ${created.status} ${JSON.stringify(created.body)}`);
  return { ...account, id: created.body.id as string };
}

/** The bootstrap's protected organization and its protected administrator role (docs/adr/0011). */
export async function firstOrganization(admin: ReturnType<typeof http>) {
  const page = await admin.get('/api/v1/organizations?search=rollcall');
  const root = (page.body.data as Array<{ id: string; title: string; protected: boolean }>).find((organization) => organization.title === 'Rollcall' && organization.protected);
  if (!root) throw new Error('the first organization is missing');
  const roles = (await admin.get(`/api/v1/organization/${root.id}/roles`)).body as Array<{ id: string; slug: string; protected: boolean }>;
  const administrator = roles.find((role) => role.slug === 'administrator' && role.protected);
  if (!administrator) throw new Error('the administrator role is missing');
  return { organizationId: root.id, roleId: administrator.id };
}

/** Makes an account a super administrator: a member of the first organization holding its administrator role. */
export async function makeSuperAdministrator(admin: ReturnType<typeof http>, accountId: string): Promise<void> {
  const { organizationId, roleId } = await firstOrganization(admin);
  const joined = await admin.post(`/api/v2/account/${accountId}/associate/organization`, { organization_id: organizationId });
  if (joined.status !== 201) throw new Error(`joining the first organization failed: ${joined.status} ${JSON.stringify(joined.body)}`);
  const granted = await admin.post(`/api/v2/organization/${organizationId}/account-role`, { account_id: accountId, role_id: roleId });
  if (granted.status !== 200) throw new Error(`granting the administrator role failed: ${granted.status} ${JSON.stringify(granted.body)}`);
}

/** a tRPC client over our WebSocket with a session, as a console on our origin (cookie and Origin sent) would open it */
export function liveClient(base: string, token: string) {
  const headers = { cookie: `user_session=${token}`, origin: base };
  const Socket = class extends WebSocket {
    constructor(address: string, protocols?: string | string[]) {
      super(address, protocols, { headers });
    }
  };
  const wsClient = createWSClient({ url: `${base.replace('http', 'ws')}/ws`, WebSocket: Socket as unknown as typeof globalThis.WebSocket });
  return { client: createTRPCClient<AppRouter>({ links: [wsLink({ client: wsClient })] }), close: () => wsClient.close() };
}

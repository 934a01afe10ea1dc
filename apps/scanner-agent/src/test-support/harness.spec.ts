/**
 * Test support (not a test: vitest collects only *.unit.spec.ts and *.int.spec.ts): runs the REAL,
 * built API (`apps/api/dist/main.js`) on a free port with its own SQLite data dir, registers readers
 * through REST v2 as an administrator would, and runs the REAL, built agent
 * (`apps/scanner-agent/dist/main.js run`) as a child process whose JSON log lines the tests read.
 * Build first: `npx nx build api && npx tsc -b apps/scanner-agent`.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../../../', import.meta.url));
/** the built API; ROLLCALL_AGENT_TEST_API_MAIN may point at another build (a snapshot while others rebuild the tree) */
export const API_MAIN = process.env.ROLLCALL_AGENT_TEST_API_MAIN ?? `${root}apps/api/dist/main.js`;
export const AGENT_MAIN = `${root}apps/scanner-agent/dist/main.js`;
export const ADMIN = { username: 'admin', password: 'agent int test password 2026' };

export function requireBuilt(): void {
  for (const file of [API_MAIN, AGENT_MAIN]) {
    if (!existsSync(file)) throw new Error(`${file} is missing: build first (npx nx build api && npx tsc -b apps/scanner-agent)`);
  }
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** thrown inside a `waitFor` probe: stop waiting at once (a process that died will not come back) */
export class GiveUp extends Error {}

export async function waitFor<T>(what: string | (() => string), probe: () => Promise<T | undefined | false> | T | undefined | false, timeoutMs = 60_000, everyMs = 200): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  while (Date.now() < deadline) {
    try {
      const value = await probe();
      if (value !== undefined && value !== false) return value;
    } catch (error) {
      if (error instanceof GiveUp) throw error;
      lastError = error;
    }
    await sleep(everyMs);
  }
  throw new Error(`timed out after ${timeoutMs} ms waiting for ${typeof what === 'string' ? what : what()}${lastError ? ` (last error: ${String(lastError)})` : ''}`);
}

/** The API as a separate process; `stop()` and `start()` again keep its data dir and port. */
export class ApiProcess {
  private child: ChildProcess | null = null;
  private stderr = '';
  readonly url: string;

  constructor(
    readonly port: number,
    readonly dataDir: string,
  ) {
    this.url = `http://127.0.0.1:${port}`;
  }

  async start(): Promise<void> {
    const child = spawn(process.execPath, [API_MAIN], {
      env: {
        ...process.env,
        PORT: String(this.port),
        HOST: '127.0.0.1',
        ROLLCALL_DATA_DIR: this.dataDir,
        ROLLCALL_ADMIN_USERNAME: ADMIN.username,
        ROLLCALL_ADMIN_PASSWORD: ADMIN.password,
        ROLLCALL_LOG_LEVEL: 'warn',
      },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    this.child = child;
    child.stderr?.on('data', (chunk: Buffer) => (this.stderr = (this.stderr + chunk.toString()).slice(-4000)));
    await waitFor(
      'the API to answer',
      async () => {
        if (child.exitCode !== null) throw new GiveUp(`API exited ${child.exitCode}: ${this.stderr}`);
        return (await fetch(`${this.url}/api/openapi.json`)).status === 200;
      },
      90_000,
    );
  }

  async stop(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await Promise.race([exited, sleep(15_000).then(() => child.kill('SIGKILL'))]);
    await exited;
    this.child = null;
  }

  async adminToken(): Promise<string> {
    const answer = await fetch(`${this.url}/api/v2/admin/authenticate`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(ADMIN) });
    if (answer.status !== 200) throw new Error(`admin sign-in: ${answer.status} ${await answer.text()}`);
    return ((await answer.json()) as { data: { token: string } }).data.token;
  }

  /** as an administrator: POST /api/v2/...; answers `data` */
  async post<T>(path: string, body?: unknown, expected = [200, 201]): Promise<T> {
    const answer = await fetch(`${this.url}/api/v2/${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${await this.adminToken()}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await answer.text();
    if (!expected.includes(answer.status)) throw new Error(`POST ${path}: ${answer.status} ${text}`);
    return (JSON.parse(text) as { data: T }).data;
  }

  async get<T>(path: string): Promise<T> {
    const answer = await fetch(`${this.url}/api/v2/${path}`, { headers: { authorization: `Bearer ${await this.adminToken()}` } });
    const text = await answer.text();
    if (answer.status !== 200) throw new Error(`GET ${path}: ${answer.status} ${text}`);
    return (JSON.parse(text) as { data: T }).data;
  }

  /** registers a reader and issues its token (docs/readers.md), as e2e/support/console.ts does */
  async registerReader(name: string, role: 'door' | 'enrollment' = 'door'): Promise<{ id: string; token: string }> {
    const reader = await this.post<{ id: string }>('readers', { name, door: `${name} door`, role });
    const issued = await this.post<{ token: string }>(`readers/${reader.id}/token`);
    return { id: reader.id, token: issued.token };
  }

  /** the reader's events from the audit log (GET audit/events/export), oldest first */
  async readerEvents(readerId: string, types: string[]): Promise<Array<{ type: string; position: string; data: Record<string, unknown> }>> {
    const answer = await fetch(`${this.url}/api/v2/audit/events/export?type=${types.join(',')}&actor=${readerId}`, { headers: { authorization: `Bearer ${await this.adminToken()}` } });
    if (answer.status !== 200) throw new Error(`audit export: ${answer.status} ${await answer.text()}`);
    const lines = (await answer.text()).split('\n').filter((line) => line.trim() !== '');
    // the export is newest first
    return lines.map((line) => JSON.parse(line) as { type: string; position: string; data: Record<string, unknown> }).reverse();
  }

  /** what the server recorded for a door reader's unknown cards: [sequence, card UID] in log order, and every acknowledged sequence */
  async recordedScans(readerId: string): Promise<{ scans: Array<[number, string]>; acknowledged: number[] }> {
    const events = await this.readerEvents(readerId, ['UnknownCardScanned', 'ScansAcknowledged']);
    const scans: Array<[number, string]> = [];
    const acknowledged: number[] = [];
    for (const event of events) {
      if (event.type === 'UnknownCardScanned') {
        const scan = event.data.scan as { sequence: number; cardUid: string };
        scans.push([scan.sequence, scan.cardUid]);
      } else acknowledged.push(...(event.data.sequences as number[]));
    }
    return { scans, acknowledged };
  }
}

export interface LogLine {
  level: string;
  msg: string;
  [field: string]: unknown;
}

/** The agent as a child process (`rollcall-agent run`), its stdout parsed as JSON log lines. */
export class AgentProcess {
  readonly child: ChildProcess;
  readonly lines: LogLine[] = [];
  private readonly listeners = new Set<() => void>();
  stderr = '';
  readonly exited: Promise<number | null>;

  constructor(env: Record<string, string>, options: { stdin?: boolean } = {}) {
    this.child = spawn(process.execPath, [AGENT_MAIN, 'run'], {
      env: { PATH: process.env.PATH ?? '', ...env },
      stdio: [options.stdin ? 'pipe' : 'ignore', 'pipe', 'pipe'],
    });
    let partial = '';
    this.child.stdout?.on('data', (chunk: Buffer) => {
      const text = partial + chunk.toString();
      const parts = text.split('\n');
      partial = parts.pop() ?? '';
      for (const part of parts) {
        if (!part.trim()) continue;
        try {
          this.lines.push(JSON.parse(part) as LogLine);
        } catch {
          this.lines.push({ level: 'raw', msg: part });
        }
      }
      for (const listener of this.listeners) listener();
    });
    this.child.stderr?.on('data', (chunk: Buffer) => (this.stderr += chunk.toString()));
    this.child.stdin?.on('error', () => undefined);
    this.exited = new Promise((resolve) => this.child.once('exit', (code) => resolve(code)));
  }

  find(msg: string | RegExp, where: (line: LogLine) => boolean = () => true): LogLine | undefined {
    return this.lines.find((line) => (typeof msg === 'string' ? line.msg === msg : msg.test(line.msg)) && where(line));
  }

  all(msg: string | RegExp): LogLine[] {
    return this.lines.filter((line) => (typeof msg === 'string' ? line.msg === msg : msg.test(line.msg)));
  }

  async waitForLog(msg: string | RegExp, where: (line: LogLine) => boolean = () => true, timeoutMs = 60_000): Promise<LogLine> {
    return waitFor(() => `agent log ${String(msg)} (exit code ${this.child.exitCode}, last lines: ${JSON.stringify(this.lines.slice(-3))} ${this.stderr.slice(-500)})`, () => this.find(msg, where), timeoutMs, 50);
  }

  /** SIGTERM, and the exit code */
  async stop(): Promise<number | null> {
    if (this.child.exitCode === null) this.child.kill('SIGTERM');
    return this.exited;
  }
}

export function agentEnv(api: { url: string }, reader: { id: string; token: string }, dataDir: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    ROLLCALL_AGENT_SERVER_URL: api.url,
    ROLLCALL_AGENT_READER_ID: reader.id,
    ROLLCALL_AGENT_TOKEN: reader.token,
    ROLLCALL_AGENT_DATA_DIR: dataDir,
    // fast retries: the tests stop and start the API and cut connections
    ROLLCALL_AGENT_RETRY_BASE_MS: '100',
    ROLLCALL_AGENT_RETRY_MAX_SECONDS: '1',
    ...extra,
  };
}

/** `count` distinct 4-byte UIDs (unknown cards: each scan is recorded as itself, never a duplicate of another) */
export function cardUids(count: number, prefix: number): string[] {
  return Array.from({ length: count }, (_, index) => (prefix * 0x1000000 + index).toString(16).toUpperCase().padStart(8, '0'));
}

/** libfaketime's preload library, wherever the architecture's multiarch directory puts it */
export function findLibfaketime(): string | null {
  for (const base of ['/usr/lib', '/usr/local/lib']) {
    if (!existsSync(base)) continue;
    for (const dir of ['', ...readdirSync(base).filter((name) => name.endsWith('-linux-gnu'))]) {
      const candidate = join(base, dir, 'faketime', 'libfaketime.so.1');
      if (existsSync(candidate)) return candidate;
    }
  }
  return null;
}

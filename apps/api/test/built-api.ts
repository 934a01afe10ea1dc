import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from '@rollcall/sqlite-driver';
import { ADMIN, http } from './test-app';

/** the built API (`npm run build`, or `npx tsc -b apps/api`) */
export const API_MAIN = fileURLToPath(new URL('../dist/main.js', import.meta.url));

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/**
 * One real `node apps/api/dist/main.js` on SQLite files in `dataDir`, started and stopped (or
 * SIGKILLed) as often as a test likes on the same files. `wrapper` puts a command in front of node
 * (`fiu-run -x ...`, `faketime ...`); such wrappers exec node, so the child's pid is node's.
 */
export class BuiltApi {
  private child: ChildProcess | null = null;
  private outputTail = '';
  url = '';

  constructor(
    readonly dataDir: string,
    private readonly options: { wrapper?: string[]; env?: Record<string, string> } = {},
  ) {}

  get pid(): number | undefined {
    return this.child?.pid;
  }

  /** the end of what it printed, stdout (its JSON log) and stderr together */
  get output(): string {
    return this.outputTail;
  }

  get running(): boolean {
    return !!this.child && this.child.exitCode === null && this.child.signalCode === null;
  }

  async start(): Promise<void> {
    if (!existsSync(API_MAIN)) throw new Error(`${API_MAIN} is missing: run npm run build (or npx tsc -b apps/api) first`);
    const port = await freePort();
    this.url = `http://127.0.0.1:${port}`;
    const [command, ...prefix] = [...(this.options.wrapper ?? []), process.execPath];
    const child = spawn(command, [...prefix, API_MAIN], {
      env: {
        ...process.env,
        PORT: String(port),
        HOST: '127.0.0.1',
        ROLLCALL_DATA_DIR: this.dataDir,
        ROLLCALL_EVENT_STORE: 'sqlite',
        ROLLCALL_READ_DB: '',
        ROLLCALL_ADMIN_USERNAME: ADMIN.username,
        ROLLCALL_ADMIN_PASSWORD: ADMIN.password,
        ROLLCALL_LOG_LEVEL: 'warn',
        ROLLCALL_ARGON2_MEMORY_KIB: '4096',
        ROLLCALL_ARGON2_TIME_COST: '1',
        ROLLCALL_CONSOLE_DIR: join(this.dataDir, 'no-console'),
        ...this.options.env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child = child;
    const keep = (chunk: Buffer) => (this.outputTail = (this.outputTail + chunk.toString()).slice(-20_000));
    child.stdout?.on('data', keep);
    child.stderr?.on('data', keep);
    for (const deadline = Date.now() + 60_000; Date.now() < deadline; await sleep(100)) {
      if (child.exitCode !== null || child.signalCode !== null) throw new Error(`the API exited with ${child.exitCode ?? child.signalCode}: ${this.outputTail}`);
      const ready = await fetch(`${this.url}/readyz`).catch(() => null);
      if (ready?.status === 200) return;
    }
    throw new Error(`the API did not become ready: ${this.outputTail}`);
  }

  /** SIGKILL: no shutdown hook runs, nothing is flushed or closed */
  async kill(): Promise<void> {
    await this.signal('SIGKILL');
  }

  /** SIGTERM, the orderly shutdown (SIGKILL after 10 s) */
  async stop(): Promise<void> {
    await this.signal('SIGTERM');
  }

  private async signal(signal: 'SIGKILL' | 'SIGTERM'): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill(signal);
    const timer = signal === 'SIGTERM' ? setTimeout(() => child.kill('SIGKILL'), 10_000) : undefined;
    await exited;
    clearTimeout(timer);
  }
}

/** every account id the API lists (REST v2, all pages) */
export async function listedAccountIds(base: string, token: string): Promise<Set<string>> {
  const ids = new Set<string>();
  for (let page = 1; ; page++) {
    const answer = await http(base, token).get(`/api/v2/accounts?limit=100&page=${page}`);
    if (answer.status !== 200) throw new Error(`list: ${answer.status} ${JSON.stringify(answer.body)}`);
    const rows = answer.body.data.data as Array<{ id: string }>;
    for (const row of rows) ids.add(row.id);
    if (rows.length < 100) return ids;
  }
}

/** `PRAGMA integrity_check` of a SQLite file, opened read-only (the API must not be running on it) */
export function integrityCheck(file: string): string {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    return (db.pragma('integrity_check') as Array<{ integrity_check: string }>).map((row) => row.integrity_check).join('; ');
  } finally {
    db.close();
  }
}

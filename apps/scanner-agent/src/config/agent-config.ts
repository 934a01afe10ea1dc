import { isAbsolute, resolve } from 'node:path';
import { z } from 'zod';

export const AGENT_DRIVERS = ['simulator'] as const;
export type AgentDriver = (typeof AGENT_DRIVERS)[number];

/** What running locally needs: where the outbox lives and which driver reads scans. */
export interface LocalAgentConfig {
  /** absolute */
  dataDir: string;
  driver: AgentDriver;
}

/** Everything the daemon needs to talk to the server as well. */
export interface AgentConfig extends LocalAgentConfig {
  /** base URL of the Rollcall API, normalised by URL */
  serverUrl: string;
  readerId: string;
  /** the reader's access token; never printed */
  token: string;
}

export type ConfigResult<T> = { ok: true; config: T } | { ok: false; problems: string[] };

const PREFIX = 'ROLLCALL_AGENT_';
const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

const required = (what: string) => z.string({ error: `is required: ${what}` });

const serverUrl = required('the base URL of the Rollcall API, e.g. https://rollcall.example.com').transform((value, ctx) => {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    ctx.addIssue({ code: 'custom', message: 'must be an absolute URL, e.g. https://rollcall.example.com' });
    return z.NEVER;
  }
  // The reader token rides on every request, so plain http is only accepted on this machine.
  if (url.protocol === 'https:' || (url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname))) return url.href;
  ctx.addIssue({ code: 'custom', message: 'must use https:// (http:// is accepted only for localhost), since the reader token travels with every request' });
  return z.NEVER;
});

const readerId = required('the id of the door reader this agent serves').regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/, {
  error: "must be 1 to 64 letters, digits, '.', '_' or '-', starting with a letter or digit",
});

const token = required("the reader's access token issued by the server").regex(/^\S+$/, {
  error: 'must not contain whitespace (check for a stray space or line break in the environment file)',
});

const dataDir = z.string().default('./agent-data');

const driver = z.enum(AGENT_DRIVERS, { error: `must be one of: ${AGENT_DRIVERS.join(', ')} (node-hid drivers come later)` }).default('simulator');

const localSchema = z.object({ ROLLCALL_AGENT_DATA_DIR: dataDir, ROLLCALL_AGENT_DRIVER: driver });
const fullSchema = localSchema.extend({
  ROLLCALL_AGENT_SERVER_URL: serverUrl,
  ROLLCALL_AGENT_READER_ID: readerId,
  ROLLCALL_AGENT_TOKEN: token,
});
const KNOWN_KEYS = new Set(Object.keys(fullSchema.shape));

export interface ParseOptions {
  /** base for a relative data dir; defaults to process.cwd() */
  cwd?: string;
}

/** The full configuration the daemon needs (server, reader, token, data dir, driver). */
export function parseAgentConfig(env: NodeJS.ProcessEnv, options: ParseOptions = {}): ConfigResult<AgentConfig> {
  return parseWith(fullSchema, env, (e) => ({
    dataDir: absolute(e.ROLLCALL_AGENT_DATA_DIR, options),
    driver: e.ROLLCALL_AGENT_DRIVER,
    serverUrl: e.ROLLCALL_AGENT_SERVER_URL,
    readerId: e.ROLLCALL_AGENT_READER_ID,
    token: e.ROLLCALL_AGENT_TOKEN,
  }));
}

/**
 * Only what local work needs (the simulator filling the outbox): a demo should not need a server
 * URL or token it does not use yet. Server settings that are present are still not validated here.
 */
export function parseLocalConfig(env: NodeJS.ProcessEnv, options: ParseOptions = {}): ConfigResult<LocalAgentConfig> {
  return parseWith(localSchema, env, (e) => ({
    dataDir: absolute(e.ROLLCALL_AGENT_DATA_DIR, options),
    driver: e.ROLLCALL_AGENT_DRIVER,
  }));
}

function parseWith<S extends z.ZodType, T>(schema: S, env: NodeJS.ProcessEnv, build: (parsed: z.output<S>) => T): ConfigResult<T> {
  const ours: Record<string, string> = {};
  const problems: string[] = [];
  for (const [key, raw] of Object.entries(env)) {
    if (!key.startsWith(PREFIX)) continue;
    if (!KNOWN_KEYS.has(key)) {
      // A misspelt name would otherwise fall back to a default without a word.
      problems.push(`${key}: is not a setting this agent knows (known: ${[...KNOWN_KEYS].join(', ')})`);
      continue;
    }
    // systemd EnvironmentFile lines like `FOO=` give empty strings: treat them as unset, so the
    // message says "is required" rather than something about an empty value.
    const value = raw?.trim();
    if (value) ours[key] = value;
  }
  const parsed = schema.safeParse(ours);
  if (!parsed.success) {
    // One message per variable: the first problem is the one to fix, later ones often follow from it.
    const seen = new Set<string>();
    for (const issue of parsed.error.issues) {
      const key = String(issue.path[0] ?? '(environment)');
      if (seen.has(key)) continue;
      seen.add(key);
      problems.push(`${key}: ${issue.message}`);
    }
  }
  if (problems.length > 0 || !parsed.success) return { ok: false, problems };
  return { ok: true, config: build(parsed.data) };
}

function absolute(path: string, options: ParseOptions): string {
  return isAbsolute(path) ? path : resolve(options.cwd ?? process.cwd(), path);
}

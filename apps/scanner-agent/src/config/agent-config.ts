import { readFileSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { READER_DEFAULT_CONFIGURATION, READER_SCAN_BATCH_MAX } from '@rollcall/contracts';
import { z } from 'zod';

export const AGENT_DRIVERS = ['simulator', 'hid-keyboard', 'hid-raw'] as const;
export type AgentDriver = (typeof AGENT_DRIVERS)[number];
export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** Which USB reader to open: by vendor and product id, or by its device path. */
export interface DeviceSelector {
  vendorId?: number;
  productId?: number;
  path?: string;
}

/** What running locally needs: where the outbox lives and which driver reads scans. */
export interface LocalAgentConfig {
  /** absolute */
  dataDir: string;
  driver: AgentDriver;
  /** simulator input: '-' for stdin, a file path, or `unix:<path>` for a local socket that takes lines */
  simulatorInput: string;
  device: DeviceSelector;
  /** how a keyboard-wedge reader types the UID: hex bytes, or one decimal number (many 125 kHz readers) */
  uidFormat: 'hex' | 'decimal';
  /** a card presented again within this many ms is a card held against the reader, not a new scan; 0 keeps every read */
  debounceMs: number;
  /** USB readers: an output report (bytes) written after each queued scan, for the reader's beep or LED */
  feedbackReport: number[] | null;
  /**
   * USB readers: an output report written when a scan could NOT be stored (the outbox stayed
   * unwritable until the agent gave up), for the reader's error beep or red LED
   */
  refusedReport: number[] | null;
  logLevel: LogLevel;
}

/** Everything the daemon needs to talk to the server as well. */
export interface AgentConfig extends LocalAgentConfig {
  /** base URL of the Rollcall API, normalised by URL */
  serverUrl: string;
  readerId: string;
  /** the reader's access token; never printed */
  token: string;
  /** most scans per request (the server may lower it with `configure`) */
  batchMax: number;
  /** first retry delay; doubles per failure, with full jitter, up to retryMaxSeconds */
  retryBaseMs: number;
  retryMaxSeconds: number;
  /** health reports, until the server's `configure` says otherwise */
  heartbeatSeconds: number;
  /** an unanswered request is abandoned (and retried) after this long */
  requestTimeoutSeconds: number;
  /**
   * how long scan intake may keep failing to write the outbox (a full or broken disk) before the
   * process exits non-zero (75) so its supervisor restarts it; meanwhile the scan is held and retried
   */
  intakeGiveUpSeconds: number;
}

export type ConfigResult<T> = { ok: true; config: T } | { ok: false; problems: string[] };

const PREFIX = 'ROLLCALL_AGENT_';
/** points at a JSON file with the same settings in camelCase; the environment overrides it */
export const CONFIG_FILE_VARIABLE = 'ROLLCALL_AGENT_CONFIG';
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

/** numbers come as text from the environment and as numbers from the file */
const integer = (min: number, max: number, fallback: number, unit = '') =>
  z
    .union([z.number(), z.string()], { error: 'must be a whole number' })
    .transform((value, ctx) => {
      const number = typeof value === 'number' ? value : /^-?\d+$/.test(value.trim()) ? Number(value) : Number.NaN;
      if (!Number.isSafeInteger(number)) ctx.addIssue({ code: 'custom', message: 'must be a whole number' });
      else if (number < min || number > max) ctx.addIssue({ code: 'custom', message: `must be between ${min} and ${max}${unit}` });
      return number;
    })
    .default(fallback);

const usbId = (what: string) =>
  z
    .union([z.number(), z.string()], { error: `must be the ${what} as 4 hex digits, as lsusb prints it (e.g. 0035)` })
    .transform((value, ctx) => {
      const number = typeof value === 'number' ? value : /^(0x)?[0-9a-fA-F]{1,4}$/.test(value.trim()) ? parseInt(value.trim().replace(/^0x/, ''), 16) : Number.NaN;
      if (!Number.isInteger(number) || number < 0 || number > 0xffff) ctx.addIssue({ code: 'custom', message: `must be the ${what} as 4 hex digits, as lsusb prints it (e.g. 0035)` });
      return number;
    })
    .optional();

/** an output report for the reader (its beep or LED), as 1 to 64 hex bytes */
function outputReport() {
  return z
    .string({ error: 'must be the output report as hex bytes, e.g. "00 01 0a"' })
    .transform((value, ctx) => {
      const bytes = value.trim().split(/[\s:,-]+/).filter(Boolean);
      if (bytes.length === 0 || bytes.length > 64 || !bytes.every((byte) => /^(0x)?[0-9a-fA-F]{1,2}$/.test(byte))) {
        ctx.addIssue({ code: 'custom', message: 'must be the output report as 1 to 64 hex bytes, e.g. "00 01 0a" (the first is the report id, 00 when the device has none)' });
        return z.NEVER;
      }
      return bytes.map((byte) => parseInt(byte.replace(/^0x/, ''), 16));
    })
    .optional();
}

/** One entry per setting: its key in the file, its variable in the environment. */
const settings = {
  dataDir: z.string().default('./agent-data'),
  driver: z.enum(AGENT_DRIVERS, { error: `must be one of: ${AGENT_DRIVERS.join(', ')}` }).default('simulator'),
  simulatorInput: z.string().default('-'),
  deviceVendorId: usbId('USB vendor id'),
  deviceProductId: usbId('USB product id'),
  devicePath: z.string().optional(),
  uidFormat: z.enum(['hex', 'decimal'], { error: 'must be hex (the reader types the UID bytes) or decimal (it types one number)' }).default('hex'),
  debounceMs: integer(0, 60_000, 2_000, ' ms'),
  feedbackReport: outputReport(),
  refusedReport: outputReport(),
  logLevel: z.enum(LOG_LEVELS, { error: `must be one of: ${LOG_LEVELS.join(', ')}` }).default('info'),
  serverUrl,
  readerId,
  token,
  batchMax: integer(1, READER_SCAN_BATCH_MAX, READER_DEFAULT_CONFIGURATION.batch_max),
  retryBaseMs: integer(10, 60_000, 500, ' ms'),
  retryMaxSeconds: integer(1, 3600, READER_DEFAULT_CONFIGURATION.retry_max_seconds, ' seconds'),
  heartbeatSeconds: integer(5, 300, READER_DEFAULT_CONFIGURATION.heartbeat_seconds, ' seconds'),
  requestTimeoutSeconds: integer(1, 600, 30, ' seconds'),
  intakeGiveUpSeconds: integer(1, 86_400, 300, ' seconds'),
};
type SettingKey = keyof typeof settings;
const SERVER_KEYS: SettingKey[] = ['serverUrl', 'readerId', 'token', 'batchMax', 'retryBaseMs', 'retryMaxSeconds', 'heartbeatSeconds', 'requestTimeoutSeconds', 'intakeGiveUpSeconds'];

/** `deviceVendorId` -> `ROLLCALL_AGENT_DEVICE_VENDOR_ID` */
export const envName = (key: string) => PREFIX + key.replace(/[A-Z]/g, (letter) => `_${letter}`).toUpperCase();
const KEYS = Object.keys(settings) as SettingKey[];
const BY_ENV = new Map(KEYS.map((key) => [envName(key), key]));

export interface ParseOptions {
  /** base for a relative data dir; defaults to process.cwd() */
  cwd?: string;
  /** reads the configuration file; defaults to fs.readFileSync */
  readFile?: (path: string) => string;
}

/** The full configuration the daemon needs (server, reader, token, data dir, driver). */
export function parseAgentConfig(env: NodeJS.ProcessEnv, options: ParseOptions = {}): ConfigResult<AgentConfig> {
  const parsed = parseSettings(env, KEYS, options);
  if (!parsed.ok) return parsed;
  const s = parsed.config;
  return {
    ok: true,
    config: {
      ...local(s, options),
      serverUrl: s.serverUrl as string,
      readerId: s.readerId as string,
      token: s.token as string,
      batchMax: s.batchMax as number,
      retryBaseMs: s.retryBaseMs as number,
      retryMaxSeconds: s.retryMaxSeconds as number,
      heartbeatSeconds: s.heartbeatSeconds as number,
      requestTimeoutSeconds: s.requestTimeoutSeconds as number,
      intakeGiveUpSeconds: s.intakeGiveUpSeconds as number,
    },
  };
}

/**
 * Only what local work needs (the simulator filling the outbox): a demo should not need a server
 * URL or token it does not use. Server settings that are present are still not validated here.
 */
export function parseLocalConfig(env: NodeJS.ProcessEnv, options: ParseOptions = {}): ConfigResult<LocalAgentConfig> {
  const parsed = parseSettings(
    env,
    KEYS.filter((key) => !SERVER_KEYS.includes(key)),
    options,
  );
  return parsed.ok ? { ok: true, config: local(parsed.config, options) } : parsed;
}

function local(s: Record<string, unknown>, options: ParseOptions): LocalAgentConfig {
  const device: DeviceSelector = {};
  if (s.deviceVendorId !== undefined) device.vendorId = s.deviceVendorId as number;
  if (s.deviceProductId !== undefined) device.productId = s.deviceProductId as number;
  if (s.devicePath !== undefined) device.path = s.devicePath as string;
  return {
    dataDir: absolute(s.dataDir as string, options),
    driver: s.driver as AgentDriver,
    simulatorInput: s.simulatorInput as string,
    device,
    uidFormat: s.uidFormat as 'hex' | 'decimal',
    debounceMs: s.debounceMs as number,
    feedbackReport: (s.feedbackReport as number[] | undefined) ?? null,
    refusedReport: (s.refusedReport as number[] | undefined) ?? null,
    logLevel: s.logLevel as LogLevel,
  };
}

/**
 * Merges the file (if `ROLLCALL_AGENT_CONFIG` names one) and the environment (which wins), then
 * validates. Every problem is reported, one per setting, named as the operator wrote it: the
 * variable, or `<file>: key`.
 */
function parseSettings(env: NodeJS.ProcessEnv, keys: SettingKey[], options: ParseOptions): ConfigResult<Record<string, unknown>> {
  const problems: string[] = [];
  const values: Record<string, unknown> = {};
  const source = new Map<string, string>();

  const file = env[CONFIG_FILE_VARIABLE]?.trim();
  if (file) {
    const path = absolute(file, options);
    let json: unknown;
    try {
      json = JSON.parse((options.readFile ?? ((p: string) => readFileSync(p, 'utf8')))(path));
    } catch (error) {
      const reason = error instanceof SyntaxError ? `is not valid JSON (${error.message})` : `cannot be read (${error instanceof Error ? error.message : String(error)})`;
      return { ok: false, problems: [`${CONFIG_FILE_VARIABLE}: the configuration file ${path} ${reason}`] };
    }
    if (!json || typeof json !== 'object' || Array.isArray(json)) return { ok: false, problems: [`${path}: must be a JSON object of settings, e.g. {"serverUrl": "https://rollcall.example.com"}`] };
    for (const [key, value] of Object.entries(json)) {
      if (!(key in settings)) {
        problems.push(`${path}: ${key}: is not a setting this agent knows (known: ${KEYS.join(', ')})`);
        continue;
      }
      if (value === null || value === '') continue;
      values[key] = typeof value === 'string' ? value.trim() : value;
      source.set(key, `${path}: ${key}`);
    }
  }

  for (const [name, raw] of Object.entries(env)) {
    if (!name.startsWith(PREFIX) || name === CONFIG_FILE_VARIABLE) continue;
    const key = BY_ENV.get(name);
    if (!key) {
      // A misspelt name would otherwise fall back to a default without a word.
      problems.push(`${name}: is not a setting this agent knows (known: ${[...BY_ENV.keys(), CONFIG_FILE_VARIABLE].join(', ')})`);
      continue;
    }
    // systemd EnvironmentFile lines like `FOO=` give empty strings: treat them as unset, so the
    // message says "is required" rather than something about an empty value.
    const value = raw?.trim();
    if (!value) continue;
    values[key] = value;
    source.set(key, name);
  }

  const schema = z.object(Object.fromEntries(keys.map((key) => [key, settings[key]])));
  const parsed = schema.safeParse(values);
  if (!parsed.success) {
    // One message per setting: the first problem is the one to fix, later ones often follow from it.
    const seen = new Set<string>();
    for (const issue of parsed.error.issues) {
      const key = String(issue.path[0] ?? '');
      if (seen.has(key)) continue;
      seen.add(key);
      problems.push(`${source.get(key) ?? envName(key)}: ${issue.message}`);
    }
  }
  // A USB driver without a device is a mistake of its own, reported next to any others.
  const usbDriver = values.driver === 'hid-keyboard' || values.driver === 'hid-raw';
  if (keys.includes('driver') && usbDriver && values.devicePath === undefined && (values.deviceVendorId === undefined || values.deviceProductId === undefined)) {
    problems.push(`${envName('deviceVendorId')} and ${envName('deviceProductId')} (or ${envName('devicePath')}): the ${String(values.driver)} driver needs the reader's vendor and product id, or its path; 'rollcall-agent devices' lists them`);
  }
  if (problems.length > 0 || !parsed.success) return { ok: false, problems };
  return { ok: true, config: parsed.data as Record<string, unknown> };
}

function absolute(path: string, options: ParseOptions): string {
  return isAbsolute(path) ? path : resolve(options.cwd ?? process.cwd(), path);
}

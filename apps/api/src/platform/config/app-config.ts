import { isAbsolute, resolve } from 'node:path';
import { ATTENDANCE_RULE_LIMITS, DEFAULT_ATTENDANCE_RULES, REGISTER_MODE_TIMEOUT_SECONDS, type AttendanceRules } from '@rollcall/domain';
import { z } from 'zod';
import proxyAddr from 'proxy-addr';

/** A whole number from `min` to `max`, with one message naming the setting and its bounds for every way to miss them. */
const wholeNumberFrom = (name: string, { min, max }: { min: number; max: number }) => {
  const message = `${name} must be a whole number from ${min} to ${max}`;
  return z.coerce.number({ error: message }).int(message).min(min, message).max(max, message);
};

/** How often a sweeper runs, in milliseconds. */
const sweepInterval = (name: string) => {
  const message = `${name} must be a whole number of milliseconds, at least 10`;
  return z.coerce.number({ error: message }).int(message).min(10, message);
};

/**
 * Configuration from the environment, validated once at start with one clear message per problem.
 */
const ZEnvironment = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default('127.0.0.1'),
  ROLLCALL_DATA_DIR: z.string().default('data'),
  /** 'sqlite' (default), a postgres:// URL, or 'kurrentdb' (then ROLLCALL_KURRENTDB_URL) */
  ROLLCALL_EVENT_STORE: z.string().default('sqlite'),
  /** KurrentDB connection string, for ROLLCALL_EVENT_STORE=kurrentdb */
  ROLLCALL_KURRENTDB_URL: z.string().optional(),
  /** unset: SQLite read models under the data dir; or a postgres:// URL */
  ROLLCALL_READ_DB: z.string().optional(),
  /** PostgreSQL schema for events and read models (tests use one per suite) */
  ROLLCALL_PG_SCHEMA: z.string().regex(/^[a-z_][a-z0-9_]*$/).default('rollcall'),
  ROLLCALL_ADMIN_USERNAME: z.string().min(3).default('admin'),
  ROLLCALL_ADMIN_PASSWORD: z.string().min(8, 'ROLLCALL_ADMIN_PASSWORD must be at least 8 characters').optional(),
  /** title of the protected top-level organization the first start creates (docs/adr/0009) */
  ROLLCALL_ORGANIZATION_TITLE: z.string().trim().min(1).max(255).default('Rollcall'),
  /** extra origins allowed to open the WebSocket, comma separated (the API's own origin always is) */
  ROLLCALL_ALLOWED_ORIGINS: z.string().default(''),
  /** how long a mutation waits for the read models before answering anyway */
  ROLLCALL_CONSISTENCY_WAIT_MS: z.coerce.number().int().min(0).default(2000),
  ROLLCALL_SESSION_HOURS: z.coerce.number().positive().default(12),
  /** the lockout of every account no password policy locks (none, or a policy's lockout 0): failed sign-ins in a row (docs/security.md, 'Sign-in') */
  ROLLCALL_DEFAULT_LOCKOUT_ATTEMPTS: z.coerce.number({ error: 'ROLLCALL_DEFAULT_LOCKOUT_ATTEMPTS must be a number of attempts' }).int().min(1, 'ROLLCALL_DEFAULT_LOCKOUT_ATTEMPTS must be from 1 to 100').max(100, 'ROLLCALL_DEFAULT_LOCKOUT_ATTEMPTS must be from 1 to 100').default(10),
  /** how long that default lockout lasts */
  ROLLCALL_DEFAULT_LOCKOUT_MINUTES: z.coerce.number({ error: 'ROLLCALL_DEFAULT_LOCKOUT_MINUTES must be a number of minutes' }).positive('ROLLCALL_DEFAULT_LOCKOUT_MINUTES must be more than 0').max(1440, 'ROLLCALL_DEFAULT_LOCKOUT_MINUTES must be at most 1440 (a day)').default(15),
  /** failed sign-ins one address may make per window, whatever the usernames, before every sign-in from it answers 429 */
  ROLLCALL_SIGNIN_ADDRESS_FAILURES: z.coerce.number({ error: 'ROLLCALL_SIGNIN_ADDRESS_FAILURES must be a number' }).int().min(1, 'ROLLCALL_SIGNIN_ADDRESS_FAILURES must be at least 1').default(100),
  ROLLCALL_SIGNIN_ADDRESS_WINDOW_SECONDS: z.coerce.number({ error: 'ROLLCALL_SIGNIN_ADDRESS_WINDOW_SECONDS must be a number' }).int().min(1, 'ROLLCALL_SIGNIN_ADDRESS_WINDOW_SECONDS must be at least 1').default(60),
  /** failed sign-ins for one username from one address per window, before that pair answers 429 */
  ROLLCALL_SIGNIN_USERNAME_FAILURES: z.coerce.number({ error: 'ROLLCALL_SIGNIN_USERNAME_FAILURES must be a number' }).int().min(1, 'ROLLCALL_SIGNIN_USERNAME_FAILURES must be at least 1').default(10),
  ROLLCALL_SIGNIN_USERNAME_WINDOW_SECONDS: z.coerce.number({ error: 'ROLLCALL_SIGNIN_USERNAME_WINDOW_SECONDS must be a number' }).int().min(1, 'ROLLCALL_SIGNIN_USERNAME_WINDOW_SECONDS must be at least 1').default(900),
  ROLLCALL_CONSOLE_DIR: z.string().optional(),
  ROLLCALL_LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** json: one JSON object per line with an access log line per request (production); text: Nest's readable lines, no access log */
  ROLLCALL_LOG_FORMAT: z.enum(['json', 'text'], { error: 'ROLLCALL_LOG_FORMAT must be json or text' }).default('json'),
  /** where the projections run on a SQLite read database: this thread, or a worker thread beside it (docs/adr/0026) */
  ROLLCALL_PROJECTIONS_THREAD: z.enum(['main', 'worker'], { error: 'ROLLCALL_PROJECTIONS_THREAD must be main or worker' }).default('main'),
  /** argon2id cost; tests lower it, production keeps OWASP's m=19 MiB, t=2, p=1 */
  ROLLCALL_ARGON2_MEMORY_KIB: z.coerce.number().int().min(1024).default(19456),
  ROLLCALL_ARGON2_TIME_COST: z.coerce.number().int().min(1).default(2),
  /** proxies whose X-Forwarded-For is believed: addresses, CIDR ranges or proxy-addr's names (loopback, uniquelocal) */
  ROLLCALL_TRUSTED_PROXIES: z
    .string()
    .default('')
    .transform((value) => value.split(',').map((entry) => entry.trim()).filter(Boolean))
    .refine((list) => trustedProxiesError(list) === null, { error: 'expected a comma-separated list of IP addresses, CIDR ranges, loopback, linklocal or uniquelocal' }),
  /** how often the last-used times of access tokens are written (one batch per interval) */
  ROLLCALL_TOKEN_USAGE_FLUSH_MS: z.coerce.number().int().min(10).default(5000),
  /** base of the links in e-mails (activation); unset: http://localhost:<PORT> */
  ROLLCALL_PUBLIC_URL: z.url({ protocol: /^https?$/, error: 'ROLLCALL_PUBLIC_URL must be an http(s) URL, e.g. https://rollcall.example.com' }).optional(),
  /** unset: mails are printed to the log (development); smtp(s)://user:pass@host:port sends them */
  ROLLCALL_SMTP_URL: z.url({ protocol: /^smtps?$/, error: 'ROLLCALL_SMTP_URL must be an smtp:// or smtps:// URL, e.g. smtp://user:secret@mail.example.com:587' }).optional(),
  ROLLCALL_MAIL_FROM: z
    .string()
    .regex(/^(?:[^<>]*<[^\s@<>]+@[^\s@<>]+>|[^\s@<>]+@[^\s@<>]+)$/, 'ROLLCALL_MAIL_FROM must be an address, e.g. no-reply@example.com or "Rollcall <no-reply@example.com>"')
    .default('Rollcall <no-reply@localhost>'),
  /** the log mailer also appends each mail (JSON line) to this file; relative to the data dir */
  ROLLCALL_MAIL_LOG_FILE: z.string().optional(),
  ROLLCALL_ACTIVATION_HOURS: z.coerce.number({ error: 'ROLLCALL_ACTIVATION_HOURS must be a number of hours' }).positive('ROLLCALL_ACTIVATION_HOURS must be more than 0').default(72),
  ROLLCALL_MAIL_POLL_MS: z.coerce.number().int().min(10, 'ROLLCALL_MAIL_POLL_MS must be at least 10').default(2000),
  ROLLCALL_MAIL_RETRY_BASE_MS: z.coerce.number().int().min(1, 'ROLLCALL_MAIL_RETRY_BASE_MS must be at least 1').default(5000),
  ROLLCALL_MAIL_MAX_ATTEMPTS: z.coerce.number().int().min(1, 'ROLLCALL_MAIL_MAX_ATTEMPTS must be at least 1').default(8),
  /** the key that encrypts secrets at rest (the OpenID Connect signing and cookie keys): base64 of 32 random bytes */
  ROLLCALL_SECRETS_KEY: z.string().trim().refine((value) => secretsKeyError(value) === null, { error: 'ROLLCALL_SECRETS_KEY must be base64 of exactly 32 bytes, e.g. the output of `openssl rand -base64 32`' }).optional(),
  /** where that key is read from when ROLLCALL_SECRETS_KEY is unset (created, mode 0600, on the first start); unset: <data dir>.key, beside the data dir */
  ROLLCALL_SECRETS_KEY_FILE: z.string().optional(),
  /** the key before a rotation: what it encrypted is re-encrypted with the current key at start */
  ROLLCALL_SECRETS_KEY_PREVIOUS: z.string().trim().refine((value) => secretsKeyError(value) === null, { error: 'ROLLCALL_SECRETS_KEY_PREVIOUS must be base64 of exactly 32 bytes' }).optional(),
  // the attendance rules of this deployment (docs/adr/0013), bounded by the domain's own limits
  /** a scan of a card within this many seconds of that card's previous scan is kept but counts nothing */
  ROLLCALL_ATTENDANCE_DUPLICATE_WINDOW_SECONDS: wholeNumberFrom('ROLLCALL_ATTENDANCE_DUPLICATE_WINDOW_SECONDS', ATTENDANCE_RULE_LIMITS.duplicateWindowSeconds).default(DEFAULT_ATTENDANCE_RULES.duplicateWindowSeconds),
  /** a door reader's clock further than this from the server's is flagged, and its times corrected by the offset */
  ROLLCALL_ATTENDANCE_CLOCK_SKEW_LIMIT_SECONDS: wholeNumberFrom('ROLLCALL_ATTENDANCE_CLOCK_SKEW_LIMIT_SECONDS', ATTENDANCE_RULE_LIMITS.clockSkewLimitSeconds).default(DEFAULT_ATTENDANCE_RULES.clockSkewLimitSeconds),
  /** the same card at two different doors within this many seconds is flagged (a shared or copied card) */
  ROLLCALL_ATTENDANCE_TWO_DOORS_WINDOW_SECONDS: wholeNumberFrom('ROLLCALL_ATTENDANCE_TWO_DOORS_WINDOW_SECONDS', ATTENDANCE_RULE_LIMITS.twoDoorsWindowSeconds).default(DEFAULT_ATTENDANCE_RULES.twoDoorsWindowSeconds),
  /** a day open longer than this is flagged, and the next scan is an arrival */
  ROLLCALL_ATTENDANCE_OPEN_DAY_LIMIT_HOURS: wholeNumberFrom('ROLLCALL_ATTENDANCE_OPEN_DAY_LIMIT_HOURS', ATTENDANCE_RULE_LIMITS.openDayLimitHours).default(DEFAULT_ATTENDANCE_RULES.openDayLimitHours),
  /** how long register mode waits for a card at the enrollment readers */
  ROLLCALL_REGISTER_MODE_TIMEOUT_SECONDS: wholeNumberFrom('ROLLCALL_REGISTER_MODE_TIMEOUT_SECONDS', REGISTER_MODE_TIMEOUT_SECONDS).default(REGISTER_MODE_TIMEOUT_SECONDS.default),
  /** how often register modes whose time is up are ended */
  ROLLCALL_REGISTER_MODE_SWEEP_MS: sweepInterval('ROLLCALL_REGISTER_MODE_SWEEP_MS').default(2000),
  /** how often days open past the limit are flagged */
  ROLLCALL_OPEN_DAY_SWEEP_MS: sweepInterval('ROLLCALL_OPEN_DAY_SWEEP_MS').default(60_000),
});

export interface AppConfig {
  port: number;
  host: string;
  dataDir: string;
  eventStore: { kind: 'sqlite'; file: string } | { kind: 'postgres'; url: string; schema: string } | { kind: 'kurrentdb'; url: string };
  readDb: { kind: 'sqlite'; file: string } | { kind: 'postgres'; url: string; schema: string };
  admin: { username: string; password: string | undefined; organizationTitle: string };
  allowedOrigins: string[];
  consistencyWaitMs: number;
  /** 'worker': a worker thread applies the projections to the SQLite read database (docs/adr/0026) */
  projectionsThread: 'main' | 'worker';
  sessionHours: number;
  /** every account's lockout where no policy sets one, and the sign-in throttle (auth/sign-in-throttle.ts) */
  signIn: {
    defaultLockout: { attempts: number; durationSeconds: number };
    throttle: {
      perAddress: { failures: number; windowSeconds: number };
      perUsernameAndAddress: { failures: number; windowSeconds: number };
    };
  };
  consoleDir: string;
  logLevel: z.infer<typeof ZEnvironment>['ROLLCALL_LOG_LEVEL'];
  logFormat: 'json' | 'text';
  argon2: { memoryCost: number; timeCost: number };
  trustedProxies: string[];
  tokenUsageFlushMs: number;
  mail: {
    publicUrl: string;
    smtpUrl: string | null;
    from: string;
    logFile: string | null;
    activationHours: number;
    pollMs: number;
    retryBaseMs: number;
    maxAttempts: number;
  };
  /** ROLLCALL_PUBLIC_URL as given (no trailing slash), null when unset; the OpenID Connect issuer is derived from it */
  publicUrl: string | null;
  /** the key that encrypts secrets at rest (docs/running-in-production.md, 'Secrets key') */
  secrets: {
    /** base64 of 32 bytes from ROLLCALL_SECRETS_KEY, or null: then keyFile */
    key: string | null;
    /** ROLLCALL_SECRETS_KEY_FILE, default `<dataDir>.key` (a sibling of the data dir, never inside it) */
    keyFile: string;
    /** base64 of 32 bytes: the key before a rotation */
    previousKey: string | null;
  };
  /** the attendance rules and the timings of register mode and the open-day sweeper (docs/adr/0013) */
  attendance: {
    rules: AttendanceRules;
    /** how long register mode waits for a card */
    registerModeTimeoutSeconds: number;
    /** how often the sweeper ends register modes whose time is up */
    registerModeSweepMs: number;
    /** how often open days past the limit are flagged */
    openDaySweepMs: number;
  };
}

/** null when `value` is base64 (or base64url) of exactly 32 bytes, else why not */
export function secretsKeyError(value: string): string | null {
  if (!/^[A-Za-z0-9+/_-]{43}=?$/.test(value)) return 'not base64 of 32 bytes';
  return Buffer.from(value, 'base64').length === 32 ? null : 'not base64 of 32 bytes';
}

export class ConfigError extends Error {}

function trustedProxiesError(list: string[]): string | null {
  try {
    proxyAddr.compile(list);
    return null;
  } catch (error) {
    return (error as Error).message;
  }
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  // an empty setting is an unset one: env files and compose's `${VAR:-}` write empty values
  const given = Object.fromEntries(Object.entries(env).filter(([name, value]) => !(name.startsWith('ROLLCALL_') && value === '')));
  const parsed = ZEnvironment.safeParse(given);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `- ${issue.path.join('.')}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  const dataDir = isAbsolute(e.ROLLCALL_DATA_DIR) ? e.ROLLCALL_DATA_DIR : resolve(process.cwd(), e.ROLLCALL_DATA_DIR);
  const isPostgres = (value: string) => /^postgres(ql)?:\/\//.test(value);
  if (e.ROLLCALL_EVENT_STORE !== 'sqlite' && e.ROLLCALL_EVENT_STORE !== 'kurrentdb' && !isPostgres(e.ROLLCALL_EVENT_STORE)) {
    throw new ConfigError(`Invalid configuration:\n- ROLLCALL_EVENT_STORE: expected 'sqlite', a postgres:// URL or 'kurrentdb'`);
  }
  // The read models stay in SQLite or PostgreSQL (ROLLCALL_READ_DB) whatever stores the events.
  const kurrentDbUrl = e.ROLLCALL_KURRENTDB_URL?.trim();
  if (e.ROLLCALL_EVENT_STORE === 'kurrentdb' && !(kurrentDbUrl && /^(kurrentdb|kurrent|kdb|esdb)(\+discover)?:\/\//.test(kurrentDbUrl))) {
    throw new ConfigError(
      `Invalid configuration:\n- ROLLCALL_KURRENTDB_URL: ROLLCALL_EVENT_STORE=kurrentdb needs a KurrentDB connection string, e.g. kurrentdb://admin:changeit@localhost:2113?tls=false`,
    );
  }
  if (e.ROLLCALL_READ_DB && !isPostgres(e.ROLLCALL_READ_DB)) {
    throw new ConfigError(`Invalid configuration:\n- ROLLCALL_READ_DB: expected a postgres:// URL (unset means SQLite)`);
  }
  if (e.ROLLCALL_READ_DB && e.ROLLCALL_PROJECTIONS_THREAD === 'worker') {
    // on PostgreSQL the projections already run beside requests: in the process holding the lock (docs/adr/0017)
    throw new ConfigError(`Invalid configuration:\n- ROLLCALL_PROJECTIONS_THREAD: worker needs the SQLite read database (unset ROLLCALL_READ_DB)`);
  }
  const secretsKeyFile = e.ROLLCALL_SECRETS_KEY_FILE ? resolve(e.ROLLCALL_SECRETS_KEY_FILE) : `${dataDir.replace(/[/\\]+$/, '')}.key`;
  if (!e.ROLLCALL_SECRETS_KEY && (secretsKeyFile + '/').startsWith(dataDir.replace(/[/\\]+$/, '') + '/')) {
    // a copy of the data directory (a backup) must not carry the key that opens its secrets
    throw new ConfigError(`Invalid configuration:\n- ROLLCALL_SECRETS_KEY_FILE: must be outside the data directory (${dataDir})`);
  }
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir,
    eventStore:
      e.ROLLCALL_EVENT_STORE === 'sqlite'
        ? { kind: 'sqlite', file: resolve(dataDir, 'events.db') }
        : e.ROLLCALL_EVENT_STORE === 'kurrentdb'
          ? { kind: 'kurrentdb', url: kurrentDbUrl as string }
          : { kind: 'postgres', url: e.ROLLCALL_EVENT_STORE, schema: e.ROLLCALL_PG_SCHEMA },
    readDb: e.ROLLCALL_READ_DB
      ? { kind: 'postgres', url: e.ROLLCALL_READ_DB, schema: e.ROLLCALL_PG_SCHEMA }
      : { kind: 'sqlite', file: resolve(dataDir, 'read.db') },
    admin: { username: e.ROLLCALL_ADMIN_USERNAME, password: e.ROLLCALL_ADMIN_PASSWORD, organizationTitle: e.ROLLCALL_ORGANIZATION_TITLE },
    allowedOrigins: e.ROLLCALL_ALLOWED_ORIGINS.split(',').map((o) => o.trim()).filter(Boolean),
    consistencyWaitMs: e.ROLLCALL_CONSISTENCY_WAIT_MS,
    projectionsThread: e.ROLLCALL_PROJECTIONS_THREAD,
    sessionHours: e.ROLLCALL_SESSION_HOURS,
    signIn: {
      defaultLockout: { attempts: e.ROLLCALL_DEFAULT_LOCKOUT_ATTEMPTS, durationSeconds: Math.max(1, Math.round(e.ROLLCALL_DEFAULT_LOCKOUT_MINUTES * 60)) },
      throttle: {
        perAddress: { failures: e.ROLLCALL_SIGNIN_ADDRESS_FAILURES, windowSeconds: e.ROLLCALL_SIGNIN_ADDRESS_WINDOW_SECONDS },
        perUsernameAndAddress: { failures: e.ROLLCALL_SIGNIN_USERNAME_FAILURES, windowSeconds: e.ROLLCALL_SIGNIN_USERNAME_WINDOW_SECONDS },
      },
    },
    consoleDir: e.ROLLCALL_CONSOLE_DIR ?? resolve(__dirname, '../../../../console/dist'),
    logLevel: e.ROLLCALL_LOG_LEVEL,
    logFormat: e.ROLLCALL_LOG_FORMAT,
    argon2: { memoryCost: e.ROLLCALL_ARGON2_MEMORY_KIB, timeCost: e.ROLLCALL_ARGON2_TIME_COST },
    trustedProxies: e.ROLLCALL_TRUSTED_PROXIES,
    tokenUsageFlushMs: e.ROLLCALL_TOKEN_USAGE_FLUSH_MS,
    mail: {
      publicUrl: (e.ROLLCALL_PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, ''),
      smtpUrl: e.ROLLCALL_SMTP_URL ?? null,
      from: e.ROLLCALL_MAIL_FROM,
      logFile: e.ROLLCALL_MAIL_LOG_FILE ? resolve(dataDir, e.ROLLCALL_MAIL_LOG_FILE) : null,
      activationHours: e.ROLLCALL_ACTIVATION_HOURS,
      pollMs: e.ROLLCALL_MAIL_POLL_MS,
      retryBaseMs: e.ROLLCALL_MAIL_RETRY_BASE_MS,
      maxAttempts: e.ROLLCALL_MAIL_MAX_ATTEMPTS,
    },
    publicUrl: e.ROLLCALL_PUBLIC_URL ? e.ROLLCALL_PUBLIC_URL.replace(/\/+$/, '') : null,
    secrets: {
      key: e.ROLLCALL_SECRETS_KEY ?? null,
      keyFile: secretsKeyFile,
      previousKey: e.ROLLCALL_SECRETS_KEY_PREVIOUS ?? null,
    },
    attendance: {
      rules: {
        duplicateWindowSeconds: e.ROLLCALL_ATTENDANCE_DUPLICATE_WINDOW_SECONDS,
        clockSkewLimitSeconds: e.ROLLCALL_ATTENDANCE_CLOCK_SKEW_LIMIT_SECONDS,
        twoDoorsWindowSeconds: e.ROLLCALL_ATTENDANCE_TWO_DOORS_WINDOW_SECONDS,
        openDayLimitHours: e.ROLLCALL_ATTENDANCE_OPEN_DAY_LIMIT_HOURS,
      },
      registerModeTimeoutSeconds: e.ROLLCALL_REGISTER_MODE_TIMEOUT_SECONDS,
      registerModeSweepMs: e.ROLLCALL_REGISTER_MODE_SWEEP_MS,
      openDaySweepMs: e.ROLLCALL_OPEN_DAY_SWEEP_MS,
    },
  };
}

export const APP_CONFIG = Symbol('APP_CONFIG');

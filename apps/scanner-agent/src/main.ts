#!/usr/bin/env node
import { open } from 'node:fs/promises';
import { type Readable } from 'node:stream';
import { parseAgentConfig, parseLocalConfig } from './config/agent-config';
import { runSimulate } from './commands/simulate-command';

const USAGE = `rollcall-agent: the Rollcall door-reader agent

Usage:
  rollcall-agent simulate [file]   read scan lines from file (or stdin) into the local outbox
  rollcall-agent check-config      validate the ROLLCALL_AGENT_* environment and exit
  rollcall-agent run               the door daemon: arrives with the agent issue (checks config, exits 69)
  rollcall-agent --help            show this help

Scan lines: "<cardUid>" or "<cardUid> <ISO device time>", e.g.
  04A1B2C3
  04A1B2C3D4E5F6 2026-11-22T08:30:00Z
Blank lines and lines starting with # are ignored.

Environment:
  ROLLCALL_AGENT_DATA_DIR     where the outbox lives (default ./agent-data)
  ROLLCALL_AGENT_DRIVER       simulator (default; node-hid drivers come later)
  ROLLCALL_AGENT_SERVER_URL   Rollcall API base URL, https (http only for localhost)
  ROLLCALL_AGENT_READER_ID    id of the door reader this agent serves
  ROLLCALL_AGENT_TOKEN        the reader's access token
simulate needs only the first two; check-config and run check all five.

Not yet available: USB readers via node-hid, sending with retries, server commands over
WebSocket. Until then scans are queued locally and not sent.
`;

/** sysexits.h: lets scripts and systemd tell a usage or config mistake from a failure at run time */
const EX_USAGE = 64;
const EX_CONFIG = 78;
const EX_UNAVAILABLE = 69;
const EX_NOINPUT = 66;

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (command === undefined || command === '--help' || command === '-h' || command === 'help') {
    process.stdout.write(USAGE);
    return command === undefined ? EX_USAGE : 0;
  }
  switch (command) {
    case 'simulate':
      return simulate(rest);
    case 'check-config':
      return checkConfig();
    case 'run':
      return run();
    default:
      process.stderr.write(`rollcall-agent: unknown command '${command}'\n\n${USAGE}`);
      return EX_USAGE;
  }
}

async function simulate(args: string[]): Promise<number> {
  if (args.length > 1) {
    process.stderr.write(`rollcall-agent simulate: expected at most one file, got ${args.length}\n`);
    return EX_USAGE;
  }
  const loaded = parseLocalConfig(process.env);
  if (!loaded.ok) return reportConfigProblems(loaded.problems);
  const [file] = args;
  if (file === undefined && process.stdin.isTTY) {
    process.stderr.write('Reading scans from the keyboard: one card UID per line, Ctrl-D to finish.\n');
  }
  let input: Readable = process.stdin;
  if (file !== undefined && file !== '-') {
    // Opened before the outbox so a mistyped path fails cleanly instead of creating an empty queue.
    try {
      input = (await open(file, 'r')).createReadStream();
    } catch (error) {
      process.stderr.write(`rollcall-agent simulate: cannot read ${file}: ${error instanceof Error ? error.message : String(error)}\n`);
      return EX_NOINPUT;
    }
  }
  // Each scan is committed before it is printed, so Ctrl-C loses nothing; leave without a stack trace.
  process.once('SIGINT', () => process.exit(130));
  const result = await runSimulate({ input, dataDir: loaded.config.dataDir, stdout: process.stdout, stderr: process.stderr });
  // Scripts feeding a file should notice bad lines even though the good ones were queued.
  return result.rejected > 0 ? 1 : 0;
}

/**
 * The daemon is a later issue. It exists already so the systemd unit has a real command: it checks
 * the configuration (so a bad env file shows up in the journal now) and then says plainly that it
 * does nothing yet, with an exit code the unit does not restart on.
 */
function run(): number {
  const loaded = parseAgentConfig(process.env);
  if (!loaded.ok) return reportConfigProblems(loaded.problems);
  process.stderr.write(
    "rollcall-agent run: the door daemon arrives with the agent issue. Reading USB readers (node-hid) and sending scans to the server come in a later issue; use 'simulate' to fill the outbox meanwhile.\n",
  );
  return EX_UNAVAILABLE;
}

function checkConfig(): number {
  const loaded = parseAgentConfig(process.env);
  if (!loaded.ok) return reportConfigProblems(loaded.problems);
  const { serverUrl, readerId, dataDir, driver } = loaded.config;
  process.stdout.write(`configuration OK: reader ${readerId}, server ${serverUrl}, driver ${driver}, data ${dataDir} (token set)\n`);
  return 0;
}

function reportConfigProblems(problems: string[]): number {
  process.stderr.write(`rollcall-agent: invalid configuration:\n${problems.map((problem) => `  - ${problem}`).join('\n')}\n`);
  return EX_CONFIG;
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`rollcall-agent: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  },
);

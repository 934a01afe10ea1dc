#!/usr/bin/env node
import { open } from 'node:fs/promises';
import { type Readable } from 'node:stream';
import { join } from 'node:path';
import { listDevices } from './commands/devices-command';
import { OUTBOX_FILE_NAME, runSimulate } from './commands/simulate-command';
import { parseAgentConfig, parseLocalConfig } from './config/agent-config';
import { createLogger } from './logging/logger';
import { DurableOutbox } from './outbox/durable-outbox';
import { Agent } from './runtime/agent';

const USAGE = `rollcall-agent: the Rollcall door-reader agent

Usage:
  rollcall-agent run               the door daemon: reader -> durable outbox -> server (SIGTERM stops it)
  rollcall-agent simulate [file]   read scan lines from file (or stdin) into the local outbox, send nothing
  rollcall-agent devices           list the HID devices (USB readers) this machine shows
  rollcall-agent dead-letters      list the scans the server refused for good
  rollcall-agent check-config      validate the configuration and exit
  rollcall-agent --help            show this help

Scan lines (simulator): "<cardUid>" or "<cardUid> <ISO device time>", e.g.
  04A1B2C3
  04A1B2C3D4E5F6 2026-11-22T08:30:00Z
Blank lines and lines starting with # are ignored.

Configuration: environment variables, or a JSON file named by ROLLCALL_AGENT_CONFIG with the same
settings in camelCase (the environment wins). The main ones:
  ROLLCALL_AGENT_SERVER_URL   Rollcall API base URL, https (http only for localhost)
  ROLLCALL_AGENT_READER_ID    id of the door reader this agent serves
  ROLLCALL_AGENT_TOKEN        the reader's access token (rcr_...)
  ROLLCALL_AGENT_DATA_DIR     where the outbox lives (default ./agent-data)
  ROLLCALL_AGENT_DRIVER       simulator (default), hid-keyboard, hid-raw
  ROLLCALL_AGENT_SIMULATOR_INPUT   - (stdin, default), a file, or unix:<socket path>
  ROLLCALL_AGENT_DEVICE_VENDOR_ID, _DEVICE_PRODUCT_ID, _DEVICE_PATH   which USB reader
  ROLLCALL_AGENT_DEBOUNCE_MS  same card again within this window is dropped (default 2000, 0 off)
All settings: apps/scanner-agent/README.md. simulate needs only the local ones.
`;

/** sysexits.h: lets scripts and systemd tell a usage or config mistake from a failure at run time */
const EX_USAGE = 64;
const EX_CONFIG = 78;
const EX_UNAVAILABLE = 69;
const EX_SOFTWARE = 70;
const EX_NOINPUT = 66;
/** a fault that may heal after a restart (the outbox stayed unwritable): systemd restarts the agent */
const EX_TEMPFAIL = 75;

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
    case 'devices':
      return devices();
    case 'dead-letters':
      return deadLetters();
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
 * The door daemon. Runs until SIGTERM or SIGINT, then stops gracefully: no new scans, the request in
 * flight may finish (its acknowledgements applied), the outbox closed. A second signal exits at once;
 * nothing is lost either way, since every scan is on disk before it is acknowledged.
 */
async function run(): Promise<number> {
  const loaded = parseAgentConfig(process.env);
  if (!loaded.ok) return reportConfigProblems(loaded.problems);
  const logger = createLogger(loaded.config.logLevel);
  let agent: Agent;
  try {
    agent = new Agent({
      config: loaded.config,
      logger,
      // intake could not heal in this process: stop (the queue is on disk) and exit non-zero
      onFatal: () => {
        const exit = () => process.exit(EX_TEMPFAIL);
        setTimeout(exit, 10_000).unref();
        agent.stop().then(exit, exit);
      },
    });
  } catch (error) {
    logger.fatal({ error: error instanceof Error ? error.message : String(error) }, 'cannot start');
    return EX_SOFTWARE;
  }
  agent.start();
  return new Promise<number>(() => {
    let signalled = false;
    const onSignal = (signal: NodeJS.Signals) => {
      if (signalled) process.exit(130);
      signalled = true;
      logger.info({ signal }, 'signal received');
      // Exit explicitly once stopped: stdin (the simulator's default input) would keep the process alive.
      agent.stop().then(
        () => process.exit(0),
        (error: unknown) => {
          logger.error({ error: error instanceof Error ? error.message : String(error) }, 'error while stopping');
          process.exit(EX_SOFTWARE);
        },
      );
    };
    process.on('SIGTERM', onSignal);
    process.on('SIGINT', onSignal);
  });
}

async function devices(): Promise<number> {
  try {
    return await listDevices(process.stdout);
  } catch (error) {
    process.stderr.write(`rollcall-agent devices: node-hid is not usable here: ${error instanceof Error ? error.message : String(error)} (Debian: apt-get install libusb-1.0-0)\n`);
    return EX_UNAVAILABLE;
  }
}

function deadLetters(): number {
  const loaded = parseLocalConfig(process.env);
  if (!loaded.ok) return reportConfigProblems(loaded.problems);
  const outbox = DurableOutbox.open(join(loaded.config.dataDir, OUTBOX_FILE_NAME));
  try {
    const letters = outbox.deadLetters();
    if (letters.length === 0) process.stdout.write('No refused scans.\n');
    for (const letter of letters) {
      process.stdout.write(`#${letter.sequence} ${letter.cardUid} at ${letter.deviceTime.toISOString()}: refused ${letter.refusedAt.toISOString()} ${letter.code}: ${letter.message}\n`);
    }
    return 0;
  } finally {
    outbox.close();
  }
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

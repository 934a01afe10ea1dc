#!/usr/bin/env node
import { ConfigError, loadConfig } from './platform/config/app-config';
import { startApp } from './create-app';

async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(2);
    }
    throw error;
  }
  const running = await startApp(config);
  process.stdout.write(`Rollcall is running at ${running.url} (data in ${config.dataDir})\n`);
  process.stdout.write(`OpenID Connect issuer: ${running.issuer}\n`);
  const stop = async () => {
    await running.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void stop());
  process.once('SIGTERM', () => void stop());
}

main().catch((error: unknown) => {
  process.stderr.write(`Rollcall failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});

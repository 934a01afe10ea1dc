import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../config/app-config';

const refused = (env: Record<string, string>) => {
  try {
    loadConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error('the configuration was accepted');
};

describe('KurrentDB configuration', () => {
  it('ROLLCALL_EVENT_STORE=kurrentdb takes the connection string from ROLLCALL_KURRENTDB_URL; the read models stay where they were', () => {
    const url = 'kurrentdb://admin:changeit@kurrent.internal:2113?tls=true';
    const config = loadConfig({ ROLLCALL_EVENT_STORE: 'kurrentdb', ROLLCALL_KURRENTDB_URL: ` ${url} ` });
    expect(config.eventStore).toEqual({ kind: 'kurrentdb', url });
    expect(config.readDb).toEqual({ kind: 'sqlite', file: `${config.dataDir}/read.db` });
    const withPostgres = loadConfig({ ROLLCALL_EVENT_STORE: 'kurrentdb', ROLLCALL_KURRENTDB_URL: 'kurrentdb+discover://kurrent.internal:2113', ROLLCALL_READ_DB: 'postgres://rc@db/rollcall' });
    expect(withPostgres.readDb).toMatchObject({ kind: 'postgres', url: 'postgres://rc@db/rollcall' });
    expect(loadConfig({ ROLLCALL_EVENT_STORE: 'kurrentdb', ROLLCALL_KURRENTDB_URL: 'esdb://localhost:2113?tls=false' }).eventStore.kind).toBe('kurrentdb');
  });

  it('refuses kurrentdb without a connection string, or with something else, in one message naming the variable', () => {
    const envs: Array<Record<string, string>> = [{ ROLLCALL_EVENT_STORE: 'kurrentdb' }, { ROLLCALL_EVENT_STORE: 'kurrentdb', ROLLCALL_KURRENTDB_URL: '  ' }, { ROLLCALL_EVENT_STORE: 'kurrentdb', ROLLCALL_KURRENTDB_URL: 'http://localhost:2113' }];
    for (const env of envs) {
      expect(refused(env)).toBe(
        'Invalid configuration:\n- ROLLCALL_KURRENTDB_URL: ROLLCALL_EVENT_STORE=kurrentdb needs a KurrentDB connection string, e.g. kurrentdb://admin:changeit@localhost:2113?tls=false',
      );
    }
  });

  it('names kurrentdb among the choices of ROLLCALL_EVENT_STORE, and ignores ROLLCALL_KURRENTDB_URL for the other stores', () => {
    expect(refused({ ROLLCALL_EVENT_STORE: 'kurrent' })).toContain("expected 'sqlite', a postgres:// URL or 'kurrentdb'");
    expect(loadConfig({ ROLLCALL_KURRENTDB_URL: 'kurrentdb://localhost:2113' }).eventStore.kind).toBe('sqlite');
  });
});

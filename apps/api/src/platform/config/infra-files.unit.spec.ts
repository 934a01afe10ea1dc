import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { loadConfig } from './app-config';

const root = join(__dirname, '../../../../..');
const read = (path: string) => readFileSync(join(root, path), 'utf8');
/** every ROLLCALL_ setting the configuration knows, from its own source */
const known = new Set(read('apps/api/src/platform/config/app-config.ts').match(/ROLLCALL_[A-Z0-9_]+/g));

interface ComposeService {
  image?: string;
  environment?: Record<string, string>;
  deploy?: { replicas?: number };
  depends_on?: unknown;
  profiles?: string[];
  networks?: string[];
}

/** The deployment files and the README name only settings the API knows (docs/running-in-production.md, 'Docker Compose'). */
describe('infra files', () => {
  const compose = parse(read('infra/compose/compose.yaml')) as { services: Record<string, ComposeService>; networks: Record<string, { internal?: boolean } | null> };

  it('compose: PostgreSQL, KurrentDB (a profile), two API replicas behind a TLS proxy, the databases on an internal network', () => {
    const { postgres, kurrentdb, api, proxy } = compose.services;
    expect(postgres.image).toMatch(/^postgres:/);
    expect(kurrentdb.image).toMatch(/kurrentdb/);
    expect(kurrentdb.profiles).toEqual(['kurrentdb']);
    expect(api.deploy?.replicas).toBe(2);
    expect(proxy.image).toMatch(/^caddy:/);
    expect(read('infra/compose/Caddyfile')).toMatch(/reverse_proxy api:3000[\s\S]*health_uri \/readyz/);
    expect(compose.networks.backend?.internal).toBe(true);
    expect(postgres.networks).toEqual(['backend']);
  });

  it('names only settings the API knows, in compose and in the example env files', () => {
    const named = [
      ...Object.keys(compose.services.api.environment ?? {}),
      ...(read('infra/env/api.env.example').match(/ROLLCALL_[A-Z0-9_]+/g) ?? []),
      ...(read('infra/compose/.env.example').match(/ROLLCALL_[A-Z0-9_]+/g) ?? []).filter((name) => name !== 'ROLLCALL_DOMAIN'),
    ].filter((name) => name.startsWith('ROLLCALL_'));
    expect(named.length).toBeGreaterThan(5);
    expect(named.filter((name) => !known.has(name))).toEqual([]);
  });

  it("the README's configuration table lists every setting the configuration knows, and no other", () => {
    const readme = read('README.md');
    const table = readme.slice(readme.indexOf('## Configuration'), readme.indexOf('\n## ', readme.indexOf('## Configuration') + 1));
    const listed = new Set(table.match(/ROLLCALL_[A-Z0-9_]+/g));
    expect(known.size).toBeGreaterThan(40);
    expect({ unlisted: [...known].filter((name) => !listed.has(name)), unknown: [...listed].filter((name) => !known.has(name)) }).toEqual({ unlisted: [], unknown: [] });
  });

  it("starts the API's node with the same flags everywhere production starts it, and the bench measures it so", () => {
    const flags = '--max-semi-space-size=16';
    const scripts = (path: string) => (JSON.parse(read(path)) as { scripts: Record<string, string> }).scripts;
    const launches = {
      'package.json start': scripts('package.json').start,
      'apps/api/package.json start': scripts('apps/api/package.json').start,
      'systemd ExecStart': read('infra/systemd/rollcall-api.service').match(/^ExecStart=.*$/m)?.[0],
      'Dockerfile CMD': read('infra/compose/Dockerfile').match(/^CMD .*$/m)?.[0].replace(/", "/g, ' '),
      'bench API_NODE_FLAGS': read('bench/scenarios/lib.mjs').match(/API_NODE_FLAGS = \[(.*)\]/)?.[1].replace(/'/g, ''),
    };
    expect(Object.entries(launches).filter(([, line]) => !line?.includes(flags))).toEqual([]);
  });

  it('reads an empty setting as an unset one, as compose writes `${VAR:-}`', () => {
    const config = loadConfig({ ROLLCALL_DATA_DIR: '/tmp/rollcall-infra-test', ROLLCALL_ADMIN_PASSWORD: '', ROLLCALL_SMTP_URL: '', ROLLCALL_READ_DB: '' });
    expect(config.admin.password).toBeUndefined();
    expect(config.readDb.kind).toBe('sqlite');
  });
});

import { describe, expect, it } from 'vitest';
import { parseAgentConfig, parseLocalConfig } from './agent-config';

const valid = {
  ROLLCALL_AGENT_SERVER_URL: 'https://rollcall.example.com',
  ROLLCALL_AGENT_READER_ID: 'door-1',
  ROLLCALL_AGENT_TOKEN: 'rdr_secret',
};

describe('parseAgentConfig', () => {
  it('reads a full configuration with defaults for data dir and driver', () => {
    expect(parseAgentConfig({ ...valid, PATH: '/usr/bin' }, { cwd: '/srv/agent' })).toEqual({
      ok: true,
      config: {
        serverUrl: 'https://rollcall.example.com/',
        readerId: 'door-1',
        token: 'rdr_secret',
        dataDir: '/srv/agent/agent-data',
        driver: 'simulator',
      },
    });
  });

  it('keeps an absolute data dir and accepts plain http only for localhost', () => {
    const result = parseAgentConfig({ ...valid, ROLLCALL_AGENT_SERVER_URL: 'http://127.0.0.1:3000', ROLLCALL_AGENT_DATA_DIR: '/var/lib/rollcall-agent' });
    expect(result).toMatchObject({ ok: true, config: { serverUrl: 'http://127.0.0.1:3000/', dataDir: '/var/lib/rollcall-agent' } });
  });

  it('gives one clear message per problem, naming the variable and never echoing the token', () => {
    const result = parseAgentConfig({
      ROLLCALL_AGENT_SERVER_URL: 'http://rollcall.example.com',
      ROLLCALL_AGENT_READER_ID: '',
      ROLLCALL_AGENT_TOKEN: 'secret with spaces',
      ROLLCALL_AGENT_DRIVER: 'hid',
      ROLLCALL_AGENT_SERVR_URL: 'typo',
    });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.problems).toHaveLength(5);
    expect(result.problems).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^ROLLCALL_AGENT_SERVER_URL: must use https/),
        expect.stringMatching(/^ROLLCALL_AGENT_READER_ID: is required/),
        expect.stringMatching(/^ROLLCALL_AGENT_TOKEN: must not contain whitespace/),
        expect.stringMatching(/^ROLLCALL_AGENT_DRIVER: must be one of: simulator/),
        expect.stringMatching(/^ROLLCALL_AGENT_SERVR_URL: is not a setting/),
      ]),
    );
    expect(result.problems.join('\n')).not.toContain('secret');
  });

  it('reports a URL that does not parse', () => {
    expect(parseAgentConfig({ ...valid, ROLLCALL_AGENT_SERVER_URL: 'rollcall.example.com' })).toEqual({
      ok: false,
      problems: ['ROLLCALL_AGENT_SERVER_URL: must be an absolute URL, e.g. https://rollcall.example.com'],
    });
  });
});

describe('parseLocalConfig', () => {
  it('needs no server settings, so the simulator runs in a demo', () => {
    expect(parseLocalConfig({}, { cwd: '/tmp/demo' })).toEqual({ ok: true, config: { dataDir: '/tmp/demo/agent-data', driver: 'simulator' } });
  });
});

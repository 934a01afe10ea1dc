import { describe, expect, it } from 'vitest';
import { parseAgentConfig, parseLocalConfig } from './agent-config';

const valid = {
  ROLLCALL_AGENT_SERVER_URL: 'https://rollcall.example.com',
  ROLLCALL_AGENT_READER_ID: 'door-1',
  ROLLCALL_AGENT_TOKEN: 'rcr_secret',
};

describe('parseAgentConfig', () => {
  it('reads a full configuration with defaults for everything else', () => {
    expect(parseAgentConfig({ ...valid, PATH: '/usr/bin' }, { cwd: '/srv/agent' })).toEqual({
      ok: true,
      config: {
        serverUrl: 'https://rollcall.example.com/',
        readerId: 'door-1',
        token: 'rcr_secret',
        dataDir: '/srv/agent/agent-data',
        driver: 'simulator',
        simulatorInput: '-',
        device: {},
        uidFormat: 'hex',
        debounceMs: 2000,
        feedbackReport: null,
        refusedReport: null,
        logLevel: 'info',
        batchMax: 500,
        retryBaseMs: 500,
        retryMaxSeconds: 60,
        heartbeatSeconds: 30,
        requestTimeoutSeconds: 30,
        intakeGiveUpSeconds: 300,
      },
    });
  });

  it('reads the feedback report as hex bytes, and names the rule when it is not', () => {
    expect(parseAgentConfig({ ...valid, ROLLCALL_AGENT_FEEDBACK_REPORT: '00 01 0a' })).toMatchObject({ ok: true, config: { feedbackReport: [0, 1, 10] } });
    expect(parseAgentConfig({ ...valid, ROLLCALL_AGENT_FEEDBACK_REPORT: '0x00:0xff' })).toMatchObject({ ok: true, config: { feedbackReport: [0, 255] } });
    const bad = parseAgentConfig({ ...valid, ROLLCALL_AGENT_FEEDBACK_REPORT: 'beep' });
    expect(bad.ok).toBe(false);
    expect(JSON.stringify(bad)).toMatch(/ROLLCALL_AGENT_FEEDBACK_REPORT.*hex bytes/);
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
      ROLLCALL_AGENT_DEBOUNCE_MS: 'two seconds',
      ROLLCALL_AGENT_BATCH_MAX: '5000',
    });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.problems).toHaveLength(7);
    expect(result.problems).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^ROLLCALL_AGENT_SERVER_URL: must use https/),
        expect.stringMatching(/^ROLLCALL_AGENT_READER_ID: is required/),
        expect.stringMatching(/^ROLLCALL_AGENT_TOKEN: must not contain whitespace/),
        expect.stringMatching(/^ROLLCALL_AGENT_DRIVER: must be one of: simulator, hid-keyboard, hid-raw/),
        expect.stringMatching(/^ROLLCALL_AGENT_SERVR_URL: is not a setting/),
        'ROLLCALL_AGENT_DEBOUNCE_MS: must be a whole number',
        'ROLLCALL_AGENT_BATCH_MAX: must be between 1 and 1000',
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

  it('needs a device for the USB drivers, by vendor and product id or path', () => {
    expect(parseAgentConfig({ ...valid, ROLLCALL_AGENT_DRIVER: 'hid-keyboard', ROLLCALL_AGENT_DEVICE_VENDOR_ID: 'ffff' })).toEqual({
      ok: false,
      problems: [expect.stringMatching(/the hid-keyboard driver needs the reader's vendor and product id, or its path/)],
    });
    expect(parseAgentConfig({ ...valid, ROLLCALL_AGENT_DRIVER: 'hid-raw', ROLLCALL_AGENT_DEVICE_VENDOR_ID: 'ffff', ROLLCALL_AGENT_DEVICE_PRODUCT_ID: '0x0035' })).toMatchObject({
      ok: true,
      config: { driver: 'hid-raw', device: { vendorId: 0xffff, productId: 0x35 } },
    });
    expect(parseAgentConfig({ ...valid, ROLLCALL_AGENT_DRIVER: 'hid-raw', ROLLCALL_AGENT_DEVICE_VENDOR_ID: 'fffff', ROLLCALL_AGENT_DEVICE_PATH: '/dev/hidraw0' })).toEqual({
      ok: false,
      problems: ['ROLLCALL_AGENT_DEVICE_VENDOR_ID: must be the USB vendor id as 4 hex digits, as lsusb prints it (e.g. 0035)'],
    });
  });
});

describe('configuration file', () => {
  const files: Record<string, string> = {
    '/etc/rollcall/agent.json': JSON.stringify({ serverUrl: 'https://file.example.com', readerId: 'door-7', token: 'rcr_from_file', debounceMs: 500, driver: 'hid-raw', devicePath: '/dev/hidraw3' }),
    '/etc/rollcall/bad.json': JSON.stringify({ serverUrl: 'ftp://x', debounceMs: -1, colour: 'blue', token: 'rcr_x', readerId: 'r' }),
    '/etc/rollcall/broken.json': '{"serverUrl": ',
  };
  const readFile = (path: string) => {
    if (!(path in files)) throw new Error(`ENOENT: no such file or directory, open '${path}'`);
    return files[path];
  };

  it('reads settings from the JSON file, the environment winning', () => {
    const result = parseAgentConfig({ ROLLCALL_AGENT_CONFIG: '/etc/rollcall/agent.json', ROLLCALL_AGENT_DEBOUNCE_MS: '0' }, { readFile });
    expect(result).toMatchObject({ ok: true, config: { serverUrl: 'https://file.example.com/', readerId: 'door-7', debounceMs: 0, driver: 'hid-raw', device: { path: '/dev/hidraw3' } } });
  });

  it('names the file and the key of each mistake in it', () => {
    expect(parseAgentConfig({ ROLLCALL_AGENT_CONFIG: '/etc/rollcall/bad.json' }, { readFile })).toEqual({
      ok: false,
      problems: expect.arrayContaining([
        expect.stringMatching(/^\/etc\/rollcall\/bad.json: colour: is not a setting/),
        expect.stringMatching(/^\/etc\/rollcall\/bad.json: serverUrl: must use https/),
        '/etc/rollcall/bad.json: debounceMs: must be between 0 and 60000 ms',
      ]),
    });
  });

  it('says so when the file is missing or not JSON', () => {
    expect(parseAgentConfig({ ROLLCALL_AGENT_CONFIG: '/etc/rollcall/none.json' }, { readFile })).toEqual({ ok: false, problems: [expect.stringMatching(/ROLLCALL_AGENT_CONFIG: the configuration file \/etc\/rollcall\/none.json cannot be read/)] });
    expect(parseAgentConfig({ ROLLCALL_AGENT_CONFIG: '/etc/rollcall/broken.json' }, { readFile })).toEqual({ ok: false, problems: [expect.stringMatching(/broken.json is not valid JSON/)] });
  });
});

describe('parseLocalConfig', () => {
  it('needs no server settings, so the simulator runs in a demo', () => {
    expect(parseLocalConfig({}, { cwd: '/tmp/demo' })).toEqual({ ok: true, config: { dataDir: '/tmp/demo/agent-data', driver: 'simulator', simulatorInput: '-', device: {}, uidFormat: 'hex', debounceMs: 2000, feedbackReport: null, refusedReport: null, logLevel: 'info' } });
  });
});

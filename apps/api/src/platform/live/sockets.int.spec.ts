import { mkdtempSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config/app-config';
import { startApp, type RunningApp } from '../../create-app';
import { dropStorage, http, newAccount, signIn, ADMIN } from '../../../test/test-app';
import { READER_MAX_FRAME_BYTES, READER_WS_PATH } from '../../features/doors/reader-channel';
import { SESSION_ENDED_CLOSE } from '../trpc/live-connection';
import type { AppConfig } from '../config/app-config';

/**
 * No input from any client ends the process or holds its resources (docs/security.md, 'No client ends
 * the process or holds its sockets'). Every upgrade listener (the console's /ws, the reader socket,
 * everything else) survives a client's TCP reset, oversized and malformed frames; unknown upgrade
 * paths are answered and closed; a half-sent body, a connection that sends nothing and an unfinished
 * upgrade request are cut off after the server's timeouts (short here, DEFAULT_HTTP_TIMEOUTS in
 * production).
 *
 * The app runs in this process: an unhandled 'error' event would be an uncaught exception here,
 * recorded below (and reported by vitest), instead of a dead server.
 */

const TIMEOUTS = { headersMs: 800, requestMs: 1200, keepAliveMs: 800, checkEveryMs: 200 };
/** sessions of this app end after 4 s: the expiry test waits that long, the others sign in as they go */
const SESSION_SECONDS = 4;

const UPGRADE_HEADERS = 'Connection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n';

describe('sockets, upgrades and slow clients (sqlite)', () => {
  let app: RunningApp;
  let config: AppConfig;
  let port: number;
  const uncaught: unknown[] = [];
  const record = (error: unknown) => uncaught.push(error);

  beforeAll(async () => {
    process.on('uncaughtException', record);
    const dataDir = mkdtempSync(join(tmpdir(), 'rollcall-sockets-'));
    config = loadConfig({
      PORT: '0',
      ROLLCALL_DATA_DIR: dataDir,
      ROLLCALL_ADMIN_USERNAME: ADMIN.username,
      ROLLCALL_ADMIN_PASSWORD: ADMIN.password,
      ROLLCALL_LOG_LEVEL: 'fatal',
      ROLLCALL_ARGON2_MEMORY_KIB: '4096',
      ROLLCALL_ARGON2_TIME_COST: '1',
      ROLLCALL_CONSOLE_DIR: join(dataDir, 'no-console'),
      ROLLCALL_SESSION_HOURS: String(SESSION_SECONDS / 3600),
    });
    app = await startApp(config, { print: () => undefined, httpTimeouts: TIMEOUTS });
    port = Number(new URL(app.url).port);
  });
  afterAll(async () => {
    process.off('uncaughtException', record);
    await app?.close();
    if (config) await dropStorage(config);
  });

  const admin = async () => http(app.url, await signIn(app.url));
  const registerReader = async () => {
    const client = await admin();
    const created = await client.post('/api/v2/readers', { name: `Door ${Math.random().toString(36).slice(2)}`, door: 'Main entrance', role: 'door' });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const issued = await client.post(`/api/v2/readers/${created.body.data.id}/token`);
    return issued.body.data.token as string;
  };
  const wsUrl = (path: string) => `ws://127.0.0.1:${port}${path}`;

  /** a raw TCP connection that sends `text`, collecting what comes back until the server closes it */
  function rawConnection(text: string) {
    const socket = connect(port, '127.0.0.1');
    let received = '';
    socket.on('data', (chunk) => (received += chunk.toString('latin1')));
    socket.on('error', () => undefined);
    const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
    if (text) socket.write(text);
    return { socket, closed, received: () => received };
  }
  const upgradeRequest = (path: string, extra = '') => `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n${UPGRADE_HEADERS}${extra}\r\n`;
  const resetSoon = (socket: Socket, afterMs = 30) => new Promise<void>((resolve) => setTimeout(() => (socket.resetAndDestroy(), resolve()), afterMs));

  /** an open WebSocket and how it was closed */
  async function openSocket(path: string, headers: Record<string, string>) {
    const socket = new WebSocket(wsUrl(path), { headers });
    const closed = new Promise<number>((resolve) => socket.on('close', (code) => resolve(code)));
    const messages: string[] = [];
    socket.on('message', (data) => messages.push(data.toString()));
    socket.on('error', () => undefined);
    await new Promise((resolve, reject) => {
      socket.once('open', resolve);
      socket.once('unexpected-response', (_request, response) => reject(new Error(`upgrade answered ${response.statusCode}`)));
    });
    return { socket, closed, messages };
  }
  /** bytes no WebSocket peer may send: reserved bits set and an undefined opcode */
  const writeGarbageFrame = (socket: WebSocket) => (socket as unknown as { _socket: Socket })._socket.write(Buffer.from([0xff, 0xff, 0x00, 0x01, 0x02, 0x03]));

  const healthy = async () => (await fetch(`${app.url}/healthz`)).status;

  it('answers an upgrade to a path nobody serves with 404 and closes it; a reset there ends nothing', async () => {
    const unknown = rawConnection(upgradeRequest('/socket.io/?EIO=4'));
    await unknown.closed;
    expect(unknown.received()).toMatch(/^HTTP\/1\.1 404 /);
    const malformedUrl = rawConnection(upgradeRequest('//[nope'));
    await malformedUrl.closed;
    expect(malformedUrl.received()).toMatch(/^HTTP\/1\.1 404 /);
    for (let i = 0; i < 5; i += 1) await resetSoon(rawConnection(upgradeRequest(`/elsewhere/${i}`)).socket, i * 5);
    expect(await healthy()).toBe(200);
    expect(uncaught).toEqual([]);
  });

  it('survives a reset during the console socket’s upgrade, its oversized and its malformed frames', async () => {
    // a forged session is looked up in the read database: the reset lands while the upgrade waits
    for (let i = 0; i < 5; i += 1) await resetSoon(rawConnection(upgradeRequest('/ws', `Origin: ${app.url}\r\nCookie: user_session=forged-${i}\r\n`)).socket, i * 3);
    const token = await signIn(app.url);
    const headers = { cookie: `user_session=${token}`, origin: app.url };
    const oversized = await openSocket('/ws', headers);
    oversized.socket.send('x'.repeat(70 * 1024));
    expect(await oversized.closed).toBe(1009);
    const garbage = await openSocket('/ws', headers);
    writeGarbageFrame(garbage.socket);
    expect(await garbage.closed).toBe(1002);
    expect(await healthy()).toBe(200);
    expect(uncaught).toEqual([]);
  });

  it('survives a reset during the reader socket’s upgrade, a 20 KB frame (closed 1009) and garbage (1002)', async () => {
    for (let i = 0; i < 5; i += 1) await resetSoon(rawConnection(upgradeRequest(READER_WS_PATH, `Authorization: Bearer rcr_forged${i}\r\n`)).socket, i * 3);
    const token = await registerReader();
    const headers = { authorization: `Bearer ${token}` };
    const oversized = await openSocket(READER_WS_PATH, headers);
    expect(20 * 1024).toBeGreaterThan(READER_MAX_FRAME_BYTES);
    oversized.socket.send(JSON.stringify({ type: 'health', padding: 'x'.repeat(20 * 1024) }));
    expect(await oversized.closed).toBe(1009);
    const garbage = await openSocket(READER_WS_PATH, headers);
    writeGarbageFrame(garbage.socket);
    expect(await garbage.closed).toBe(1002);
    // the reader comes back as before
    const again = await openSocket(READER_WS_PATH, headers);
    await expect.poll(() => again.messages.map((message) => JSON.parse(message).type)).toContain('configure');
    again.socket.close();
    expect(await healthy()).toBe(200);
    expect(uncaught).toEqual([]);
  });

  it('answers 408 or closes a body shorter than its Content-Length, a silent connection and an unfinished upgrade', async () => {
    const token = await signIn(app.url);
    const halfBody = rawConnection(
      `POST /api/v1/account HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${token}\r\nContent-Type: application/json\r\nContent-Length: 500\r\n\r\n{"username": "half`,
    );
    const halfTrpc = rawConnection(`POST /trpc/accounts.create HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${token}\r\nContent-Type: application/json\r\nContent-Length: 500\r\n\r\n{"username": "half`);
    const silent = rawConnection('');
    const unfinishedUpgrade = rawConnection(`GET /ws HTTP/1.1\r\nHost: 127.0.0.1\r\n${UPGRADE_HEADERS}`);
    // each is let go by the server: none of these promises would settle while it held the socket
    await Promise.all([halfBody.closed, halfTrpc.closed, silent.closed, unfinishedUpgrade.closed]);
    for (const connection of [halfBody, halfTrpc, unfinishedUpgrade]) expect(connection.received()).toMatch(/^(HTTP\/1\.1 (400|408) |$)/);
    expect(halfBody.received()).not.toMatch(/ 201 /);
    expect(await healthy()).toBe(200);
  });

  it('closes the socket of a session that expired (4401) and pushes it nothing more', async () => {
    const token = await signIn(app.url);
    const pushed: string[] = [];
    let closedWith: number | undefined;
    const raw = new WebSocket(wsUrl('/ws'), { headers: { cookie: `user_session=${token}`, origin: app.url } });
    raw.on('close', (code) => (closedWith = code));
    raw.on('error', () => undefined);
    await new Promise((resolve) => raw.once('open', resolve));
    raw.send(JSON.stringify({ id: 1, method: 'subscription', params: { path: 'live.accounts', input: undefined } }));
    raw.on('message', (data) => pushed.push(data.toString()));
    await expect.poll(() => pushed.some((message) => message.includes('"started"'))).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, SESSION_SECONDS * 1000 + 300));
    // a fresh session makes a change that the expired one would have been pushed
    const account = newAccount();
    const created = await (await admin()).post('/api/v1/account', account);
    expect(created.status).toBe(201);
    await expect.poll(() => closedWith, { timeout: 5000 }).toBe(SESSION_ENDED_CLOSE);
    expect(pushed.join('\n')).not.toContain(created.body.id);
  });

  it('stays up after a burst of malformed connections of every kind', async () => {
    const readerToken = await registerReader();
    const token = await signIn(app.url);
    const attempts: Array<Promise<unknown>> = [];
    for (let i = 0; i < 10; i += 1) {
      attempts.push(resetSoon(rawConnection(upgradeRequest(`/nobody/${i}`)).socket, i));
      attempts.push(resetSoon(rawConnection(upgradeRequest('/ws', `Origin: ${app.url}\r\nCookie: user_session=forged-burst-${i}\r\n`)).socket, i));
      attempts.push(resetSoon(rawConnection(upgradeRequest(READER_WS_PATH, `Authorization: Bearer ${readerToken}\r\n`)).socket, i));
      attempts.push(rawConnection(`POST /trpc/accounts.create HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 99\r\n\r\n{`).closed);
      attempts.push(rawConnection('GARBAGE \u0000\u0001 NOT HTTP\r\n\r\n').closed);
      attempts.push(
        openSocket(READER_WS_PATH, { authorization: `Bearer ${readerToken}` }).then(({ socket, closed }) => {
          socket.send('y'.repeat(20 * 1024));
          return closed;
        }),
      );
      attempts.push(
        openSocket('/ws', { cookie: `user_session=${token}`, origin: app.url }).then(({ socket, closed }) => {
          writeGarbageFrame(socket);
          return closed;
        }),
      );
    }
    await Promise.all(attempts);
    expect(await healthy()).toBe(200);
    expect((await http(app.url, await signIn(app.url)).get('/api/v1/account/current')).status).toBe(200);
    expect(uncaught).toEqual([]);
  });
});

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/test-app';

/**
 * The API serves the built console (docs/running-in-production.md, 'Shape'): the brotli or gzip copy
 * the build wrote beside each script, as the browser's Accept-Encoding allows, hashed assets cached
 * for a year, index.html asked again each time, and a missing asset a 404 rather than the page.
 */

interface RawAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** a GET whose body comes as sent (fetch would decode it) */
function getRaw(base: string, path: string, acceptEncoding?: string): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const sent = request(new URL(path, base), { headers: acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding } }, (answer) => {
      const chunks: Buffer[] = [];
      answer.on('data', (chunk: Buffer) => chunks.push(chunk));
      answer.on('end', () => resolve({ status: answer.statusCode ?? 0, headers: answer.headers, body: Buffer.concat(chunks) }));
      answer.on('error', reject);
    });
    sent.on('error', reject);
    sent.end();
  });
}

describe('the built console as the API serves it', () => {
  const script = `export const greeting = ${JSON.stringify('rollcall '.repeat(400))};\n`;
  let consoleDir: string;
  let app: TestApp;

  beforeAll(async () => {
    consoleDir = mkdtempSync(join(tmpdir(), 'rollcall-console-'));
    mkdirSync(join(consoleDir, 'assets'));
    writeFileSync(join(consoleDir, 'index.html'), '<!doctype html><title>Rollcall</title><script type="module" src="/assets/index-abc123.js"></script>');
    // as vite-plugin-compression2 leaves them: the file and its two compressed copies
    writeFileSync(join(consoleDir, 'assets', 'index-abc123.js'), script);
    writeFileSync(join(consoleDir, 'assets', 'index-abc123.js.br'), brotliCompressSync(script));
    writeFileSync(join(consoleDir, 'assets', 'index-abc123.js.gz'), gzipSync(script));
    writeFileSync(join(consoleDir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
    app = await startTestApp('sqlite', { ROLLCALL_CONSOLE_DIR: consoleDir });
  });
  afterAll(async () => {
    await app?.destroy();
    rmSync(consoleDir, { recursive: true, force: true });
  });

  it('sends the brotli copy to a browser that takes it, gzip to one that takes only gzip, the file to others', async () => {
    const brotli = await getRaw(app.url, '/assets/index-abc123.js', 'gzip, deflate, br');
    expect(brotli.status).toBe(200);
    expect(brotli.headers['content-encoding']).toBe('br');
    expect(brotli.headers['content-type']).toMatch(/^text\/javascript/);
    expect(brotli.headers.vary).toMatch(/Accept-Encoding/i);
    expect(brotliDecompressSync(brotli.body).toString()).toBe(script);
    expect(brotli.body.length).toBeLessThan(script.length / 4);

    const gzip = await getRaw(app.url, '/assets/index-abc123.js', 'gzip, deflate');
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzip.body).toString()).toBe(script);

    const plain = await getRaw(app.url, '/assets/index-abc123.js');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.toString()).toBe(script);
  });

  it('lets a browser keep hashed assets for a year and asks it to check the page each time', async () => {
    expect((await getRaw(app.url, '/assets/index-abc123.js', 'br')).headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect((await getRaw(app.url, '/favicon.svg')).headers['cache-control']).toBe('public, max-age=3600');
    const page = await getRaw(app.url, '/accounts', 'br');
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.headers['cache-control']).toBe('no-cache');
    expect(page.body.toString()).toContain('/assets/index-abc123.js');
  });

  it('answers 404 for a script that is not there instead of the page', async () => {
    const missing = await getRaw(app.url, '/assets/index-old999.js', 'br');
    expect(missing.status).toBe(404);
    expect(missing.headers['content-type']).toMatch(/^text\/plain/);
    expect(missing.body.toString()).not.toContain('<title>');
  });
});

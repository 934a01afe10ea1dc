import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { type DriverEvent } from './scan-driver';
import { parseScanLine, SimulatorDriver } from './simulator-driver';

const NOW = new Date('2026-11-22T09:15:00.000Z');
const now = () => NOW;

describe('parseScanLine', () => {
  it.each([
    ['04a1b2c3', '04A1B2C3'],
    ['  04A1B2C3D4E5F6  ', '04A1B2C3D4E5F6'],
    ['0102030405060708090a', '0102030405060708090A'],
  ])('accepts a bare UID %j, upper-cased, timed now', (line, uid) => {
    expect(parseScanLine(line, now)).toEqual({ kind: 'scan', scan: { cardUid: uid, deviceTime: NOW } });
  });

  it.each([
    ['04A1B2C3 2026-11-22T08:30:00Z', '2026-11-22T08:30:00.000Z'],
    ['04a1b2c3\t2026-11-22T08:30:00.250+01:00', '2026-11-22T07:30:00.250Z'],
  ])('accepts a UID with a device time %j', (line, iso) => {
    const parsed = parseScanLine(line, now);
    expect(parsed.kind).toBe('scan');
    if (parsed.kind === 'scan') expect(parsed.scan).toEqual({ cardUid: '04A1B2C3', deviceTime: new Date(iso) });
  });

  it.each(['', '   ', '# a comment', '  # indented comment'])('skips %j', (line) => {
    expect(parseScanLine(line, now)).toEqual({ kind: 'skip' });
  });

  it.each([
    ['04A1B2', /card UID "04A1B2"/],
    ['0102030405060708090A0B', /4 to 10 bytes/],
    ['04A1B2C', /hex/],
    ['04A1B2CG', /hex/],
    ['04:A1:B2:C3', /card UID/],
    ['04A1B2C3 2026-11-22T08:30:00', /device time .*offset/],
    ['04A1B2C3 yesterday', /device time "yesterday"/],
    ['04A1B2C3 2026-11-22T08:30:00Z extra', /3 fields/],
  ])('rejects %j', (line, message) => {
    const parsed = parseScanLine(line, now);
    expect(parsed.kind).toBe('error');
    if (parsed.kind === 'error') expect(parsed.message).toMatch(message);
  });

  it('shortens a long bad token in its message', () => {
    const parsed = parseScanLine('x'.repeat(500), now);
    expect(parsed.kind === 'error' && parsed.message.length).toBeLessThan(200);
  });
});

describe('SimulatorDriver', () => {
  const collect = async (events: AsyncIterable<DriverEvent>) => {
    const out: DriverEvent[] = [];
    for await (const event of events) out.push(event);
    return out;
  };

  it('emits scans in order and reports bad lines with their line numbers without stopping', async () => {
    const input = Readable.from(['04a1b2c3\r\n', 'bogus\n# comment\n\n', '04A1B2C3D4E5F6 2026-11-22T08:30:00Z\n', '0A0B0C0D']);
    const events = await collect(new SimulatorDriver(input, { now }).events());
    expect(events).toEqual([
      { kind: 'scan', scan: { cardUid: '04A1B2C3', deviceTime: NOW } },
      { kind: 'error', message: expect.stringMatching(/^line 2: card UID "bogus"/) },
      { kind: 'scan', scan: { cardUid: '04A1B2C3D4E5F6', deviceTime: new Date('2026-11-22T08:30:00Z') } },
      { kind: 'scan', scan: { cardUid: '0A0B0C0D', deviceTime: NOW } },
    ]);
  });

  it('ends cleanly on empty input', async () => {
    expect(await collect(new SimulatorDriver(Readable.from([])).events())).toEqual([]);
  });

  it('rejects when the stream itself fails, since that is no input rather than a bad scan', async () => {
    const failing = new Readable({
      read() {
        this.destroy(new Error('disk gone'));
      },
    });
    await expect(collect(new SimulatorDriver(failing).events())).rejects.toThrow('disk gone');
  });
});

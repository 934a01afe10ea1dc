import { createTRPCClient, httpBatchLink, TRPCClientError } from '@trpc/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, createAccount, http, signIn, startTestApp, storageKinds, type TestApp } from '../../../test/test-app';
import type { AppRouter } from '../../root-router';

type Status = { id: string; title: string; active: 0 | 1 };
type Client = ReturnType<typeof http>;

let counter = 0;
const uniqueTitle = (base = 'Vacation') => `${base} ${Date.now().toString(36)}${(counter += 1)}`;

/** v2 calls of the spec (console-directory.md section 7); v1 serves only the list */
const V2_PREFIXES = [
  ['/api/v2', (body: { data?: unknown }) => body.data],
  ['/api', (body: { data?: unknown }) => body.data],
] as const;

describe.each(storageKinds())('attendance statuses over REST and tRPC (%s)', (kind) => {
  let app: TestApp;
  let admin: Client;
  beforeAll(async () => {
    app = await startTestApp(kind);
    admin = http(app.url, await signIn(app.url));
  });
  afterAll(async () => {
    await app?.destroy();
  });

  const patch = (path: string, body: unknown) => admin.raw('PATCH', path, body);
  const del = (path: string) => admin.raw('DELETE', path);
  const statuses = async () => (await admin.get('/api/v1/states/attendance')).body as Status[];
  const create = async (body: Record<string, unknown>) => {
    const created = await admin.post('/api/v2/states/attendance/', body);
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    return created.body.data as Status;
  };
  const expectError = (response: { status: number; body: { error: { code: string; fields?: Record<string, string[]> } } }, status: number, code: string, field?: string) => {
    expect(response.status, JSON.stringify(response.body)).toBe(status);
    expect(response.body.error.code).toBe(code);
    if (field) expect(Object.keys(response.body.error.fields ?? {}), JSON.stringify(response.body)).toContain(field);
  };

  it('creates, lists, updates and deletes on v2 and unprefixed, with Active as 1 or 0, reading its own writes', async () => {
    for (const [prefix, unwrap] of V2_PREFIXES) {
      const title = uniqueTitle(`Sick leave ${prefix}`);
      const created = await admin.post(`${prefix}/states/attendance/`, { title, active: 1 });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      expect(created.headers.get('x-rollcall-consistency')).toBe('consistent');
      const status = unwrap(created.body) as Status;
      expect(status).toEqual({ id: expect.any(String), title, active: 1 });
      expect(unwrap((await admin.get(`${prefix}/states/attendance`)).body)).toContainEqual(status);
      expect(await statuses()).toContainEqual(status);

      const updated = await patch(`${prefix}/states/attendance/${status.id}`, { title: `${title} (paid)`, active: 0 });
      expect(updated.status, JSON.stringify(updated.body)).toBe(200);
      expect(unwrap(updated.body)).toEqual({ id: status.id, title: `${title} (paid)`, active: 0 });
      expect((await statuses()).find((s) => s.id === status.id)).toEqual({ id: status.id, title: `${title} (paid)`, active: 0 });
      // and back on, with the form's true/false
      expect(unwrap((await patch(`${prefix}/states/attendance/${status.id}`, { title: `${title} (paid)`, active: true })).body)).toMatchObject({ active: 1 });

      const deleted = await del(`${prefix}/states/attendance/${status.id}`);
      expect(deleted.status, JSON.stringify(deleted.body)).toBe(200);
      expect(unwrap(deleted.body)).toEqual({ message: `Attendance status "${title} (paid)" deleted` });
      expect((await statuses()).map((s) => s.id)).not.toContain(status.id);
      expectError(await del(`${prefix}/states/attendance/${status.id}`), 404, 'attendance_status.not_found');
      expectError(await patch(`${prefix}/states/attendance/${status.id}`, { title, active: 1 }), 404, 'attendance_status.not_found');
    }
  });

  it('serves the list on v1 as the bare array, oldest first, and no writes on v1', async () => {
    const first = await create({ title: uniqueTitle('Home office'), active: 1 });
    const second = await create({ title: uniqueTitle('Training'), active: 0 });
    const list = await admin.get('/api/v1/states/attendance');
    expect(list.status).toBe(200);
    const ids = (list.body as Status[]).map((s) => s.id);
    expect(ids.indexOf(first.id)).toBeLessThan(ids.indexOf(second.id));
    expect((list.body as Status[]).find((s) => s.id === second.id)).toEqual(second);
    expect((await admin.post('/api/v1/states/attendance/', { title: uniqueTitle(), active: 1 })).status).toBe(404);
    expect((await patch(`/api/v1/states/attendance/${first.id}`, { title: 'x', active: 1 })).status).toBe(404);
    expect((await del(`/api/v1/states/attendance/${first.id}`)).status).toBe(404);
    expect((await statuses()).length).toBe(ids.length);
  });

  it('makes a new status active unless told otherwise, and trims its title', async () => {
    const title = uniqueTitle('Parental leave');
    expect(await create({ title: `  ${title}  ` })).toMatchObject({ title, active: 1 });
    expect(await create({ title: uniqueTitle(), active: '0' })).toMatchObject({ active: 0 });
  });

  it('refuses bad input with a 400 naming the field, and writes nothing', async () => {
    const existing = await create({ title: uniqueTitle() });
    const before = await statuses();
    const cases: Array<[string, Record<string, unknown>, string]> = [
      ['no title', { active: 1 }, 'title'],
      ['an empty title', { title: '', active: 1 }, 'title'],
      ['a blank title', { title: '   ', active: 1 }, 'title'],
      ['a title of 256 characters', { title: 'x'.repeat(256), active: 1 }, 'title'],
      ['a title that is not text', { title: 7, active: 1 }, 'title'],
      ['active 2', { title: uniqueTitle(), active: 2 }, 'active'],
      ['active yes', { title: uniqueTitle(), active: 'yes' }, 'active'],
    ];
    for (const [prefix] of V2_PREFIXES) {
      for (const [label, body, field] of cases) {
        const created = await admin.post(`${prefix}/states/attendance/`, body);
        expect(created.status, `create ${label}`).toBe(400);
        expect(created.body.error.fields?.[field], `create ${label}: ${JSON.stringify(created.body)}`).toBeDefined();
        const updated = await patch(`${prefix}/states/attendance/${existing.id}`, body);
        expect(updated.status, `update ${label}`).toBe(400);
        expect(updated.body.error.fields?.[field], `update ${label}`).toBeDefined();
      }
    }
    expect(await statuses()).toEqual(before);
    expectError(await patch('/api/v2/states/attendance/not-a-uuid', { title: 'x', active: 1 }), 400, 'request.invalid', 'id');
    expectError(await del('/api/v2/states/attendance/6a2f41a0-0000-4000-8000-000000000000'), 404, 'attendance_status.not_found');
    const broken = await admin.raw('POST', '/api/v2/states/attendance/', '{"title": ', { 'content-type': 'application/json' });
    expect(broken.status).toBe(400);
    expect(await statuses()).toEqual(before);
  });

  it('keeps titles unique whatever their case, frees a title on rename and on delete', async () => {
    const title = uniqueTitle('Business trip');
    const first = await create({ title });
    const before = await statuses();
    expectError(await admin.post('/api/v2/states/attendance/', { title: ` ${title.toUpperCase()} `, active: 1 }), 409, 'attendance_status.title_taken', 'title');
    const other = await create({ title: uniqueTitle() });
    expectError(await patch(`/api/v2/states/attendance/${other.id}`, { title: title.toLowerCase(), active: 1 }), 409, 'attendance_status.title_taken', 'title');
    expect((await statuses()).length).toBe(before.length + 1);
    // its own title in another case is no clash
    expect((await patch(`/api/v2/states/attendance/${first.id}`, { title: title.toUpperCase(), active: 1 })).status).toBe(200);
    // renamed: the old title is free again
    await patch(`/api/v2/states/attendance/${first.id}`, { title: `${title} renamed`, active: 1 });
    const reused = await create({ title });
    expect(reused.title).toBe(title);
    // deleted: its title is free again
    expect((await del(`/api/v2/states/attendance/${reused.id}`)).status).toBe(200);
    expect((await create({ title })).title).toBe(title);
  });

  it('gives one status to one of two racing creations with the same title', async () => {
    const title = uniqueTitle('Race');
    const answers = await Promise.all([1, 2, 3].map(() => admin.post('/api/v2/states/attendance/', { title, active: 1 })));
    expect(answers.map((a) => a.status).sort()).toEqual([201, 409, 409]);
    expect((await statuses()).filter((s) => s.title === title)).toHaveLength(1);
  });

  it('refuses a status to an account without attendance permissions (403) and to tokens without attendance:write', async () => {
    const plain = await createAccount(admin);
    const session = http(app.url, await signIn(app.url, { username: plain.username, password: plain.password }));
    const status = await create({ title: uniqueTitle() });
    const before = await statuses();
    for (const [method, path, body] of [
      ['GET', '/api/v1/states/attendance', undefined],
      ['GET', '/api/v2/states/attendance', undefined],
      ['POST', '/api/v2/states/attendance/', { title: uniqueTitle(), active: 1 }],
      ['PATCH', `/api/v2/states/attendance/${status.id}`, { title: 'Hijacked', active: 1 }],
      ['DELETE', `/api/v2/states/attendance/${status.id}`, undefined],
    ] as const) {
      const response = await session.raw(method, path, body);
      expect(response.status, `${method} ${path}`).toBe(403);
      expect(response.body.error.code).toBe('auth.forbidden');
    }
    const adminId = (await admin.get('/api/v1/account/current')).body.id;
    const issued = await admin.post('/api/v1/token', { title: 'Attendance reader', forever: true, permissions: ['attendance:read'], restrictions: [], account_id: adminId });
    expect(issued.status, JSON.stringify(issued.body)).toBe(201);
    const reader = http(app.url, issued.body.token as string);
    expect((await reader.get('/api/v2/states/attendance')).status).toBe(200);
    expect((await reader.post('/api/v2/states/attendance/', { title: uniqueTitle(), active: 1 })).status).toBe(403);
    expect((await reader.raw('DELETE', `/api/v2/states/attendance/${status.id}`)).status).toBe(403);
    expect(await statuses()).toEqual(before);
  });

  it('serves the console through tRPC with the same handlers', async () => {
    const client = createTRPCClient<AppRouter>({ links: [httpBatchLink({ url: `${app.url}/trpc`, headers: async () => ({ authorization: `Bearer ${await signIn(app.url, ADMIN)}` }) })] });
    const title = uniqueTitle('tRPC status');
    const status = await client.attendanceStatuses.create.mutate({ title, active: true });
    expect(status).toEqual({ id: expect.any(String), title, active: 1 });
    expect(await client.attendanceStatuses.list.query()).toContainEqual(status);
    expect(await client.attendanceStatuses.update.mutate({ id: status.id, title: `${title} 2`, active: false })).toEqual({ id: status.id, title: `${title} 2`, active: 0 });
    const taken = (await client.attendanceStatuses.create.mutate({ title: `${title} 2`, active: true }).catch((e: unknown) => e)) as TRPCClientError<AppRouter>;
    expect(taken).toBeInstanceOf(TRPCClientError);
    expect(taken.data?.httpStatus).toBe(409);
    expect(taken.data?.apiError).toMatchObject({ code: 'attendance_status.title_taken', fields: { title: [expect.any(String)] } });
    expect(await client.attendanceStatuses.delete.mutate({ id: status.id })).toEqual({ message: `Attendance status "${title} 2" deleted` });
    expect((await client.attendanceStatuses.list.query()).map((s) => s.id)).not.toContain(status.id);
  });
});

import { accountDecider, organizationTreeDecider, type AccountEvent, type OrganizationTreeEvent } from '@rollcall/domain';
import { describe, expect, it } from 'vitest';
import type { StoredEvent } from '../event-store/event-store.port';
import { decideInTurn, foldStream, latestPosition, toStreamWrites } from './multi-stream';
import { systemContext } from './request-context';

const at = '2026-11-22T08:00:00.000Z';
const stored = (streamId: string, events: Array<{ type: string; data: unknown }>, firstCommit = 1): StoredEvent[] =>
  events.map((event, index) => ({
    streamId,
    streamVersion: index,
    position: { commit: firstCommit + index, sequence: 0 },
    type: event.type,
    data: event.data,
    metadata: { eventId: `e${index}`, actor: 'system', actorKind: 'system', sourceIp: null, correlationId: 'c', causationId: null, occurredAt: at },
    schemaVersion: 1,
  }));

const placed = (organizationId: string, parentId: string | null): OrganizationTreeEvent => ({ type: 'OrganizationPlaced', data: { organizationId, parentId, previousParentId: null, at } });

const created: AccountEvent = {
  type: 'AccountCreated',
  data: {
    accountId: 'a1',
    username: 'ada',
    email: 'ada@example.com',
    firstName: 'Ada',
    lastName: 'Lovelace',
    passwordHash: null,
    statusId: 1,
    policyId: null,
    expiresAt: null,
    organizationId: 'o1',
    sendActivation: false,
    isProtected: false,
    createdAt: at,
  },
};

describe('multi-stream decisions', () => {
  it('folds a stream with the version and position of its last event, or no_stream when it is empty', () => {
    const tree = foldStream(organizationTreeDecider, 'organization-tree', stored('organization-tree', [placed('o1', null), placed('o2', 'o1')], 7));
    expect(tree.expectedVersion).toBe(1);
    expect(tree.lastPosition).toEqual({ commit: 8, sequence: 0 });
    expect([...tree.state.parents]).toEqual([
      ['o1', null],
      ['o2', 'o1'],
    ]);
    expect(foldStream(organizationTreeDecider, 'organization-tree', [])).toMatchObject({ expectedVersion: 'no_stream', lastPosition: null });
  });

  it('decides several commands in turn, each on the state the previous ones left', () => {
    const account = foldStream(accountDecider, 'account-a1', stored('account-a1', [created]));
    const { events, state } = decideInTurn(accountDecider, account.state, [
      { type: 'LeaveOrganization', data: { organizationId: 'o1', at } },
      { type: 'JoinOrganization', data: { organizationId: 'o2', at } },
    ]);
    expect(events.map((e) => e.type)).toEqual(['AccountLeftOrganization', 'AccountJoinedOrganization']);
    expect(state).toMatchObject({ organizationIds: ['o2'] });
    // the second leave is decided on the state after the first: the membership is gone
    expect(() =>
      decideInTurn(accountDecider, account.state, [
        { type: 'LeaveOrganization', data: { organizationId: 'o1', at } },
        { type: 'LeaveOrganization', data: { organizationId: 'o1', at } },
      ]),
    ).toThrow('does not belong');
  });

  it('builds one write per stream that decided something, each with its expected version, reservations and metadata', () => {
    const tree = foldStream(organizationTreeDecider, 'organization-tree', stored('organization-tree', [placed('o1', null)]));
    const fresh = foldStream(organizationTreeDecider, 'organization-o2', []);
    const idle = foldStream(organizationTreeDecider, 'organization-o3', stored('organization-o3', [placed('o3', null)]));
    const context = systemContext();
    const writes = toStreamWrites(
      [
        { stream: fresh, events: [placed('o2', null)], reservations: [{ scope: 'organization.title', value: 'x' }] },
        { stream: tree, events: [placed('o2', 'o1')], releases: [] },
        { stream: idle, events: [] },
      ],
      context,
      at,
    );
    expect(writes.map((w) => [w.streamId, w.options])).toEqual([
      ['organization-o2', { expectedVersion: 'no_stream', reservations: [{ scope: 'organization.title', value: 'x' }] }],
      ['organization-tree', { expectedVersion: 0 }],
    ]);
    expect(writes[1].events[0]).toMatchObject({ type: 'OrganizationPlaced', metadata: { actor: 'system', correlationId: context.correlationId, occurredAt: at } });
    expect(new Set(writes.flatMap((w) => w.events.map((e) => e.metadata.eventId))).size).toBe(2);
  });

  it('takes the latest position, START when there is none', () => {
    expect(latestPosition([null, { commit: 3, sequence: 2 }, { commit: 3, sequence: 5 }, { commit: 1, sequence: 9 }])).toEqual({ commit: 3, sequence: 5 });
    expect(latestPosition([null])).toEqual({ commit: 0, sequence: 0 });
  });
});

import { describe, expect, it } from 'vitest';
import { givenFor } from '../../test/given';
import { fold } from '../shared';
import { organizationDecider, type OrganizationCommand, type OrganizationDeletionChoices, type OrganizationEvent } from './organization';
import { organizationTreeDecider, planOrganizationDeletion, type OrganizationTreeEvent } from './organization-tree';

const at = '2026-11-22T08:00:00.000Z';
const created = (organizationId: string, changes: Partial<{ title: string; isProtected: boolean }> = {}): OrganizationEvent => ({
  type: 'OrganizationCreated',
  data: { organizationId, title: changes.title ?? `Org ${organizationId}`, description: '', isProtected: changes.isProtected ?? false, createdAt: at },
});
const placed = (organizationId: string, parentId: string | null, previousParentId: string | null = null): OrganizationTreeEvent => ({ type: 'OrganizationPlaced', data: { organizationId, parentId, previousParentId, at } });
const removed = (organizationId: string): OrganizationTreeEvent => ({ type: 'OrganizationRemovedFromTree', data: { organizationId, at } });
const choices = (changes: Partial<OrganizationDeletionChoices>): OrganizationDeletionChoices => ({ suborganizations: 'disconnect', suborganizationsMoveTo: null, accounts: 'disconnect', accountsMoveTo: null, ...changes });

const organization = givenFor(organizationDecider);
const tree = givenFor(organizationTreeDecider);

// A is the top; B under A; C under B; D under A; X stands apart
const abcd = [placed('A', null), placed('B', 'A'), placed('C', 'B'), placed('D', 'A'), placed('X', null)];

describe('organization decider', () => {
  it('creates an organization with a trimmed title', () =>
    organization([])
      .when({ type: 'CreateOrganization', data: { organizationId: 'A', title: '  Sales  ', description: 'Field sales', isProtected: false, createdAt: at } })
      .then([{ type: 'OrganizationCreated', data: { organizationId: 'A', title: 'Sales', description: 'Field sales', isProtected: false, createdAt: at } }]));

  it('refuses an empty or 256-character title under the field', () => {
    organization([]).when({ type: 'CreateOrganization', data: { organizationId: 'A', title: '   ', description: '', isProtected: false, createdAt: at } }).thenThrows('organization.title_invalid', 'title');
    organization([]).when({ type: 'CreateOrganization', data: { organizationId: 'A', title: 'x'.repeat(256), description: '', isProtected: false, createdAt: at } }).thenThrows('organization.title_invalid', 'title');
  });

  it('changes details only when something differs', () => {
    organization([created('A', { title: 'Sales' })]).when({ type: 'ChangeOrganizationDetails', data: { title: 'Sales', description: '', changedAt: at } }).then([]);
    organization([created('A', { title: 'Sales' })])
      .when({ type: 'ChangeOrganizationDetails', data: { title: 'Sales EMEA', description: 'Europe', changedAt: at } })
      .then([{ type: 'OrganizationDetailsChanged', data: { organizationId: 'A', title: 'Sales EMEA', description: 'Europe', changedAt: at } }]);
  });

  it('refuses to delete a protected organization, and anything about one that does not exist', () => {
    const deletion = choices({});
    organization([created('A', { isProtected: true })]).when({ type: 'DeleteOrganization', data: { deletedAt: at, deletion } }).thenThrows('organization.protected');
    organization([]).when({ type: 'DeleteOrganization', data: { deletedAt: at, deletion } }).thenThrows('organization.not_found');
    organization([created('A'), { type: 'OrganizationDeleted', data: { organizationId: 'A', title: 'Org A', deletedAt: at, deletion } }])
      .when({ type: 'ChangeOrganizationDetails', data: { title: 'Again', description: '', changedAt: at } })
      .thenThrows('organization.not_found');
  });

  describe('time zone', () => {
    const zoneChanged = (timeZone: string | null): OrganizationEvent => ({ type: 'OrganizationTimeZoneChanged', data: { organizationId: 'A', timeZone, changedAt: at } });
    const setZone = (timeZone: string | null): OrganizationCommand => ({ type: 'ChangeOrganizationTimeZone', data: { timeZone, changedAt: at } });

    it('sets, changes and clears the zone of a live organization', () => {
      organization([created('A')]).when(setZone('Europe/Berlin')).then([zoneChanged('Europe/Berlin')]);
      organization([created('A'), zoneChanged('Europe/Berlin')]).when(setZone('America/New_York')).then([zoneChanged('America/New_York')]);
      organization([created('A'), zoneChanged('Europe/Berlin')]).when(setZone(null)).then([zoneChanged(null)]);
    });

    it('records nothing when the zone stays as it is, and a new organization has none', () => {
      organization([created('A')]).when(setZone(null)).then([]);
      organization([created('A'), zoneChanged('Europe/Berlin')]).when(setZone('Europe/Berlin')).then([]);
      // a change of details keeps the zone
      organization([created('A'), zoneChanged('Europe/Berlin'), { type: 'OrganizationDetailsChanged', data: { organizationId: 'A', title: 'Renamed', description: '', changedAt: at } }])
        .when(setZone('Europe/Berlin'))
        .then([]);
    });

    it('refuses an organization that does not exist or was deleted', () => {
      organization([]).when(setZone('Europe/Berlin')).thenThrows('organization.not_found');
      organization([created('A'), { type: 'OrganizationDeleted', data: { organizationId: 'A', title: 'Org A', deletedAt: at, deletion: choices({}) } }])
        .when(setZone('Europe/Berlin'))
        .thenThrows('organization.not_found');
    });

    it('folds the zone into the state', () => {
      const state = fold(organizationDecider, [created('A'), zoneChanged('Europe/Berlin')]);
      expect(state).toMatchObject({ status: 'active', timeZone: 'Europe/Berlin' });
      expect(fold(organizationDecider, [created('A'), zoneChanged('Europe/Berlin'), zoneChanged(null)])).toMatchObject({ timeZone: null });
    });
  });
});

describe('organization decider: permissions and roles in the organization stream', () => {
  const permissionCreated: OrganizationEvent = { type: 'PermissionCreated', data: { organizationId: 'A', permissionId: 'p1', title: 'Read', slug: 'invoices:read', description: '', isProtected: false, createdAt: at } };
  const createRole: OrganizationCommand = { type: 'CreateRole', data: { roleId: 'r1', title: 'Accountant', slug: 'accountant', description: '', permissionIds: ['p1'], isProtected: false, createdAt: at } };

  it('decides them on a live organization, naming it in every event', () =>
    organization([created('A'), permissionCreated])
      .when(createRole)
      .then([{ type: 'RoleCreated', data: { organizationId: 'A', roleId: 'r1', title: 'Accountant', slug: 'accountant', description: '', permissionIds: ['p1'], isProtected: false, createdAt: at } }]));

  it('refuses them on an organization that does not exist or was deleted', () => {
    organization([]).when(createRole).thenThrows('organization.not_found');
    organization([created('A'), permissionCreated, { type: 'OrganizationDeleted', data: { organizationId: 'A', title: 'Org A', deletedAt: at, deletion: choices({}) } }])
      .when(createRole)
      .thenThrows('organization.not_found');
  });

  it('keeps them through a change of details, and slugs stay unique', () =>
    organization([created('A'), permissionCreated, { type: 'OrganizationDetailsChanged', data: { organizationId: 'A', title: 'Renamed', description: '', changedAt: at } }])
      .when({ type: 'CreatePermission', data: { permissionId: 'p2', title: 'Again', slug: 'invoices:read', description: '', isProtected: false, createdAt: at } })
      .thenThrows('permission.slug_taken', 'slug'));
});

describe('organization tree', () => {
  it('places a new organization at the top or under an existing parent', () => {
    tree([]).when({ type: 'PlaceOrganization', data: { organizationId: 'A', parentId: null, at } }).then([placed('A', null)]);
    tree(abcd).when({ type: 'PlaceOrganization', data: { organizationId: 'E', parentId: 'C', at } }).then([placed('E', 'C')]);
    tree(abcd).when({ type: 'PlaceOrganization', data: { organizationId: 'E', parentId: 'nope', at } }).thenThrows('organization.parent_not_found', 'parent_id');
  });

  it('moves an organization, but never under itself or anything below it', () => {
    tree(abcd).when({ type: 'PlaceOrganization', data: { organizationId: 'C', parentId: 'D', at } }).then([placed('C', 'D', 'B')]);
    tree(abcd).when({ type: 'PlaceOrganization', data: { organizationId: 'B', parentId: 'B', at } }).thenThrows('organization.cycle', 'parent_id');
    tree(abcd).when({ type: 'PlaceOrganization', data: { organizationId: 'A', parentId: 'C', at } }).thenThrows('organization.cycle', 'parent_id');
    tree(abcd).when({ type: 'PlaceOrganization', data: { organizationId: 'B', parentId: 'A', at } }).then([]);
  });

  it('deletes with sub-organizations disconnected: they become top-level', () =>
    tree(abcd)
      .when({ type: 'RemoveOrganizationFromTree', data: { organizationId: 'A', deletion: choices({}), at } })
      .then([placed('B', null, 'A'), placed('D', null, 'A'), removed('A')]));

  it('deletes a whole subtree, deepest first', () =>
    tree(abcd)
      .when({ type: 'RemoveOrganizationFromTree', data: { organizationId: 'A', deletion: choices({ suborganizations: 'delete' }), at } })
      .then([removed('C'), removed('D'), removed('B'), removed('A')]));

  it('moves the sub-organizations to a destination outside the deleted one', () => {
    tree(abcd)
      .when({ type: 'RemoveOrganizationFromTree', data: { organizationId: 'B', deletion: choices({ suborganizations: 'move', suborganizationsMoveTo: 'X' }), at } })
      .then([placed('C', 'X', 'B'), removed('B')]);
    const remove = (deletion: OrganizationDeletionChoices) => tree(abcd).when({ type: 'RemoveOrganizationFromTree', data: { organizationId: 'B', deletion, at } });
    remove(choices({ suborganizations: 'move' })).thenThrows('organization.destination_required', 'suborganizations_move_to');
    remove(choices({ suborganizations: 'move', suborganizationsMoveTo: 'B' })).thenThrows('organization.destination_same', 'suborganizations_move_to');
    remove(choices({ suborganizations: 'move', suborganizationsMoveTo: 'C' })).thenThrows('organization.cycle', 'suborganizations_move_to');
    remove(choices({ suborganizations: 'move', suborganizationsMoveTo: 'nope' })).thenThrows('organization.destination_not_found', 'suborganizations_move_to');
  });

  it('names the account variant of a bad destination under its own field', () => {
    const remove = (deletion: OrganizationDeletionChoices) => tree(abcd).when({ type: 'RemoveOrganizationFromTree', data: { organizationId: 'B', deletion, at } });
    remove(choices({ accounts: 'move', accountsMoveTo: 'B' })).thenThrows('organization.destination_same', 'accounts_move_to');
    remove(choices({ accounts: 'move' })).thenThrows('organization.destination_required', 'accounts_move_to');
    remove(choices({ suborganizations: 'delete', accounts: 'move', accountsMoveTo: 'C' })).thenThrows('organization.destination_deleted', 'accounts_move_to');
  });

  it('plans which organizations go and where the accounts end up', () => {
    const state = fold(organizationTreeDecider, abcd);
    expect(planOrganizationDeletion(state, 'A', choices({ suborganizations: 'delete', accounts: 'move', accountsMoveTo: 'X' }))).toEqual({
      deleted: ['A', 'B', 'D', 'C'],
      moved: [],
      accounts: { action: 'move', to: 'X' },
    });
    expect(planOrganizationDeletion(state, 'B', choices({ accounts: 'delete' }))).toEqual({ deleted: ['B'], moved: [{ organizationId: 'C', parentId: null }], accounts: { action: 'delete' } });
  });
});

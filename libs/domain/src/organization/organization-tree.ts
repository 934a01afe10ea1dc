import { DomainError, fieldError, type Decider, type DomainEvent } from '../shared';
import type { OrganizationDeletionChoices } from './organization';

/**
 * Where every organization sits: one aggregate for the whole tree (stream `organization-tree`), so
 * each structural change (create under a parent, move, delete) is decided on the complete tree and
 * appended with its expected version. Two concurrent moves that would close a loop between them
 * cannot both pass: the second finds the tree changed and decides again. See docs/adr/0009.
 */
export type OrganizationPlaced = DomainEvent<'OrganizationPlaced', { organizationId: string; parentId: string | null; previousParentId: string | null; at: string }>;
export type OrganizationRemovedFromTree = DomainEvent<'OrganizationRemovedFromTree', { organizationId: string; at: string }>;
export type OrganizationTreeEvent = OrganizationPlaced | OrganizationRemovedFromTree;
export const ORGANIZATION_TREE_EVENT_TYPES: OrganizationTreeEvent['type'][] = ['OrganizationPlaced', 'OrganizationRemovedFromTree'];

/** A new organization enters the tree, or an existing one moves (parentId null: a top-level organization). */
export type PlaceOrganization = { type: 'PlaceOrganization'; data: { organizationId: string; parentId: string | null; at: string } };
export type RemoveOrganizationFromTree = { type: 'RemoveOrganizationFromTree'; data: { organizationId: string; deletion: OrganizationDeletionChoices; at: string } };
export type OrganizationTreeCommand = PlaceOrganization | RemoveOrganizationFromTree;

/** parent of every organization in the tree (null for a top-level one) */
export interface OrganizationTreeState {
  parents: ReadonlyMap<string, string | null>;
}

export const ORGANIZATION_TREE_STREAM = 'organization-tree';

export function childrenOf(tree: OrganizationTreeState, organizationId: string): string[] {
  const children: string[] = [];
  for (const [id, parentId] of tree.parents) if (parentId === organizationId) children.push(id);
  return children;
}

/** the organization and everything below it, the organization first */
export function subtreeOf(tree: OrganizationTreeState, organizationId: string): string[] {
  const result = [organizationId];
  for (let i = 0; i < result.length; i += 1) result.push(...childrenOf(tree, result[i]));
  return result;
}

/** from the organization's parent up to its top-level ancestor */
export function ancestorsOf(tree: OrganizationTreeState, organizationId: string): string[] {
  const ancestors: string[] = [];
  for (let parent = tree.parents.get(organizationId) ?? null; parent !== null; parent = tree.parents.get(parent) ?? null) {
    // a loop cannot be stored (placeOrganization refuses it); the guard keeps a corrupt history from hanging
    if (ancestors.includes(parent)) break;
    ancestors.push(parent);
  }
  return ancestors;
}

const SAME_DESTINATION = "Destination organization and the one you're deleting are the same. Pick another organization";
const SAME_DESTINATION_ACCOUNTS = "Destination organization and the one you're deleting are the same. Pick another organization for the accounts";

/** What a deletion does to the tree and to the accounts: the same answer for the tree decider and the handler that writes the other streams. */
export interface OrganizationDeletionPlan {
  /** the organization first, then (with 'delete') everything below it */
  deleted: string[];
  /** direct sub-organizations that move ('move': under the destination; 'disconnect': to the top level) */
  moved: Array<{ organizationId: string; parentId: string | null }>;
  /** what happens to the accounts of every deleted organization */
  accounts: { action: 'leave' } | { action: 'delete' } | { action: 'move'; to: string };
}


/**
 * Checks the choices against the tree and says what the deletion does. The organizations' own rules
 * (protected) are checked by their deciders when the handler deletes each of them.
 */
export function planOrganizationDeletion(tree: OrganizationTreeState, organizationId: string, choices: OrganizationDeletionChoices): OrganizationDeletionPlan {
  if (!tree.parents.has(organizationId)) throw new DomainError('organization.not_found', 'Organization not found');
  const subtree = subtreeOf(tree, organizationId);
  const deleted = choices.suborganizations === 'delete' ? subtree : [organizationId];
  const children = childrenOf(tree, organizationId);

  let moved: OrganizationDeletionPlan['moved'] = [];
  if (choices.suborganizations === 'disconnect') moved = children.map((id) => ({ organizationId: id, parentId: null }));
  if (choices.suborganizations === 'move') {
    const to = choices.suborganizationsMoveTo;
    const field = 'suborganizations_move_to';
    if (!to) throw fieldError('organization.destination_required', field, 'Pick the organization to move the sub-organizations to');
    if (to === organizationId) throw fieldError('organization.destination_same', field, SAME_DESTINATION);
    if (!tree.parents.has(to)) throw fieldError('organization.destination_not_found', field, 'The destination organization does not exist');
    if (subtree.includes(to)) throw fieldError('organization.cycle', field, 'The destination lies inside the organization you are deleting: its sub-organizations cannot move under themselves');
    moved = children.map((id) => ({ organizationId: id, parentId: to }));
  }

  let accounts: OrganizationDeletionPlan['accounts'] = { action: choices.accounts === 'delete' ? 'delete' : 'leave' };
  if (choices.accounts === 'move') {
    const to = choices.accountsMoveTo;
    const field = 'accounts_move_to';
    if (!to) throw fieldError('organization.destination_required', field, 'Pick the organization to move the accounts to');
    if (to === organizationId) throw fieldError('organization.destination_same', field, SAME_DESTINATION_ACCOUNTS);
    if (!tree.parents.has(to)) throw fieldError('organization.destination_not_found', field, 'The destination organization does not exist');
    if (deleted.includes(to)) throw fieldError('organization.destination_deleted', field, 'The destination is deleted with this organization: pick one that stays');
    accounts = { action: 'move', to };
  }
  return { deleted, moved, accounts };
}

export function decideOrganizationTree(command: OrganizationTreeCommand, state: OrganizationTreeState): OrganizationTreeEvent[] {
  switch (command.type) {
    case 'PlaceOrganization': {
      const { organizationId, parentId, at } = command.data;
      const exists = state.parents.has(organizationId);
      const previousParentId = state.parents.get(organizationId) ?? null;
      if (parentId !== null) {
        if (!state.parents.has(parentId)) throw new DomainError('organization.parent_not_found', 'The parent organization does not exist', 'parent_id', { parent_id: ['The parent organization does not exist'] });
        if (parentId === organizationId || ancestorsOf(state, parentId).includes(organizationId)) {
          throw new DomainError('organization.cycle', 'An organization cannot be placed under itself or one of its own sub-organizations', 'parent_id', { parent_id: ['An organization cannot be placed under itself or one of its own sub-organizations'] });
        }
      }
      if (exists && previousParentId === parentId) return [];
      return [{ type: 'OrganizationPlaced', data: { organizationId, parentId, previousParentId, at } }];
    }
    case 'RemoveOrganizationFromTree': {
      const { organizationId, deletion, at } = command.data;
      const plan = planOrganizationDeletion(state, organizationId, deletion);
      return [
        ...plan.moved.map(({ organizationId: id, parentId }): OrganizationTreeEvent => ({ type: 'OrganizationPlaced', data: { organizationId: id, parentId, previousParentId: organizationId, at } })),
        // deepest first, so no organization is ever left under a removed parent
        ...[...plan.deleted].reverse().map((id): OrganizationTreeEvent => ({ type: 'OrganizationRemovedFromTree', data: { organizationId: id, at } })),
      ];
    }
    default: {
      const unhandled: never = command;
      throw new Error(`unhandled command ${(unhandled as { type: string }).type}`);
    }
  }
}

/**
 * The tree's state is owned by the fold that built it (every fold starts from a fresh initialState),
 * so evolve updates its map in place: a copy per event would make folding a large tree quadratic.
 */
export function evolveOrganizationTree(state: OrganizationTreeState, event: OrganizationTreeEvent): OrganizationTreeState {
  const parents = state.parents as Map<string, string | null>;
  if (event.type === 'OrganizationPlaced') parents.set(event.data.organizationId, event.data.parentId);
  else parents.delete(event.data.organizationId);
  return state;
}

export const organizationTreeDecider: Decider<OrganizationTreeCommand, OrganizationTreeEvent, OrganizationTreeState> = {
  initialState: () => ({ parents: new Map() }),
  evolve: evolveOrganizationTree,
  decide: decideOrganizationTree,
};

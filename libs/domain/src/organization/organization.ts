import { DomainError, type Decider, type DomainEvent } from '../shared';
import {
  decideOrganizationAccess,
  emptyOrganizationAccess,
  evolveOrganizationAccess,
  ORGANIZATION_ACCESS_COMMAND_TYPES,
  ORGANIZATION_ACCESS_EVENT_TYPES,
  type OrganizationAccessCommand,
  type OrganizationAccessEvent,
  type OrganizationAccessState,
} from './organization-access';

/**
 * One organization's own facts: its title and description, whether it is protected, and its end.
 * Where it sits in the tree (its parent) belongs to the organization tree (organization-tree.ts), so
 * that every structural change is decided on the whole tree and can never create a cycle.
 */
export interface OrganizationDetails {
  title: string;
  description: string;
}

export const ORGANIZATION_LIMITS = { titleMax: 255, descriptionMax: 2000 } as const;

export type OrganizationCreated = DomainEvent<'OrganizationCreated', { organizationId: string; title: string; description: string; isProtected: boolean; createdAt: string }>;
export type OrganizationDetailsChanged = DomainEvent<'OrganizationDetailsChanged', { organizationId: string; title: string; description: string; changedAt: string }>;
/** `deletion` says what became of its sub-organizations and accounts (the tree and the accounts carry the effects). */
export type OrganizationDeleted = DomainEvent<'OrganizationDeleted', { organizationId: string; title: string; deletedAt: string; deletion: OrganizationDeletionChoices }>;
/** `timeZone` null: the organization names no zone any more (its members' days follow its parent's, or UTC) */
export type OrganizationTimeZoneChanged = DomainEvent<'OrganizationTimeZoneChanged', { organizationId: string; timeZone: string | null; changedAt: string }>;
/** the organization's own facts, without its permissions and roles */
export type OrganizationOwnEvent = OrganizationCreated | OrganizationDetailsChanged | OrganizationTimeZoneChanged | OrganizationDeleted;
export const ORGANIZATION_OWN_EVENT_TYPES: OrganizationOwnEvent['type'][] = ['OrganizationCreated', 'OrganizationDetailsChanged', 'OrganizationTimeZoneChanged', 'OrganizationDeleted'];
/** everything in an organization's stream: its own facts and its permissions and roles (organization-access.ts) */
export type OrganizationEvent = OrganizationOwnEvent | OrganizationAccessEvent;
export const ORGANIZATION_EVENT_TYPES: OrganizationEvent['type'][] = [...ORGANIZATION_OWN_EVENT_TYPES, ...ORGANIZATION_ACCESS_EVENT_TYPES];

/** The spec's delete dialog: one choice for the sub-organizations and one for the accounts. */
export type DeletionChoice = 'disconnect' | 'delete' | 'move';
export interface OrganizationDeletionChoices {
  suborganizations: DeletionChoice;
  suborganizationsMoveTo: string | null;
  accounts: DeletionChoice;
  accountsMoveTo: string | null;
}

export type CreateOrganization = { type: 'CreateOrganization'; data: OrganizationCreated['data'] };
export type ChangeOrganizationDetails = { type: 'ChangeOrganizationDetails'; data: OrganizationDetails & { changedAt: string } };
/**
 * The zone that draws the attendance days of members without a zone of their own; null clears it. The
 * caller checks the name against the runtime's list of zones, as for an account's profile: the
 * decider knows no runtime.
 */
export type ChangeOrganizationTimeZone = { type: 'ChangeOrganizationTimeZone'; data: { timeZone: string | null; changedAt: string } };
/** Also for each sub-organization a 'delete' choice takes along: a protected one refuses, and so the whole deletion. */
export type DeleteOrganization = { type: 'DeleteOrganization'; data: { deletedAt: string; deletion: OrganizationDeletionChoices } };
export type OrganizationCommand = CreateOrganization | ChangeOrganizationDetails | ChangeOrganizationTimeZone | DeleteOrganization | OrganizationAccessCommand;

export type OrganizationState =
  | { status: 'none' }
  | { status: 'active'; organizationId: string; title: string; description: string; isProtected: boolean; createdAt: string; timeZone: string | null; access: OrganizationAccessState }
  | { status: 'deleted'; organizationId: string };

const ACCESS_COMMANDS = new Set<string>(ORGANIZATION_ACCESS_COMMAND_TYPES);
const ACCESS_EVENTS = new Set<string>(ORGANIZATION_ACCESS_EVENT_TYPES);
const isAccessCommand = (command: OrganizationCommand): command is OrganizationAccessCommand => ACCESS_COMMANDS.has(command.type);
const isAccessEvent = (event: OrganizationEvent): event is OrganizationAccessEvent => ACCESS_EVENTS.has(event.type);

export const organizationNotFound = () => new DomainError('organization.not_found', 'Organization not found');

/** Every rule the details break, as field errors (the console shows them under Title and Description). */
export function organizationDetailsViolations(details: OrganizationDetails): Record<string, string[]> {
  const fields: Record<string, string[]> = {};
  const title = details.title.trim();
  if (!title) fields.title = ['Title is required'];
  else if ([...title].length > ORGANIZATION_LIMITS.titleMax) fields.title = [`Title may be at most ${ORGANIZATION_LIMITS.titleMax} characters`];
  if ([...details.description].length > ORGANIZATION_LIMITS.descriptionMax) fields.description = [`Description may be at most ${ORGANIZATION_LIMITS.descriptionMax} characters`];
  return fields;
}

function assertValidDetails(details: OrganizationDetails): void {
  const fields = organizationDetailsViolations(details);
  const [field] = Object.keys(fields);
  if (field) throw new DomainError(field === 'title' ? 'organization.title_invalid' : 'organization.description_invalid', fields[field][0], field, fields);
}

export function decideOrganization(command: OrganizationCommand, state: OrganizationState): OrganizationEvent[] {
  // permissions and roles exist only within a live organization
  if (isAccessCommand(command)) {
    if (state.status !== 'active') throw organizationNotFound();
    return decideOrganizationAccess(command, state.access, state.organizationId);
  }
  switch (command.type) {
    case 'CreateOrganization': {
      if (state.status !== 'none') throw new DomainError('organization.exists', 'This organization already exists');
      assertValidDetails(command.data);
      return [{ type: 'OrganizationCreated', data: { ...command.data, title: command.data.title.trim() } }];
    }
    case 'ChangeOrganizationDetails': {
      if (state.status !== 'active') throw organizationNotFound();
      assertValidDetails(command.data);
      const title = command.data.title.trim();
      if (title === state.title && command.data.description === state.description) return [];
      return [{ type: 'OrganizationDetailsChanged', data: { organizationId: state.organizationId, title, description: command.data.description, changedAt: command.data.changedAt } }];
    }
    case 'ChangeOrganizationTimeZone': {
      if (state.status !== 'active') throw organizationNotFound();
      if (command.data.timeZone === state.timeZone) return [];
      return [{ type: 'OrganizationTimeZoneChanged', data: { organizationId: state.organizationId, timeZone: command.data.timeZone, changedAt: command.data.changedAt } }];
    }
    case 'DeleteOrganization':
      if (state.status !== 'active') throw organizationNotFound();
      if (state.isProtected) throw new DomainError('organization.protected', `The organization ${state.title} is protected and cannot be deleted`);
      return [{ type: 'OrganizationDeleted', data: { organizationId: state.organizationId, title: state.title, deletedAt: command.data.deletedAt, deletion: command.data.deletion } }];
    default: {
      const unhandled: never = command;
      throw new Error(`unhandled command ${(unhandled as { type: string }).type}`);
    }
  }
}

export function evolveOrganization(state: OrganizationState, event: OrganizationEvent): OrganizationState {
  if (isAccessEvent(event)) return state.status === 'active' ? { ...state, access: evolveOrganizationAccess(state.access, event) } : state;
  switch (event.type) {
    case 'OrganizationCreated':
      return {
        status: 'active',
        organizationId: event.data.organizationId,
        title: event.data.title,
        description: event.data.description,
        isProtected: event.data.isProtected,
        createdAt: event.data.createdAt,
        timeZone: null,
        access: emptyOrganizationAccess(),
      };
    case 'OrganizationDetailsChanged':
      return state.status === 'active' ? { ...state, title: event.data.title, description: event.data.description } : state;
    case 'OrganizationTimeZoneChanged':
      return state.status === 'active' ? { ...state, timeZone: event.data.timeZone } : state;
    case 'OrganizationDeleted':
      return { status: 'deleted', organizationId: event.data.organizationId };
    default: {
      const unhandled: never = event;
      return unhandled;
    }
  }
}

export const organizationDecider: Decider<OrganizationCommand, OrganizationEvent, OrganizationState> = {
  initialState: () => ({ status: 'none' }),
  evolve: evolveOrganization,
  decide: decideOrganization,
};

export const organizationStream = (organizationId: string) => `organization-${organizationId}`;

/** Organization titles are unique, case-insensitively (spec: 'Organization title. Must be unique'). */
export const organizationTitleReservation = (title: string) => ({ scope: 'organization.title', value: title.trim().toLowerCase() });

import { z } from 'zod';
import { answerText } from '../common/text';

/**
 * The system permissions (`GET permissions/system`): what an administrator may do, granted through
 * roles (the directory issue) and chosen for each access token. Slugs are OAuth2-scope shaped
 * (`area:verb`) and never renamed once released; `value` is the label the console shows.
 */
export const SYSTEM_PERMISSIONS = [
  { slug: 'accounts:read', value: 'Read accounts, profiles and sign-in settings' },
  { slug: 'accounts:write', value: 'Create accounts and edit their profiles' },
  { slug: 'accounts:delete', value: 'Delete accounts' },
  { slug: 'accounts:credentials', value: 'Change account status, password policy and passwords; unlock accounts' },
  { slug: 'accounts:import', value: 'Import accounts from CSV files' },
  { slug: 'policies:read', value: 'Read password policies' },
  { slug: 'policies:write', value: 'Create, edit and delete password policies' },
  { slug: 'tokens:read', value: 'Read access tokens' },
  { slug: 'tokens:write', value: 'Create, edit and delete access tokens' },
  { slug: 'organizations:read', value: 'Read organizations, members, roles and permissions' },
  { slug: 'organizations:write', value: 'Manage organizations, members, roles and permissions' },
  { slug: 'teams:read', value: 'Read teams' },
  { slug: 'teams:write', value: 'Manage teams and their members' },
  { slug: 'applications:read', value: 'Read applications' },
  { slug: 'applications:write', value: 'Manage applications, their scopes, roles and permissions' },
  { slug: 'attendance:read', value: 'Read arrivals, departures, calendars and statistics' },
  { slug: 'attendance:write', value: 'Edit arrivals, departures, calendar events and attendance statuses' },
  { slug: 'readers:manage', value: 'Register door readers, manage smart cards and register mode' },
  { slug: 'audit:read', value: 'Read the event log and account history' },
  { slug: 'projections:manage', value: 'See the read models, retry events they set aside' },
] as const;

export type SystemPermission = (typeof SYSTEM_PERMISSIONS)[number]['slug'];
export const SYSTEM_PERMISSION_SLUGS = SYSTEM_PERMISSIONS.map((permission) => permission.slug) as [SystemPermission, ...SystemPermission[]];
export const ZSystemPermission = z.enum(SYSTEM_PERMISSION_SLUGS, { error: 'Pick permissions from the system list (GET permissions/system)' });

/** `GET permissions/system`: a system permission as pickers list it */
export const ZSystemPermissionItem = z.object({ slug: answerText(64), value: answerText() });

import type { TApplicationClientSecret, TApplicationDetails, TApplicationListItem, TApplicationPermission, TApplicationRole, TApplicationScope } from '@rollcall/contracts';

/** The application shapes of the console, as the API answers them (libs/contracts/src/applications). */
export type ApplicationRow = TApplicationListItem;
export type ApplicationDetails = TApplicationDetails;
export type ApplicationPermissionRow = TApplicationPermission;
export type ApplicationRoleRow = TApplicationRole;
export type ApplicationScope = TApplicationScope;
/** shown once, by the call that issued it */
export type ClientSecret = TApplicationClientSecret;

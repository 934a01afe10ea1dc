/**
 * What of a stored event may leave the server (docs/security.md, 'Credentials never leave through events').
 *
 * Events hold credentials or values derived from them (argon2id PHC strings, SHA-256 of session,
 * access, reader and activation tokens, hashes of OIDC client secrets). Every place that reads events
 * out to a client (event log page and export, histories, time travel) passes each payload through
 * `readableEventData`, which applies the declaration below: an allowlist.
 *
 * - An event type with no declaration is redacted whole: its payload reads as `REDACTED`.
 * - A payload key the declaration does not name reads as `REDACTED` (a new field is hidden until
 *   someone declares it).
 * - A key declared `secret` reads as `REDACTED`; `null` stays `null` ("there is no password yet" is
 *   not a secret, and the folds of the histories rely on it).
 *
 * A new event type or field therefore leaks nothing; it shows as redacted until it is declared here.
 * `apps/api/src/features/audit/event-redaction.unit.spec.ts` fails when an event type the API appends has no
 * declaration.
 */

/** how one payload key is read out */
export type EventFieldRule = 'shown' | 'secret';
export type EventReadDeclaration = Readonly<Record<string, EventFieldRule>>;

/** what a secret, an undeclared key or an undeclared event type reads as */
export const REDACTED = '[redacted]';

const shown = (...keys: string[]): Record<string, EventFieldRule> => Object.fromEntries(keys.map((key) => [key, 'shown' as const]));
const secret = (...keys: string[]): Record<string, EventFieldRule> => Object.fromEntries(keys.map((key) => [key, 'secret' as const]));

const ORGANIZATION_ACCESS = {
  PermissionCreated: shown('organizationId', 'permissionId', 'title', 'slug', 'description', 'isProtected', 'createdAt'),
  PermissionTitleChanged: shown('organizationId', 'permissionId', 'title', 'changedAt'),
  PermissionSlugChanged: shown('organizationId', 'permissionId', 'slug', 'changedAt'),
  PermissionDeleted: shown('organizationId', 'permissionId', 'slug', 'deletedAt'),
  RoleCreated: shown('organizationId', 'roleId', 'title', 'slug', 'description', 'permissionIds', 'isProtected', 'createdAt'),
  RoleTitleChanged: shown('organizationId', 'roleId', 'title', 'changedAt'),
  RoleSlugChanged: shown('organizationId', 'roleId', 'slug', 'changedAt'),
  RoleDeleted: shown('organizationId', 'roleId', 'slug', 'deletedAt'),
  PermissionGrantedToRole: shown('organizationId', 'roleId', 'permissionId', 'at'),
  PermissionRevokedFromRole: shown('organizationId', 'roleId', 'permissionId', 'at'),
};

const APPLICATION_ACCESS = {
  ApplicationPermissionAdded: shown('applicationId', 'permissionId', 'slug', 'description', 'createdAt'),
  ApplicationPermissionChanged: shown('applicationId', 'permissionId', 'slug', 'description', 'changedAt'),
  ApplicationPermissionRemoved: shown('applicationId', 'permissionId', 'slug', 'removedAt'),
  ApplicationRoleCreated: shown('applicationId', 'roleId', 'title', 'slug', 'description', 'permissions', 'createdAt'),
  ApplicationRoleTitleChanged: shown('applicationId', 'roleId', 'title', 'changedAt'),
  ApplicationRoleDeleted: shown('applicationId', 'roleId', 'slug', 'deletedAt'),
  PermissionAddedToApplicationRole: shown('applicationId', 'linkId', 'permissionId', 'roleId', 'at'),
  PermissionRemovedFromApplicationRole: shown('applicationId', 'linkId', 'permissionId', 'roleId', 'at'),
};

/** the OpenID Connect provider's activity records (apps/api/src/features/oidc/oidc-audit.ts) */
const OIDC_ACTIVITY = shown('applicationId', 'accountId', 'grantType', 'scope', 'error', 'errorDescription', 'at');

export const EVENT_READ_DECLARATIONS: Readonly<Record<string, EventReadDeclaration>> = {
  // account
  AccountCreated: {
    ...shown('accountId', 'username', 'email', 'firstName', 'lastName', 'statusId', 'policyId', 'expiresAt', 'organizationId', 'sendActivation', 'isProtected', 'createdAt'),
    ...secret('passwordHash'),
  },
  AccountSignedIn: shown('accountId', 'sessionId', 'at'),
  AccountProfileUpdated: shown('accountId', 'firstName', 'lastName', 'email', 'additional', 'updatedAt'),
  AccountProfilePictureChanged: shown('accountId', 'picture', 'changedAt'),
  AccountDeleted: shown('accountId', 'deletedAt'),
  AccountPersonalDataErased: shown('accountId', 'erasedAt'),
  AccountStatusChanged: shown('accountId', 'statusId', 'changedAt'),
  AccountPolicyChanged: shown('accountId', 'policyId', 'changedAt'),
  PasswordChangeRequired: shown('accountId', 'at'),
  PasswordChanged: { ...shown('accountId', 'changedAt'), ...secret('passwordHash') },
  SignInFailed: shown('accountId', 'at'),
  AccountLocked: shown('accountId', 'at', 'until'),
  ActivationIssued: { ...shown('accountId', 'expiresAt', 'issuedAt'), ...secret('tokenHash') },
  AccountActivated: { ...shown('accountId', 'at'), ...secret('tokenHash') },
  AccountUnlocked: shown('accountId', 'at'),
  AccountJoinedOrganization: shown('accountId', 'organizationId', 'at'),
  AccountLeftOrganization: shown('accountId', 'organizationId', 'at'),
  RoleGrantedToAccount: shown('accountId', 'organizationId', 'roleId', 'at'),
  RoleRevokedFromAccount: shown('accountId', 'organizationId', 'roleId', 'at'),
  ApplicationRoleGrantedToAccount: shown('accountId', 'applicationId', 'roleId', 'at'),
  ApplicationRoleRevokedFromAccount: shown('accountId', 'applicationId', 'roleId', 'at'),
  AccountClaimsChanged: shown('accountId', 'claims', 'at'),
  ApplicationConsentGiven: shown('accountId', 'applicationId', 'scopes', 'at'),
  ApplicationConsentRevoked: shown('accountId', 'applicationId', 'scopes', 'at'),
  // session: the session id names the session; the token the browser holds is only ever its SHA-256
  SessionStarted: { ...shown('sessionId', 'accountId', 'startedAt', 'expiresAt'), ...secret('tokenHash') },
  SessionEnded: shown('sessionId', 'endedAt', 'reason'),
  // password policy
  PasswordPolicyCreated: shown('policyId', 'title', 'description', 'minLength', 'minStrength', 'history', 'maxAgeDays', 'lockoutAttempts', 'lockoutDurationSeconds', 'secondFactor', 'passkeySignIn', 'createdAt'),
  PasswordPolicyUpdated: shown('policyId', 'title', 'description', 'minLength', 'minStrength', 'history', 'maxAgeDays', 'lockoutAttempts', 'lockoutDurationSeconds', 'secondFactor', 'passkeySignIn', 'updatedAt'),
  PasswordPolicyDeleted: shown('policyId', 'title', 'deletedAt'),
  // access token: the display prefix is what the token list shows anyway (a few characters)
  AccessTokenIssued: { ...shown('tokenId', 'accountId', 'displayPrefix', 'title', 'permissions', 'restrictions', 'expiresAt', 'issuedAt'), ...secret('tokenHash') },
  AccessTokenUpdated: shown('tokenId', 'title', 'permissions', 'restrictions', 'expiresAt', 'updatedAt'),
  AccessTokenRevoked: shown('tokenId', 'accountId', 'title', 'revokedAt'),
  // organization
  OrganizationCreated: shown('organizationId', 'title', 'description', 'isProtected', 'createdAt'),
  OrganizationDetailsChanged: shown('organizationId', 'title', 'description', 'changedAt'),
  OrganizationTimeZoneChanged: shown('organizationId', 'timeZone', 'changedAt'),
  OrganizationDeleted: shown('organizationId', 'title', 'deletion', 'deletedAt'),
  OrganizationPlaced: shown('organizationId', 'parentId', 'previousParentId', 'at'),
  OrganizationRemovedFromTree: shown('organizationId', 'at'),
  ...ORGANIZATION_ACCESS,
  // team
  TeamCreated: shown('teamId', 'title', 'description', 'interorg', 'organizationId', 'isProtected', 'createdAt'),
  TeamTitleChanged: shown('teamId', 'title', 'changedAt'),
  TeamDeleted: shown('teamId', 'title', 'organizationId', 'deletedAt'),
  AccountAddedToTeam: shown('teamId', 'accountId', 'at'),
  AccountRemovedFromTeam: shown('teamId', 'accountId', 'at'),
  // application: its client secret is kept only as a hash, and not even that is read out
  ApplicationCreated: shown('applicationId', 'title', 'url', 'description', 'scopes', 'client', 'createdAt'),
  ApplicationBasicInfoChanged: shown('applicationId', 'title', 'url', 'description', 'changedAt'),
  ApplicationScopesChanged: shown('applicationId', 'scopes', 'changedAt'),
  ApplicationClientConfigured: shown('applicationId', 'clientType', 'redirectUris', 'postLogoutRedirectUris', 'grantTypes', 'requirePkce', 'changedAt'),
  ApplicationClientSecretIssued: { ...shown('applicationId', 'issuedAt'), ...secret('secretHash') },
  ApplicationDeleted: shown('applicationId', 'title', 'deletedAt'),
  ...APPLICATION_ACCESS,
  OidcTokenIssued: OIDC_ACTIVITY,
  OidcTokenRefused: OIDC_ACTIVITY,
  OidcAuthorizationRefused: OIDC_ACTIVITY,
  OidcSessionEnded: OIDC_ACTIVITY,
  // door readers: their tokens are kept only as hashes, and not even those are read out
  DoorReaderRegistered: shown('readerId', 'name', 'door', 'role', 'registeredAt'),
  DoorReaderRenamed: shown('readerId', 'name', 'previousName', 'renamedAt'),
  DoorReaderMoved: shown('readerId', 'door', 'previousDoor', 'movedAt'),
  ReaderTokenIssued: { ...shown('readerId', 'displayPrefix', 'issuedAt'), ...secret('tokenHash', 'replacedTokenHash') },
  ReaderTokenRevoked: { ...shown('readerId', 'revokedAt'), ...secret('tokenHash') },
  RegisterModeStarted: shown('readerId', 'accountId', 'startedBy', 'expiresAt', 'startedAt'),
  RegisterModeEnded: shown('readerId', 'accountId', 'reason', 'cardUid', 'endedAt'),
  DoorReaderDeleted: shown('readerId', 'name', 'deletedAt'),
  // scans and attendance
  ScansAcknowledged: shown('readerId', 'sequences', 'acknowledged', 'at'),
  ScanSequenceReset: shown('readerId', 'previous', 'reason', 'resetBy', 'at'),
  UnknownCardScanned: shown('readerId', 'scan'),
  EnrollmentScanIgnored: shown('readerId', 'scan', 'reason', 'armedForAccountId', 'ownerAccountId'),
  ScanOutboxChanged: shown('readerId', 'outboxId', 'previousOutboxId', 'previous', 'at'),
  ArrivalRecorded: shown('accountId', 'day', 'slotId', 'scan'),
  DepartureRecorded: shown('accountId', 'day', 'slotId', 'scan'),
  UncountedScanRecorded: shown('accountId', 'day', 'scan', 'reason'),
  OpenDayFlagged: shown('accountId', 'day', 'slotId', 'arrivedAt', 'openDayLimitHours', 'flaggedAt'),
  AttendanceSlotCorrected: shown('accountId', 'day', 'slotId', 'arrivedAt', 'departedAt', 'previous', 'reason', 'correctedBy', 'correctedAt'),
  ManualSlotRecorded: shown('accountId', 'day', 'slotId', 'arrivedAt', 'departedAt', 'reason', 'recordedBy', 'recordedAt'),
  AttendanceStatusCreated: shown('statusId', 'title', 'active', 'createdAt'),
  AttendanceStatusUpdated: shown('statusId', 'title', 'active', 'updatedAt'),
  AttendanceStatusDeleted: shown('statusId', 'title', 'deletedAt'),
  CalendarEventGroupCreated: shown('groupId', 'accountId', 'title', 'description', 'statusId', 'startDate', 'endDate', 'startTime', 'endTime', 'events', 'createdAt'),
  CalendarEventGroupChanged: shown('groupId', 'accountId', 'title', 'description', 'statusId', 'startDate', 'endDate', 'startTime', 'endTime', 'events', 'changedAt'),
  CalendarEventChanged: shown('groupId', 'accountId', 'eventId', 'date', 'startTime', 'endTime', 'title', 'description', 'statusId', 'changedAt'),
  CalendarEventRemoved: shown('groupId', 'accountId', 'eventId', 'date', 'removedAt'),
  CalendarEventGroupRemoved: shown('groupId', 'accountId', 'removedAt'),
  SmartCardRegistered: shown('cardId', 'cardUid', 'accountId', 'via', 'registeredBy', 'scan', 'registeredAt'),
  SmartCardRemoved: shown('cardId', 'cardUid', 'accountId', 'removedBy', 'removedAt'),
  UnknownCardDismissed: shown('cardUid', 'reason', 'dismissedBy', 'dismissedAt'),
  // second factors (docs/adr/0025): the TOTP secret is stored only sealed and the recovery codes only
  // hashed, and neither is read out
  TotpEnrolmentStarted: { ...shown('accountId', 'enrolmentId', 'startedAt'), ...secret('sealedSecret') },
  TotpEnrolled: shown('accountId', 'enrolmentId', 'step', 'enrolledAt'),
  TotpUsed: shown('accountId', 'enrolmentId', 'step', 'at'),
  TotpRemoved: shown('accountId', 'enrolmentId', 'removedAt'),
  RecoveryCodesGenerated: { ...shown('accountId', 'count', 'generatedAt'), ...secret('codeHashes') },
  RecoveryCodeUsed: shown('accountId', 'index', 'remaining', 'at'),
  SecondFactorsReset: shown('accountId', 'reason', 'resetBy', 'at'),
  // passkeys: the credential (id, public key, counter) is not secret, but nobody needs to read it in a history
  PasskeyRegistered: { ...shown('accountId', 'passkeyId', 'name', 'registeredAt'), ...secret('credential') },
  PasskeyRenamed: shown('accountId', 'passkeyId', 'name', 'at'),
  PasskeyUsed: shown('accountId', 'passkeyId', 'counter', 'at'),
  PasskeyRemoved: shown('accountId', 'passkeyId', 'name', 'removedAt'),
};

/** the metadata every event carries (apps/api/src/platform/event-store/event-store.port.ts, EventMetadata) */
export const EVENT_METADATA_DECLARATION: EventReadDeclaration = shown('eventId', 'actor', 'actorKind', 'sourceIp', 'correlationId', 'causationId', 'occurredAt', 'deviceTime');

export const readDeclarationOf = (eventType: string): EventReadDeclaration | undefined =>
  Object.prototype.hasOwnProperty.call(EVENT_READ_DECLARATIONS, eventType) ? EVENT_READ_DECLARATIONS[eventType] : undefined;

const isRecord = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

function applyDeclaration(declaration: EventReadDeclaration, value: Record<string, unknown>): Record<string, unknown> {
  const readable: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    const rule = Object.prototype.hasOwnProperty.call(declaration, key) ? declaration[key] : undefined;
    readable[key] = rule === 'shown' ? item : rule === 'secret' && item === null ? null : REDACTED;
  }
  return readable;
}

/**
 * A payload as it may be read out: declared `shown` keys as stored, secrets and undeclared keys as
 * `REDACTED`, an undeclared event type (or a payload of a declared type that is not an object) as
 * `REDACTED` whole.
 */
export function readableEventData(eventType: string, data: unknown): unknown {
  const declaration = readDeclarationOf(eventType);
  if (!declaration) return REDACTED;
  if (data === null || data === undefined) return data ?? null;
  if (!isRecord(data)) return REDACTED;
  return applyDeclaration(declaration, data);
}

/** the metadata as it may be read out: undeclared keys as `REDACTED` */
export function readableEventMetadata(metadata: unknown): Record<string, unknown> {
  return isRecord(metadata) ? applyDeclaration(EVENT_METADATA_DECLARATION, metadata) : {};
}

/** the payload keys no declaration names (they read as REDACTED): for tests and diagnostics */
export function undeclaredEventFields(eventType: string, data: unknown): string[] {
  const declaration = readDeclarationOf(eventType);
  if (!declaration) return ['*'];
  if (!isRecord(data)) return [];
  return Object.keys(data).filter((key) => !Object.prototype.hasOwnProperty.call(declaration, key));
}

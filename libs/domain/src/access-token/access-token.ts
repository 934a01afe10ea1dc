import { DomainError, type Decider, type DomainEvent, type DomainFieldRule } from '../shared';

/** What an administrator chooses for a token; the same fields on issue and update. */
export interface AccessTokenGrant {
  title: string;
  /** system permission slugs (checked against the catalogue by the contracts) */
  permissions: string[];
  /** addresses and CIDR ranges the token may be used from; empty = anywhere */
  restrictions: string[];
  /** null = forever */
  expiresAt: string | null;
}

export interface AccessTokenIssuedData extends AccessTokenGrant {
  tokenId: string;
  accountId: string;
  /** SHA-256 of the token: the clear token is shown once and never stored */
  tokenHash: string;
  /** the token's first characters, enough to recognise it in a list, too few to use it */
  displayPrefix: string;
  issuedAt: string;
}

export interface AccessTokenUpdatedData extends AccessTokenGrant {
  tokenId: string;
  updatedAt: string;
}

export interface AccessTokenRevokedData {
  tokenId: string;
  accountId: string;
  title: string;
  revokedAt: string;
}

export type AccessTokenIssued = DomainEvent<'AccessTokenIssued', AccessTokenIssuedData>;
export type AccessTokenUpdated = DomainEvent<'AccessTokenUpdated', AccessTokenUpdatedData>;
export type AccessTokenRevoked = DomainEvent<'AccessTokenRevoked', AccessTokenRevokedData>;
export type AccessTokenEvent = AccessTokenIssued | AccessTokenUpdated | AccessTokenRevoked;
export const ACCESS_TOKEN_EVENT_TYPES: AccessTokenEvent['type'][] = ['AccessTokenIssued', 'AccessTokenUpdated', 'AccessTokenRevoked'];

export type IssueAccessToken = { type: 'IssueAccessToken'; data: AccessTokenIssuedData };
export type UpdateAccessToken = { type: 'UpdateAccessToken'; data: AccessTokenUpdatedData };
export type RevokeAccessToken = { type: 'RevokeAccessToken'; data: { revokedAt: string } };
export type AccessTokenCommand = IssueAccessToken | UpdateAccessToken | RevokeAccessToken;

export type AccessTokenState =
  | { status: 'none' }
  | { status: 'active'; tokenId: string; accountId: string; grant: AccessTokenGrant }
  | { status: 'revoked'; tokenId: string };

export const ACCESS_TOKEN_TITLE_MAX = 255;

/** Trims the title, drops repeated permissions and restrictions, and checks what the contracts cannot (time). */
function validGrant(grant: AccessTokenGrant, now: string): AccessTokenGrant {
  const title = grant.title.trim();
  const fields: Record<string, string[]> = {};
  // each message with the field rule it breaks (FIELD_RULE_CODES of libs/contracts), so a console translates it
  const rules: DomainFieldRule[] = [];
  const broken = (field: string, message: string, code: string, params: Record<string, string | number>) => {
    fields[field] = [message];
    rules.push({ field, message, code, params });
  };
  if (!title) broken('title', 'Title is required', 'required', { label: 'Title' });
  else if ([...title].length > ACCESS_TOKEN_TITLE_MAX) broken('title', `Title may be at most ${ACCESS_TOKEN_TITLE_MAX} characters`, 'too_long', { label: 'Title', max: ACCESS_TOKEN_TITLE_MAX });
  if (!grant.permissions.length) broken('permissions', 'Choose at least one permission', 'too_few', { label: 'Permissions', min: 1 });
  if (grant.expiresAt !== null && Date.parse(grant.expiresAt) <= Date.parse(now)) broken('expires_at', 'The expiry must be in the future', 'future', { label: 'Expiry date' });
  const [field] = Object.keys(fields);
  if (field) {
    const code = field === 'title' ? 'token.title_invalid' : field === 'permissions' ? 'token.permissions_required' : 'token.expiry_past';
    throw new DomainError(code, fields[field][0], field, fields, rules);
  }
  return { title, permissions: [...new Set(grant.permissions)], restrictions: [...new Set(grant.restrictions)], expiresAt: grant.expiresAt };
}

const grantOf = ({ title, permissions, restrictions, expiresAt }: AccessTokenGrant): AccessTokenGrant => ({ title, permissions, restrictions, expiresAt });
const sameGrant = (a: AccessTokenGrant, b: AccessTokenGrant) =>
  a.title === b.title && a.expiresAt === b.expiresAt && [...a.permissions].sort().join() === [...b.permissions].sort().join() && [...a.restrictions].sort().join() === [...b.restrictions].sort().join();

const notFound = () => new DomainError('token.not_found', 'This access token does not exist or was deleted');

export const accessTokenDecider: Decider<AccessTokenCommand, AccessTokenEvent, AccessTokenState> = {
  initialState: () => ({ status: 'none' }),
  evolve(state, event) {
    switch (event.type) {
      case 'AccessTokenIssued':
        return { status: 'active', tokenId: event.data.tokenId, accountId: event.data.accountId, grant: grantOf(event.data) };
      case 'AccessTokenUpdated':
        return state.status === 'active' ? { ...state, grant: grantOf(event.data) } : state;
      case 'AccessTokenRevoked':
        return { status: 'revoked', tokenId: event.data.tokenId };
    }
  },
  decide(command, state) {
    switch (command.type) {
      case 'IssueAccessToken': {
        if (state.status !== 'none') throw new DomainError('token.exists', 'This access token already exists');
        const grant = validGrant(command.data, command.data.issuedAt);
        return [{ type: 'AccessTokenIssued', data: { ...command.data, ...grant } }];
      }
      case 'UpdateAccessToken': {
        if (state.status !== 'active') throw notFound();
        const grant = validGrant(command.data, command.data.updatedAt);
        // saving an unchanged dialog records nothing
        if (sameGrant(state.grant, grant)) return [];
        return [{ type: 'AccessTokenUpdated', data: { tokenId: state.tokenId, ...grant, updatedAt: command.data.updatedAt } }];
      }
      case 'RevokeAccessToken': {
        if (state.status !== 'active') throw notFound();
        return [{ type: 'AccessTokenRevoked', data: { tokenId: state.tokenId, accountId: state.accountId, title: state.grant.title, revokedAt: command.data.revokedAt } }];
      }
      default: {
        const unhandled: never = command;
        throw new Error(`unhandled command ${(unhandled as { type: string }).type}`);
      }
    }
  },
};

export const accessTokenStream = (tokenId: string) => `access-token-${tokenId}`;

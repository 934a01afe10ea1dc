import { ACCOUNT_STATUS_LABELS, type AccountStatusId, type TAccount, type TAccountListItem } from '@rollcall/contracts';
import type { Selectable } from 'kysely';
import type { AccountTable } from './accounts.tables';

/** Columns a list may show; never the password hash. */
export const ACCOUNT_LIST_COLUMNS = ['id', 'username', 'email', 'first_name', 'last_name', 'status_id', 'is_protected', 'created_at', 'last_login_at', 'expires_at'] as const;

type ListRow = Pick<Selectable<AccountTable>, (typeof ACCOUNT_LIST_COLUMNS)[number]>;

export function toAccountListItem(row: ListRow): TAccountListItem {
  return {
    id: row.id,
    username: row.username,
    username_readable: row.username,
    first_name: row.first_name,
    last_name: row.last_name,
    email: row.email,
    status_id: row.status_id,
    status_title: ACCOUNT_STATUS_LABELS[row.status_id as AccountStatusId] ?? 'Unknown',
    protected: Boolean(row.is_protected),
    created_at: row.created_at,
    last_login_at: row.last_login_at,
    expires_at: row.expires_at,
  };
}

export function toAccount(row: ListRow & Pick<Selectable<AccountTable>, 'policy_id' | 'additional'>): TAccount {
  const additional = JSON.parse(row.additional) as TAccount['additional'];
  return { ...toAccountListItem(row), policy_id: row.policy_id, additional: { ...additional, email: additional.email ?? [], telephone: additional.telephone ?? [] } };
}

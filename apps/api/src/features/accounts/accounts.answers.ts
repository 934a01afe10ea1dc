import { ACCOUNT_STATUS_IDS, ACCOUNT_STATUS_LABELS } from '@rollcall/contracts';

/** What REST and tRPC answer alike for accounts (shaped once, here). */

/** the account statuses with their labels */
export const accountStatuses = () => ACCOUNT_STATUS_IDS.map((id) => ({ id, label: ACCOUNT_STATUS_LABELS[id] }));

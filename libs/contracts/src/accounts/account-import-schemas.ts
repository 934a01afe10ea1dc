import { z } from 'zod';
import { lineText } from '../common/text';
import { ZPolicyId } from './account-schemas';

/** The fields a CSV column can be mapped to; all but the password are required. */
export const IMPORT_TARGET_FIELDS = ['first_name', 'last_name', 'email', 'username', 'password'] as const;
export type TImportTargetField = (typeof IMPORT_TARGET_FIELDS)[number];
export const IMPORT_REQUIRED_FIELDS: readonly TImportTargetField[] = ['first_name', 'last_name', 'email', 'username'];

/** One request carries at most this many rows (413 beyond); the console sends smaller chunks. */
export const IMPORT_MAX_ROWS = 1000;
export const IMPORT_CHUNK_ROWS = 500;
/** The JSON body limit of the import route alone (the global limit is 1 MB). */
export const IMPORT_MAX_BODY_BYTES = 4 * 1024 * 1024;

/**
 * `POST accounts/import/csv` and `accounts.importCsv`: rows already mapped by the client to the
 * target fields. Only the outer shape is checked here: a broken row is that row's error in the
 * report, never the whole request's.
 */
export const ZImportAccountsInput = z.strictObject({
  csv: z
    // the values are each row's own to check (the row's errors, not the request's); the keys are field names
    .array(z.record(lineText('A column', 64), z.unknown(), { error: 'Each row must be an object of target field to text' }), { error: 'csv must be a list of rows' })
    .min(1, { error: 'The file has no rows to import' }),
  policyId: ZPolicyId.nullish(),
});
export type TImportAccountsInput = z.input<typeof ZImportAccountsInput>;
export type TImportAccountsCommandInput = z.output<typeof ZImportAccountsInput>;

export type TImportRowResult = { row: number; status: 'created'; id: string } | { row: number; status: 'failed'; errors: Record<string, string[]> };

export interface TImportAccountsResult {
  created: number;
  failed: number;
  /** row: the 1-based number among the file's data rows of this request */
  rows: TImportRowResult[];
}

import { z } from 'zod';
import { answerId } from '../common/answers';
import { answerText, lineText } from '../common/text';
import { ZPolicyId } from './account-schemas';
import { ZFieldRule } from '../errors/field-rules';
import { fieldRule } from '../errors/field-rule-codes';

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
export const ZImportAccountsInput = z
  .strictObject({
    csv: z
      // the values are each row's own to check (the row's errors, not the request's); the keys are field names
      .array(z.record(lineText('A column', 64), z.unknown(), { error: 'Each row must be an object of target field to text' }), { error: 'csv must be a list of rows' })
      .min(1, { error: 'The file has no rows to import' }),
    policyId: ZPolicyId.nullish(),
    /**
     * Optional: the line of the file each row starts on, in the order of `csv` (a header line, skipped
     * empty lines and quoted line breaks make it differ from the row's index). The report then names
     * rows by their line, also across the chunks of one file.
     */
    lines: z.array(z.number({ error: 'Each line number must be a number' }).int().min(1, { error: 'Line numbers start at 1' }).max(100_000_000), { error: 'lines must be a list of line numbers' }).nullish(),
  })
  .superRefine((input, ctx) => {
    if (!Array.isArray(input.lines) || !Array.isArray(input.csv) || input.lines.length === input.csv.length) return;
    const count = input.csv.length;
    const params = input.lines.length < count ? fieldRule('too_few', { label: 'lines', min: count }) : fieldRule('too_many', { label: 'lines', max: count });
    ctx.addIssue({ code: 'custom', path: ['lines'], message: 'lines must give one line number per row of csv', params });
  });
export type TImportAccountsInput = z.input<typeof ZImportAccountsInput>;
export type TImportAccountsCommandInput = z.output<typeof ZImportAccountsInput>;

/** row: the 1-based number among this request's rows; line: the file's line the row starts on, when the request sent `lines` */
export const ZImportRowResult = z.union([
  z.object({ row: z.number().int(), line: z.number().int().optional(), status: z.literal('created'), id: answerId() }),
  z.object({
    row: z.number().int(),
    line: z.number().int().optional(),
    status: z.literal('failed'),
    errors: z.record(answerText(), z.array(answerText())),
    /** beside `errors`, each message's rule as a stable code and parameters, as an error answer's `error.rules` (to translate by) */
    rules: z.array(ZFieldRule).optional(),
  }),
]);
export type TImportRowResult = z.infer<typeof ZImportRowResult>;

/** the import's report: how many were created and failed, and each row's outcome */
export const ZImportAccountsResult = z.object({ created: z.number().int(), failed: z.number().int(), rows: z.array(ZImportRowResult) });
export type TImportAccountsResult = z.infer<typeof ZImportAccountsResult>;

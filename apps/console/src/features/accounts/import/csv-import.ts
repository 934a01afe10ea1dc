import Papa from 'papaparse';
import type { TFunction } from 'i18next';
import { getApiError } from '../../../api/api-error';
import { translateFieldErrors } from '../../../components/use-field-errors';
import { IMPORT_CHUNK_ROWS, IMPORT_REQUIRED_FIELDS, IMPORT_TARGET_FIELDS, type TImportRowResult, type TImportTargetField } from '@rollcall/contracts';

/** The spec's accepted types; some browsers give no type at all, then the name decides. */
export const ACCEPTED_CSV_TYPES = ['text/csv', 'text/x-csv', 'application/vnd.ms-excel', 'text/plain'] as const;
const TYPE_BY_EXTENSION: Record<string, string> = { csv: 'text/csv', txt: 'text/plain' };

export function fileTypeOf(file: { name: string; type: string }): string {
  if (file.type) return file.type;
  const extension = /\.([^.]+)$/.exec(file.name)?.[1]?.toLowerCase() ?? '';
  return TYPE_BY_EXTENSION[extension] ?? '';
}

export const isAcceptedFileType = (file: { name: string; type: string }) => (ACCEPTED_CSV_TYPES as readonly string[]).includes(fileTypeOf(file));

/** UTF-8 only; `fatal` turns a Latin-1 or UTF-16 file into an error instead of silent replacement characters. */
export function decodeUtf8(bytes: ArrayBuffer): string | null {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return null;
  }
}

export type CsvProblemKind = 'quotes' | 'other';
export interface CsvProblem {
  kind: CsvProblemKind;
  line: number;
}

export interface ParsedCsv {
  /** column titles: the header row's texts, else 'Column n' */
  columns: string[];
  rows: string[][];
  /** the file's line each row starts on (1-based; a header line, skipped empty lines and quoted line breaks counted) */
  lines: number[];
  problems: CsvProblem[];
  /** every row has one column: the delimiter was probably not recognised */
  singleColumn: boolean;
}

const lineAt = (text: string, index: number) => text.slice(0, index).split('\n').length;
const breaksIn = (text: string) => text.split('\n').length - 1;

export function parseCsv(text: string, hasHeader: boolean): ParsedCsv {
  const all: string[][] = [];
  const starts: number[] = [];
  const problems: CsvProblem[] = [];
  // where the previous row ended, and the line breaks before it
  let cursor = 0;
  let breaks = 0;
  // papaparse guesses the delimiter; empty lines (also lines of only delimiters) are skipped. Row by
  // row: where a row ends (meta.cursor, past its line break) gives the line it starts on, less the
  // line breaks inside its quoted values
  Papa.parse<string[]>(text, {
    header: false,
    skipEmptyLines: 'greedy',
    step: (result) => {
      const row = result.data;
      const end = text[result.meta.cursor - 1] === '\n' ? result.meta.cursor - 1 : result.meta.cursor;
      breaks += breaksIn(text.slice(cursor, end));
      cursor = end;
      const line = breaks + 1 - row.reduce((inside, value) => inside + breaksIn(value), 0);
      all.push(row);
      starts.push(line);
      for (const error of result.errors) {
        // a file of one column has nothing to detect: that case gets its own hint below
        if (error.code === 'UndetectableDelimiter') continue;
        problems.push({ kind: error.type === 'Quotes' ? 'quotes' : 'other', line: typeof error.index === 'number' ? lineAt(text, error.index) : line });
      }
    },
  });
  const width = all.reduce((max, row) => Math.max(max, row.length), 0);
  const header = hasHeader ? (all[0] ?? []) : [];
  const columns = Array.from({ length: width }, (_, index) => header[index]?.trim() || `#${index + 1}`);
  return { columns, rows: hasHeader ? all.slice(1) : all, lines: hasHeader ? starts.slice(1) : starts, problems, singleColumn: all.length > 0 && width === 1 };
}

/** column index per target field; -1 = not mapped */
export type ColumnMapping = Record<TImportTargetField, number>;

const ALIASES: Record<TImportTargetField, string[]> = {
  first_name: ['firstname', 'first', 'givenname', 'forename', 'vorname'],
  last_name: ['lastname', 'last', 'surname', 'familyname', 'nachname'],
  email: ['email', 'emailaddress', 'mail', 'emailadresse'],
  username: ['username', 'user', 'login', 'loginname', 'benutzername', 'benutzer'],
  password: ['password', 'pass', 'passwort', 'kennwort'],
};

const normalise = (title: string) => title.toLowerCase().replace(/[^a-z0-9]/g, '');

/** Columns whose header names a target field are mapped to it; the admin adjusts the rest. */
export function guessMapping(columns: string[], hasHeader: boolean): ColumnMapping {
  const mapping = Object.fromEntries(IMPORT_TARGET_FIELDS.map((field) => [field, -1])) as ColumnMapping;
  if (!hasHeader) return mapping;
  const titles = columns.map(normalise);
  for (const field of IMPORT_TARGET_FIELDS) mapping[field] = titles.findIndex((title) => ALIASES[field].includes(title));
  return mapping;
}

export const isMappingComplete = (mapping: ColumnMapping) => IMPORT_REQUIRED_FIELDS.every((field) => mapping[field] >= 0);

export function toMappedRows(rows: string[][], mapping: ColumnMapping): Array<Partial<Record<TImportTargetField, string>>> {
  return rows.map((row) => {
    const mapped: Partial<Record<TImportTargetField, string>> = {};
    for (const field of IMPORT_TARGET_FIELDS) {
      const value = mapping[field] >= 0 ? (row[mapping[field]] ?? '') : '';
      // an empty password cell means 'no password' (the account awaits activation)
      if (field !== 'password' || value) mapped[field] = value;
    }
    return mapped;
  });
}

export function chunk<T>(items: T[], size = IMPORT_CHUNK_ROWS): T[][] {
  const chunks: T[][] = [];
  for (let start = 0; start < items.length; start += size) chunks.push(items.slice(start, start + size));
  return chunks;
}

/** One line per failed field message, with the file's line the row starts on. */
export interface FailedLine {
  line: number;
  username: string;
  field: string;
  message: string;
}

/** `results[i]` is the answer for `rows[i]` (the chunks' answers in order); `line` is the server's echo of the line sent, else the row's number */
export function failedLines(results: TImportRowResult[], rows: Array<Partial<Record<TImportTargetField, string>>>): FailedLine[] {
  return results.flatMap((result, index) =>
    result.status === 'failed'
      ? Object.entries(result.errors).flatMap(([field, messages]) => messages.map((message) => ({ line: result.line ?? index + 1, username: rows[index]?.username ?? '', field, message })))
      : [],
  );
}

export function reportCsv(lines: FailedLine[]): string {
  return Papa.unparse(lines, { columns: ['line', 'username', 'field', 'message'] });
}

/** a failed row's messages translated as an error answer's field errors are (its `rules` beside `errors`) */
export function translateRowErrors(result: Extract<TImportRowResult, { status: 'failed' }>, t: TFunction, language: string): Record<string, string[]> {
  const answer = { data: { apiError: { code: 'request.invalid', message: '', fields: result.errors, rules: result.rules } } };
  return getApiError(translateFieldErrors(answer, t, language))?.fields ?? result.errors;
}

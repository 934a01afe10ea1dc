import { describe, expect, it } from 'vitest';
import { chunk, decodeUtf8, failedLines, fileTypeOf, guessMapping, isAcceptedFileType, isMappingComplete, parseCsv, reportCsv, toMappedRows } from './csv-import';

describe('the CSV import helpers', () => {
  it('accept the spec types, deducing a missing type from the name', () => {
    expect(isAcceptedFileType({ name: 'a.csv', type: 'application/vnd.ms-excel' })).toBe(true);
    expect(isAcceptedFileType({ name: 'a.CSV', type: '' })).toBe(true);
    expect(fileTypeOf({ name: 'a.txt', type: '' })).toBe('text/plain');
    expect(isAcceptedFileType({ name: 'a.xlsx', type: '' })).toBe(false);
    expect(isAcceptedFileType({ name: 'a.csv', type: 'application/pdf' })).toBe(false);
  });

  it('decode UTF-8 only', () => {
    expect(decodeUtf8(new TextEncoder().encode('\uFEFFJürgen').buffer)).toBe('Jürgen');
    expect(decodeUtf8(new Uint8Array([0x4a, 0xfc, 0x72]).buffer)).toBeNull();
  });

  it('detect the delimiter, skip empty lines and drop the header row', () => {
    const parsed = parseCsv('First name;E-mail\n\nAda;ada@example.com\n;\nGrace;grace@example.com\n', true);
    expect(parsed).toEqual({ columns: ['First name', 'E-mail'], rows: [['Ada', 'ada@example.com'], ['Grace', 'grace@example.com']], lines: [3, 5], problems: [], singleColumn: false });
    expect(parseCsv('Ada,x\nGrace,y', false).columns).toEqual(['#1', '#2']);
    expect(parseCsv('Ada,x\nGrace,y', false).rows).toHaveLength(2);
  });

  it("give each row the file's line it starts on: header, empty lines, quoted line breaks, CRLF", () => {
    const file = 'First;Last\n\nMary;"multi\nline\nname"\nBob;x\n;;\n\nAnn;"y"';
    expect(parseCsv(file, true)).toMatchObject({ rows: [['Mary', 'multi\nline\nname'], ['Bob', 'x'], ['Ann', 'y']], lines: [3, 6, 9] });
    expect(parseCsv(file, false).lines).toEqual([1, 3, 6, 9]);
    expect(parseCsv(file.replaceAll('\n', '\r\n'), true)).toMatchObject({ rows: [['Mary', 'multi\r\nline\r\nname'], ['Bob', 'x'], ['Ann', 'y']], lines: [3, 6, 9] });
  });

  it('name the line of an unclosed quote and hint at a single column', () => {
    expect(parseCsv('a,b\nc,d\n"e,f\n', true).problems).toEqual([{ kind: 'quotes', line: 3 }]);
    expect(parseCsv('name\nada\n', true).singleColumn).toBe(true);
  });

  it('guess the mapping from the header and map rows, leaving an empty password out', () => {
    const mapping = guessMapping(['Vorname', 'Last Name', 'E-Mail', 'login', 'Notes'], true);
    expect(mapping).toEqual({ first_name: 0, last_name: 1, email: 2, username: 3, password: -1 });
    expect(isMappingComplete(mapping)).toBe(true);
    expect(isMappingComplete({ ...mapping, email: -1 })).toBe(false);
    expect(toMappedRows([['Ada', 'L', 'a@x.org', 'ada', 'n']], { ...mapping, password: 4 })).toEqual([{ first_name: 'Ada', last_name: 'L', email: 'a@x.org', username: 'ada', password: 'n' }]);
    expect(toMappedRows([['Ada', 'L', 'a@x.org', 'ada', '']], { ...mapping, password: 4 })[0]).not.toHaveProperty('password');
  });

  it('split into chunks and write the report', () => {
    expect(chunk([1, 2, 3, 4, 5], 2)).toEqual([[1, 2], [3, 4], [5]]);
    const lines = failedLines(
      [
        { row: 1, line: 2, status: 'created', id: 'x' },
        { row: 2, line: 4, status: 'failed', errors: { email: ['E-mail must be a valid e-mail address'], username: ['taken, sorry'] } },
        // an answer without the line echoed: the row's place among all rows sent
        { row: 1, status: 'failed', errors: { email: ['bad'] } },
      ],
      [{ username: 'ada' }, { username: 'grace' }, { username: 'alan' }],
    );
    expect(reportCsv(lines)).toBe('line,username,field,message\r\n4,grace,email,E-mail must be a valid e-mail address\r\n4,grace,username,"taken, sorry"\r\n3,alan,email,bad');
  });
});

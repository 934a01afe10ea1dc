import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import type { TAttendanceStatistic, TStatusDays } from '@rollcall/contracts';
import type { Kysely } from 'kysely';
import Papa from 'papaparse';
import type { Scope } from '../../../platform/access/grants';
import { CLOCK, READ_DB } from '../../../platform/tokens';
import type { Clock } from '../../../platform/runtime/clock';
import type { ReadDatabase } from '../../../platform/read-db/read-database';
import { durationText } from './attendance-summary';
import { monthStatistics } from './month-statistics';

export class DownloadAttendanceStatisticsQuery {
  constructor(
    readonly filter: { month?: string; organizationId?: string; format: 'csv' | 'xlsx' },
    readonly scope: Scope,
  ) {}
}

export interface StatisticsFile {
  filename: string;
  contentType: string;
  body: Buffer;
}

const HEADERS = ['Account', 'Username', 'Month', 'Days present', 'Total time', 'Total seconds', 'Average arrival', 'Average departure', 'Average working hours', 'Account ID'] as const;

const SECONDS_PER_DAY = 86_400;
const secondsOfClock = (clock: string | null) => (clock === null ? null : clock.split(':').map(Number).reduce((total, part) => total * 60 + part, 0));
const fullName = (row: TAttendanceStatistic) => [row.first_name, row.last_name].filter(Boolean).join(' ');

/**
 * `GET accounts/statistics/attendance/download`: every account of the month (the screen's rows
 * without paging) as CSV or as an XLSX workbook. The CSV writes durations and times as HH:MM:SS and
 * guards cells that a spreadsheet would run as formulas; the workbook holds them as Excel times
 * ([h]:mm:ss), so a column sums and sorts as time. After the fixed columns, one per attendance
 * status of the month's absences ('Days: Vacation'), the account's days in it.
 */
@QueryHandler(DownloadAttendanceStatisticsQuery)
export class DownloadAttendanceStatisticsHandler implements IQueryHandler<DownloadAttendanceStatisticsQuery, StatisticsFile> {
  constructor(
    @Inject(READ_DB) private readonly db: Kysely<ReadDatabase>,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ filter, scope }: DownloadAttendanceStatisticsQuery): Promise<StatisticsFile> {
    const month = filter.month ?? this.clock.now().toISOString().slice(0, 7);
    const { rows, statuses } = await monthStatistics(this.db, month, filter.organizationId, scope);
    const filename = `attendance-statistics-${month}.${filter.format}`;
    if (filter.format === 'csv') return { filename, contentType: 'text/csv; charset=utf-8', body: Buffer.from(csvOf(rows, month, statuses), 'utf8') };
    return { filename, contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', body: await workbookOf(rows, month, statuses) };
  }
}

type Status = Pick<TStatusDays, 'status_id' | 'status'>;
/** a column per attendance status of the month's absences: 'Days: Vacation' */
const statusHeader = (status: Status) => `Days: ${status.status ?? `deleted status ${status.status_id}`}`;
const daysIn = (row: TAttendanceStatistic, status: Status) => row.absences?.find((absence) => absence.status_id === status.status_id)?.days ?? 0;

function csvOf(rows: TAttendanceStatistic[], month: string, statuses: Status[]): string {
  const data = rows.map((row) => [
    fullName(row),
    row.username_readable,
    month,
    row.days_present,
    durationText(row.total_time_logged),
    row.total_time_logged,
    row.average_arrival ?? '',
    row.average_departure ?? '',
    row.average_working_hours === null ? '' : durationText(row.average_working_hours),
    row.account_id,
    ...statuses.map((status) => daysIn(row, status)),
  ]);
  return Papa.unparse({ fields: [...HEADERS, ...statuses.map(statusHeader)], data }, { escapeFormulae: true, newline: '\r\n' });
}

async function workbookOf(rows: TAttendanceStatistic[], month: string, statuses: Status[]): Promise<Buffer> {
  // loaded on the first spreadsheet asked for: loaded at start it held about 35 MB of an idle API's memory
  const { Workbook } = (await import('exceljs')).default;
  const workbook = new Workbook();
  workbook.creator = 'Rollcall';
  const sheet = workbook.addWorksheet(`Attendance ${month}`, { views: [{ state: 'frozen', ySplit: 1 }] });
  const duration = { numFmt: '[h]:mm:ss' };
  const clockFormat = { numFmt: 'hh:mm:ss' };
  sheet.columns = [
    { header: HEADERS[0], key: 'name', width: 28 },
    { header: HEADERS[1], key: 'username', width: 24 },
    { header: HEADERS[2], key: 'month', width: 10 },
    { header: HEADERS[3], key: 'days', width: 13 },
    { header: HEADERS[4], key: 'total', width: 12, style: duration },
    { header: HEADERS[5], key: 'seconds', width: 14 },
    { header: HEADERS[6], key: 'arrival', width: 16, style: clockFormat },
    { header: HEADERS[7], key: 'departure', width: 18, style: clockFormat },
    { header: HEADERS[8], key: 'hours', width: 22, style: duration },
    { header: HEADERS[9], key: 'id', width: 38 },
    ...statuses.map((status, index) => ({ header: statusHeader(status), key: `status${index}`, width: 18 })),
  ];
  sheet.getRow(1).font = { bold: true };
  const asDay = (seconds: number | null) => (seconds === null ? null : seconds / SECONDS_PER_DAY);
  for (const row of rows) {
    sheet.addRow({
      name: fullName(row),
      username: row.username_readable,
      month,
      days: row.days_present,
      total: asDay(row.total_time_logged),
      seconds: row.total_time_logged,
      arrival: asDay(secondsOfClock(row.average_arrival)),
      departure: asDay(secondsOfClock(row.average_departure)),
      hours: asDay(row.average_working_hours),
      id: row.account_id,
      ...Object.fromEntries(statuses.map((status, index) => [`status${index}`, daysIn(row, status)])),
    });
  }
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

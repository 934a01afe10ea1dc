import { once } from 'node:events';
import { Controller, Get, Query, Res } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ZAuditEventFilter, ZAuditEventsInput, type TAuditEventPage } from '@rollcall/contracts';
import type { Response } from 'express';
import { RequirePermission } from '../../../platform/access/permissions';
import { EVERYWHERE } from '../../../platform/access/resource-requirements';
import { parseWith } from '../../../platform/http/zod-body';
import { cursorOf, ListAuditEventsQuery } from '../queries/list-audit-events.query';
import { ZAuditEventPage } from '@rollcall/contracts';
import { Documented, fileAnswer } from '../../../platform/http/openapi/rest-description';

/** rows per read of the export: bounded memory whatever the size of the log */
export const EXPORT_CHUNK_ROWS = 500;

/**
 * The event log (ours: not in the spec; docs/api/compat.md, 'Event log'), v2 only: `{data}`
 * answers, also unprefixed under /api. `audit:read` must be held EVERYWHERE: the log spans every
 * organization (and events that belong to none), so an organization administrator's subtree grant
 * cannot filter it.
 */
@Controller(['api/v2', 'api'])
export class AuditV2Controller {
  constructor(private readonly queryBus: QueryBus) {}

  @Get('audit/events')
  @Documented({ summary: 'The event log, newest first, keyset-paged (filters stream, stream_prefix, type, actor, correlation_id, organization, from, to; before, limit)', answer: ZAuditEventPage, query: ZAuditEventsInput })
  @RequirePermission('audit:read', EVERYWHERE)
  async events(@Query() query: Record<string, unknown>) {
    const { before, limit, ...filter } = parseWith(ZAuditEventsInput, query);
    return { data: await this.queryBus.execute<ListAuditEventsQuery, TAuditEventPage>(new ListAuditEventsQuery(filter, cursorOf(before), limit)) };
  }

  /**
   * The filtered log as NDJSON, newest first, one event a line (the shape of `audit/events` rows).
   * Streamed: each chunk is written as soon as it is read, waiting for the client to drain before
   * the next, so any size of log goes out in bounded memory. Events recorded during the export are
   * newer than its first line and not included.
   */
  @Get('audit/events/export')
  @Documented({ summary: 'The filtered event log as NDJSON, newest first, one event a line, streamed', answer: fileAnswer('application/x-ndjson'), query: ZAuditEventFilter })
  @RequirePermission('audit:read', EVERYWHERE)
  async export(@Query() query: Record<string, unknown>, @Res() response: Response): Promise<void> {
    const filter = parseWith(ZAuditEventFilter, query);
    response.status(200);
    response.setHeader('Content-Type', 'application/x-ndjson; charset=utf-8');
    response.setHeader('Content-Disposition', `attachment; filename="event-log-${new Date().toISOString().replace(/[:.]/g, '-')}.ndjson"`);
    response.setHeader('Cache-Control', 'no-store');
    response.setHeader('X-Content-Type-Options', 'nosniff');
    let before = null;
    try {
      do {
        const page = await this.queryBus.execute<ListAuditEventsQuery, TAuditEventPage>(new ListAuditEventsQuery(filter, before, EXPORT_CHUNK_ROWS));
        if (response.destroyed) return;
        if (page.data.length > 0 && !response.write(page.data.map((event) => JSON.stringify(event)).join('\n') + '\n')) {
          await Promise.race([once(response, 'drain'), once(response, 'close')]);
        }
        before = cursorOf(page.next_before ?? undefined);
      } while (before && !response.destroyed);
      response.end();
    } catch (error) {
      // the status line is gone: a cut connection is the only way left to say the file is incomplete
      response.destroy(error instanceof Error ? error : new Error(String(error)));
    }
  }
}

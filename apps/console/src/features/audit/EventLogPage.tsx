import { Fragment, useCallback, useMemo, useState } from 'react';
import Alert from '@mui/material/Alert';
import Autocomplete from '@mui/material/Autocomplete';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import LinearProgress from '@mui/material/LinearProgress';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import { OrganizationPicker } from '../../components/organizations/OrganizationPicker';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useTheme } from '@mui/material/styles';
import DownloadIcon from '@mui/icons-material/Download';
import { keepPreviousData } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import { AUDIT_EVENTS_LIMIT_MAX, type TAuditEvent } from '@rollcall/contracts';
import { getApiError } from '../../api/api-error';
import { translateFieldErrors } from '../../components/use-field-errors';
import { ExpandRowButton } from '../../components/data-table';
import { ErrorState } from '../../components/ErrorState';
import { PageHeader } from '../../components/PageHeader';
import { PhoneFilters } from '../../components/PhoneFilters';
import { SearchField } from '../../components/SearchField';
import { useSnackbar } from '../../components/snackbar/snackbar-context';
import { browserTimeZone, formatInstant, sharedZoneLabel, withZone } from '../../lib/zone-label';
import { trpc } from '../../trpc';
import { exportQuery, fromLocalInput, readAuditFilters, toFilterInput, toLocalInput, writeAuditFilters, type AuditFilters } from './audit-filters';
import { downloadEventLog, ExportError } from './export-ndjson';
import { DateTimeField } from '../../components/DateTimeField';

const PAGE_SIZE = 50;
/** as tRPC delivers it: an `unknown` payload becomes optional in the serialized type */
type EventRowData = Omit<TAuditEvent, 'data'> & { data?: unknown };
const POSITION = /^\d+\.\d+$/;

/** which filter shows the server's message for each input field */
const FIELD_OF: Record<string, keyof AuditFilters> = { stream_prefix: 'stream', type: 'types', actor: 'actor', correlation_id: 'correlation', organization: 'organization', from: 'from', to: 'to' };

/**
 * /audit/events: every event, newest first, paged by the server's cursor (`before` in the URL, so a
 * reload or a shared link shows the same page); filters in the URL; each row opens to its payload and
 * metadata; 'Export NDJSON' downloads the filtered log with a running count.
 */
export default function EventLogPage() {
  const { t, i18n } = useTranslation();
  const { notify } = useSnackbar();
  const [params, setParams] = useSearchParams();
  const filters = useMemo(() => readAuditFilters(params), [params]);
  const before = POSITION.test(params.get('before') ?? '') ? (params.get('before') as string) : undefined;
  // the cursors of the newer pages visited, for 'Newer' (a reload starts over from 'Newest')
  const [trail, setTrail] = useState<Array<string | undefined>>([]);
  const [expanded, setExpanded] = useState<string | null>(null);
  const [exporting, setExporting] = useState<number | null>(null);
  // a phone: the rows show when, what and who; stream, source IP and correlation open with the row
  const compact = useMediaQuery(useTheme().breakpoints.down('sm'));
  const columnCount = compact ? 4 : 7;

  const list = trpc.audit.events.useQuery({ ...toFilterInput(filters), before, limit: PAGE_SIZE }, { placeholderData: keepPreviousData });
  const fieldErrors = useMemo(() => {
    const errors: Partial<Record<keyof AuditFilters, string>> = {};
    // in the console's language by each message's rule (error.rules)
    for (const [field, messages] of Object.entries(getApiError(translateFieldErrors(list.error, t, i18n.resolvedLanguage ?? i18n.language))?.fields ?? {})) {
      const filter = FIELD_OF[field.split('.')[0]];
      if (filter && messages.length) errors[filter] = messages.join(' ');
    }
    return errors;
  }, [list.error, t, i18n.resolvedLanguage, i18n.language]);

  const go = useCallback(
    (next: AuditFilters, cursor: string | undefined, options?: { replace?: boolean }) => {
      const written = writeAuditFilters(next);
      if (cursor) written.set('before', cursor);
      setParams(written, options);
    },
    [setParams],
  );
  const setFilters = useCallback(
    (change: Partial<AuditFilters>, options?: { replace?: boolean }) => {
      setTrail([]);
      setExpanded(null);
      go({ ...filters, ...change }, undefined, options);
    },
    [filters, go],
  );
  const older = () => {
    if (!list.data?.next_before) return;
    setTrail((current) => [...current, before]);
    setExpanded(null);
    go(filters, list.data.next_before);
  };
  const newest = () => {
    setTrail([]);
    setExpanded(null);
    go(filters, undefined);
  };
  const newer = () => {
    const previous = trail[trail.length - 1];
    setTrail((current) => current.slice(0, -1));
    setExpanded(null);
    go(filters, previous);
  };

  const typeOptions = useMemo(() => [...new Set([...(list.data?.data ?? []).map((event) => event.type), ...filters.types])].sort(), [list.data, filters.types]);

  const startExport = async () => {
    setExporting(0);
    try {
      const count = await downloadEventLog(exportQuery(filters), setExporting);
      notify(t('audit.export.done', { count }), 'success');
    } catch (error) {
      notify(error instanceof ExportError ? t('audit.export.failedStatus', { status: error.status }) : t('audit.export.failed'), 'error');
    } finally {
      setExporting(null);
    }
  };

  const activeFilters = [filters.stream, filters.types.length, filters.actor, filters.correlation, filters.organization, filters.from, filters.to].filter(Boolean).length;
  const hasFilters = activeFilters > 0;
  const rows = list.data?.data;
  // the log's times are in the browser's zone: named once in the Time header where the page shares one offset, else on each time
  const zone = rows ? sharedZoneLabel(rows.map((row) => row.recorded_at)) : null;
  const badFilters = Object.keys(fieldErrors).length > 0;

  return (
    <>
      <PageHeader
        title={t('audit.title')}
        actions={
          <Button
            variant="outlined"
            startIcon={exporting === null ? <DownloadIcon /> : <CircularProgress size={16} />}
            disabled={exporting !== null || badFilters}
            onClick={() => void startExport()}
          >
            {exporting === null ? t('audit.export.button') : t('audit.export.progress', { count: exporting })}
          </Button>
        }
      />
      <Paper variant="outlined">
        <PhoneFilters id="event-log-filters" activeCount={activeFilters}>
          <Box role="search" sx={{ display: 'flex', flexWrap: 'wrap', gap: 2, p: 2, alignItems: 'flex-start' }}>
            <SearchField label={t('audit.filters.stream')} value={filters.stream} onSearch={(stream) => setFilters({ stream }, { replace: true })} error={Boolean(fieldErrors.stream)} />
            <Autocomplete
              multiple
              freeSolo
              options={typeOptions}
              value={filters.types}
              onChange={(_, value) => setFilters({ types: value.map((type) => type.trim()).filter(Boolean) })}
              sx={{ flex: '1 1 260px', maxWidth: 420 }}
              renderValue={(value, getItemProps) => value.map((option, index) => <Chip size="small" label={option} {...getItemProps({ index })} key={option} />)}
              renderInput={(input) => <TextField {...input} label={t('audit.filters.types')} error={Boolean(fieldErrors.types)} />}
            />
            <SearchField label={t('audit.filters.actor')} value={filters.actor} onSearch={(actor) => setFilters({ actor }, { replace: true })} error={Boolean(fieldErrors.actor)} />
            <SearchField label={t('audit.filters.correlation')} value={filters.correlation} onSearch={(correlation) => setFilters({ correlation }, { replace: true })} error={Boolean(fieldErrors.correlation)} />
            <Box sx={{ minWidth: 240 }}>
              <OrganizationPicker label={t('audit.filters.organization')} name="organization" value={filters.organization} onChange={(organization) => setFilters({ organization })} errors={fieldErrors.organization ? [fieldErrors.organization] : undefined} />
            </Box>
            <DateTimeField label={t('audit.filters.from')} name="from" value={toLocalInput(filters.from)} onChange={(value) => setFilters({ from: fromLocalInput(value) }, { replace: true })} error={Boolean(fieldErrors.from)} sx={{ width: 240 }} commitOnBlur />
            <DateTimeField label={t('audit.filters.to')} name="to" value={toLocalInput(filters.to)} onChange={(value) => setFilters({ to: fromLocalInput(value) }, { replace: true })} error={Boolean(fieldErrors.to)} sx={{ width: 240 }} commitOnBlur />
            {hasFilters && (
              <Button sx={{ alignSelf: 'center' }} onClick={() => setFilters({ stream: '', types: [], actor: '', correlation: '', organization: null, from: '', to: '' })}>
                {t('audit.filters.clear')}
              </Button>
            )}
          </Box>
          {!badFilters && (
            <Box sx={{ px: 2, pb: 1, mt: -1 }}>
              <Typography variant="caption" color="text.secondary" component="p">
                {t('audit.filters.help')}
              </Typography>
            </Box>
          )}
        </PhoneFilters>
        {/* what is wrong with a filter stays in sight on a phone too, where the filters may be folded away */}
        {badFilters && (
          <Box sx={{ px: 2, pb: 1, mt: { xs: 1, sm: -1 } }}>
            {Object.entries(fieldErrors).map(([filter, message]) => (
              <Typography key={filter} variant="caption" color="error" component="p">
                {t(`audit.filters.${filter}`)}: {message}
              </Typography>
            ))}
          </Box>
        )}
        <Box sx={{ height: 4 }}>{list.isFetching && <LinearProgress aria-label={t('common.loading')} />}</Box>
        {list.error && !badFilters ? (
          <ErrorState error={list.error} onRetry={() => void list.refetch()} />
        ) : badFilters ? (
          <Alert severity="warning" sx={{ m: 2 }}>
            {t('audit.badFilters')}
          </Alert>
        ) : (
          <TableContainer>
            {/* a phone: the screen's width shared out (an opened row's payload scrolls inside it instead of widening the table), narrower cells, the time on two lines */}
            <Table size="small" aria-label={t('audit.tableLabel')} sx={compact ? { tableLayout: 'fixed', '& .MuiTableCell-root:not(.MuiTableCell-paddingCheckbox)': { px: 1 } } : undefined}>
              {compact && (
                <colgroup>
                  <col style={{ width: 52 }} />
                  <col style={{ width: 96 }} />
                  <col />
                  <col style={{ width: '30%' }} />
                </colgroup>
              )}
              <TableHead>
                <TableRow>
                  <TableCell padding="checkbox">
                    <Box component="span" sx={visuallyHidden}>
                      {t('audit.columns.details')}
                    </Box>
                  </TableCell>
                  <TableCell title={browserTimeZone()}>{withZone(t('audit.columns.time'), zone)}</TableCell>
                  <TableCell>{t('audit.columns.type')}</TableCell>
                  {!compact && <TableCell>{t('audit.columns.stream')}</TableCell>}
                  <TableCell>{t('audit.columns.actor')}</TableCell>
                  {!compact && <TableCell>{t('audit.columns.sourceIp')}</TableCell>}
                  {!compact && <TableCell>{t('audit.columns.correlation')}</TableCell>}
                </TableRow>
              </TableHead>
              <TableBody>
                {rows?.map((event) => (
                  <EventRow
                    key={event.position}
                    event={event}
                    showZone={!zone}
                    expanded={expanded === event.position}
                    onToggle={() => setExpanded((current) => (current === event.position ? null : event.position))}
                    onFilter={(change) => setFilters(change)}
                    compact={compact}
                  />
                ))}
                {rows && rows.length === 0 && (
                  <TableRow>
                    <TableCell colSpan={columnCount}>
                      <Typography color="text.secondary" sx={{ py: 2, textAlign: 'center' }}>
                        {t('audit.empty')}
                      </Typography>
                    </TableCell>
                  </TableRow>
                )}
                {!rows && list.isLoading && (
                  <TableRow>
                    <TableCell colSpan={columnCount}>
                      <Typography color="text.secondary" sx={{ py: 2, textAlign: 'center' }}>
                        {t('common.loading')}
                      </Typography>
                    </TableCell>
                  </TableRow>
                )}
              </TableBody>
            </Table>
          </TableContainer>
        )}
        <Box component="nav" aria-label={t('audit.pagesLabel')} sx={{ display: 'flex', alignItems: 'center', justifyContent: 'flex-end', flexWrap: 'wrap', gap: 1, p: 1.5 }}>
          <Typography variant="body2" color="text.secondary" sx={{ mr: 'auto', pl: 1 }}>
            {rows && rows.length > 0 ? t('audit.pageInfo', { count: rows.length, newest: formatInstant(rows[0].recorded_at), oldest: formatInstant(rows[rows.length - 1].recorded_at) }) : ''}
          </Typography>
          <Button size="small" disabled={!before} onClick={newest}>
            {t('audit.newest')}
          </Button>
          <Button size="small" disabled={!before} onClick={newer}>
            {t('audit.newer')}
          </Button>
          <Button size="small" variant="outlined" disabled={!list.data?.next_before} onClick={older}>
            {t('audit.older')}
          </Button>
        </Box>
      </Paper>
      <Typography variant="caption" color="text.secondary" sx={{ display: 'block', mt: 1 }}>
        {t('audit.pageSizeNote', { size: PAGE_SIZE, max: AUDIT_EVENTS_LIMIT_MAX })}
      </Typography>
    </>
  );
}

/** a value that narrows the log to itself when clicked */
/** read by screen readers, not shown: the expand column's header (WCAG 1.3.1, an empty header names nothing) */
const visuallyHidden = { border: 0, clip: 'rect(0 0 0 0)', height: '1px', margin: '-1px', overflow: 'hidden', padding: 0, position: 'absolute', whiteSpace: 'nowrap', width: '1px' } as const;

/**
 * filters the log by a value; shows the name people know it by when there is one (the value itself then in the title).
 * `wrap`: 'nowrap' keeps it on one line, 'words' lets an event type break between its words (a phone; a word wider than its column still breaks), 'anywhere' lets an id break anywhere (a name breaks only between its words: 'Desk reade|r' read badly)
 */
function FilterLink({ value, name, label, onClick, wrap = 'anywhere' }: { value: string; name?: string | null; label: string; onClick: () => void; wrap?: 'nowrap' | 'words' | 'anywhere' }) {
  const text = name || value;
  return (
    <Link
      component="button"
      type="button"
      variant="body2"
      underline="hover"
      title={name ? `${label}: ${value}` : label}
      onClick={onClick}
      sx={{ fontFamily: name ? undefined : 'monospace', textAlign: 'left', ...(wrap === 'nowrap' ? { whiteSpace: 'nowrap' } : wrap === 'anywhere' && !name ? { wordBreak: 'break-all' } : { overflowWrap: 'anywhere' }) }}
    >
      {/* <wbr> between the words of 'AccountProfileUpdated': a break where it reads well, the text itself unchanged */}
      {wrap === 'words' ? text.split(/(?=[A-Z])/).map((word, index) => (index ? [<wbr key={index} />, word] : word)) : text}
    </Link>
  );
}

function EventRow({ event, showZone, expanded, onToggle, onFilter, compact }: { event: EventRowData; showZone: boolean; expanded: boolean; onToggle: () => void; onFilter: (change: Partial<AuditFilters>) => void; compact: boolean }) {
  const { t } = useTranslation();
  const detailsId = `event-${event.position}`;
  const filterBy = t('audit.filterBy');
  const stream = (
    <>
      <FilterLink value={event.stream_id} label={filterBy} onClick={() => onFilter({ stream: event.stream_id })} />
      {event.stream_name && (
        <Typography variant="caption" color="text.secondary" component="div">
          {event.stream_name}
        </Typography>
      )}
    </>
  );
  const sourceIp = event.source_ip ?? '—';
  const correlation = <FilterLink value={event.correlation_id} label={filterBy} onClick={() => onFilter({ correlation: event.correlation_id })} />;
  return (
    <Fragment>
      <TableRow hover selected={expanded} sx={{ '& > td': { borderBottom: expanded ? 'none' : undefined } }}>
        <TableCell padding="checkbox">
          <ExpandRowButton label={t('audit.expand')} expanded={expanded} controls={detailsId} onToggle={onToggle} />
        </TableCell>
        <TableCell sx={{ whiteSpace: compact ? undefined : 'nowrap' }} title={`${event.recorded_at} (${browserTimeZone()})`}>
          {formatInstant(event.recorded_at, { zone: showZone })}
        </TableCell>
        <TableCell>
          <FilterLink wrap={compact ? 'words' : 'nowrap'} value={event.type} label={filterBy} onClick={() => onFilter({ types: [event.type] })} />
        </TableCell>
        {!compact && <TableCell>{stream}</TableCell>}
        <TableCell>
          <Typography variant="caption" color="text.secondary" component="span" sx={{ mr: 0.5 }}>
            {t(`audit.actorKind.${event.actor_kind}`, { defaultValue: event.actor_kind })}
          </Typography>
          <FilterLink value={event.actor} name={event.actor_name} label={filterBy} onClick={() => onFilter({ actor: event.actor })} />
        </TableCell>
        {!compact && <TableCell sx={{ fontFamily: 'monospace' }}>{sourceIp}</TableCell>}
        {!compact && <TableCell>{correlation}</TableCell>}
      </TableRow>
      {expanded && (
        <TableRow>
          <TableCell colSpan={compact ? 4 : 7}>
            <Box id={detailsId} sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', md: '1fr 1fr' }, gap: 2, py: 1 }}>
              <Typography variant="body2" color="text.secondary" sx={{ gridColumn: '1 / -1' }}>
                {t('audit.details', { position: event.position, version: event.stream_version, eventId: event.event_id })}
              </Typography>
              {compact && (
                <Box component="dl" sx={{ m: 0, display: 'grid', gridTemplateColumns: 'auto 1fr', columnGap: 1.5, rowGap: 0.5, '& dt': { color: 'text.secondary', typography: 'body2' }, '& dd': { m: 0, minWidth: 0 } }}>
                  <dt>{t('audit.columns.stream')}</dt>
                  <dd>{stream}</dd>
                  <dt>{t('audit.columns.sourceIp')}</dt>
                  <Box component="dd" sx={{ fontFamily: 'monospace' }}>
                    {sourceIp}
                  </Box>
                  <dt>{t('audit.columns.correlation')}</dt>
                  <dd>{correlation}</dd>
                </Box>
              )}
              <JsonBlock title={t('audit.payload')} value={event.data} />
              <JsonBlock title={t('audit.metadata')} value={event.metadata} />
            </Box>
          </TableCell>
        </TableRow>
      )}
    </Fragment>
  );
}

function JsonBlock({ title, value }: { title: string; value: unknown }) {
  return (
    <Box sx={{ minWidth: 0 }}>
      <Typography variant="subtitle2" component="h3" gutterBottom>
        {title}
      </Typography>
      <Box component="pre" sx={{ m: 0, p: 1.5, bgcolor: 'action.hover', borderRadius: 1, overflow: 'auto', maxHeight: 400, fontSize: 12 }}>
        {JSON.stringify(value, null, 2)}
      </Box>
    </Box>
  );
}

import { useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import Link from '@mui/material/Link';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router-dom';
import type { TFieldChange, THistoryKind, TTimeTravelKind } from '@rollcall/contracts';
import { ExpandRowButton } from '../data-table';
import { DateTimeField } from '../DateTimeField';
import { ErrorState } from '../ErrorState';
import { browserLocalInstant, browserTimeZone, formatInstant, withZone, zoneLabel } from '../../lib/zone-label';
import { ZonedDateTime } from '../ZonedTime';
import { trpc } from '../../trpc';
import { toAuditEvents } from '../../paths';
import { positionJustBefore, toLocalSecondsInput } from './history-moments';
import { fieldLabel, fieldValue, historySentence, type HistoryContext } from './history-words';

const PAGE_SIZE = 20;

type Moment = { at: string } | { position: string; label: string };

/**
 * An entity's history: its events newest first, each in plain words with the fields it
 * changed; 'Load older' pages back. For accounts and organizations, time travel shows the entity as
 * it was at a chosen moment or just before an event, folded from its stream on the server.
 */
export function EntityHistoryPanel({ kind, id, headingless = false }: { kind: THistoryKind; id: string; headingless?: boolean }) {
  const { t } = useTranslation();
  const [cursors, setCursors] = useState<Array<string | undefined>>([undefined]);
  const [moment, setMoment] = useState<Moment | null>(null);
  const travels = kind === 'account' || kind === 'organization';
  return (
    <Box>
      {headingless ? null : (
        <Typography variant="h6" component="h2" gutterBottom>
          {t('history.heading')}
        </Typography>
      )}
      {travels ? <TimeTravel kind={kind} id={id} moment={moment} onMoment={setMoment} /> : null}
      <List aria-label={t('history.listLabel')} sx={{ p: 0 }}>
        {cursors.map((before, index) => (
          <HistoryPage
            key={before ?? 'newest'}
            kind={kind}
            id={id}
            before={before}
            isLast={index === cursors.length - 1}
            onOlder={(next) => setCursors((current) => [...current, next])}
            onTravel={travels ? (position, label) => setMoment({ position, label }) : undefined}
          />
        ))}
      </List>
    </Box>
  );
}

function HistoryPage({ kind, id, before, isLast, onOlder, onTravel }: { kind: THistoryKind; id: string; before: string | undefined; isLast: boolean; onOlder: (before: string) => void; onTravel?: (position: string, label: string) => void }) {
  const { t, i18n } = useTranslation();
  const page = trpc.audit.history.useQuery({ kind, id, before, limit: PAGE_SIZE });
  const [expanded, setExpanded] = useState<string | null>(null);
  if (page.isPending) return <CircularProgress size={24} sx={{ m: 2 }} aria-label={t('history.loading')} />;
  if (page.isError) return <ErrorState error={page.error} onRetry={() => void page.refetch()} />;
  if (page.data.data.length === 0 && !before) return <Typography color="text.secondary">{t('history.empty')}</Typography>;
  const context: HistoryContext = { names: page.data.names ?? {}, timeZone: page.data.time_zone ?? 'UTC', language: i18n.resolvedLanguage ?? 'en' };
  return (
    <>
      {page.data.data.map((entry) => {
        const open = expanded === entry.position;
        const sentence = historySentence(entry, context, t);
        const detailsId = `history-${entry.position}`;
        return (
          <ListItem key={entry.position} divider disableGutters sx={{ display: 'block', py: 1.5 }} data-testid="history-entry">
            <Stack direction="row" spacing={1} sx={{ alignItems: 'flex-start' }}>
              <ExpandRowButton label={t('history.showChanges')} expanded={open} controls={detailsId} onToggle={() => setExpanded(open ? null : entry.position)} />
              <Box sx={{ flex: 1, minWidth: 0 }}>
                <Typography variant="body1">{sentence}</Typography>
                <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap', rowGap: 0.5, mt: 0.5 }}>
                  <Typography component="span" variant="body2" color="text.secondary">
                    <ZonedDateTime at={entry.recorded_at} />
                  </Typography>
                  <Chip size="small" variant="outlined" label={entry.type} />
                  {entry.changes.length ? (
                    <Typography variant="body2" color="text.secondary">
                      {t('history.changedFields', { count: entry.changes.length })}
                    </Typography>
                  ) : null}
                </Stack>
              </Box>
            </Stack>
            {open ? (
              <Box id={detailsId} sx={{ pl: 6, pt: 1 }}>
                <ChangesTable changes={entry.changes} />
                <Stack direction="row" spacing={2} sx={{ mt: 1 }}>
                  <Link component={RouterLink} to={`${toAuditEvents({ stream: entry.stream_id })}&before=${positionJustAfter(entry.position)}`} variant="body2">
                    {t('history.openInLog')}
                  </Link>
                  {onTravel ? (
                    <Link component="button" type="button" variant="body2" onClick={() => onTravel(positionJustBefore(entry.position), t('history.beforeEvent', { summary: sentence, interpolation: { escapeValue: false } }))}>
                      {t('history.showBefore')}
                    </Link>
                  ) : null}
                </Stack>
              </Box>
            ) : null}
          </ListItem>
        );
      })}
      {isLast && page.data.next_before ? (
        <Button sx={{ mt: 1 }} onClick={() => onOlder(page.data.next_before as string)}>
          {t('history.older')}
        </Button>
      ) : null}
    </>
  );
}

/** the log's page that starts with this event: everything strictly older than the next position */
const positionJustAfter = (position: string): string => {
  const [commit, sequence] = position.split('.');
  return `${commit}.${Number(sequence) + 1}`;
};

function ChangesTable({ changes }: { changes: TFieldChange[] }) {
  const { t } = useTranslation();
  if (changes.length === 0) return <Typography variant="body2" color="text.secondary">{t('history.noChanges')}</Typography>;
  return (
    <Table size="small" aria-label={t('history.changesLabel')}>
      <TableHead>
        <TableRow>
          <TableCell>{t('history.field')}</TableCell>
          <TableCell>{t('history.before')}</TableCell>
          <TableCell>{t('history.after')}</TableCell>
        </TableRow>
      </TableHead>
      <TableBody>
        {changes.map((change) => (
          <TableRow key={change.field}>
            <TableCell sx={{ fontWeight: 500 }}>{fieldLabel(change.field, t)}</TableCell>
            <TableCell sx={{ color: 'error.main', textDecoration: change.before === null ? 'none' : 'line-through', wordBreak: 'break-word' }}>{fieldValue(change.field, change.before, t)}</TableCell>
            <TableCell sx={{ color: 'success.main', wordBreak: 'break-word' }}>{fieldValue(change.field, change.after, t)}</TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

function TimeTravel({ kind, id, moment, onMoment }: { kind: TTimeTravelKind; id: string; moment: Moment | null; onMoment: (moment: Moment | null) => void }) {
  const { t } = useTranslation();
  const [input, setInput] = useState(() => toLocalSecondsInput(new Date().toISOString()));
  const asOf = trpc.audit.asOf.useQuery(moment ? { kind, id, ...('at' in moment ? { at: moment.at } : { position: moment.position }) } : { kind, id, at: '' }, { enabled: moment !== null });
  const show = () => {
    const date = new Date(input);
    if (!Number.isNaN(date.getTime())) onMoment({ at: date.toISOString() });
  };
  return (
    <Paper variant="outlined" sx={{ p: 2, mb: 2 }}>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ alignItems: { sm: 'center' } }}>
        {/* the browser's wall clock: its zone's offset at the time typed names it */}
        <DateTimeField label={withZone(t('history.travelTo'), zoneLabel(browserTimeZone(), browserLocalInstant(input)))} name="at" value={input} onChange={setInput} withSeconds />
        <Button variant="contained" onClick={show} disabled={!input}>
          {t('history.showAsItWas')}
        </Button>
        {moment ? <Button onClick={() => onMoment(null)}>{t('history.closeTravel')}</Button> : null}
      </Stack>
      {moment ? (
        <Box sx={{ mt: 2 }} data-testid="time-travel">
          <Typography variant="subtitle1" component="h3" gutterBottom>
            {'at' in moment ? t('history.asOfTime', { time: formatInstant(moment.at, { seconds: true }) }) : moment.label}
          </Typography>
          {asOf.isPending ? <CircularProgress size={24} aria-label={t('history.loading')} /> : null}
          {asOf.isError ? <ErrorState error={asOf.error} onRetry={() => void asOf.refetch()} /> : null}
          {asOf.data && !asOf.data.existed ? <Alert severity="info">{asOf.data.status === 'deleted' ? t('history.deletedThen') : t('history.notYet')}</Alert> : null}
          {asOf.data?.existed ? (
            <>
              <Typography variant="body2" color="text.secondary" gutterBottom>
                {t('history.asOfVersion', { version: asOf.data.version, time: formatInstant(asOf.data.recorded_at) })}
              </Typography>
              <Table size="small" aria-label={t('history.stateLabel')}>
                <TableBody>
                  {asOf.data.fields.map((field) => (
                    <TableRow key={field.field}>
                      <TableCell component="th" scope="row" sx={{ fontWeight: 500, width: '35%' }}>
                        {fieldLabel(field.field, t)}
                      </TableCell>
                      <TableCell sx={{ wordBreak: 'break-word' }}>{fieldValue(field.field, field.value, t)}</TableCell>
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
            </>
          ) : null}
        </Box>
      ) : null}
    </Paper>
  );
}

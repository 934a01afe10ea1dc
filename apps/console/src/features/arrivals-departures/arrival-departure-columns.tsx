import { useEffect, useMemo, useState } from 'react';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import Link from '@mui/material/Link';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import EditIcon from '@mui/icons-material/Edit';
import EditNoteIcon from '@mui/icons-material/EditNote';
import type { ColumnDef } from '@tanstack/react-table';
import { Link as RouterLink } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import type { TArrivalDeparture } from '@rollcall/contracts';
import { formatDate } from '../../lib/format-date';
import { browserTimeZone, zonedTime } from '../../lib/zone-label';
import { toAccount } from '../../paths';
import { formatDuration } from '../../lib/slot-times';
import { ZonedTime } from '../../components/ZonedTime';

/** the zone the server drew the slot's day in; a row pushed live before it was fetched again has none yet */
const zoneOf = (row: TArrivalDeparture) => row.time_zone ?? browserTimeZone();

/** an instant of the row in its zone, labelled, as text (exports and titles) */
const inZone = (at: string, row: TArrivalDeparture) => (({ date, time, zone }) => `${date} ${time} ${zone}`)(zonedTime(at, zoneOf(row)));

/**
 * `stacked` (a phone): the zone label under the time, so the column is no wider than its header and
 * 'Departed' ends inside the screen (its label was cut at the right edge)
 */
function Place({ at, door, reader, timeZone, stacked }: { at: string | null; door: string | null; reader: string | null; timeZone: string; stacked: boolean }) {
  const { t } = useTranslation();
  if (!at) return <Typography component="span" variant="body2" color="text.secondary">{t('arrivalsDepartures.stillIn')}</Typography>;
  return (
    <>
      {stacked ? (
        <Box component="span" sx={{ display: 'block', '& > span, & > span > span': { display: 'block', width: 'fit-content' } }}>
          <ZonedTime at={at} timeZone={timeZone} />
        </Box>
      ) : (
        <ZonedTime at={at} timeZone={timeZone} />
      )}
      <Typography variant="body2" color="text.secondary">
        {[door, reader].filter(Boolean).join(' · ')}
      </Typography>
    </>
  );
}

/** an open slot's time so far, counting as it is watched (Odoo's 'worked hours' of a checked-in employee) */
function RunningTime({ since }: { since: string }) {
  const { t } = useTranslation();
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = window.setInterval(() => setNow(Date.now()), 1000);
    return () => window.clearInterval(timer);
  }, []);
  return (
    <Typography component="span" variant="body2" sx={{ fontVariantNumeric: 'tabular-nums' }} title={t('arrivalsDepartures.runningTitle')}>
      {formatDuration((now - Date.parse(since)) / 1000)}{' '}
      <Typography component="span" variant="caption" color="text.secondary">
        {t('arrivalsDepartures.running')}
      </Typography>
    </Typography>
  );
}

/** Column ids of sortable columns are the server's sortBy values (arrived_at, departed_at, account). */
/**
 * `compact` (a phone): who, in and out come first, so the first screen shows them without scrolling
 * sideways; the day, flags and actions follow.
 */
export function useArrivalDepartureColumns({ onEdit, isNew, compact = false }: { onEdit: ((row: TArrivalDeparture) => void) | null; isNew: (row: TArrivalDeparture) => boolean; compact?: boolean }): ColumnDef<TArrivalDeparture>[] {
  const { t } = useTranslation();
  return useMemo<ColumnDef<TArrivalDeparture>[]>(() => {
    const columns: ColumnDef<TArrivalDeparture>[] = [
      {
        id: 'account',
        accessorFn: (row) => row.account_name,
        header: t('arrivalsDepartures.columns.account'),
        cell: ({ row }) => (
          <>
            <Link component={RouterLink} to={toAccount(row.original.account_id)} sx={{ fontWeight: 500 }}>
              {row.original.account_name || row.original.username_readable}
            </Link>
            <Typography variant="body2" color="text.secondary">
              {row.original.username_readable}
            </Typography>
          </>
        ),
      },
      { id: 'day', header: t('arrivalsDepartures.columns.day'), enableSorting: false, cell: ({ row }) => formatDate(row.original.day) },
      {
        accessorKey: 'arrived_at',
        header: t('arrivalsDepartures.columns.arrived'),
        cell: ({ row }) => <Place at={row.original.arrived_at} door={row.original.arrival?.door ?? null} reader={row.original.arrival?.reader_name ?? null} timeZone={zoneOf(row.original)} stacked={compact} />,
      },
      {
        accessorKey: 'departed_at',
        header: t('arrivalsDepartures.columns.departed'),
        cell: ({ row }) => <Place at={row.original.departed_at} door={row.original.departure?.door ?? null} reader={row.original.departure?.reader_name ?? null} timeZone={zoneOf(row.original)} stacked={compact} />,
      },
      {
        id: 'total',
        header: t('arrivalsDepartures.columns.total'),
        enableSorting: false,
        cell: ({ row }) =>
          row.original.departed_at ? formatDuration((Date.parse(row.original.departed_at) - Date.parse(row.original.arrived_at)) / 1000) : <RunningTime since={row.original.arrived_at} />,
      },
      {
        id: 'flags',
        header: t('arrivalsDepartures.columns.flags'),
        enableSorting: false,
        cell: ({ row }) => {
          const { corrections, flags, manual } = row.original;
          const last = corrections[corrections.length - 1];
          return (
            <Box sx={{ display: 'flex', gap: 0.5, flexWrap: 'wrap' }}>
              {isNew(row.original) && <Chip size="small" color="success" label={t('arrivalsDepartures.new')} data-new-row />}
              {row.original.corrected && (
                <Tooltip
                  title={
                    last
                      ? t('arrivalsDepartures.correctedTooltip', {
                          arrived: inZone(corrections[0].previous.arrived_at, row.original),
                          departed: corrections[0].previous.departed_at ? inZone(corrections[0].previous.departed_at, row.original) : t('arrivalsDepartures.noData'),
                          reason: last.reason,
                          by: last.corrected_by_name ?? last.corrected_by,
                        })
                      : ''
                  }
                >
                  {/* info.dark: white on the theme's info blue reads at 3.85:1, below WCAG AA's 4.5:1 for small text */}
                  <Chip size="small" label={t('arrivalsDepartures.corrected')} sx={{ bgcolor: 'info.dark', color: 'common.white' }} />
                </Tooltip>
              )}
              {manual && (
                <Tooltip title={t('arrivalsDepartures.manualTooltip', { by: manual.recorded_by_name ?? manual.recorded_by, at: inZone(manual.recorded_at, row.original), reason: manual.reason })}>
                  <Chip size="small" variant="outlined" icon={<EditNoteIcon />} label={t('arrivalsDepartures.manual')} data-manual-reason={manual.reason} />
                </Tooltip>
              )}
              {manual && (
                <Typography variant="caption" color="text.secondary" sx={{ flexBasis: '100%' }}>
                  {manual.reason}
                </Typography>
              )}
              {flags
                .filter((flag) => flag !== 'manual')
                .map((flag) => (
                  <Chip key={flag} size="small" color="warning" variant="outlined" label={t(`arrivalsDepartures.flags.${flag}`, { defaultValue: flag })} />
                ))}
            </Box>
          );
        },
      },
      {
        id: 'actions',
        header: t('arrivalsDepartures.columns.actions'),
        enableSorting: false,
        cell: ({ row }) =>
          onEdit ? (
            <IconButton size="small" aria-label={t('arrivalsDepartures.edit', { name: row.original.account_name })} onClick={() => onEdit(row.original)}>
              <EditIcon fontSize="small" />
            </IconButton>
          ) : null,
      },
    ];
    if (!compact) return columns;
    const first = ['account', 'arrived_at', 'departed_at', 'total'];
    const idOf = (column: ColumnDef<TArrivalDeparture>) => column.id ?? (column as { accessorKey?: string }).accessorKey ?? '';
    return [...first.flatMap((id) => columns.filter((column) => idOf(column) === id)), ...columns.filter((column) => !first.includes(idOf(column)))];
  }, [t, onEdit, isNew, compact]);
}

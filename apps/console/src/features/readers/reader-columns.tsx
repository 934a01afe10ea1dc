import { useMemo } from 'react';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Typography from '@mui/material/Typography';
import type { ColumnDef } from '@tanstack/react-table';
import { useTranslation } from 'react-i18next';
import type { TReader, TReaderConnection } from '@rollcall/contracts';
import { EntityId } from '../../components/EntityId';
import { RowActionsMenu } from '../../components/RowActionsMenu';
import { formatInstant } from '../../lib/zone-label';
import { ZonedDateTime } from '../../components/ZonedTime';

export interface ReaderRowActions {
  onIssueToken: (reader: TReader) => void;
  onRevokeToken: (reader: TReader) => void;
  onEdit: (reader: TReader) => void;
  onDelete: (reader: TReader) => void;
  /** given to who may read the audit trail: the reader's history */
  onShowHistory?: (reader: TReader) => void;
}

/** tints behind dark text: MUI's warning and info colours as text on white do not reach a readable contrast */
const TONES = {
  good: { bgcolor: '#d1e7dd', color: '#0f5132' },
  warn: { bgcolor: '#fff3cd', color: '#664d03' },
  bad: { bgcolor: '#f8d7da', color: '#842029' },
  info: { bgcolor: '#cff4fc', color: '#055160' },
  none: {},
} as const;
/** below this an agent's clock is as good as ours for a glance (the server judges each scan itself) */
const NOTABLE_SKEW_MS = 60_000;
/** '3 h 2 min', '5 min', '40 s': enough to see how far off a clock is */
export function roughDuration(ms: number): string {
  const seconds = Math.round(ms / 1000);
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min`;
  return `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

const CONNECTION_TONES: Record<TReaderConnection, keyof typeof TONES> = { online: 'good', late: 'warn', offline: 'bad', never: 'none' };

/** Name (and token prefix), Door, Role, Connection, Last contact, Queue, Register mode, Actions. */
export function useReaderColumns(actions: ReaderRowActions, mayManage: boolean): ColumnDef<TReader>[] {
  const { t } = useTranslation();
  const { onIssueToken, onRevokeToken, onEdit, onDelete, onShowHistory } = actions;
  return useMemo<ColumnDef<TReader>[]>(
    () => [
      {
        id: 'name',
        accessorKey: 'name',
        header: t('readers.columns.name'),
        // the id (the agent's ROLLCALL_AGENT_READER_ID) and the token go under the name, the token by its
        // prefix only: the token itself is shown once, when issued
        cell: ({ row }) => (
          <Box sx={{ display: 'grid', justifyItems: 'start' }}>
            <Typography component="span" variant="body2" sx={{ fontWeight: 500, whiteSpace: 'nowrap' }}>
              {row.original.name}
            </Typography>
            <EntityId id={row.original.id} variant="caption" />
            {row.original.token_prefix ? (
              <Typography component="code" variant="caption" color="text.secondary" sx={{ fontFamily: 'monospace', whiteSpace: 'nowrap' }} title={t('readers.columns.token')}>
                {row.original.token_prefix}
              </Typography>
            ) : (
              <Typography component="span" variant="caption" color="text.secondary">
                {t('readers.noToken')}
              </Typography>
            )}
          </Box>
        ),
      },
      { id: 'door', accessorKey: 'door', header: t('readers.columns.door') },
      { id: 'role', accessorKey: 'role', header: t('readers.columns.role'), enableSorting: false, cell: ({ row }) => t(`readers.role.${row.original.role}`) },
      {
        id: 'connection',
        accessorKey: 'connection',
        header: t('readers.columns.connection'),
        enableSorting: false,
        cell: ({ row }) => <Chip size="small" sx={TONES[CONNECTION_TONES[row.original.connection]]} label={t(`readers.connection.${row.original.connection}`)} />,
      },
      {
        id: 'last_contact_at',
        accessorKey: 'last_contact_at',
        header: t('readers.columns.lastContact'),
        cell: ({ row }) => (
          <Box component="span" sx={{ whiteSpace: 'nowrap' }}>
            <ZonedDateTime at={row.original.last_contact_at} fallback={t('readers.never')} />
            {/* the agent's clock as its last report showed it, when it is off by a minute or more */}
            {row.original.clock_skew_ms !== null && Math.abs(row.original.clock_skew_ms) >= NOTABLE_SKEW_MS ? (
              <Chip size="small" sx={{ ...TONES.warn, ml: 1 }} label={t(row.original.clock_skew_ms > 0 ? 'readers.clockBehind' : 'readers.clockAhead', { amount: roughDuration(Math.abs(row.original.clock_skew_ms)) })} />
            ) : null}
          </Box>
        ),
      },
      {
        id: 'queue_depth',
        accessorKey: 'queue_depth',
        header: t('readers.columns.queue'),
        enableSorting: false,
        cell: ({ row }) => (
          <Box component="span" sx={{ display: 'inline-flex', gap: 1, alignItems: 'center' }}>
            {row.original.queue_depth ?? '–'}
            {row.original.backlog ? <Chip size="small" sx={TONES.warn} label={t('readers.backlog')} /> : null}
            {row.original.intake && row.original.intake.state !== 'ok' ? (
              <Chip
                size="small"
                sx={TONES.bad}
                label={t(row.original.intake.state === 'gave_up' ? 'readers.intakeGaveUp' : 'readers.intakeFailed')}
                title={t('readers.intakeSince', { time: row.original.intake.since ? formatInstant(row.original.intake.since) : '–', error: row.original.intake.error ?? '–' })}
              />
            ) : null}
            {row.original.dead_letters ? (
              <Chip
                size="small"
                sx={TONES.warn}
                label={t('readers.deadLetters', { count: row.original.dead_letters })}
                title={
                  row.original.last_dead_letter
                    ? t('readers.lastDeadLetter', {
                        card: row.original.last_dead_letter.card_uid,
                        time: formatInstant(row.original.last_dead_letter.refused_at),
                        code: row.original.last_dead_letter.code,
                        message: row.original.last_dead_letter.message,
                      })
                    : undefined
                }
              />
            ) : null}
            {row.original.oldest_queued_at && row.original.queue_depth ? (
              <Box component="span" sx={{ color: 'text.secondary', whiteSpace: 'nowrap' }}>
                {t('readers.oldestQueued', { time: formatInstant(row.original.oldest_queued_at) })}
              </Box>
            ) : null}
          </Box>
        ),
      },
      {
        id: 'register_mode',
        accessorKey: 'register_mode',
        header: t('readers.columns.registerMode'),
        enableSorting: false,
        cell: ({ row }) =>
          row.original.register_mode ? (
            <Chip size="small" sx={TONES.info} label={t('readers.armedUntil', { time: formatInstant(row.original.register_mode.expires_at) })} />
          ) : row.original.role === 'enrollment' ? (
            t('readers.notArmed')
          ) : (
            '–'
          ),
      },
      {
        id: 'actions',
        header: t('readers.columns.actions'),
        enableSorting: false,
        cell: ({ row }) =>
          mayManage || onShowHistory ? (
            <RowActionsMenu
              label={t('readers.actionsFor', { name: row.original.name })}
              actions={[
                ...(mayManage
                  ? [
                      { label: row.original.token_prefix ? t('readers.issueNewToken') : t('readers.issueToken'), onSelect: () => onIssueToken(row.original), changes: true },
                      ...(row.original.token_prefix ? [{ label: t('readers.revokeToken'), onSelect: () => onRevokeToken(row.original), changes: true }] : []),
                      { label: t('readers.edit'), onSelect: () => onEdit(row.original), changes: true },
                    ]
                  : []),
                ...(onShowHistory ? [{ label: t('history.menu'), onSelect: () => onShowHistory(row.original) }] : []),
                ...(mayManage ? [{ label: t('common.delete'), onSelect: () => onDelete(row.original), changes: true }] : []),
              ]}
            />
          ) : null,
      },
    ],
    [t, onIssueToken, onRevokeToken, onEdit, onDelete, onShowHistory, mayManage],
  );
}

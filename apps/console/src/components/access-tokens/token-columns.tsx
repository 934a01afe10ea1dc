import { useMemo } from 'react';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import type { ColumnDef } from '@tanstack/react-table';
import { useTranslation } from 'react-i18next';
import { EntityId } from '../EntityId';
import { RowActionsMenu } from '../RowActionsMenu';
import { Link as RouterLink } from 'react-router-dom';
import type { TAccessToken } from '@rollcall/contracts';
import { ZonedDateTime } from '../ZonedTime';
import { toAccount } from '../../paths';

export interface TokenRowActions {
  onEdit: (token: TAccessToken) => void;
  onDelete: (token: TAccessToken) => void;
}

/** Spec: the token string is shown as code, in lines of at most 100 characters. */
export const TOKEN_LINE_LENGTH = 100;

/**
 * 'never' in the colour the spec gives it, green for an expiry and yellow for a last use, as a tint
 * behind dark text: yellow text itself cannot reach a readable contrast on white.
 */
const NEVER_TONES = {
  success: { bgcolor: '#d1e7dd', color: '#0f5132' },
  warning: { bgcolor: '#fff3cd', color: '#664d03' },
} as const;

function Never({ tone }: { tone: keyof typeof NEVER_TONES }) {
  const { t } = useTranslation();
  return (
    <Typography component="span" variant="body2" sx={{ ...NEVER_TONES[tone], fontWeight: 500, px: 1, py: 0.25, borderRadius: 1 }}>
      {t('accessTokens.never')}
    </Typography>
  );
}

/** ID, Token, Title, (Account,) Created, Expires, Last used, Actions. */
export function useTokenColumns(actions: TokenRowActions, showAccount: boolean): ColumnDef<TAccessToken>[] {
  const { t } = useTranslation();
  const { onEdit, onDelete } = actions;
  return useMemo<ColumnDef<TAccessToken>[]>(
    () => [
      { accessorKey: 'id', header: t('accessTokens.columns.id'), enableSorting: false, cell: ({ row }) => <EntityId id={row.original.id} variant="caption" /> },
      {
        accessorKey: 'unique_id',
        header: t('accessTokens.columns.token'),
        enableSorting: false,
        cell: ({ row }) => (
          <Box component="code" sx={{ fontFamily: 'monospace', fontSize: 13, whiteSpace: 'pre-wrap', wordBreak: 'break-all', display: 'inline-block', maxWidth: `${TOKEN_LINE_LENGTH}ch` }}>
            {row.original.unique_id}
          </Box>
        ),
      },
      { id: 'token_title', accessorKey: 'token_title', header: t('accessTokens.columns.title'), cell: ({ row }) => <Typography component="span" variant="body2" sx={{ fontWeight: 500 }}>{row.original.token_title}</Typography> },
      ...(showAccount
        ? [
            {
              accessorKey: 'account_username',
              header: t('accessTokens.columns.account'),
              enableSorting: false,
              cell: ({ row }) => <RouterLink to={toAccount(row.original.account_id)}>{row.original.account_username ?? row.original.account_id}</RouterLink>,
            } satisfies ColumnDef<TAccessToken>,
          ]
        : []),
      { id: 'created_at', accessorKey: 'created_at', header: t('accessTokens.columns.created'), cell: ({ row }) => <ZonedDateTime at={row.original.created_at} /> },
      { id: 'expires_at', accessorKey: 'expires_at', header: t('accessTokens.columns.expires'), cell: ({ row }) => (row.original.expires_at ? <ZonedDateTime at={row.original.expires_at} /> : <Never tone="success" />) },
      { id: 'last_used_at', accessorKey: 'last_used_at', header: t('accessTokens.columns.lastUsed'), cell: ({ row }) => (row.original.last_used_at ? <ZonedDateTime at={row.original.last_used_at} /> : <Never tone="warning" />) },
      { id: 'actions', header: t('accessTokens.columns.actions'), enableSorting: false, cell: ({ row }) => <RowMenu token={row.original} onEdit={onEdit} onDelete={onDelete} /> },
    ],
    [t, onEdit, onDelete, showAccount],
  );
}

function RowMenu({ token, onEdit, onDelete }: { token: TAccessToken } & TokenRowActions) {
  const { t } = useTranslation();
  return (
    <RowActionsMenu
      label={t('accessTokens.actionsFor', { title: token.token_title })}
      actions={[
        { label: t('common.edit'), onSelect: () => onEdit(token) },
        { label: t('common.delete'), onSelect: () => onDelete(token) },
      ]}
    />
  );
}

import { useMemo } from 'react';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import type { ColumnDef } from '@tanstack/react-table';
import { Link as RouterLink } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { RowActionsMenu } from '../RowActionsMenu';
import { DateTimeCell, ShortId } from '../data-table/cells';
import { toOrganization, toTeam } from '../../paths';
import { TeamTitleCell } from './TeamTitleCell';
import type { TeamOption, TeamRow } from './types';

interface TeamColumnsOptions {
  /** /teams shows each team's organization; an organization's Teams tab does not */
  withOrganization: boolean;
  onShowMembers: (team: TeamOption) => void;
  onDelete: (team: TeamOption) => void;
  /** given to who may read the audit trail: the team's history */
  onShowHistory?: (team: TeamOption) => void;
}

/** ID, Title (to the details, inline edit), [Organization], Members, Created at, Actions (Details, Associated accounts, [History], Delete). */
export function useTeamColumns({ withOrganization, onShowMembers, onDelete, onShowHistory }: TeamColumnsOptions): ColumnDef<TeamRow>[] {
  const { t } = useTranslation();
  return useMemo<ColumnDef<TeamRow>[]>(() => {
    const columns: ColumnDef<TeamRow>[] = [
      { accessorKey: 'id', header: t('teams.columns.id'), enableSorting: false, cell: ({ row }) => <ShortId id={row.original.id} /> },
      { accessorKey: 'title', header: t('teams.columns.title'), cell: ({ row }) => <TeamTitleCell teamId={row.original.id} title={row.original.title} to={toTeam(row.original.id)} /> },
    ];
    if (withOrganization) {
      columns.push({
        accessorKey: 'organization_title',
        header: t('teams.columns.organization'),
        enableSorting: false,
        cell: ({ row }) =>
          row.original.organization && row.original.organization_title ? (
            <Link component={RouterLink} to={toOrganization(row.original.organization)}>
              {row.original.organization_title}
            </Link>
          ) : (
            <Typography component="span" variant="body2" color="text.secondary">
              {row.original.interorg ? t('teams.multiOrganization') : t('teams.noOrganization')}
            </Typography>
          ),
      });
    }
    columns.push(
      { accessorKey: 'num_members', header: t('teams.columns.members'), enableSorting: false, cell: ({ row }) => row.original.num_members },
      { accessorKey: 'created_at', header: t('teams.columns.createdAt'), cell: ({ row }) => <DateTimeCell value={row.original.created_at} /> },
      {
        id: 'actions',
        header: t('teams.columns.actions'),
        enableSorting: false,
        cell: ({ row }) => {
          const team = { id: row.original.id, title: row.original.title };
          return (
            <RowActionsMenu
              label={t('teams.actionsFor', { title: row.original.title })}
              actions={[
                { label: t('teams.menu.details'), to: toTeam(row.original.id) },
                { label: t('teams.menu.members'), onSelect: () => onShowMembers(team) },
                ...(onShowHistory ? [{ label: t('history.menu'), onSelect: () => onShowHistory(team) }] : []),
                { label: t('teams.menu.delete'), changes: true, disabled: row.original.protected, hint: t('teams.protected'), onSelect: () => onDelete(team) },
              ]}
            />
          );
        },
      },
    );
    return columns;
  }, [t, withOrganization, onShowMembers, onDelete, onShowHistory]);
}

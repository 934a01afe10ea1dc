import { useCallback, useEffect, useState, type ReactNode } from 'react';
import { keepPreviousData } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { PAGE_SIZE_OPTIONS, type TListTeamsInput } from '@rollcall/contracts';
import { ConfirmDialog } from '../ConfirmDialog';
import { useConfirmation } from '../use-confirmation';
import { DataTable, pageQueryProps, type ServerSort } from '../data-table';
import { useGrants } from '../../auth/use-grants';
import { trpc } from '../../trpc';
import { EntityHistoryDialog } from '../history/EntityHistoryDialog';
import { TeamAccountsDialog } from './TeamAccountsDialog';
import { useTeamColumns } from './team-columns';
import type { TeamOption } from './types';

interface TeamsTableProps {
  label: string;
  input: TListTeamsInput & { page: number; limit: number };
  withOrganization: boolean;
  onPageChange: (page: number) => void;
  onPageSizeChange: (size: number) => void;
  sort?: ServerSort;
  onSortChange?: (sort: ServerSort) => void;
  emptyText: string;
  toolbar?: ReactNode;
}

/**
 * The one teams table (/teams and an organization's Teams tab): server-paged, 10 per page (10, 20,
 * 30), inline title edit, row menu 'Associated accounts', 'History' and 'Delete' (disabled when
 * protected, after a confirmation).
 */
export function TeamsTable({ label, input, withOrganization, onPageChange, onPageSizeChange, sort, onSortChange, emptyText, toolbar }: TeamsTableProps) {
  const { t } = useTranslation();
  const utils = trpc.useUtils();
  const list = trpc.teams.list.useQuery(input, { placeholderData: keepPreviousData });
  const remove = trpc.teams.delete.useMutation();
  const [showing, setShowing] = useState<TeamOption | null>(null);
  const [showingOpen, setShowingOpen] = useState(false);
  const showMembers = useCallback((team: TeamOption) => {
    setShowing(team);
    setShowingOpen(true);
  }, []);
  const confirmation = useConfirmation<TeamOption>();
  const askToConfirm = confirmation.ask;
  const askDelete = useCallback((team: TeamOption) => {
    askToConfirm(team);
  }, [askToConfirm, ]);
  const [historyOf, setHistoryOf] = useState<TeamOption | null>(null);
  const mayReadHistory = useGrants().may('audit:read');
  const columns = useTeamColumns({ withOrganization, onShowMembers: showMembers, onDelete: askDelete, onShowHistory: mayReadHistory ? setHistoryOf : undefined });

  // A page beyond the last one (rows removed meanwhile) moves to the last page.
  const lastPage = list.data?.last_page;
  useEffect(() => {
    if (lastPage && list.data?.total && input.page > lastPage) onPageChange(lastPage);
  }, [lastPage, list.data?.total, input.page, onPageChange]);

  const confirmDelete = () => {
    const deleting = confirmation.item;
    if (!deleting) return;
    remove.mutate({ id: deleting.id }, confirmation.outcome(() => t('teams.delete.done', { title: deleting.title }), () => {
      void utils.teams.invalidate();
    }));
  };

  return (
    <>
      <DataTable
        {...pageQueryProps(list)}
        label={label}
        columns={columns}
        getRowId={(row) => row.id}
        page={input.page}
        pageSize={input.limit}
        pageSizeOptions={PAGE_SIZE_OPTIONS}
        onPageChange={onPageChange}
        onPageSizeChange={onPageSizeChange}
        sort={sort}
        onSortChange={onSortChange}
        emptyText={emptyText}
        toolbar={toolbar}
      />
      <TeamAccountsDialog team={showing} open={showingOpen} onClose={() => setShowingOpen(false)} />
      <EntityHistoryDialog kind="team" entity={historyOf ? { id: historyOf.id, name: historyOf.title } : null} onClose={() => setHistoryOf(null)} />
      <ConfirmDialog
        open={confirmation.open}
        title={t('teams.delete.title', { title: confirmation.item?.title ?? '' })}
        message={t('teams.delete.message')}
        busy={remove.isPending}
        onConfirm={confirmDelete}
        onCancel={confirmation.cancel}
      />
    </>
  );
}

import { useId, useMemo, useState, type FormEvent } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import AddIcon from '@mui/icons-material/Add';
import type { ColumnDef } from '@tanstack/react-table';
import { useTranslation } from 'react-i18next';
import { FormDialogLayout } from '../../../components/FormDialogLayout';
import { PAGE_SIZE_OPTIONS, type TAccountTeam, type TTeamSearchItem } from '@rollcall/contracts';
import { describeError, singleFieldErrorText } from '../../../api/api-error';
import { DataTable, pageQueryProps } from '../../../components/data-table';
import { RowActionsMenu } from '../../../components/RowActionsMenu';
import { useSnackbar } from '../../../components/snackbar/snackbar-context';
import { trpc } from '../../../trpc';
import { DateTimeCell, ShortId } from '../../../components/data-table/cells';
import { TeamPicker } from '../../../components/teams/TeamPicker';
import { TeamTitleCell } from '../../../components/teams/TeamTitleCell';

/**
 * Account tab 'Team association' (spec tab 5): the account's teams (10 per page, 10/20/30), the team
 * title edited in place ('Team title updated'), row menu 'Leave team' ('Account has left the team
 * {title}'), and 'Add Team' with a team picker.
 */
export function AccountTeamsTab({ accountId }: { accountId: string }) {
  const { t } = useTranslation();
  const { notify } = useSnackbar();
  const utils = trpc.useUtils();
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState<number>(PAGE_SIZE_OPTIONS[0]);
  const list = trpc.teams.ofAccount.useQuery({ account_id: accountId, page, limit: pageSize }, { placeholderData: (previous) => previous });
  const leave = trpc.teams.removeMember.useMutation();
  const leaveTeam = leave.mutate;
  const [addOpen, setAddOpen] = useState(false);

  const columns = useMemo<ColumnDef<TAccountTeam>[]>(
    () => [
      { accessorKey: 'team_id', header: t('teams.accountTab.columns.id'), cell: ({ row }) => <ShortId id={row.original.team_id} /> },
      { accessorKey: 'team_title', header: t('teams.accountTab.columns.title'), cell: ({ row }) => <TeamTitleCell teamId={row.original.team_id} title={row.original.team_title} /> },
      { accessorKey: 'association_created_at', header: t('teams.accountTab.columns.createdAt'), cell: ({ row }) => <DateTimeCell value={row.original.association_created_at} /> },
      {
        id: 'actions',
        header: t('teams.accountTab.columns.actions'),
        cell: ({ row }) => {
          const team = row.original;
          return (
            <RowActionsMenu
              label={t('teams.actionsFor', { title: team.team_title })}
              actions={[
                {
                  label: t('teams.accountTab.leave'),
                  onSelect: () =>
                    leaveTeam(
                      { team_id: team.team_id, account_id: accountId },
                      {
                        onSuccess: () => {
                          notify(t('teams.accountTab.left', { title: team.team_title }), 'success');
                          void utils.teams.invalidate();
                        },
                        onError: (error) => notify(describeError(error, t), 'error'),
                      },
                    ),
                },
              ]}
            />
          );
        },
      },
    ],
    [t, leaveTeam, accountId, notify, utils],
  );

  return (
    <>
      <Box sx={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', gap: 2, mb: 2, flexWrap: 'wrap' }}>
        <Box component="h2" sx={{ typography: 'h6', m: 0 }}>
          {t('teams.accountTab.heading')}
        </Box>
        <Button variant="contained" startIcon={<AddIcon />} onClick={() => setAddOpen(true)}>
          {t('teams.accountTab.add')}
        </Button>
      </Box>
      <DataTable
        {...pageQueryProps(list)}
        label={t('teams.accountTab.heading')}
        columns={columns}
        getRowId={(row) => row.team_id}
        page={page}
        pageSize={pageSize}
        pageSizeOptions={PAGE_SIZE_OPTIONS}
        onPageChange={setPage}
        onPageSizeChange={(size) => {
          setPageSize(size);
          setPage(1);
        }}
        emptyText={t('teams.accountTab.empty')}
      />
      <AssociateTeamDialog open={addOpen} accountId={accountId} onClose={() => setAddOpen(false)} />
    </>
  );
}

/** 'New team association' (400px): a team picker; its error stays on the field (spec). */
function AssociateTeamDialog({ open, accountId, onClose }: { open: boolean; accountId: string; onClose: () => void }) {
  const titleId = useId();
  return (
    <Dialog open={open} onClose={onClose} aria-labelledby={titleId} slotProps={{ paper: { sx: { width: 400, maxWidth: 'calc(100% - 32px)', m: 2 } } }}>
      <AssociateTeamForm titleId={titleId} accountId={accountId} onClose={onClose} />
    </Dialog>
  );
}

function AssociateTeamForm({ titleId, accountId, onClose }: { titleId: string; accountId: string; onClose: () => void }) {
  const { t } = useTranslation();
  const { notify } = useSnackbar();
  const utils = trpc.useUtils();
  const [team, setTeam] = useState<TTeamSearchItem | null>(null);
  const [error, setError] = useState<string | null>(null);
  // the account's teams, to refuse a second association without a call; read afresh at each opening
  const linked = trpc.teams.ofAccount.useQuery({ account_id: accountId, page: 1, limit: 100 }, { gcTime: 0, staleTime: 0 });
  const associate = trpc.teams.addMember.useMutation();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!team) {
      setError(t('teams.accountTab.pickTeam'));
      return;
    }
    if (linked.data?.data.some((row) => row.team_id === team.id)) {
      setError(t('errors.team.member_exists'));
      return;
    }
    associate.mutate(
      { team_id: team.id, account_id: accountId },
      {
        onSuccess: () => {
          notify(t('teams.accountTab.joined', { title: team.title }), 'success');
          void utils.teams.invalidate();
          onClose();
        },
        onError: (failure) => setError(singleFieldErrorText(failure, t)),
      },
    );
  };

  return (
    <>
      <FormDialogLayout titleId={titleId} title={t('teams.accountTab.addTitle')} onSubmit={submit} onCancel={onClose} submitLabel={t('teams.accountTab.associate')} busy={associate.isPending}>
        <TeamPicker
          label={t('teams.accountTab.team')}
          name="team_id"
          required
          autoFocus
          value={team}
          onChange={(value) => {
            setTeam(value);
            setError(null);
          }}
          errors={error ? [error] : undefined}
        />
      </FormDialogLayout>
    </>
  );
}

import { useId, useMemo, useState, type FormEvent } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import PersonAddIcon from '@mui/icons-material/PersonAddAlt';
import type { ColumnDef } from '@tanstack/react-table';
import { Link as RouterLink } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { PAGE_SIZE_OPTIONS, type TAccountSearchItem } from '@rollcall/contracts';
import { describeError, splitFieldErrors } from '../../../api/api-error';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { DataTable, localPage } from '../../../components/data-table';
import { EntityId } from '../../../components/EntityId';
import { FormDialogLayout } from '../../../components/FormDialogLayout';
import { RowActionsMenu } from '../../../components/RowActionsMenu';
import { useSnackbar } from '../../../components/snackbar/snackbar-context';
import { AccountsPicker } from '../../../components/teams/AccountsPicker';
import type { TeamDetails, TeamMemberRow } from '../../../components/teams/types';
import { useConfirmation } from '../../../components/use-confirmation';
import { fullName } from '../../../lib/account-name';
import { toAccount } from '../../../paths';
import { trpc } from '../../../trpc';

/** A team's members: ID, Name (to the profile), Username, Actions (Account info, Remove); Add members. Paged in the browser (the API answers the whole list). */
export function TeamMembersCard({ team, mayWrite }: { team: TeamDetails; mayWrite: boolean }) {
  const { t } = useTranslation();
  const utils = trpc.useUtils();
  const members = trpc.teams.members.useQuery({ id: team.id });
  const removeMember = trpc.teams.removeMember.useMutation();
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState<number>(PAGE_SIZE_OPTIONS[0]);
  const [addOpen, setAddOpen] = useState(false);
  const confirmation = useConfirmation<TeamMemberRow>();
  const ask = confirmation.ask;

  const columns = useMemo<ColumnDef<TeamMemberRow>[]>(
    () => [
      { accessorKey: 'id', header: t('teams.details.columns.id'), cell: ({ row }) => <EntityId id={row.original.id} /> },
      {
        accessorKey: 'last_name',
        header: t('teams.details.columns.name'),
        cell: ({ row }) => (
          <Link component={RouterLink} to={toAccount(row.original.id)} sx={{ fontWeight: 500 }}>
            {fullName(row.original)}
          </Link>
        ),
      },
      { accessorKey: 'username_readable', header: t('teams.details.columns.username'), cell: ({ row }) => row.original.username_readable },
      {
        id: 'actions',
        header: t('teams.columns.actions'),
        cell: ({ row }) => (
          <RowActionsMenu
            label={t('teams.details.actionsFor', { name: fullName(row.original) })}
            actions={[
              { label: t('teams.details.menu.accountInfo'), to: toAccount(row.original.id) },
              ...(mayWrite ? [{ label: t('teams.details.menu.remove'), changes: true, onSelect: () => ask(row.original) }] : []),
            ]}
          />
        ),
      },
    ],
    [t, mayWrite, ask],
  );

  const confirmRemove = () => {
    const member = confirmation.item;
    if (!member) return;
    removeMember.mutate(
      { team_id: team.id, account_id: member.id },
      confirmation.outcome(
        () => t('teams.details.removed', { name: fullName(member), title: team.title }),
        () => {
          void utils.teams.invalidate();
          void utils.audit.history.invalidate();
        },
      ),
    );
  };

  const shown = localPage(members, page, pageSize);
  return (
    <Box component="section" aria-labelledby="team-members-heading" sx={{ minWidth: 0 }}>
      <Box sx={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', flexWrap: 'wrap', gap: 2, mb: 1.5 }}>
        <Typography id="team-members-heading" variant="h6" component="h2">
          {t('teams.details.membersHeading')}
        </Typography>
        {mayWrite ? (
          <Button variant="contained" startIcon={<PersonAddIcon />} onClick={() => setAddOpen(true)}>
            {t('teams.details.addMembers')}
          </Button>
        ) : null}
      </Box>
      <DataTable
        {...shown}
        label={t('teams.details.membersLabel', { title: team.title })}
        columns={columns}
        getRowId={(row) => row.id}
        pageSize={pageSize}
        pageSizeOptions={PAGE_SIZE_OPTIONS}
        onPageChange={setPage}
        onPageSizeChange={(size) => {
          setPageSize(size);
          setPage(1);
        }}
        emptyText={t('teams.details.noMembers')}
      />
      <AddTeamMembersDialog open={addOpen} team={team} onClose={() => setAddOpen(false)} />
      <ConfirmDialog
        open={confirmation.open}
        title={t('teams.details.removeTitle', { name: confirmation.item ? fullName(confirmation.item) : '' })}
        message={t('teams.details.removeMessage', { title: team.title })}
        busy={removeMember.isPending}
        onConfirm={confirmRemove}
        onCancel={confirmation.cancel}
      />
    </Box>
  );
}

function AddTeamMembersDialog({ open, team, onClose }: { open: boolean; team: TeamDetails; onClose: () => void }) {
  const titleId = useId();
  return (
    <Dialog open={open} onClose={onClose} aria-labelledby={titleId} slotProps={{ paper: { sx: { width: 500, maxWidth: 'calc(100% - 32px)', m: 2 } } }}>
      {open ? <AddTeamMembersForm titleId={titleId} team={team} onClose={onClose} /> : null}
    </Dialog>
  );
}

/** accounts picked by username, each added in turn; one refused (another organization's, already a member) stays picked with its reason */
function AddTeamMembersForm({ titleId, team, onClose }: { titleId: string; team: TeamDetails; onClose: () => void }) {
  const { t } = useTranslation();
  const { notify } = useSnackbar();
  const utils = trpc.useUtils();
  const addMember = trpc.teams.addMember.useMutation();
  const [picked, setPicked] = useState<TAccountSearchItem[]>([]);
  const [errors, setErrors] = useState<string[] | undefined>(undefined);
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!picked.length) {
      setErrors([t('teams.details.pickAccounts')]);
      return;
    }
    setBusy(true);
    const refused: TAccountSearchItem[] = [];
    const reasons: string[] = [];
    let added = 0;
    for (const account of picked) {
      try {
        await addMember.mutateAsync({ team_id: team.id, account_id: account.id });
        added += 1;
      } catch (error) {
        refused.push(account);
        const { fields, notice } = splitFieldErrors(error, ['account_id', 'team_id'], t);
        const reason = fields.account_id?.join(' ') ?? fields.team_id?.join(' ') ?? notice ?? describeError(error, t);
        reasons.push(`${account.username_readable}: ${reason}`);
      }
    }
    setBusy(false);
    if (added) {
      notify(t('teams.details.added', { count: added, title: team.title }), 'success');
      void utils.teams.invalidate();
      void utils.audit.history.invalidate();
    }
    if (refused.length) {
      setPicked(refused);
      setErrors(reasons);
    } else onClose();
  };

  return (
    <FormDialogLayout titleId={titleId} title={t('teams.details.addTitle', { title: team.title })} onSubmit={(event) => void submit(event)} onCancel={onClose} submitLabel={t('teams.details.addSubmit')} busy={busy}>
      <AccountsPicker
        label={t('teams.fields.accounts')}
        name="accounts"
        value={picked}
        onChange={(next) => {
          setPicked(next);
          setErrors(undefined);
        }}
        errors={errors}
        hint={team.interorg ? t('teams.create.accountsHintAny') : t('teams.create.accountsHint')}
      />
    </FormDialogLayout>
  );
}

import { useMemo, useState } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Link from '@mui/material/Link';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import PersonAddIcon from '@mui/icons-material/PersonAddAlt';
import type { ColumnDef } from '@tanstack/react-table';
import { Link as RouterLink } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { PAGE_SIZE_OPTIONS } from '@rollcall/contracts';
import { describeError } from '../../../api/api-error';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { DataTable, pageQueryProps } from '../../../components/data-table';
import { useSnackbar } from '../../../components/snackbar/snackbar-context';
import { fullName } from '../../../lib/account-name';
import { useStatusLabel } from '../../../lib/use-status-label';
import { trpc } from '../../../trpc';
import { toAccount } from '../../../paths';
import { RowActionsMenu } from '../../../components/RowActionsMenu';
import { SearchField } from '../../../components/SearchField';
import { DateTimeCell, ShortId } from '../../../components/data-table/cells';
import type { MemberRow, OrganizationDetails } from '../types';
import { AddMemberDialog } from './AddMemberDialog';
import { ManageRolesDialog } from './ManageRolesDialog';
import { TabHeading } from './TabHeading';

type Pending = { kind: 'remove' | 'delete'; member: MemberRow };

/** Members: ID, Status, Name (readable username), Roles (slugs), Created at, Actions; Add a member. */
export function MembersTab({ organization }: { organization: OrganizationDetails }) {
  const { t } = useTranslation();
  const { notify } = useSnackbar();
  const statusLabel = useStatusLabel();
  const utils = trpc.useUtils();
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState<number>(PAGE_SIZE_OPTIONS[0]);
  const [search, setSearch] = useState('');
  const list = trpc.organizations.members.useQuery({ id: organization.id, page, limit: pageSize, search: search || undefined }, { placeholderData: (previous) => previous });
  const removeMember = trpc.organizations.removeMember.useMutation();
  const deleteAccount = trpc.accounts.delete.useMutation();
  const [addOpen, setAddOpen] = useState(false);
  // the member stays set while the confirmation fades out
  const [pending, setPending] = useState<Pending | null>(null);
  const [confirmOpen, setConfirmOpen] = useState(false);
  const [rolesOf, setRolesOf] = useState<MemberRow | null>(null);
  const [rolesOpen, setRolesOpen] = useState(false);

  const columns = useMemo<ColumnDef<MemberRow>[]>(
    () => [
      { accessorKey: 'id', header: t('organizations.members.columns.id'), cell: ({ row }) => <ShortId id={row.original.id} /> },
      { accessorKey: 'status_title', header: t('organizations.members.columns.status'), cell: ({ row }) => statusLabel(row.original.status_id, row.original.status_title) },
      {
        accessorKey: 'first_name',
        header: t('organizations.members.columns.name'),
        cell: ({ row }) => (
          <>
            <Link component={RouterLink} to={toAccount(row.original.id)} sx={{ fontWeight: 500 }}>
              {fullName(row.original)}
            </Link>
            <Typography variant="body2" color="text.secondary">
              {row.original.username_readable}
            </Typography>
          </>
        ),
      },
      {
        accessorKey: 'roles',
        header: t('organizations.members.columns.roles'),
        cell: ({ row }) =>
          row.original.roles.length ? (
            <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 0.5 }}>
              {row.original.roles.map((role) => (
                <Chip key={role.id} label={role.slug} size="small" />
              ))}
            </Box>
          ) : (
            <Typography component="span" variant="body2" color="text.secondary">
              {t('organizations.members.noRoles')}
            </Typography>
          ),
      },
      { accessorKey: 'created_at', header: t('organizations.members.columns.createdAt'), cell: ({ row }) => <DateTimeCell value={row.original.created_at} /> },
      {
        id: 'actions',
        header: t('organizations.columns.actions'),
        cell: ({ row }) => {
          const member = row.original;
          const ask = (kind: Pending['kind']) => () => {
            setPending({ kind, member });
            setConfirmOpen(true);
          };
          return (
            <RowActionsMenu
              label={t('organizations.members.actionsFor', { name: fullName(member) })}
              actions={[
                { label: t('organizations.members.menu.accountInfo'), to: toAccount(member.id) },
                {
                  label: t('organizations.members.menu.manageRoles'),
                  onSelect: () => {
                    setRolesOf(member);
                    setRolesOpen(true);
                  },
                },
                { label: t('organizations.members.menu.remove'), onSelect: ask('remove'), changes: true },
                { label: t('organizations.members.menu.deleteAccount'), changes: true, disabled: member.protected, hint: t('accounts.profile.protected'), onSelect: ask('delete') },
              ]}
            />
          );
        },
      },
    ],
    [t, statusLabel],
  );

  const done = (message: string) => {
    setConfirmOpen(false);
    notify(message, 'success');
    void utils.organizations.invalidate();
    void utils.accounts.list.invalidate();
  };
  const failed = (error: unknown) => {
    setConfirmOpen(false);
    notify(describeError(error, t), 'error');
  };
  const confirm = () => {
    if (!pending) return;
    if (pending.kind === 'remove') {
      removeMember.mutate({ id: organization.id, account_id: pending.member.id }, { onSuccess: ({ message }) => done(message), onError: failed });
    } else {
      deleteAccount.mutate({ id: pending.member.id }, { onSuccess: ({ message }) => done(message), onError: failed });
    }
  };
  const name = pending ? fullName(pending.member) : '';

  return (
    <>
      <TabHeading
        title={t('organizations.tabs.members')}
        action={
          <Tooltip describeChild title={t('organizations.members.addTooltip')}>
            <Button variant="contained" startIcon={<PersonAddIcon />} onClick={() => setAddOpen(true)}>
              {t('organizations.members.add')}
            </Button>
          </Tooltip>
        }
      />
      <DataTable
        {...pageQueryProps(list)}
        label={t('organizations.members.tableLabel', { title: organization.title })}
        columns={columns}
        getRowId={(row) => row.id}
        page={page}
        pageSize={pageSize}
        pageSizeOptions={PAGE_SIZE_OPTIONS}
        onPageChange={setPage}
        onPageSizeChange={(size) => {
          setPageSize(size);
          setPage(1);
        }}
        emptyText={t('organizations.members.empty')}
        toolbar={
          <Box role="search" sx={{ display: 'flex', flexWrap: 'wrap', gap: 2, p: 2 }}>
            <SearchField
              label={t('organizations.members.search')}
              value={search}
              onSearch={(value) => {
                setSearch(value);
                setPage(1);
              }}
            />
          </Box>
        }
      />
      <AddMemberDialog open={addOpen} organization={organization} onClose={() => setAddOpen(false)} />
      <ManageRolesDialog open={rolesOpen} organization={organization} member={rolesOf} onClose={() => setRolesOpen(false)} />
      <ConfirmDialog
        open={confirmOpen}
        title={pending?.kind === 'delete' ? t('accounts.profile.deleteTitle', { name }) : t('organizations.members.removeTitle', { name, title: organization.title })}
        message={pending?.kind === 'delete' ? t('accounts.profile.deleteMessage') : t('organizations.members.removeMessage')}
        busy={removeMember.isPending || deleteAccount.isPending}
        onConfirm={confirm}
        onCancel={() => setConfirmOpen(false)}
      />
    </>
  );
}

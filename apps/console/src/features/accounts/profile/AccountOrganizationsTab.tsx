import { useEffect, useId, useMemo, useRef, useState, type FormEvent } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import Link from '@mui/material/Link';
import Tooltip from '@mui/material/Tooltip';
import AddIcon from '@mui/icons-material/Add';
import type { ColumnDef } from '@tanstack/react-table';
import { Link as RouterLink } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { FormDialogLayout } from '../../../components/FormDialogLayout';
import { PAGE_SIZE_OPTIONS, type TAccountOrganization, type TOrganizationSearchItem } from '@rollcall/contracts';
import { singleFieldErrorText } from '../../../api/api-error';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { useConfirmation } from '../../../components/use-confirmation';
import { DataTable, ExpandRowButton, pageQueryProps } from '../../../components/data-table';
import { useSnackbar } from '../../../components/snackbar/snackbar-context';
import { trpc } from '../../../trpc';
import { MemberRoleSwitches } from '../../../components/organizations/MemberRoleSwitches';
import { OrganizationPicker } from '../../../components/organizations/OrganizationPicker';
import { RowActionsMenu } from '../../../components/RowActionsMenu';
import { DateTimeCell, ShortId } from '../../../components/data-table/cells';
import { toOrganization } from '../../../paths';

/** Spec: an organization association error stays under the field for 4 seconds. */
export const ASSOCIATION_ERROR_MS = 4000;

/**
 * Account tab 'Organization association': the account's organizations (10 per page, 10/20/30),
 * Add Organization, row menu Organization details / Leave organization. One row at a time expands
 * to 'Associated roles within organization': a switch per role of that organization.
 */
export function AccountOrganizationsTab({ accountId }: { accountId: string }) {
  const { t } = useTranslation();
  const utils = trpc.useUtils();
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState<number>(PAGE_SIZE_OPTIONS[0]);
  const list = trpc.organizations.ofAccount.useQuery({ account_id: accountId, page, limit: pageSize }, { placeholderData: (previous) => previous });
  const leave = trpc.organizations.removeMember.useMutation();
  const [addOpen, setAddOpen] = useState(false);
  const confirmation = useConfirmation<TAccountOrganization>();
  const askToConfirm = confirmation.ask;
  const [expanded, setExpanded] = useState<string | null>(null);
  const baseId = useId();

  const columns = useMemo<ColumnDef<TAccountOrganization>[]>(
    () => [
      { accessorKey: 'id', header: t('accounts.organizations.columns.id'), cell: ({ row }) => <ShortId id={row.original.id} /> },
      {
        id: 'expand',
        header: t('accounts.organizations.columns.expand'),
        cell: ({ row }) => (
          <ExpandRowButton
            label={t('accounts.organizations.expand', { title: row.original.org_title })}
            expanded={row.getIsExpanded()}
            controls={`${baseId}-roles-${row.original.id}`}
            onToggle={() => row.toggleExpanded()}
          />
        ),
      },
      {
        accessorKey: 'org_title',
        header: t('accounts.organizations.columns.organization'),
        cell: ({ row }) => (
          <Link component={RouterLink} to={toOrganization(row.original.id)} sx={{ fontWeight: 500 }}>
            {row.original.org_title}
          </Link>
        ),
      },
      { accessorKey: 'created_at', header: t('accounts.organizations.columns.createdAt'), cell: ({ row }) => <DateTimeCell value={row.original.created_at} /> },
      {
        id: 'actions',
        header: t('accounts.organizations.columns.actions'),
        cell: ({ row }) => (
          <RowActionsMenu
            label={t('organizations.actionsFor', { title: row.original.org_title })}
            actions={[
              { label: t('accounts.organizations.menu.details'), to: toOrganization(row.original.id) },
              {
                label: t('accounts.organizations.menu.leave'),
                onSelect: () => {
                  askToConfirm(row.original);
                },
              },
            ]}
          />
        ),
      },
    ],
    [askToConfirm, t, baseId],
  );

  const confirmLeave = () => {
    const leaving = confirmation.item;
    if (!leaving) return;
    leave.mutate({ id: leaving.id, account_id: accountId }, confirmation.outcome(({ message }) => message, () => {
      void utils.organizations.invalidate();
    }));
  };

  return (
    <>
      <Box sx={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', gap: 2, mb: 2, flexWrap: 'wrap' }}>
        <Box component="h2" sx={{ typography: 'h6', m: 0 }}>
          {t('accounts.organizations.heading')}
        </Box>
        <Tooltip describeChild title={t('accounts.organizations.addTooltip')}>
          <Button variant="contained" startIcon={<AddIcon />} onClick={() => setAddOpen(true)}>
            {t('accounts.organizations.add')}
          </Button>
        </Tooltip>
      </Box>
      <DataTable
        {...pageQueryProps(list)}
        label={t('accounts.organizations.heading')}
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
        emptyText={t('accounts.organizations.empty')}
        expandedRowId={expanded}
        onExpandedRowChange={setExpanded}
        renderExpandedRow={(row) => (
          <Box component="section" id={`${baseId}-roles-${row.id}`} aria-labelledby={`${baseId}-roles-${row.id}-title`}>
            <Box component="h3" id={`${baseId}-roles-${row.id}-title`} sx={{ typography: 'subtitle2', mt: 0, mb: 1 }}>
              {t('accounts.organizations.rolesTitle')}
            </Box>
            <MemberRoleSwitches organizationId={row.id} accountId={accountId} label={t('accounts.organizations.rolesOf', { title: row.org_title })} />
          </Box>
        )}
      />
      <AssociateOrganizationDialog open={addOpen} accountId={accountId} onClose={() => setAddOpen(false)} />
      <ConfirmDialog
        open={confirmation.open}
        title={t('accounts.organizations.leaveTitle', { title: confirmation.item?.org_title ?? '' })}
        message={t('accounts.organizations.leaveMessage')}
        busy={leave.isPending}
        onConfirm={confirmLeave}
        onCancel={confirmation.cancel}
      />
    </>
  );
}

/** 'New organization association': an organization picker; an error stays under it for 4 seconds. */
function AssociateOrganizationDialog({ open, accountId, onClose }: { open: boolean; accountId: string; onClose: () => void }) {
  const titleId = useId();
  return (
    <Dialog open={open} onClose={onClose} aria-labelledby={titleId} slotProps={{ paper: { sx: { width: 500, maxWidth: 'calc(100% - 32px)', m: 2 } } }}>
      <AssociateOrganizationForm titleId={titleId} accountId={accountId} onClose={onClose} />
    </Dialog>
  );
}

function AssociateOrganizationForm({ titleId, accountId, onClose }: { titleId: string; accountId: string; onClose: () => void }) {
  const { t } = useTranslation();
  const { notify } = useSnackbar();
  const utils = trpc.useUtils();
  const [organization, setOrganization] = useState<TOrganizationSearchItem | null>(null);
  const [error, setError] = useState<string | null>(null);
  const timer = useRef<number | undefined>(undefined);
  useEffect(() => () => window.clearTimeout(timer.current), []);
  // every organization of the account, to refuse a second association without a call; read afresh
  // at each opening (gcTime 0), so an organization left meanwhile is not refused from an old answer
  const linked = trpc.organizations.ofAccount.useQuery({ account_id: accountId, page: 1, limit: 100 }, { gcTime: 0, staleTime: 0 });
  const associate = trpc.organizations.addMember.useMutation();

  const showError = (message: string) => {
    setError(message);
    window.clearTimeout(timer.current);
    timer.current = window.setTimeout(() => setError(null), ASSOCIATION_ERROR_MS);
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!organization) {
      showError(t('accounts.organizations.pickOrganization'));
      return;
    }
    if (!linked.isFetching && linked.data?.data.some((row) => row.id === organization.id)) {
      showError(t('errors.membership.exists'));
      return;
    }
    associate.mutate(
      { id: organization.id, account_id: accountId },
      {
        onSuccess: ({ message }) => {
          notify(message, 'success');
          void utils.organizations.invalidate();
          onClose();
        },
        onError: (failure) => showError(singleFieldErrorText(failure, t)),
      },
    );
  };

  return (
    <>
      <FormDialogLayout titleId={titleId} title={t('accounts.organizations.addTitle')} onSubmit={submit} onCancel={onClose} submitLabel={t('accounts.organizations.associate')} busy={associate.isPending}>
        <OrganizationPicker
          label={t('accounts.organizations.organization')}
          name="organization_id"
          required
          autoFocus
          value={organization}
          onChange={(value) => {
            setOrganization(value);
            setError(null);
          }}
          errors={error ? [error] : undefined}
        />
      </FormDialogLayout>
    </>
  );
}

import { useCallback, useMemo, useState } from 'react';
import type { TAttendanceLiveMessage } from '@rollcall/contracts';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useTheme } from '@mui/material/styles';
import { useTranslation } from 'react-i18next';
import { ARRIVALS_DEPARTURES_SORT_FIELDS, type TArrivalDeparture, type TArrivalsDeparturesInput } from '@rollcall/contracts';
import { DataTable } from '../../components/data-table';
import { SERVER_TABLE_QUERY, useServerTable } from '../../components/data-table/use-server-table';
import { DateField, INCOMPLETE_DATE } from '../../components/DateField';
import { PageHeader } from '../../components/PageHeader';
import { PhoneFilters } from '../../components/PhoneFilters';
import { SearchPicker, type SearchPickerOption } from '../../components/SearchPicker';
import { useGrants } from '../../auth/use-grants';
import { fullName } from '../../lib/account-name';
import { useLive } from '../../live/use-live';
import { LiveChip, LiveNotice, isStale, staleSx } from '../../live/LiveStatus';
import { useUnknownCardNotices } from '../../live/UnknownCardNotices';
import { trpc } from '../../trpc';
import { arrivalsDeparturesLive } from './arrivals-departures.live';
import { OrganizationPicker } from '../../components/organizations/OrganizationPicker';
import { useArrivalDepartureColumns } from './arrival-departure-columns';
import { CorrectSlotDialog } from './CorrectSlotDialog';
import { arrivalsDeparturesFilters, arrivalsDeparturesInput, today } from './arrivals-departures-filters';

const useFindAccounts = (search: string) => {
  const found = trpc.accounts.findByUsername.useQuery({ username: search }, { enabled: search.length > 0, staleTime: 30_000, placeholderData: (previous) => previous });
  const data = useMemo<SearchPickerOption[] | undefined>(() => found.data?.map((account) => ({ id: account.id, title: fullName(account) || account.username_readable })), [found.data]);
  return { data, isFetching: found.isFetching };
};

const useArrivalsDeparturesList = (input: TArrivalsDeparturesInput) => trpc.arrivalsDepartures.list.useQuery(input, SERVER_TABLE_QUERY);

/** /arrivals-departures: the log of slots, server paged, newest first; filters in the URL; rows appear as scans land. */
export default function ArrivalsDeparturesPage() {
  const { t } = useTranslation();
  const grants = useGrants();
  const table = useServerTable(useArrivalsDeparturesList, {
    sort: { fields: ARRIVALS_DEPARTURES_SORT_FIELDS, defaultSort: 'arrived_at' },
    filters: arrivalsDeparturesFilters,
    toInput: arrivalsDeparturesInput,
  });
  const { state, setFilters } = table;
  const readers = trpc.readers.list.useQuery({ limit: 100, role: 'door' }, { enabled: grants.may('readers:manage'), staleTime: 60_000 });
  const [editing, setEditing] = useState<TArrivalDeparture | null>(null);
  const onEdit = useCallback((row: TArrivalDeparture) => setEditing(row), []);
  // slots opened by a scan while the screen is open: marked 'New' (as live consoles mark what just came in)
  const [arrivedLive, setArrivedLive] = useState<ReadonlySet<string>>(new Set());
  // a phone: the columns start with who, in and out (and the filters wait behind a button: PhoneFilters)
  const phone = useMediaQuery(useTheme().breakpoints.down('sm'));
  const columns = useArrivalDepartureColumns({ onEdit: grants.may('attendance:write') ? onEdit : null, isNew: (row) => arrivedLive.has(row.id), compact: phone });
  const unknownCards = useUnknownCardNotices();
  const onMessages = useCallback(
    (messages: readonly TAttendanceLiveMessage[]) => {
      unknownCards.onMessages(messages);
      const opened = messages.flatMap((message) => (message.kind === 'attendance.scan' && message.outcome === 'arrival' && message.slot_id ? [message.slot_id] : []));
      if (opened.length) setArrivedLive((current) => new Set([...current, ...opened]));
    },
    [unknownCards],
  );
  const live = useLive(trpc.live.attendance, { cache: [arrivalsDeparturesLive], onMessages });

  const onToday = state.dateFrom === today() && state.dateTo === today();
  const filtered = Boolean(!onToday || state.organization || state.account || state.readerId);
  const activeFilters = [!onToday, state.organization, state.account, state.readerId].filter(Boolean).length;
  return (
    <>
      <PageHeader title={t('arrivalsDepartures.title')} actions={<LiveChip connection={live} />} />
      <LiveNotice connection={live} />
      {unknownCards.element}
      <Box sx={staleSx(live)} aria-busy={isStale(live)} data-stale={isStale(live) || undefined}>
        <DataTable
          {...table.props}
          label={t('arrivalsDepartures.tableLabel')}
          columns={columns}
          getRowId={(row) => row.id}
          emptyText={t('arrivalsDepartures.empty')}
          toolbar={
            <PhoneFilters id="arrivals-departures-filters" activeCount={activeFilters}>
            <Box role="search" sx={{ display: 'flex', flexWrap: 'wrap', gap: 2, p: 2, alignItems: 'flex-start', '& > *': { minWidth: 200, flex: '1 1 200px' } }}>
              <DateField label={t('arrivalsDepartures.filters.dateFrom')} name="date_from" value={state.dateFrom} onChange={(dateFrom) => dateFrom !== INCOMPLETE_DATE && setFilters({ dateFrom })} disableFuture />
              <DateField label={t('arrivalsDepartures.filters.dateTo')} name="date_to" value={state.dateTo} onChange={(dateTo) => dateTo !== INCOMPLETE_DATE && setFilters({ dateTo })} disableFuture />
              <OrganizationPicker label={t('arrivalsDepartures.filters.organization')} name="organization" value={state.organization} onChange={(organization) => setFilters({ organization })} />
              <SearchPicker
                label={t('arrivalsDepartures.filters.account')}
                name="account"
                value={state.account}
                onChange={(account) => setFilters({ account })}
                useFind={useFindAccounts}
                noOptionsText={t('arrivalsDepartures.filters.noAccounts')}
              />
              {grants.may('readers:manage') && (
                <TextField select label={t('arrivalsDepartures.filters.reader')} name="reader" value={state.readerId} onChange={(event) => setFilters({ readerId: event.target.value })}>
                  <MenuItem value="">{t('arrivalsDepartures.filters.allReaders')}</MenuItem>
                  {(readers.data?.data ?? []).map((reader) => (
                    <MenuItem key={reader.id} value={reader.id}>
                      {reader.name} ({reader.door})
                    </MenuItem>
                  ))}
                </TextField>
              )}
              {(state.dateFrom || state.dateTo) && (
              <Button sx={{ flex: '0 0 auto !important', minWidth: 'auto !important', alignSelf: 'center' }} onClick={() => setFilters({ dateFrom: '', dateTo: '' })}>
                {t('arrivalsDepartures.filters.wholeHistory')}
              </Button>
            )}
            {filtered && (
                <Button sx={{ flex: '0 0 auto !important', minWidth: 'auto !important', alignSelf: 'center' }} onClick={() => setFilters({ dateFrom: today(), dateTo: today(), organization: null, account: null, readerId: '' })}>
                  {t('arrivalsDepartures.filters.clear')}
                </Button>
              )}
            </Box>
            </PhoneFilters>
          }
        />
      </Box>
      <CorrectSlotDialog slot={editing} onClose={() => setEditing(null)} />
    </>
  );
}

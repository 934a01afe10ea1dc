import { useTranslation } from 'react-i18next';
import type { TOrganizationSearchItem } from '@rollcall/contracts';
import { SearchPicker, type SearchPickerProps } from '../SearchPicker';
import { trpc } from '../../trpc';

const useFindOrganizations = (search: string) => trpc.organizations.find.useQuery({ organization: search }, { staleTime: 30_000, placeholderData: (previous) => previous });

/**
 * The one organization search picker (create dialog's parent, delete dialog's destinations, the
 * account's association dialog, the team dialog): `organizations.find`.
 */
export function OrganizationPicker(props: SearchPickerProps<TOrganizationSearchItem>) {
  const { t } = useTranslation();
  return <SearchPicker {...props} useFind={useFindOrganizations} noOptionsText={t('organizations.picker.none')} />;
}

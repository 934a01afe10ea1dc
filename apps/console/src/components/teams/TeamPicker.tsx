import { useTranslation } from 'react-i18next';
import { SearchPicker, type SearchPickerProps } from '../SearchPicker';
import { trpc } from '../../trpc';
import type { TeamOption } from './types';

const useFindTeams = (search: string) => trpc.teams.find.useQuery({ team: search }, { staleTime: 30_000, placeholderData: (previous) => previous });

/** The team search picker: `teams.find`. */
export function TeamPicker(props: SearchPickerProps<TeamOption>) {
  const { t } = useTranslation();
  return <SearchPicker {...props} useFind={useFindTeams} noOptionsText={t('teams.picker.none')} />;
}

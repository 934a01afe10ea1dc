import type { ColumnDef } from '@tanstack/react-table';
import type { TFunction } from 'i18next';
import { InlineEditCell } from '../../../components/InlineEditCell';

interface TitleSlugRow {
  id: string;
  title: string;
  slug: string;
}

/**
 * The Title and Slug columns of the Permissions and Roles tabs, both edited inline (spec: 'Title and
 * slug are edited inline') with their notices. `texts` is the tab's catalogue prefix
 * ('organizations.permissions' or 'organizations.roles'); the saves refresh what shows them.
 */
export function titleSlugColumns<Row extends TitleSlugRow>({
  t,
  texts,
  rename,
  reslug,
  afterTitle,
  afterSlug = afterTitle,
}: {
  t: TFunction;
  texts: 'organizations.permissions' | 'organizations.roles';
  rename: (input: { id: string; title: string }) => Promise<unknown>;
  reslug: (input: { id: string; slug: string }) => Promise<unknown>;
  afterTitle: () => Promise<unknown>;
  afterSlug?: () => Promise<unknown>;
}): ColumnDef<Row>[] {
  return [
    {
      accessorKey: 'title',
      header: t(`${texts}.columns.title`),
      cell: ({ row }) => (
        <InlineEditCell
          value={row.original.title}
          field="title"
          label={t(`${texts}.fields.title`)}
          editLabel={t(`${texts}.editTitle`, { title: row.original.title })}
          savedMessage={t(`${texts}.titleUpdated`)}
          onSave={async (title) => {
            await rename({ id: row.original.id, title });
            await afterTitle();
          }}
        />
      ),
    },
    {
      accessorKey: 'slug',
      header: t(`${texts}.columns.slug`),
      cell: ({ row }) => (
        <InlineEditCell
          value={row.original.slug}
          field="slug"
          monospace
          label={t(`${texts}.fields.slug`)}
          editLabel={t(`${texts}.editSlug`, { title: row.original.title })}
          savedMessage={t(`${texts}.slugUpdated`)}
          onSave={async (slug) => {
            await reslug({ id: row.original.id, slug });
            await afterSlug();
          }}
        />
      ),
    },
  ];
}

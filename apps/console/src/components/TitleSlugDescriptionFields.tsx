import { CountedTextField } from './CountedTextField';
import { DescriptionField } from './DescriptionField';
import type { TextFieldBinding } from './use-form-fields';

interface TitleSlugDescriptionFieldsProps {
  /** each field's value, change and server errors (useFormFields' `textField`) */
  field: (name: 'title' | 'slug' | 'description') => TextFieldBinding;
  texts: { title: string; slug: string; slugHint: string; description: string; descriptionHint?: string };
  /** the slug typed as code: monospace, no spell check, no capitals */
  codeSlug?: boolean;
  descriptionMax?: number;
}

const codeInput = { htmlInput: { spellCheck: false, autoCapitalize: 'none', style: { fontFamily: 'monospace' } } };

/** The title (focused first), slug and description of a new role or permission, with their counters and server errors. */
export function TitleSlugDescriptionFields({ field, texts, codeSlug, descriptionMax }: TitleSlugDescriptionFieldsProps) {
  return (
    <>
      <CountedTextField label={texts.title} name="title" required autoFocus {...field('title')} />
      <CountedTextField label={texts.slug} name="slug" required hint={texts.slugHint} slotProps={codeSlug ? codeInput : undefined} {...field('slug')} />
      <DescriptionField label={texts.description} hint={texts.descriptionHint} maxLength={descriptionMax} {...field('description')} />
    </>
  );
}

import type { TFunction } from 'i18next';

/**
 * The password policy the API seeds on first start (bootstrap-admin.service.ts) carries English
 * texts in its events, whatever the deployment's language. The console shows that policy's title and
 * description in its own language while they are still the seeded ones (the pair is its stable key);
 * once an administrator renames it, their text is shown as they wrote it.
 */
const SEEDED = { title: 'Default policy', description: 'Created on first start with the recommended defaults' };

const isSeeded = (policy: { title: string; description?: string | null }) => policy.title === SEEDED.title && (policy.description === undefined || policy.description === SEEDED.description);

export function policyTitle(policy: { title: string; description?: string | null }, t: TFunction): string {
  return isSeeded(policy) ? t('passwordPolicies.seeded.title') : policy.title;
}

export function policyDescription(policy: { title: string; description: string }, t: TFunction): string {
  return isSeeded(policy) ? t('passwordPolicies.seeded.description') : policy.description;
}

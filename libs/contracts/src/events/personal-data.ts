/**
 * Which stored payload fields are personal data an account may have erased (docs/adr/0015), and what
 * they read as once erased. The event store seals these fields with the account's own key; destroying
 * the key erases them in every copy at once: the store, every read model built from it, every replay.
 *
 * Every event listed here is about one account, named by `data.accountId`, and lives in that
 * account's stream. A new event type carrying personal data must be added here, or it is stored in
 * clear and survives an erasure (the unit test lists the account events and checks each is classified).
 */

/** the event that destroys the key: from its place in the log on, the account's fields read as erased */
export const PERSONAL_DATA_ERASED_EVENT = 'AccountPersonalDataErased';

export interface PersonalDataRule {
  /** payload keys sealed together */
  readonly fields: readonly string[];
  /** what those keys read as after erasure: shaped like the originals so every reader keeps working */
  erased(accountId: string): Record<string, unknown>;
}

/** unique per account, so read models with unique usernames and e-mails accept any number of erased accounts */
export const erasedUsername = (accountId: string) => `erased-${accountId}`;
export const erasedEmail = (accountId: string) => `erased-${accountId}@erased.invalid`;
export const ERASED_FIRST_NAME = 'Erased';
export const ERASED_LAST_NAME = 'person';

const erasedAdditional = (accountId: string) => ({
  middleName: null,
  nickname: null,
  birthDate: null,
  gender: null,
  timeZone: null,
  locale: null,
  website: null,
  profile: null,
  address: null,
  telephone: [],
  emails: [{ value: erasedEmail(accountId), type: 'work' }],
});

const names = (accountId: string) => ({ firstName: ERASED_FIRST_NAME, lastName: ERASED_LAST_NAME, email: erasedEmail(accountId) });

export const PERSONAL_DATA_RULES: Readonly<Record<string, PersonalDataRule>> = {
  AccountCreated: {
    fields: ['username', 'email', 'firstName', 'lastName'],
    erased: (accountId) => ({ ...names(accountId), username: erasedUsername(accountId) }),
  },
  AccountProfileUpdated: {
    fields: ['firstName', 'lastName', 'email', 'additional'],
    erased: (accountId) => ({ ...names(accountId), additional: erasedAdditional(accountId) }),
  },
  AccountProfilePictureChanged: { fields: ['picture'], erased: () => ({ picture: null }) },
  // claim values are whatever an administrator typed about the person (department, badge name, ...)
  AccountClaimsChanged: { fields: ['claims'], erased: () => ({ claims: {} }) },
};

export const personalDataRuleOf = (eventType: string): PersonalDataRule | undefined => PERSONAL_DATA_RULES[eventType];

/** the account a personal event is about */
export const personalDataSubject = (data: unknown): string => String((data as { accountId?: unknown }).accountId);

/**
 * The payload as it reads after erasure: the personal fields replaced, everything else kept. The
 * replaced fields come last, as the vault serves them, so the text is the same whichever made it.
 */
export function erasePersonalData(eventType: string, data: Record<string, unknown>): Record<string, unknown> {
  const rule = personalDataRuleOf(eventType);
  if (!rule) return data;
  const kept = Object.fromEntries(Object.entries(data).filter(([field]) => !rule.fields.includes(field)));
  return { ...kept, ...rule.erased(personalDataSubject(data)) };
}

import i18next, { type TFunction } from 'i18next';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import type { THistoryEntry } from '@rollcall/contracts';
import de from '../../i18n/locales/de.json';
import en from '../../i18n/locales/en.json';
import { fieldLabel, fieldValue, historySentence, type HistoryContext } from './history-words';

const ADA = '01a218b1-4edd-723a-bab3-f887654bfe51';
const TEAM = '01a218b1-5112-70df-9ecf-0340e902d888';
const ADMIN = '01a218b1-0000-7000-8000-000000000001';
const names = { [ADA]: 'ada', [TEAM]: 'Night shift North', [ADMIN]: 'admin' };

const entry = (type: string, data: unknown, extra: Partial<THistoryEntry> = {}): THistoryEntry => ({
  position: '1.0',
  stream_id: `team-${TEAM}`,
  stream_version: 1,
  type,
  event_id: 'e',
  actor: ADMIN,
  actor_kind: 'account',
  source_ip: '10.0.0.4',
  correlation_id: 'c',
  causation_id: null,
  recorded_at: '2026-11-26T16:30:00.000Z',
  schema_version: 1,
  data,
  metadata: {},
  summary: `${type} (the server's words)`,
  changes: [],
  ...extra,
});

let t: Record<'en' | 'de', TFunction>;
beforeAll(async () => {
  const instance = i18next.createInstance();
  await instance.init({ resources: { en: { translation: en }, de: { translation: de } }, lng: 'en', fallbackLng: 'en', interpolation: { escapeValue: false, prefix: '{', suffix: '}' } });
  t = { en: instance.getFixedT('en'), de: instance.getFixedT('de') };
});
const context = (language: 'en' | 'de', timeZone = 'UTC'): HistoryContext => ({ names, timeZone, language });

describe('history entries in words', () => {
  it('names the member, the team and the actor in both languages', () => {
    const added = entry('AccountAddedToTeam', { teamId: TEAM, accountId: ADA, at: '2026-11-26T16:30:00.000Z' });
    expect(historySentence(added, context('en'), t.en)).toBe('ada added to team Night shift North by admin from 10.0.0.4');
    expect(historySentence(added, context('de'), t.de)).toBe('ada zum Team Night shift North hinzugefügt, durch admin (IP 10.0.0.4)');
  });

  it('says what a rename changed, from the field before it', () => {
    const renamed = entry('TeamTitleChanged', { teamId: TEAM, title: 'Night shift North', changedAt: '2026-11-26T16:30:00.000Z' }, { changes: [{ field: 'title', before: 'Night shift', after: 'Night shift North' }], source_ip: null });
    expect(historySentence(renamed, context('en'), t.en)).toBe('Team renamed from Night shift to Night shift North by admin');
    expect(historySentence(renamed, context('de'), t.de)).toBe('Team umbenannt von Night shift in Night shift North, durch admin');
  });

  it("gives a person's times in their zone, labelled, and days as DD.MM.YYYY", () => {
    const corrected = entry('AttendanceSlotCorrected', { day: '2026-11-26', arrivedAt: '2026-11-26T07:00:00.000Z', departedAt: null, reason: 'Badge forgotten', previous: { arrivedAt: '2026-11-26T07:10:00.000Z', departedAt: null } });
    expect(historySentence(corrected, context('en', 'Europe/Berlin'), t.en)).toMatch(/^Slot of 26\.11\.2026 corrected from 26\.11\.2026 08:10:00 \(UTC\+1\) – still in to 26\.11\.2026 08:00:00 \(UTC\+1\) – still in, because: Badge forgotten by admin from 10\.0\.0\.4$/);
    expect(historySentence(corrected, context('de', 'Europe/Berlin'), t.de)).toMatch(/^Zeitraum vom 26\.11\.2026 korrigiert von 26\.11\.2026 08:10:00 \(UTC\+1\) – noch anwesend auf 26\.11\.2026 08:00:00 \(UTC\+1\) – noch anwesend, Grund: Badge forgotten, durch admin \(IP 10\.0\.0\.4\)$/);
  });

  it('names statuses and the system, and an unknown event by its type in German, the server words in English', () => {
    const status = entry('AccountStatusChanged', { accountId: ADA, statusId: 2, changedAt: '2026-11-26T16:30:00.000Z' }, { actor: 'system', actor_kind: 'system', source_ip: null });
    expect(historySentence(status, context('de'), t.de)).toBe('Status geändert in Deaktiviert, durch das System');
    const unknown = entry('SomethingNew', {});
    expect(historySentence(unknown, context('en'), t.en)).toBe("SomethingNew (the server's words)");
    expect(historySentence(unknown, context('de'), t.de)).toBe('Ereignis SomethingNew, durch admin (IP 10.0.0.4)');
  });

  it('labels and formats fields as the console does', () => {
    expect(fieldLabel('roles by organization › Sales', t.de)).toBe('Rollen je Organisation › Sales');
    expect(fieldLabel('roles by organization › Sales', t.en)).toBe('roles by organization › Sales');
    expect(fieldValue('birth date', '1990-12-10', t.de)).toBe('10.12.1990');
    expect(fieldValue('status', 'Awaiting activation', t.de)).toBe('Wartet auf Aktivierung');
    expect(fieldValue('interorg', 'true', t.de)).toBe('ja');
    // an instant of a field (not a person's attendance) in the browser's zone, labelled as every time is
    const zone = vi.spyOn(Intl.DateTimeFormat.prototype, 'resolvedOptions').mockReturnValue({ timeZone: 'Asia/Tokyo' } as Intl.ResolvedDateTimeFormatOptions);
    expect(fieldValue('locked until', '2026-11-26T16:30:00.000Z', t.de)).toBe('27.11.2026 @ 01:30 UTC+9');
    zone.mockRestore();
  });
});

import { AccessTokensProjection } from './features/access-tokens/projections/access-tokens.projection';
import { AccountsProjection } from './features/accounts/projections/accounts.projection';
import { AccountActivationsProjection } from './features/accounts/projections/account-activations.projection';
import { SessionsProjection } from './features/auth/projections/sessions.projection';
import { PasswordPoliciesProjection } from './features/policies/projections/password-policies.projection';
import { OrganizationsProjection } from './features/organizations/projections/organizations.projection';
import { OrganizationAccessProjection } from './features/organizations/projections/organization-access.projection';
import { OrganizationTimeZonesProjection } from './features/organizations/projections/organization-time-zones.projection';
import { TeamsProjection } from './features/teams/projections/teams.projection';
import { ApplicationsProjection } from './features/applications/projections/applications.projection';
import { AttendanceStatusesProjection } from './features/attendance-statuses/projections/attendance-statuses.projection';
import { CalendarEventsProjection } from './features/calendar/projections/calendar-events.projection';
import { ReadersProjection } from './features/readers/projections/readers.projection';
import { SmartCardsProjection } from './features/attendance/projections/smart-cards.projection';
import { AttendanceSlotsProjection } from './features/attendance/projections/attendance-slots.projection';
import { UnknownCardsProjection } from './features/attendance/projections/unknown-cards.projection';
import { EventLogProjection } from './features/audit/projections/event-log.projection';
import { AccountSsoClaimsProjection } from './features/sso-claims/projections/account-sso-claims.projection';
import { ApplicationConsentsProjection } from './features/oidc/projections/application-consents.projection';
import { PasswordPolicySecondFactorProjection } from './features/policies/projections/password-policy-second-factor.projection';
import { PasswordPolicyPasskeySignInProjection } from './features/policies/projections/password-policy-passkey-sign-in.projection';
import { SecondFactorsProjection } from './features/second-factors/projections/second-factors.projection';
import type { Projection } from './platform/projections/projection';

/** Every read model of the product, in one list: the API runs them, `npm run replay` rebuilds them. */
export const allProjections = (): Projection[] => [new AccountsProjection(), new SessionsProjection(), new PasswordPoliciesProjection(), new AccessTokensProjection(), new AccountActivationsProjection(), new OrganizationsProjection(), new OrganizationTimeZonesProjection(), new TeamsProjection(), new OrganizationAccessProjection(), new ApplicationsProjection(), new AttendanceStatusesProjection(), new CalendarEventsProjection(), new ReadersProjection(), new SmartCardsProjection(), new AttendanceSlotsProjection(), new UnknownCardsProjection(), new ApplicationConsentsProjection(), new EventLogProjection(), new AccountSsoClaimsProjection(), new PasswordPolicySecondFactorProjection(), new SecondFactorsProjection(), new PasswordPolicyPasskeySignInProjection()];

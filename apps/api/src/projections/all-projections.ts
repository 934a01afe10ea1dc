import { AccessTokensProjection } from '../access-tokens/projections/access-tokens.projection';
import { AccountsProjection } from '../accounts/projections/accounts.projection';
import { AccountActivationsProjection } from '../accounts/projections/account-activations.projection';
import { SessionsProjection } from '../auth/projections/sessions.projection';
import { PasswordPoliciesProjection } from '../policies/projections/password-policies.projection';
import { OrganizationsProjection } from '../organizations/projections/organizations.projection';
import { OrganizationAccessProjection } from '../organizations/projections/organization-access.projection';
import { OrganizationTimeZonesProjection } from '../organizations/projections/organization-time-zones.projection';
import { TeamsProjection } from '../teams/projections/teams.projection';
import { ApplicationsProjection } from '../applications/projections/applications.projection';
import { AttendanceStatusesProjection } from '../attendance-statuses/projections/attendance-statuses.projection';
import { CalendarEventsProjection } from '../calendar/projections/calendar-events.projection';
import { ReadersProjection } from '../readers/projections/readers.projection';
import { SmartCardsProjection } from '../attendance/projections/smart-cards.projection';
import { AttendanceSlotsProjection } from '../attendance/projections/attendance-slots.projection';
import { UnknownCardsProjection } from '../attendance/projections/unknown-cards.projection';
import { EventLogProjection } from '../audit/projections/event-log.projection';
import { AccountSsoClaimsProjection } from '../sso-claims/projections/account-sso-claims.projection';
import { ApplicationConsentsProjection } from '../oidc/projections/application-consents.projection';
import type { Projection } from './projection';

/** Every read model of the product, in one list: the API runs them, `npm run replay` rebuilds them. */
export const allProjections = (): Projection[] => [new AccountsProjection(), new SessionsProjection(), new PasswordPoliciesProjection(), new AccessTokensProjection(), new AccountActivationsProjection(), new OrganizationsProjection(), new OrganizationTimeZonesProjection(), new TeamsProjection(), new OrganizationAccessProjection(), new ApplicationsProjection(), new AttendanceStatusesProjection(), new CalendarEventsProjection(), new ReadersProjection(), new SmartCardsProjection(), new AttendanceSlotsProjection(), new UnknownCardsProjection(), new ApplicationConsentsProjection(), new EventLogProjection(), new AccountSsoClaimsProjection()];

export const passwordPoliciesRoute = '/password-policies';

export const toPasswordPolicies = (): string => passwordPoliciesRoute;
